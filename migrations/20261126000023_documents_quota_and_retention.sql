-- Documents and retention: a quota of uploads per application, and abandoned quotes retired.
-- Uploads per application are counted (files and bytes, replaced ones included) against a quota;
-- the row goes with its application.
CREATE TABLE document_uploads (
    application_id  uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
    uploads         integer NOT NULL,
    bytes           bigint NOT NULL
);

-- An abandoned quote anonymized by the retention job (its answers and summary emptied) is not
-- looked at again.
ALTER TABLE applications ADD COLUMN anonymized_at timestamptz;
CREATE INDEX applications_abandoned_idx ON applications (updated_at)
    WHERE submission_time IS NULL AND anonymized_at IS NULL;
