-- Applications: one row per quote/enrollment, keyed by a random UUID. Later migrations add the
-- step answers; this one holds what the app shell needs (last step, skip flags, submission time).
CREATE TABLE applications (
    id                          uuid PRIMARY KEY,
    agent_id                    uuid NOT NULL REFERENCES agents (id),
    last_step                   smallint NOT NULL DEFAULT 1 CHECK (last_step BETWEEN 1 AND 10),
    effective_date              date,
    enrollment_period_type_id   smallint CHECK (enrollment_period_type_id IN (1, 2)),
    medical_carrier_id          smallint CHECK (medical_carrier_id BETWEEN 1 AND 4),
    dental_carrier_id           smallint CHECK (dental_carrier_id BETWEEN 1 AND 4),
    vision_carrier_id           smallint CHECK (vision_carrier_id BETWEEN 1 AND 4),
    medical_network_type_id     smallint CHECK (medical_network_type_id IN (1, 2, 3)),
    skip_medical                boolean NOT NULL DEFAULT false,
    skip_dental                 boolean NOT NULL DEFAULT false,
    skip_vision                 boolean NOT NULL DEFAULT false,
    skip_other                  boolean NOT NULL DEFAULT false,
    skip_pcp                    boolean NOT NULL DEFAULT false,
    submission_time             timestamptz,
    created_at                  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX applications_agent_idx ON applications (agent_id);

-- Server-side sessions. The cookie carries a random 256-bit token; only its SHA-256 is stored, so a
-- leaked table grants no session. Idle expiry is computed from last_seen_at by the server's clock.
CREATE TABLE sessions (
    id_hash         bytea PRIMARY KEY CHECK (octet_length(id_hash) = 32),
    csrf_token      text NOT NULL,
    application_id  uuid REFERENCES applications (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL,
    last_seen_at    timestamptz NOT NULL
);
CREATE INDEX sessions_last_seen_idx ON sessions (last_seen_at);
