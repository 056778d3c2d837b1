-- Versioned rule sets shared by every instance: every published set of the analysts' files (rules/,
-- forms/, templates/) is kept whole, with the engine's hash that applications record in
-- `rules_hash`, so an application can be replayed under the exact set it was saved with. Each
-- publication (a publish or a rollback) is a row; the newest names the set every instance
-- serves. Publishing notifies `enrollflow_rules` so instances switch at once.

CREATE TABLE rule_sets (
    hash        text PRIMARY KEY,            -- sha256 over every file's path and text
    engine_hash text NOT NULL,               -- the engine's hash (applications.rules_hash)
    files       jsonb NOT NULL,              -- [{ "path": "rules/…", "text": "…" }, …]
    author      text NOT NULL,
    note        text,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX rule_sets_engine_hash_idx ON rule_sets (engine_hash);

CREATE TABLE rule_set_publications (
    id           bigserial PRIMARY KEY,
    hash         text NOT NULL REFERENCES rule_sets (hash),
    action       text NOT NULL CHECK (action IN ('publish', 'rollback')),
    author       text NOT NULL,
    published_at timestamptz NOT NULL DEFAULT now()
);
