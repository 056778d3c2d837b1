-- Accounts that notice. A browser that signs in gets a long-lived random device cookie, kept here
-- as its SHA-256 per account: a sign-in from a browser the account has not used before is mailed
-- to its owner.
CREATE TABLE known_devices (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_hash bytea NOT NULL CHECK (octet_length(device_hash) = 32),
    first_seen timestamptz NOT NULL,
    last_seen timestamptz NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);

-- Wrong second-factor codes in a row, how many times the factor was locked for them, and until
-- when it is locked now: each lock lasts twice the one before.
ALTER TABLE users
    ADD COLUMN factor_failures integer NOT NULL DEFAULT 0,
    ADD COLUMN factor_lockouts integer NOT NULL DEFAULT 0,
    ADD COLUMN factor_locked_until timestamptz;

-- A private message's recipient is found by a keyed digest of the address (HMAC under the data
-- key, made by the server) instead of its plain SHA-256, which anyone could match by hashing
-- guessed addresses. The plain hashes are dropped; `enrollflow rotate-key` writes the keyed
-- digest of every private message without one.
UPDATE outbox SET to_hash = NULL WHERE to_hash IS NOT NULL;
