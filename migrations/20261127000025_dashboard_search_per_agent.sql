-- The dashboard's search per agent, at an agency's scale. A search (`ILIKE '%term%'` on "first last"
-- or the e-mail) read migration 15's trigram indexes, which hold every agent's applications: the
-- matches of all agents were fetched and then filtered to the agent, and PostgreSQL intersected
-- them with a bitmap of the agent's whole period from the time index (80–150 ms for an agent with
-- 200,000 submissions, docs/performance.md). btree_gin lets one GIN index hold the agent beside the
-- trigrams, so a search reads only the agent's matches (db::dashboard::push_matches).
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX applications_agent_name_trgm_idx
    ON applications USING gin (agent_id, (list_first_name || ' ' || list_last_name) gin_trgm_ops);
CREATE INDEX applications_agent_email_trgm_idx
    ON applications USING gin (agent_id, list_email gin_trgm_ops);

DROP INDEX applications_list_name_trgm_idx;
DROP INDEX applications_list_email_trgm_idx;
