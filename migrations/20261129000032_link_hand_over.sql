-- A link hands its application over: using it detaches the application from every other session,
-- which needs sessions found by their application. And links are limited per recipient a day as
-- well as per application: the recipient is kept as a keyed digest of the address (the address
-- itself is only in the encrypted mail outbox).
CREATE INDEX sessions_application_idx ON sessions (application_id) WHERE application_id IS NOT NULL;

ALTER TABLE application_links ADD COLUMN recipient_digest bytea
    CHECK (recipient_digest IS NULL OR octet_length(recipient_digest) = 32);
CREATE INDEX application_links_recipient_idx ON application_links (recipient_digest, created_at)
    WHERE recipient_digest IS NOT NULL;
