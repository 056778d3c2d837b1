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
