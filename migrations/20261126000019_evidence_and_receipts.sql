-- Proof of every submission (the evidence packet) and the subscriber's receipt.

-- An uploaded document's SHA-256, taken from the bytes as they were received (rows uploaded
-- before this migration get theirs when their application is purchased).
ALTER TABLE documents ADD COLUMN sha256 bytea CHECK (octet_length(sha256) = 32);

-- The evidence packet of a purchase, written in the purchase's transaction: the packet's JSON
-- byte for byte as it was hashed, and that hash, so any later change to either is detectable
-- (`enrollflow verify-packet FILE`). Built from what was stored and in force at the purchase, so it
-- reads the same under later rules. Its PDF is made afterwards by a background task from the
-- packet alone (`pdf` NULL until then) and kept with its own hash.
CREATE TABLE evidence_packets (
    application_id  uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
    packet          bytea NOT NULL,
    sha256          bytea NOT NULL CHECK (octet_length(sha256) = 32),
    created_at      timestamptz NOT NULL,
    pdf             bytea,
    pdf_sha256      bytea CHECK (octet_length(pdf_sha256) = 32),
    pdf_made_at     timestamptz,
    -- Why the PDF could not be made (it is tried again when asked for).
    pdf_problem     text
);
CREATE INDEX evidence_packets_sha256_idx ON evidence_packets (sha256);
CREATE INDEX evidence_packets_pdf_sha256_idx ON evidence_packets (pdf_sha256)
    WHERE pdf_sha256 IS NOT NULL;
CREATE INDEX evidence_packets_pending_idx ON evidence_packets (created_at) WHERE pdf IS NULL;

-- A private message (a consumer's receipt): its recipient and body are stored encrypted under the
-- data key, so an admin reading the outbox sees neither; `to_hash` (SHA-256 of the lower-case
-- address) lets the operator's `enrollflow mail --to` find it.
ALTER TABLE outbox ADD COLUMN private boolean NOT NULL DEFAULT false;
ALTER TABLE outbox ADD COLUMN to_hash bytea;
CREATE INDEX outbox_to_hash_idx ON outbox (to_hash) WHERE to_hash IS NOT NULL;
