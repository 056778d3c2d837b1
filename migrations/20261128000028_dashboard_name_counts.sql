-- Deep pages by name at an agency's scale. A page of a list sorted by name
-- skipped its offset's entries in the name index: 55 ms for a page near the middle of 800,000
-- quotes (docs/performance.md). The applications are now also counted per agent, list, UTC day
-- and name bucket (the last name's place among the boundaries 'b' to 'z'), kept by triggers like
-- migration 24's per-day counts. A page adds up its period's buckets (the first, partial day's rows
-- counted one by one), finds the bucket it starts in, and walks that bucket only: from its start,
-- or from its end when the page lies in its second half (db::dashboard::page). The lists' other filters (site, started by,
-- products) are not in these counts: a page with one of them walks the index as before.

-- The bucket of a sort name (migration 15's lower-case `sort_last_name`): the greatest boundary
-- not after it, '' before 'b'. The buckets are ranges of the name order in any collation, so a
-- page can walk one by bounds on the name.
CREATE FUNCTION application_name_bucket(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(max(b), '')
    FROM unnest('{b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z}'::text[]) AS b
    WHERE b <= name
$$;

CREATE TABLE application_name_counts (
    agent_id  uuid NOT NULL,
    -- The list: quotes (false) by the day they were created, submissions (true) by the day they
    -- were submitted.
    submitted boolean NOT NULL,
    day       date NOT NULL,
    bucket    text NOT NULL,
    n         bigint NOT NULL,
    PRIMARY KEY (agent_id, submitted, day, bucket)
);

-- What an application is counted under.
CREATE TYPE application_name_key AS (agent_id uuid, submitted boolean, day date, bucket text);

CREATE FUNCTION application_name_key(a applications) RETURNS application_name_key
LANGUAGE sql STABLE AS $$
    SELECT a.agent_id, a.submission_time IS NOT NULL,
           (COALESCE(a.submission_time, a.created_at) AT TIME ZONE 'UTC')::date,
           application_name_bucket(a.sort_last_name)
$$;

-- Adds `delta` to the count of key `k`.
CREATE FUNCTION application_name_count_add(k application_name_key, delta bigint) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO application_name_counts AS c (agent_id, submitted, day, bucket, n)
    VALUES (k.agent_id, k.submitted, k.day, k.bucket, delta)
    ON CONFLICT (agent_id, submitted, day, bucket) DO UPDATE SET n = c.n + EXCLUDED.n
$$;

CREATE FUNCTION application_name_counts_keep() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    old_key application_name_key;
    new_key application_name_key;
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM application_name_count_add(application_name_key(NEW), 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM application_name_count_add(application_name_key(OLD), -1);
    ELSE
        old_key := application_name_key(OLD);
        new_key := application_name_key(NEW);
        -- A new last name in the same bucket moves nothing. Otherwise the two counts in the
        -- order of their keys, so that two saves moving applications between the same two
        -- counts cannot wait for each other.
        IF old_key IS DISTINCT FROM new_key THEN
            IF old_key <= new_key THEN
                PERFORM application_name_count_add(old_key, -1);
                PERFORM application_name_count_add(new_key, 1);
            ELSE
                PERFORM application_name_count_add(new_key, 1);
                PERFORM application_name_count_add(old_key, -1);
            END IF;
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER applications_name_counts_insert AFTER INSERT ON applications
    FOR EACH ROW EXECUTE FUNCTION application_name_counts_keep();
CREATE TRIGGER applications_name_counts_delete AFTER DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION application_name_counts_keep();
-- Most saves change none of these: the trigger does not run for them.
CREATE TRIGGER applications_name_counts_update AFTER UPDATE ON applications
    FOR EACH ROW
    WHEN (OLD.agent_id IS DISTINCT FROM NEW.agent_id
          OR OLD.submission_time IS DISTINCT FROM NEW.submission_time
          OR OLD.created_at IS DISTINCT FROM NEW.created_at
          OR OLD.sort_last_name IS DISTINCT FROM NEW.sort_last_name)
    EXECUTE FUNCTION application_name_counts_keep();

INSERT INTO application_name_counts (agent_id, submitted, day, bucket, n)
SELECT (k).agent_id, (k).submitted, (k).day, (k).bucket, count(*)
FROM (SELECT application_name_key(a) AS k FROM applications a) keys
GROUP BY k;
