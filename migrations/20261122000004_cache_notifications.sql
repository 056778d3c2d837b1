-- Cache coherence: every instance keeps sessions, agents and applications in memory (server/src/cache.rs)
-- and evicts what these notifications name, whichever instance or tool made the change.
CREATE FUNCTION enrollflow_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('enrollflow_cache', 's:' || encode(OLD.id_hash, 'hex'));
    RETURN NULL;
END $$;

CREATE FUNCTION enrollflow_notify_application() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('enrollflow_cache', 'a:' || OLD.id::text);
    RETURN NULL;
END $$;

CREATE FUNCTION enrollflow_notify_agents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('enrollflow_cache', 'g:');
    RETURN NULL;
END $$;

-- Activity (last_seen_at) is not announced: no instance decides expiry from its cache.
CREATE TRIGGER sessions_changed AFTER UPDATE OF application_id, csrf_token OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION enrollflow_notify_session();
CREATE TRIGGER applications_changed AFTER UPDATE OR DELETE ON applications
    FOR EACH ROW EXECUTE FUNCTION enrollflow_notify_application();
CREATE TRIGGER agents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agents
    FOR EACH STATEMENT EXECUTE FUNCTION enrollflow_notify_agents();
CREATE TRIGGER agent_subdomains_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON agent_subdomains
    FOR EACH STATEMENT EXECUTE FUNCTION enrollflow_notify_agents();
