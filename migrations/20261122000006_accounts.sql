-- Accounts (spec part 1, 2.5, 4.2, 6 and 7 "Accounts"): agent and admin users, their single-use
-- tokens, the audit trail, failed logins for throttling, the mail outbox, and the session's user.

-- Users. An agent user acts for exactly one agent; an admin may belong to an agent too (that agent's
-- site is the admin's own). The password hash (argon2id PHC string) stays NULL until the invitation
-- is accepted. E-mail addresses are unique whatever their case.
CREATE TABLE users (
    id                  uuid PRIMARY KEY,
    email               text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254 AND email LIKE '%_@_%'),
    first_name          text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 30),
    last_name           text NOT NULL CHECK (char_length(last_name) BETWEEN 1 AND 30),
    role                text NOT NULL CHECK (role IN ('agent', 'admin')),
    agent_id            uuid REFERENCES agents (id),
    password_hash       text CHECK (password_hash LIKE '$argon2id$%'),
    terms_accepted_at   timestamptz,
    created_at          timestamptz NOT NULL,
    CHECK (role <> 'agent' OR agent_id IS NOT NULL)
);
CREATE UNIQUE INDEX users_email_idx ON users (lower(email));
CREATE INDEX users_agent_idx ON users (agent_id);

-- Single-use, expiring tokens for password resets and invitations. The link carries the random
-- token; only its SHA-256 is stored, so the table grants nothing if it leaks.
CREATE TABLE user_tokens (
    token_hash  bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose     text NOT NULL CHECK (purpose IN ('reset_password', 'invitation')),
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);
CREATE INDEX user_tokens_expires_idx ON user_tokens (expires_at);

-- Who did what, when, from where: logins, logouts, password changes and resets, registrations,
-- impersonation. Ids only: never a password, token, e-mail address or name. No foreign keys, so
-- the trail outlives the users it names.
CREATE TABLE audit_log (
    id                  bigserial PRIMARY KEY,
    at                  timestamptz NOT NULL,
    action              text NOT NULL CHECK (action ~ '^[a-z_]{1,40}$'),
    actor_user_id       uuid,
    subject_user_id     uuid,
    address             inet
);
CREATE INDEX audit_log_at_idx ON audit_log (at);
CREATE INDEX audit_log_subject_idx ON audit_log (subject_user_id, at);

-- Failed logins, shared by every instance: the login call counts the recent ones per account and per
-- client address. The account is the SHA-256 of the lower-cased e-mail address typed (known or not,
-- so throttling reveals nothing about which addresses exist). Old rows are swept.
CREATE TABLE login_failures (
    id          bigserial PRIMARY KEY,
    at          timestamptz NOT NULL,
    account_key bytea NOT NULL CHECK (octet_length(account_key) = 32),
    address     inet
);
CREATE INDEX login_failures_account_idx ON login_failures (account_key, at);
CREATE INDEX login_failures_address_idx ON login_failures (address, at);
CREATE INDEX login_failures_at_idx ON login_failures (at);

-- Outgoing mail. Every message is written here first; with SMTP configured a background task
-- sends the due ones and marks them sent (a failure only postpones the next attempt), otherwise
-- the demo shows them on an admin page.
CREATE TABLE outbox (
    id              bigserial PRIMARY KEY,
    to_address      text NOT NULL,
    subject         text NOT NULL,
    body            text NOT NULL,
    created_at      timestamptz NOT NULL,
    sent_at         timestamptz,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL
);
CREATE INDEX outbox_due_idx ON outbox (next_attempt_at) WHERE sent_at IS NULL;

-- The session's user, and the admin behind it while an admin acts as an agent's user. Logging in,
-- impersonating and switching back never update a session in place: they replace it (new token,
-- new CSRF token), so these columns are written only when a session is created.
ALTER TABLE sessions
    ADD COLUMN user_id          uuid REFERENCES users (id) ON DELETE CASCADE,
    ADD COLUMN impersonator_id  uuid REFERENCES users (id) ON DELETE CASCADE;
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_impersonator_idx ON sessions (impersonator_id);

-- Caches hold the session's user too: announce a change of it as well (migration 4).
DROP TRIGGER sessions_changed ON sessions;
CREATE TRIGGER sessions_changed
    AFTER UPDATE OF application_id, csrf_token, user_id, impersonator_id OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION enrollflow_notify_session();
