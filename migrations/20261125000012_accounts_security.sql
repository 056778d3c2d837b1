-- Sessions a person controls: the browser that opened a session (shown in "Signed-in
-- devices"), tombstones of replaced sessions, and accounts an admin can disable.

-- The browser of the session, as its User-Agent said when the session was created (at most 300
-- characters; shown only to the session's own user).
ALTER TABLE sessions ADD COLUMN user_agent text CHECK (char_length(user_agent) <= 300);

-- Sessions replaced by a login, an impersonation or a switch back, or ended by a logout or the
-- timeout, for a short while: a request sent earlier with the old cookie that arrives after the
-- new session was handed out is answered "replaced" (419, the cookie untouched) instead of
-- clearing the new cookie or starting yet another session. Swept after a minute.
CREATE TABLE replaced_sessions (
    id_hash      bytea PRIMARY KEY CHECK (octet_length(id_hash) = 32),
    replaced_at  timestamptz NOT NULL
);
CREATE INDEX replaced_sessions_at_idx ON replaced_sessions (replaced_at);

-- An admin can disable an account: it cannot log in, and its sessions end at once (the session
-- rows are deleted in the same transaction; the triggers tell every instance).
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

-- The outbox keeps no live secret readable: a reset or invitation link's token is stored
-- apart from the body, encrypted under the data key (`secret`, `enc:v1:…`), and put into the body
-- only when the message is handed to the relay. It is dropped once sent, or when the link expires.
ALTER TABLE outbox
    ADD COLUMN secret            text CHECK (secret LIKE 'enc:v1:%'),
    ADD COLUMN secret_expires_at timestamptz,
    ADD CONSTRAINT outbox_secret_expires CHECK (secret IS NULL OR secret_expires_at IS NOT NULL);
CREATE INDEX outbox_secret_expires_idx ON outbox (secret_expires_at) WHERE secret IS NOT NULL;
-- Links written before this migration are live tokens in clear: drop those messages' bodies.
UPDATE outbox SET body = '' WHERE body LIKE '%/token/%';

-- Forgot-password requests waiting for their work: queued here, not in one process's
-- memory, so a restart loses none and every instance shares one queue and one per-address limit.
-- A worker claims a row with a lease, writes the mail (if the address has an account) and deletes
-- the row. The address typed is kept only until then.
CREATE TABLE reset_requests (
    id              bigserial PRIMARY KEY,
    email           text NOT NULL CHECK (char_length(email) <= 254),
    origin          text NOT NULL CHECK (char_length(origin) <= 300),
    address         inet,
    requested_at    timestamptz NOT NULL,
    claimed_until   timestamptz,
    attempts        integer NOT NULL DEFAULT 0
);
CREATE INDEX reset_requests_due_idx ON reset_requests (id) WHERE claimed_until IS NULL;
-- Requests per client address, for the per-address limit (rows of the last hour are kept for it:
-- done requests are deleted, so the count is of the log below).
CREATE TABLE reset_request_log (
    at          timestamptz NOT NULL,
    address     inet NOT NULL
);
CREATE INDEX reset_request_log_idx ON reset_request_log (address, at);
