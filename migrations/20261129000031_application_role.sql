-- The role the server works as. The login that migrates owns the schema; every connection of the
-- server's pool then takes this role (`SET ROLE enrollflow_app`, server/src/db/mod.rs). It reads and
-- writes the application's tables, and of the audit log it may only read and insert: a server that
-- is taken over cannot rewrite or remove the record of what was done through it.

-- Roles belong to the whole PostgreSQL server: another database of the same server may have made it
-- already, or be making it at this moment.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'enrollflow_app') THEN
        CREATE ROLE enrollflow_app NOLOGIN;
    END IF;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN
        NULL;
    WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'the role enrollflow_app is missing and this login may not make it'
            USING HINT = 'As a superuser: CREATE ROLE enrollflow_app NOLOGIN; GRANT enrollflow_app TO '
                || current_user || '; then migrate again.';
END
$$;

-- A login that is no superuser becomes a member, so that it may take the role.
DO $$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
       AND NOT pg_has_role(current_user, 'enrollflow_app', 'MEMBER') THEN
        EXECUTE format('GRANT enrollflow_app TO %I', current_user);
    END IF;
END
$$;

-- The write baseline of the HTTP benchmark (`--bench-routes` only) was made on first use; the
-- server's role makes no tables, so it is made here, empty.
CREATE TABLE IF NOT EXISTS bench_writes (slot int PRIMARY KEY, doc jsonb NOT NULL);

GRANT USAGE ON SCHEMA public TO enrollflow_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO enrollflow_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO enrollflow_app;
-- Tables and sequences later migrations make (by the same owner) are the server's too.
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO enrollflow_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public
    GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO enrollflow_app;

-- The audit log: read and insert only.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM enrollflow_app;
-- The chain's head is written by the chaining trigger alone, which runs as the schema's owner.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON audit_chain_head FROM enrollflow_app;
ALTER FUNCTION audit_chain() SECURITY DEFINER SET search_path = public, pg_temp;
-- The record of which migrations ran is the owner's (read for a backup's row counts).
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON _sqlx_migrations FROM enrollflow_app;
