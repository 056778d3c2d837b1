-- What the server reads of an application is declared in the flow: the flow's
-- `summary:` (rules/flows/enrollment.flow.yaml) is evaluated at each save and stored in `summary`;
-- the dashboard's columns are generated from it, not from step answers. Migration 10's columns
-- read the census and subInfo answers by name; they, and the indexes over them, are rebuilt here
-- over `summary`.

DROP INDEX applications_quotes_name_idx;
DROP INDEX applications_submitted_name_idx;
DROP INDEX applications_list_name_trgm_idx;
DROP INDEX applications_list_email_trgm_idx;

ALTER TABLE applications
    DROP COLUMN list_first_name,
    DROP COLUMN list_last_name,
    DROP COLUMN list_email,
    DROP COLUMN sort_first_name,
    DROP COLUMN sort_last_name,
    ADD COLUMN summary jsonb NOT NULL DEFAULT '{}';

-- The stored applications' summaries, as the flow of this release declares them (the subscriber's
-- answers in Subscriber Information over those of About You; the household of About You). The
-- next save of an application writes it from the flow again.
UPDATE applications SET summary = jsonb_strip_nulls(jsonb_build_object(
    'first_name', coalesce(nullif(btrim(data->'subInfo'->>'sub_first_name'), ''), nullif(btrim(data->'census'->>'sub_first_name'), '')),
    'last_name', coalesce(nullif(btrim(data->'subInfo'->>'sub_last_name'), ''), nullif(btrim(data->'census'->>'sub_last_name'), '')),
    'email', coalesce(nullif(btrim(data->'subInfo'->>'email'), ''), nullif(btrim(data->'census'->>'email'), '')),
    'primary_phone', nullif(btrim(data->'subInfo'->>'primary_phone'), ''),
    'residential_street', nullif(btrim(data->'subInfo'->>'residential_street'), ''),
    'residential_street2', nullif(btrim(data->'subInfo'->>'residential_street2'), ''),
    'residential_city', nullif(btrim(data->'subInfo'->>'residential_city'), ''),
    'residential_state', nullif(btrim(data->'subInfo'->>'residential_state'), ''),
    'residential_zip', coalesce(nullif(btrim(data->'subInfo'->>'residential_zip'), ''), nullif(btrim(data->'census'->>'residential_zip'), '')),
    'billing_provided', coalesce((data->'subInfo'->'billing_provided') = 'true'::jsonb, false),
    'billing_street', CASE WHEN (data->'subInfo'->'billing_provided') = 'true'::jsonb THEN nullif(btrim(data->'subInfo'->>'billing_street'), '') END,
    'billing_street2', CASE WHEN (data->'subInfo'->'billing_provided') = 'true'::jsonb THEN nullif(btrim(data->'subInfo'->>'billing_street2'), '') END,
    'billing_city', CASE WHEN (data->'subInfo'->'billing_provided') = 'true'::jsonb THEN nullif(btrim(data->'subInfo'->>'billing_city'), '') END,
    'billing_state', CASE WHEN (data->'subInfo'->'billing_provided') = 'true'::jsonb THEN nullif(btrim(data->'subInfo'->>'billing_state'), '') END,
    'billing_zip', CASE WHEN (data->'subInfo'->'billing_provided') = 'true'::jsonb THEN nullif(btrim(data->'subInfo'->>'billing_zip'), '') END,
    'dependents', CASE WHEN jsonb_typeof(data->'census'->'dependents') = 'array'
                       THEN jsonb_array_length(data->'census'->'dependents') ELSE 0 END,
    'has_spouse', coalesce(jsonb_typeof(data->'census'->'spouse') = 'object', false)
));

ALTER TABLE applications
    ADD COLUMN list_first_name text GENERATED ALWAYS AS (coalesce(summary->>'first_name', '')) STORED,
    ADD COLUMN list_last_name text GENERATED ALWAYS AS (coalesce(summary->>'last_name', '')) STORED,
    ADD COLUMN list_email text GENERATED ALWAYS AS (coalesce(summary->>'email', '')) STORED,
    ADD COLUMN sort_first_name text GENERATED ALWAYS AS (lower(coalesce(summary->>'first_name', ''))) STORED,
    ADD COLUMN sort_last_name text GENERATED ALWAYS AS (lower(coalesce(summary->>'last_name', ''))) STORED,
    ADD COLUMN dependents smallint GENERATED ALWAYS AS (coalesce((summary->>'dependents')::smallint, 0)) STORED,
    ADD COLUMN has_spouse boolean GENERATED ALWAYS AS (coalesce((summary->>'has_spouse')::boolean, false)) STORED;

CREATE INDEX applications_quotes_name_idx
    ON applications (agent_id, sort_last_name, sort_first_name, id)
    INCLUDE (created_at, subdomain, agent_started, has_medical, has_dental, has_vision)
    WHERE submission_time IS NULL;
CREATE INDEX applications_submitted_name_idx
    ON applications (agent_id, sort_last_name, sort_first_name, id)
    INCLUDE (submission_time, subdomain, has_medical, has_dental, has_vision)
    WHERE submission_time IS NOT NULL;
CREATE INDEX applications_list_name_trgm_idx
    ON applications USING gin ((list_first_name || ' ' || list_last_name) gin_trgm_ops);
CREATE INDEX applications_list_email_trgm_idx
    ON applications USING gin (list_email gin_trgm_ops);

-- Carrier and network ids are the catalog's (rules/catalog/carriers.yaml, lists.yaml): a new
-- carrier or network is a file change, so the columns only require an id.
ALTER TABLE applications
    DROP CONSTRAINT applications_medical_carrier_id_check,
    DROP CONSTRAINT applications_dental_carrier_id_check,
    DROP CONSTRAINT applications_vision_carrier_id_check,
    DROP CONSTRAINT applications_medical_network_type_id_check,
    ADD CONSTRAINT applications_medical_carrier_id_check CHECK (medical_carrier_id > 0),
    ADD CONSTRAINT applications_dental_carrier_id_check CHECK (dental_carrier_id > 0),
    ADD CONSTRAINT applications_vision_carrier_id_check CHECK (vision_carrier_id > 0),
    ADD CONSTRAINT applications_medical_network_type_id_check CHECK (medical_network_type_id > 0);
