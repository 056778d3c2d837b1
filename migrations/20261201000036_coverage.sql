-- Which plans cover a doctor or a drug, from the issuers' machine-readable files in the CMS format
-- (cms-data-index.json, plans.json, providers.json, drugs.json), loaded by `enrollflow
-- import-coverage`. One row per issuer with the date its files are as of (shown to consumers) and
-- the digest of the files last imported (an unchanged issuer is skipped). An issuer's plans carry
-- its network tiers and formulary; removing an issuer's plans removes its networks and drug rows.
-- A provider or a drug is described once whoever lists it (the last import's words win).
CREATE TABLE coverage_issuers (
    issuer_id     text PRIMARY KEY CHECK (issuer_id ~ '^[0-9]{5}$'),
    as_of         date NOT NULL,
    files_digest  text NOT NULL,
    imported_at   timestamptz NOT NULL
);

CREATE TABLE coverage_plans (
    hios_plan_id    text PRIMARY KEY CHECK (hios_plan_id ~ '^[0-9]{5}[A-Z]{2}[0-9]{7}$'),
    issuer_id       text NOT NULL REFERENCES coverage_issuers (issuer_id) ON DELETE CASCADE,
    -- The catalog's plan: the HIOS id's last seven digits (rules/README.md, "Doctors and drugs").
    plan_id         bigint NOT NULL,
    marketing_name  text NOT NULL,
    years           integer[] NOT NULL,
    network_tiers   text[] NOT NULL,
    -- The formulary's tiers: [{drug_tier, mail_order, cost_sharing: [...]}].
    formulary       jsonb NOT NULL
);
CREATE INDEX coverage_plans_plan_idx ON coverage_plans (plan_id);

CREATE TABLE providers (
    npi        text PRIMARY KEY CHECK (npi ~ '^[0-9]{10}$'),
    kind       text NOT NULL CHECK (kind IN ('individual', 'facility', 'group')),
    name       text NOT NULL,
    specialty  text,
    city       text,
    -- What the typeahead matches: the name, the specialty and the city, lower-cased.
    search     text NOT NULL
);
CREATE INDEX providers_search_idx ON providers USING gin (search gin_trgm_ops);

CREATE TABLE provider_networks (
    npi            text NOT NULL REFERENCES providers (npi) ON DELETE CASCADE,
    hios_plan_id   text NOT NULL REFERENCES coverage_plans (hios_plan_id) ON DELETE CASCADE,
    network_tiers  text[] NOT NULL,
    PRIMARY KEY (npi, hios_plan_id)
);
CREATE INDEX provider_networks_plan_idx ON provider_networks (hios_plan_id);

CREATE TABLE drugs (
    rxnorm_id  text PRIMARY KEY CHECK (rxnorm_id ~ '^[0-9]{1,10}$'),
    name       text NOT NULL,
    search     text NOT NULL
);
CREATE INDEX drugs_search_idx ON drugs USING gin (search gin_trgm_ops);

CREATE TABLE drug_coverage (
    rxnorm_id            text NOT NULL REFERENCES drugs (rxnorm_id) ON DELETE CASCADE,
    hios_plan_id         text NOT NULL REFERENCES coverage_plans (hios_plan_id) ON DELETE CASCADE,
    drug_tier            text NOT NULL,
    prior_authorization  boolean NOT NULL,
    step_therapy         boolean NOT NULL,
    quantity_limit       boolean NOT NULL,
    PRIMARY KEY (rxnorm_id, hios_plan_id)
);
CREATE INDEX drug_coverage_plan_idx ON drug_coverage (hios_plan_id);
