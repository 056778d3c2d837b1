-- Migration 27's update trigger decided whether a save changed the application's search row by
-- building that row twice (`application_search_row(OLD)`, `application_search_row(NEW)`) in its
-- WHEN. That function is a SQL function returning a row of thirteen columns, which PostgreSQL
-- cannot inline: each save set up and ran it twice through the SQL-function executor. Measured
-- with pgbench on `make bench-http`'s applications (the save's UPDATE, 32 clients): 785 µs of
-- PostgreSQL's CPU per update with the trigger, 490 µs without it; a third of what PostgreSQL
-- spent on a step save (docs/performance.md). The condition now compares the columns the search
-- row is made of, as the other dashboard triggers do: the same saves run the trigger (any change
-- of those columns changes the row or leaves it equal, and an equal row written again is the same
-- row), and most saves, which change none of them, cost nothing more.
DROP TRIGGER applications_search_update ON applications;
CREATE TRIGGER applications_search_update AFTER UPDATE ON applications
    FOR EACH ROW
    WHEN ((OLD.id, OLD.agent_id, OLD.created_at, OLD.submission_time, OLD.effective_date,
           OLD.subdomain, OLD.agent_started, OLD.has_medical, OLD.has_dental, OLD.has_vision,
           OLD.sort_last_name, OLD.sort_first_name, OLD.list_first_name, OLD.list_last_name,
           OLD.list_email)
          IS DISTINCT FROM
          (NEW.id, NEW.agent_id, NEW.created_at, NEW.submission_time, NEW.effective_date,
           NEW.subdomain, NEW.agent_started, NEW.has_medical, NEW.has_dental, NEW.has_vision,
           NEW.sort_last_name, NEW.sort_first_name, NEW.list_first_name, NEW.list_last_name,
           NEW.list_email))
    EXECUTE FUNCTION application_search_keep();
