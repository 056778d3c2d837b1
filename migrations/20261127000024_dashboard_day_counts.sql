-- The dashboard's list totals at an agency's scale (hundreds of thousands of applications an agent).
-- A list's total was a count of its period's index entries: about 15 ms per 100,000 rows, 120 ms
-- for the 800,000 quotes of a year at an agency's scale. The applications are now also counted
-- per agent, list, UTC day and the values the lists filter on (site, started by, products), kept
-- by a trigger on every insert, delete and change of those values; a total adds up the days after
-- the period's first and counts that first, partial day's rows themselves
-- (server/src/db/dashboard.rs). A search still counts its matches.
CREATE TABLE application_day_counts (
    agent_id        uuid NOT NULL,
    -- The list: quotes (false) by the day they were created, submissions (true) by the day they
    -- were submitted.
    submitted       boolean NOT NULL,
    day             date NOT NULL,
    -- '' for no site.
    subdomain       text NOT NULL,
    agent_started   boolean NOT NULL,
    has_medical     boolean NOT NULL,
    has_dental      boolean NOT NULL,
    has_vision      boolean NOT NULL,
    n               bigint NOT NULL,
    PRIMARY KEY (agent_id, submitted, day, subdomain, agent_started, has_medical, has_dental,
                 has_vision)
);

-- Adds `delta` to the count of one application's key.
CREATE FUNCTION application_day_count_add(a applications, delta bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO application_day_counts AS c
        (agent_id, submitted, day, subdomain, agent_started, has_medical, has_dental, has_vision, n)
    VALUES (a.agent_id, a.submission_time IS NOT NULL,
            (COALESCE(a.submission_time, a.created_at) AT TIME ZONE 'UTC')::date,
            COALESCE(a.subdomain, ''), a.agent_started, a.has_medical, a.has_dental,
            a.has_vision, delta)
    ON CONFLICT (agent_id, submitted, day, subdomain, agent_started, has_medical, has_dental,
                 has_vision)
    DO UPDATE SET n = c.n + EXCLUDED.n
$$;

CREATE FUNCTION application_day_counts_keep() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM application_day_count_add(NEW, 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM application_day_count_add(OLD, -1);
    ELSE
        -- The two counts in the order of their keys whichever way the application moves, so
        -- that two saves moving applications between the same two counts cannot wait for each
        -- other.
        IF (OLD.agent_id, OLD.submission_time IS NOT NULL,
            (COALESCE(OLD.submission_time, OLD.created_at) AT TIME ZONE 'UTC')::date,
            COALESCE(OLD.subdomain, ''), OLD.agent_started, OLD.has_medical, OLD.has_dental,
            OLD.has_vision)
           <= (NEW.agent_id, NEW.submission_time IS NOT NULL,
            (COALESCE(NEW.submission_time, NEW.created_at) AT TIME ZONE 'UTC')::date,
            COALESCE(NEW.subdomain, ''), NEW.agent_started, NEW.has_medical, NEW.has_dental,
            NEW.has_vision) THEN
            PERFORM application_day_count_add(OLD, -1);
            PERFORM application_day_count_add(NEW, 1);
        ELSE
            PERFORM application_day_count_add(NEW, 1);
            PERFORM application_day_count_add(OLD, -1);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER applications_day_counts_insert AFTER INSERT ON applications
    FOR EACH ROW EXECUTE FUNCTION application_day_counts_keep();
CREATE TRIGGER applications_day_counts_delete AFTER DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION application_day_counts_keep();
-- Most saves change none of these: the trigger does not run for them.
CREATE TRIGGER applications_day_counts_update AFTER UPDATE ON applications
    FOR EACH ROW
    WHEN (OLD.agent_id IS DISTINCT FROM NEW.agent_id
          OR OLD.submission_time IS DISTINCT FROM NEW.submission_time
          OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.subdomain IS DISTINCT FROM NEW.subdomain
          OR OLD.agent_started IS DISTINCT FROM NEW.agent_started
          OR OLD.has_medical IS DISTINCT FROM NEW.has_medical
          OR OLD.has_dental IS DISTINCT FROM NEW.has_dental
          OR OLD.has_vision IS DISTINCT FROM NEW.has_vision)
    EXECUTE FUNCTION application_day_counts_keep();

INSERT INTO application_day_counts
    (agent_id, submitted, day, subdomain, agent_started, has_medical, has_dental, has_vision, n)
SELECT agent_id, submission_time IS NOT NULL,
       (COALESCE(submission_time, created_at) AT TIME ZONE 'UTC')::date,
       COALESCE(subdomain, ''), agent_started, has_medical, has_dental, has_vision, count(*)
FROM applications
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
