-- A second factor for agents and admins, and the audit of who looked at whose personal data.

-- TOTP (RFC 6238). Secrets are stored encrypted under the data key, like SSNs. `totp_secret` set:
-- the user has a second factor. `totp_pending_secret`: shown by QR code, not yet confirmed with a
-- code. `totp_last_step`: the newest 30-second step whose code was accepted; a code is accepted
-- once (a replayed or older one is refused).
ALTER TABLE users
    ADD COLUMN totp_secret          text,
    ADD COLUMN totp_pending_secret  text,
    ADD COLUMN totp_enabled_at      timestamptz,
    ADD COLUMN totp_last_step       bigint;

-- Ten single-use recovery codes per user, 120 random bits each: only their SHA-256 is stored.
CREATE TABLE recovery_codes (
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash   bytea NOT NULL CHECK (octet_length(code_hash) = 32),
    created_at  timestamptz NOT NULL,
    used_at     timestamptz,
    PRIMARY KEY (user_id, code_hash)
);

-- A login whose password was right and whose second factor is still to come: the anonymous
-- session that typed the password, and whose password it was. Gone with the session, or after
-- five minutes (the code step refuses older ones; the sweeper deletes them).
CREATE TABLE login_challenges (
    session_hash  bytea PRIMARY KEY REFERENCES sessions (id_hash) ON DELETE CASCADE,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL
);

-- When the session's person last proved their second factor (at login, or again on request):
-- impersonating an agent needs it within the last 15 minutes.
ALTER TABLE sessions ADD COLUMN second_factor_at timestamptz;

-- Settings an admin changes in the dashboard: one row.
CREATE TABLE security_settings (
    id                        boolean PRIMARY KEY DEFAULT true CHECK (id),
    second_factor_for_agents  boolean NOT NULL DEFAULT false,
    updated_at                timestamptz,
    updated_by                uuid
);
INSERT INTO security_settings DEFAULT VALUES;

-- Admins must prove a second factor from now on: sessions from before (admins', and admins acting
-- as agents) end.
DELETE FROM sessions
WHERE impersonator_id IS NOT NULL
   OR user_id IN (SELECT id FROM users WHERE role = 'admin');

-- The audit trail also records views of people's data, exports, PDFs, admins' actions while
-- acting as an agent and refused authorizations: which application (if one), what exactly (a
-- route template or an export's name; never a value from the request) and the request id that
-- ties the row to the access log.
ALTER TABLE audit_log
    ADD COLUMN application_id  uuid,
    ADD COLUMN detail          text CHECK (char_length(detail) <= 200),
    ADD COLUMN request_id      text CHECK (char_length(request_id) <= 100),
    DROP CONSTRAINT audit_log_action_check,
    ADD CONSTRAINT audit_log_action_check CHECK (action ~ '^[a-z_]{1,40}$');
CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, at);
CREATE INDEX audit_log_action_idx ON audit_log (action, at);
CREATE INDEX audit_log_application_idx ON audit_log (application_id, at) WHERE application_id IS NOT NULL;
