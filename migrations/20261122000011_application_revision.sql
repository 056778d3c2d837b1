-- Applications carry a revision, bumped by every save the server makes. It lets the caches
-- (server/src/cache.rs) tell newer from older copies, and lets a browser name the revision it
-- last wrote (the `ef_rev` cookie), so any instance behind a round-robin balancer reads it.
--
-- Notifications in the saving transaction serialize every commit behind one lock (PostgreSQL
-- holds its notify lock through the WAL flush), which capped saves at about one per fsync. The
-- server now announces its own saves after they commit (`a:{id}:{revision}`, sent in batches off
-- the request path); the trigger stays for everything else: any UPDATE that does not bump the
-- revision (a tool, psql, a migration) and every DELETE is announced in its own transaction.
ALTER TABLE applications ADD COLUMN revision bigint NOT NULL DEFAULT 0;

DROP TRIGGER applications_changed ON applications;
CREATE TRIGGER applications_changed AFTER UPDATE ON applications
    FOR EACH ROW WHEN (NEW.revision = OLD.revision)
    EXECUTE FUNCTION enrollflow_notify_application();
CREATE TRIGGER applications_deleted AFTER DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION enrollflow_notify_application();
