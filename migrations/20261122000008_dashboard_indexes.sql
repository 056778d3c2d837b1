-- The agent dashboard's Quoting and Submissions lists (spec part 2, sections 2 and 4): each list
-- reads one agent's applications within a period, newest first by default. Partial indexes split
-- quotes (not submitted, by created date) from submissions (by submission time), so a list page
-- and its count read only the agent's rows of the period; with the id (the lists' tie-break) a
-- page in the default time order comes straight from the index, in either direction. Search (a
-- substring of name or e-mail) and the name sort run over the period's rows; no index of their own.
CREATE INDEX applications_agent_submitted_idx
    ON applications (agent_id, submission_time, id)
    WHERE submission_time IS NOT NULL;
CREATE INDEX applications_agent_quotes_idx
    ON applications (agent_id, created_at, id)
    WHERE submission_time IS NULL;
