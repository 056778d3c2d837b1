-- An agent's carrier flags as data, not columns: `offers` holds the names of the catalog's
-- `agent_flag`s that are on for the agent (rules/catalog/carriers.yaml; today `display_bcbsm` for
-- the Blue carriers and United, `display_ph` for Priority Health), so a new carrier with a new flag
-- needs no column. The spec's branding API still shows `display_bcbsm` and `display_ph`, read from
-- this set.
ALTER TABLE agents ADD COLUMN offers text[] NOT NULL DEFAULT '{}';

UPDATE agents
SET offers = array_remove(ARRAY[
        CASE WHEN display_bcbsm THEN 'display_bcbsm' END,
        CASE WHEN display_ph THEN 'display_ph' END
    ], NULL);

ALTER TABLE agents DROP COLUMN display_bcbsm, DROP COLUMN display_ph;

-- The last step reached is a step number of the flow (rules/flows/enrollment.flow.yaml), not one
-- of ten: a step added to the flow needs no migration. Step numbers are 1 to 255 (the engine's u8).
ALTER TABLE applications DROP CONSTRAINT applications_last_step_check;
ALTER TABLE applications ADD CONSTRAINT applications_last_step_check CHECK (last_step BETWEEN 1 AND 255);
