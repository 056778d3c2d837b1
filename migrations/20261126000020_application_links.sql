-- Links that open an application in another browser: "Save and finish later" (a
-- consumer's own resume link) and, later, an agent's hand-off to the customer. Only the token's
-- SHA-256 is kept; the link works once, until `expires_at`, and only on a site of the agent the
-- application belongs to. A newer link of the same purpose replaces the older ones (`revoked_at`).
CREATE TABLE application_links (
    token_hash      bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    application_id  uuid NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    purpose         text NOT NULL CHECK (purpose IN ('resume', 'handoff')),
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    used_at         timestamptz,
    revoked_at      timestamptz
);
CREATE INDEX application_links_application_idx ON application_links (application_id, created_at);
