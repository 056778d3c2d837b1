-- The agent dashboard's lists at 100,000 applications an agent (the target: a page under 50 ms at
-- p95; docs/performance.md, "Dashboard"). Migration 8's indexes served the default time order
-- only: the name sort, the effective-date sort and the search read and sorted every document of
-- the period (1.5 s for 100,000 quotes).
--
-- 1. The document fields the lists filter and sort on become stored generated columns, computed
--    on every write from `data` exactly as server/src/db/dashboard.rs read them before: the
--    subscriber's names and e-mail (Subscriber Information over the census), their lower-case
--    sort keys, and whether a medical, dental or vision plan is chosen.
-- 2. Per list (quotes: not submitted, by created_at; submissions: by submission_time), one partial
--    index per sort order, each ending in the id (the lists' tie-break) and carrying the filter
--    columns (period, site, started-by, products), so a page's ids come from an index-only scan
--    in order, whatever the filters, and only the page's rows are read from the table.
-- 3. Trigram indexes (pg_trgm) for the name and e-mail search (ILIKE '%term%').

CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE applications
    ADD COLUMN list_first_name text GENERATED ALWAYS AS (
        coalesce(nullif(data->'subInfo'->>'sub_first_name', ''), data->'census'->>'sub_first_name', '')) STORED,
    ADD COLUMN list_last_name text GENERATED ALWAYS AS (
        coalesce(nullif(data->'subInfo'->>'sub_last_name', ''), data->'census'->>'sub_last_name', '')) STORED,
    ADD COLUMN list_email text GENERATED ALWAYS AS (
        coalesce(nullif(data->'subInfo'->>'email', ''), data->'census'->>'email', '')) STORED,
    ADD COLUMN sort_first_name text GENERATED ALWAYS AS (lower(
        coalesce(nullif(data->'subInfo'->>'sub_first_name', ''), data->'census'->>'sub_first_name', ''))) STORED,
    ADD COLUMN sort_last_name text GENERATED ALWAYS AS (lower(
        coalesce(nullif(data->'subInfo'->>'sub_last_name', ''), data->'census'->>'sub_last_name', ''))) STORED,
    ADD COLUMN has_medical boolean GENERATED ALWAYS AS ((data->'medical_plan'->>'id') IS NOT NULL) STORED,
    ADD COLUMN has_dental boolean GENERATED ALWAYS AS ((data->'dental_plan'->>'id') IS NOT NULL) STORED,
    ADD COLUMN has_vision boolean GENERATED ALWAYS AS ((data->'vision_plan'->>'id') IS NOT NULL) STORED;

-- Quotes (not submitted; the period counts from created_at).
DROP INDEX applications_agent_quotes_idx;
CREATE INDEX applications_quotes_created_idx
    ON applications (agent_id, created_at, id)
    INCLUDE (subdomain, agent_started, has_medical, has_dental, has_vision)
    WHERE submission_time IS NULL;
CREATE INDEX applications_quotes_name_idx
    ON applications (agent_id, sort_last_name, sort_first_name, id)
    INCLUDE (created_at, subdomain, agent_started, has_medical, has_dental, has_vision)
    WHERE submission_time IS NULL;
-- Effective date first to last, and last to first, dates before no date both ways (NULLS LAST).
CREATE INDEX applications_quotes_effective_idx
    ON applications (agent_id, effective_date, id)
    INCLUDE (created_at, subdomain, agent_started, has_medical, has_dental, has_vision)
    WHERE submission_time IS NULL;
CREATE INDEX applications_quotes_effective_desc_idx
    ON applications (agent_id, effective_date DESC NULLS LAST, id DESC)
    INCLUDE (created_at, subdomain, agent_started, has_medical, has_dental, has_vision)
    WHERE submission_time IS NULL;

-- Submissions (the period counts from submission_time).
DROP INDEX applications_agent_submitted_idx;
CREATE INDEX applications_submitted_time_idx
    ON applications (agent_id, submission_time, id)
    INCLUDE (subdomain, has_medical, has_dental, has_vision, medical_carrier_id)
    WHERE submission_time IS NOT NULL;
CREATE INDEX applications_submitted_name_idx
    ON applications (agent_id, sort_last_name, sort_first_name, id)
    INCLUDE (submission_time, subdomain, has_medical, has_dental, has_vision)
    WHERE submission_time IS NOT NULL;
CREATE INDEX applications_submitted_effective_idx
    ON applications (agent_id, effective_date, id)
    INCLUDE (submission_time, subdomain, has_medical, has_dental, has_vision)
    WHERE submission_time IS NOT NULL;
CREATE INDEX applications_submitted_effective_desc_idx
    ON applications (agent_id, effective_date DESC NULLS LAST, id DESC)
    INCLUDE (submission_time, subdomain, has_medical, has_dental, has_vision)
    WHERE submission_time IS NOT NULL;

-- Search: a substring of "first last" or of the e-mail address, any case.
CREATE INDEX applications_list_name_trgm_idx
    ON applications USING gin ((list_first_name || ' ' || list_last_name) gin_trgm_ops);
CREATE INDEX applications_list_email_trgm_idx
    ON applications USING gin (list_email gin_trgm_ops);
