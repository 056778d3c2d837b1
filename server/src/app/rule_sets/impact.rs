//! The impact of a draft against the set serving: the scenario suites, made-up households with
//! their values, and the most recently saved applications counted only (no answer, nor any value
//! a rule computed from one, leaves the server). One impact runs at a time on an instance; the
//! work is done in the draft worker, within the impact budget.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use time::Date;

use super::draft::Draft;
use super::{Handles, RuleSetError};
use crate::db::audit::Action;
use crate::rules;
use crate::rules::governance::{self, Actor};
use crate::rules::impact::Report;
use enrollflow_engine::Source;

/// How many of the most recently saved applications an impact replays.
pub const IMPACT_APPLICATIONS: i64 = 200;
/// How many made-up households an impact walks, unless the draft asks for another number.
pub const IMPACT_HOUSEHOLDS: usize = 1_000;
pub const MAX_HOUSEHOLDS: usize = 5_000;

/// What an impact of a draft is worked out from, gathered on the request (the database, the
/// files) before the work goes to the draft thread; it holds this instance's impact turn until
/// it is dropped, even when the analyst stops waiting.
pub struct ImpactRun {
    _turn: crate::rules::drafts::ImpactTurn,
    stored: Vec<crate::rules::impact::Stored>,
    pub suites: Vec<Source>,
    pub base: Arc<rules::Bundle>,
    mix: crate::demo_data::Mix,
    households: usize,
    today: Date,
    budget: crate::rules::budget::Budget,
}

impl ImpactRun {
    /// Takes the instance's impact turn (refused as busy when one runs) and reads what the run
    /// needs: the suites under `root`, and `budget` to work it out in.
    pub async fn prepare(
        h: &Handles<'_>,
        root: &Path,
        budget: Duration,
        draft: &Draft,
    ) -> Result<Self, RuleSetError> {
        let turn = h.drafts.impact_turn()?;
        let suites = draft.suites(root)?;
        let today = draft.day(h.now.date())?;
        let stored = crate::rules::impact::recent_applications(h.pool, IMPACT_APPLICATIONS).await?;
        let base = h.rules.current();
        let mix = crate::rules::impact::book_mix(h.pool, base.engine.catalog()).await?;
        Ok(ImpactRun {
            _turn: turn,
            stored,
            suites,
            base,
            mix,
            households: draft
                .households
                .unwrap_or(IMPACT_HOUSEHOLDS)
                .min(MAX_HOUSEHOLDS),
            today,
            budget: crate::rules::budget::Budget::new(budget),
        })
    }

    /// The impact of `draft` against the serving set, worked out in the draft worker; its
    /// problems otherwise (a draft that does not load, or one past the budget). The instance's
    /// impact turn is held until it answers.
    pub async fn compare(
        mut self,
        h: &Handles<'_>,
        draft: Vec<Source>,
    ) -> Result<Report, RuleSetError> {
        let job = crate::rules::draft_worker::Job {
            base: self.base.files.clone(),
            draft,
            suites: std::mem::take(&mut self.suites),
            stored: std::mem::take(&mut self.stored),
            mix: std::mem::take(&mut self.mix),
            households: self.households,
            today: self.today.to_string(),
            budget_ms: u64::try_from(self.budget.remaining().as_millis()).unwrap_or(u64::MAX),
            budget_of_secs: self.budget.of().as_secs(),
        };
        let answer = h.drafts.impact(job).await;
        drop(self);
        answer?.map_err(RuleSetError::files)
    }
}

/// Works out the impact of `draft` and audits that it was run (by `actor`).
pub async fn impact(
    h: &Handles<'_>,
    root: &Path,
    budget: Duration,
    draft: &Draft,
    actor: &Actor,
) -> Result<Report, RuleSetError> {
    let files = draft.files(root)?;
    let run = ImpactRun::prepare(h, root, budget, draft).await?;
    let report = run.compare(h, files).await?;
    let detail = format!(
        "draft={} base={}",
        governance::short(&report.against),
        governance::short(&report.base)
    );
    governance::record(h.pool, actor, Action::RulesImpactRun, detail, h.now).await?;
    Ok(report)
}
