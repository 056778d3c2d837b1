-- Key rotation: `enrollflow rotate-key` re-encrypts every stored secret under
-- the current data key in batches, and keeps its place here, so a rotation stopped half-way
-- (a crash, a deploy) resumes after the last application it finished.
CREATE TABLE key_rotations (
    key_id            text PRIMARY KEY,
    last_application  uuid,
    rotated           bigint NOT NULL DEFAULT 0,
    started_at        timestamptz NOT NULL DEFAULT now(),
    finished_at       timestamptz
);

-- Values now carry their key's id (`enc:v2:<key id>:…`); older ones (`enc:v1:…`) stay readable.
ALTER TABLE outbox DROP CONSTRAINT outbox_secret_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_secret_check CHECK (secret LIKE 'enc:v1:%' OR secret LIKE 'enc:v2:%');
