-- The dashboard's search in a table of its own (issue 19, item 5). A search (`'%term%'` on
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

CREATE FUNCTION application_search_keep() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM application_search WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO application_search AS s
        (id, agent_id, created_at, submission_time, effective_date, subdomain, agent_started,
         has_medical, has_dental, has_vision, sort_last_name, sort_first_name, terms)
    VALUES (NEW.id, NEW.agent_id, NEW.created_at, NEW.submission_time, NEW.effective_date,
            NEW.subdomain, NEW.agent_started, NEW.has_medical, NEW.has_dental, NEW.has_vision,
            NEW.sort_last_name, NEW.sort_first_name,
            lower(NEW.list_first_name || ' ' || NEW.list_last_name) || E'\n' || lower(NEW.list_email))
    ON CONFLICT (id) DO UPDATE SET
        agent_id = EXCLUDED.agent_id, created_at = EXCLUDED.created_at,
        submission_time = EXCLUDED.submission_time, effective_date = EXCLUDED.effective_date,
        subdomain = EXCLUDED.subdomain, agent_started = EXCLUDED.agent_started,
        has_medical = EXCLUDED.has_medical, has_dental = EXCLUDED.has_dental,
        has_vision = EXCLUDED.has_vision, sort_last_name = EXCLUDED.sort_last_name,
        sort_first_name = EXCLUDED.sort_first_name, terms = EXCLUDED.terms;
    RETURN NULL;
END
$$;

CREATE TRIGGER applications_search_insert AFTER INSERT ON applications
    FOR EACH ROW EXECUTE FUNCTION application_search_keep();
CREATE TRIGGER applications_search_delete AFTER DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION application_search_keep();
CREATE TRIGGER applications_search_update AFTER UPDATE ON applications
    FOR EACH ROW
    WHEN (OLD.agent_id IS DISTINCT FROM NEW.agent_id
          OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.submission_time IS DISTINCT FROM NEW.submission_time
          OR OLD.effective_date IS DISTINCT FROM NEW.effective_date
          OR OLD.subdomain IS DISTINCT FROM NEW.subdomain
          OR OLD.agent_started IS DISTINCT FROM NEW.agent_started
          OR OLD.has_medical IS DISTINCT FROM NEW.has_medical
          OR OLD.has_dental IS DISTINCT FROM NEW.has_dental
          OR OLD.has_vision IS DISTINCT FROM NEW.has_vision
          OR OLD.list_first_name IS DISTINCT FROM NEW.list_first_name
          OR OLD.list_last_name IS DISTINCT FROM NEW.list_last_name
          OR OLD.list_email IS DISTINCT FROM NEW.list_email)
    EXECUTE FUNCTION application_search_keep();

INSERT INTO application_search
    (id, agent_id, created_at, submission_time, effective_date, subdomain, agent_started,
     has_medical, has_dental, has_vision, sort_last_name, sort_first_name, terms)
SELECT id, agent_id, created_at, submission_time, effective_date, subdomain, agent_started,
       has_medical, has_dental, has_vision, sort_last_name, sort_first_name,
       lower(list_first_name || ' ' || list_last_name) || E'\n' || lower(list_email)
FROM applications;

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
