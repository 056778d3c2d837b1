-- Each customer's renewal into the next plan year, as the engine worked it out from their
-- submitted application (Engine::renew): the status the agents' worklist sorts by, the monthly
-- premiums before and after, and the renewal whole (plans, successors, alternatives, each
-- member's premium; no name, no answer). `engine_hash` is the rule set it was worked out under:
-- a row of another set is worked out again before it is shown. `reenrolled_application_id` is the
-- new year's application the customer started from the renewal link.
CREATE TABLE renewals (
    application_id             uuid PRIMARY KEY REFERENCES applications (id) ON DELETE CASCADE,
    agent_id                   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    plan_year                  integer NOT NULL,
    engine_hash                text NOT NULL,
    status                     text NOT NULL CHECK (status IN ('carrier_change', 'no_successor',
                                   'plan_change', 'member_aging_off', 'premium_change', 'same_plan')),
    risk                       smallint NOT NULL,
    current_cents              bigint NOT NULL,
    next_cents                 bigint NOT NULL,
    change_percent             double precision NOT NULL,
    renewal                    jsonb NOT NULL,
    worked_out_at              timestamptz NOT NULL,
    reenrolled_application_id  uuid REFERENCES applications (id) ON DELETE SET NULL
);
-- The worklist's order: riskiest first, then the largest change.
CREATE INDEX renewals_worklist_idx
    ON renewals (agent_id, plan_year, risk, (abs(change_percent)) DESC);
CREATE UNIQUE INDEX renewals_reenrolled_idx ON renewals (reenrolled_application_id)
    WHERE reenrolled_application_id IS NOT NULL;

-- The renewal link: sent on the submitted application it renews.
ALTER TABLE application_links DROP CONSTRAINT application_links_purpose_check;
ALTER TABLE application_links ADD CONSTRAINT application_links_purpose_check
    CHECK (purpose IN ('resume', 'handoff', 'renewal'));
