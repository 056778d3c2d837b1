-- The dashboard's search in a table of its own, at an agency's scale. A search (`'%term%'` on
-- "first last" or the e-mail) found its candidates in migration 25's trigram indexes, then read
-- each candidate's row of `applications` to check it and to read the columns the lists filter and
-- sort on: for `smith` at an agency's scale, 14,424 rows of a 2.5 GB table, each on its own page,
-- 50–70 ms (docs/performance.md). `application_search` holds only what a search reads, one row
-- per application (about 130 bytes against a few kilobytes), kept by triggers on every insert,
-- delete and change of those columns (most saves change none: the trigger does not run for them).
-- The names and the e-mail are one lower-case text, `terms`, so a search is one trigram index
-- and one LIKE per candidate (the name and the e-mail are separated by a line break, which a
-- search term never holds: db::dashboard::pattern).
CREATE TABLE application_search (
    id              uuid PRIMARY KEY,
    agent_id        uuid NOT NULL,
    created_at      timestamptz NOT NULL,
    submission_time timestamptz,
    effective_date  date,
    subdomain       text,
    agent_started   boolean NOT NULL,
    has_medical     boolean NOT NULL,
    has_dental      boolean NOT NULL,
    has_vision      boolean NOT NULL,
    sort_last_name  text NOT NULL,
    sort_first_name text NOT NULL,
    -- lower("first last") || E'\n' || lower(e-mail)
    terms           text NOT NULL
);

-- An application's row of the search table.
CREATE FUNCTION application_search_row(a applications) RETURNS application_search
LANGUAGE sql STABLE AS $$
    SELECT a.id, a.agent_id, a.created_at, a.submission_time, a.effective_date, a.subdomain,
           a.agent_started, a.has_medical, a.has_dental, a.has_vision, a.sort_last_name,
           a.sort_first_name,
           lower(a.list_first_name || ' ' || a.list_last_name) || E'\n' || lower(a.list_email)
$$;

-- A changed application's row is written again whole (its names and e-mail change at a few
-- steps; the other columns rarely).
CREATE FUNCTION application_search_keep() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM application_search WHERE id = OLD.id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO application_search SELECT * FROM application_search_row(NEW);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER applications_search_insert AFTER INSERT ON applications
    FOR EACH ROW EXECUTE FUNCTION application_search_keep();
CREATE TRIGGER applications_search_delete AFTER DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION application_search_keep();
-- Most saves change none of the row: the trigger does not run for them.
CREATE TRIGGER applications_search_update AFTER UPDATE ON applications
    FOR EACH ROW
    WHEN (application_search_row(OLD) IS DISTINCT FROM application_search_row(NEW))
    EXECUTE FUNCTION application_search_keep();

INSERT INTO application_search SELECT r.* FROM applications a, application_search_row(a) r;

-- One trigram index per list, so that a search of the submissions never checks the quotes'
-- candidates, nor the other way round (for `smith` at an agency's scale: 2,790 candidates for the
-- submissions instead of 14,424). Every agent's rows are in them: a btree_gin index with the agent
-- beside the trigrams (migration 25) took twice the time for an agent with most of the rows, and
-- the table is narrow enough that another agent's candidates cost little to check.
CREATE INDEX application_search_quotes_trgm_idx ON application_search
    USING gin (terms gin_trgm_ops) WHERE submission_time IS NULL;
CREATE INDEX application_search_submitted_trgm_idx ON application_search
    USING gin (terms gin_trgm_ops) WHERE submission_time IS NOT NULL;

DROP INDEX applications_agent_name_trgm_idx;
DROP INDEX applications_agent_email_trgm_idx;
