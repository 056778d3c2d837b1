-- The application's whole state as the rules engine sees it: each step's answers under the step id
-- and the derived flags (skip flags, carriers, effective date, last step). Sensitive answers (SSNs)
-- are stored encrypted (`enc:v1:…`). The typed columns of applications mirror the flags for queries
-- and are written from this document on every save.
ALTER TABLE applications
    ADD COLUMN data        jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- digest of the rule bundle that served the last save
    ADD COLUMN rules_hash  text,
    ADD COLUMN updated_at  timestamptz NOT NULL DEFAULT now();
