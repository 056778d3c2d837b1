-- Agent-assisted applications (spec part 1, 6): an application started by a logged-in agent on
-- their own site is marked and names the user who started it.
ALTER TABLE applications
    ADD COLUMN agent_started boolean NOT NULL DEFAULT false,
    ADD COLUMN started_by_user_id uuid REFERENCES users (id) ON DELETE SET NULL;
