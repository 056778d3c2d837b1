-- Analysts change the product under control: a draft is proposed (its files, a note, its diff
-- against what serves and the evidence: impact counts, the suites' result, the coverage), another
-- person approves or rejects it, and an approved set takes effect at once or from a date. The audit
-- log is a chain each row of which carries the hash of the one before, and nobody updates or
-- deletes it.

-- Who may approve analysts' proposals besides admins.
ALTER TABLE users ADD COLUMN approves_rules boolean NOT NULL DEFAULT false;

CREATE TABLE rule_proposals (
    id           bigserial PRIMARY KEY,
    hash         text NOT NULL,                -- the proposed set's hash over every file
    engine_hash  text NOT NULL,
    base_hash    text NOT NULL,                -- the set serving when it was proposed
    files        jsonb NOT NULL,               -- [{ "path", "text" }, …]
    suites       jsonb NOT NULL,               -- the scenario suites it was checked with, changed ones only
    note         text NOT NULL CHECK (char_length(note) <= 2000),
    diff_hash    text NOT NULL,                -- sha256 of the diff against the base
    evidence     jsonb NOT NULL,               -- impact counts, suites, coverage (no answer of anyone's)
    author_id    uuid NOT NULL,
    state        text NOT NULL CHECK (state IN ('proposed', 'approved', 'rejected', 'withdrawn')),
    decided_by   uuid,
    decided_at   timestamptz,
    reason       text CHECK (char_length(reason) <= 2000),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE INDEX rule_proposals_state_idx ON rule_proposals (state, id);

-- A publication takes effect at `effective_at` (now, or a date an approver chose) unless it is
-- cancelled first; the one serving is the newest that took effect.
ALTER TABLE rule_set_publications
    ADD COLUMN effective_at  timestamptz,
    ADD COLUMN cancelled_at  timestamptz,
    ADD COLUMN proposal_id   bigint REFERENCES rule_proposals (id),
    ADD COLUMN approver      text;
-- Publications made before took effect when they were made: dated at the epoch, in their order,
-- so that a server whose clock is set to any day (a demonstration's) sees them in effect.
UPDATE rule_set_publications SET effective_at = timestamptz 'epoch' + id * interval '1 microsecond';
ALTER TABLE rule_set_publications ALTER COLUMN effective_at SET NOT NULL;
CREATE INDEX rule_set_publications_effective_idx ON rule_set_publications (effective_at, id)
    WHERE cancelled_at IS NULL;

-- The audit chain. `row_hash` = sha256(previous row's hash ‖ this row's fields); the first row's
-- previous hash is empty. Rows are chained in insertion order under a lock on the chain's head,
-- so two inserts cannot take the same predecessor. A row given its hashes (a restore) keeps them.
ALTER TABLE audit_log
    ADD COLUMN client_request_id text CHECK (char_length(client_request_id) <= 100),
    ADD COLUMN prev_hash bytea,
    ADD COLUMN row_hash  bytea;

CREATE TABLE audit_chain_head (
    one       boolean PRIMARY KEY DEFAULT true CHECK (one),
    last_id   bigint,
    last_hash bytea NOT NULL
);

-- The text a row's hash is made of: every field, in a fixed order, each as text or empty.
CREATE FUNCTION audit_row_text(r audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT concat_ws(E'\x1f',
        r.id::text, to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), r.action,
        coalesce(r.actor_user_id::text, ''), coalesce(r.subject_user_id::text, ''),
        coalesce(host(r.address), ''), coalesce(r.application_id::text, ''),
        coalesce(r.detail, ''), coalesce(r.request_id, ''), coalesce(r.client_request_id, ''))
$$;

CREATE FUNCTION audit_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    head audit_chain_head;
BEGIN
    IF NEW.row_hash IS NOT NULL THEN
        RETURN NEW;
    END IF;
    SELECT * INTO head FROM audit_chain_head FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO audit_chain_head (last_id, last_hash) VALUES (NULL, ''::bytea);
        SELECT * INTO head FROM audit_chain_head FOR UPDATE;
    END IF;
    NEW.prev_hash := head.last_hash;
    NEW.row_hash := sha256(head.last_hash || convert_to(audit_row_text(NEW), 'UTF8'));
    UPDATE audit_chain_head SET last_id = NEW.id, last_hash = NEW.row_hash;
    RETURN NEW;
END
$$;

CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_chain();

-- Rows written before the chain: chained once, in id order.
DO $$
DECLARE
    r audit_log;
    h bytea := ''::bytea;
    last bigint;
BEGIN
    FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
        UPDATE audit_log SET prev_hash = h,
                             row_hash = sha256(h || convert_to(audit_row_text(r), 'UTF8'))
            WHERE id = r.id RETURNING row_hash INTO h;
        last := r.id;
    END LOOP;
    INSERT INTO audit_chain_head (last_id, last_hash) VALUES (last, h);
END
$$;

-- Nobody changes or removes an audit row: the application inserts and reads only.
CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: % is refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM PUBLIC;
