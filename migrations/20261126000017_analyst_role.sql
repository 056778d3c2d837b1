-- The analysts' role: business analysts and testers open the rules workbench
-- (/dashboard/rules: the serving set, diagnostics, coverage, impact, publish and rollback) and
-- nothing else: no agent's customers, no admin pages. Like admins they prove a second factor
-- (server/src/db/users.rs). An analyst belongs to no agent.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('agent', 'admin', 'analyst'));
