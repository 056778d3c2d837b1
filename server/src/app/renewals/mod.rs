//! Renewals: each customer's next plan year worked out by the rules, and the agent's worklist.
//!
//! - The renewal season (`season`): the first plan year of `rules/calendar.yaml` whose open
//!   enrollment has not ended and whose catalog holds a crosswalk; its customers are the
//!   submitted applications taking effect in the crosswalk's previous year.
//! - `refresh` works out (`Engine::renew`) the renewal of each of an agent's customers that has
//!   none yet, or one worked out under another rule set, and stores it (`db::renewals`) with the
//!   engine's hash, its status, the premiums before and after and the renewal as the worklist shows
//!   it (`RenewalView`). Every read of the worklist or the home card refreshes first, so a rule set
//!   that took effect is what the agent sees.
//! - `worklist` (the list, one renewal, the home card's counts), `send` ("Send renewal options":
//!   a `renewal` link mailed in the customer's language) and `reenroll` (the customer's side: the
//!   link starts a new application with last year's answers; the customer chooses a plan).

pub mod export;
pub mod reenroll;
pub mod send;
pub mod worklist;

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use time::{Date, Month};
use utoipa::ToSchema;
use uuid::Uuid;

use enrollflow_engine::renewal::{PlanRenewal, Renewal, Terms};
use enrollflow_engine::{Applying, Context, Engine};

use crate::app::applying::Handles;
use crate::db::agents::AgentRow;
use crate::db::renewals::{self as store, Worked};
use crate::rules::Bundle;

/// Why there is no answer.
#[derive(Debug, thiserror::Error)]
pub enum RenewalError {
    #[error("No such renewal.")]
    NotFound,
    /// No plan year to renew into: no open enrollment ahead with a crosswalk.
    #[error(
        "There is no plan year to renew into: the rules hold no crosswalk for the next open enrollment."
    )]
    NoSeason,
    #[error(
        "The customer's application holds no e-mail address: add one, then send the renewal options."
    )]
    NoEmail,
    #[error("The customer has already re-enrolled for the new plan year.")]
    AlreadyReenrolled,
    #[error(transparent)]
    Link(#[from] crate::app::applying::resume::LinkError),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(RenewalError);

/// The plan year customers renew into now, and the year they renew from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Season {
    pub plan_year: i32,
    pub from_year: i32,
    /// The open enrollment's first and last day.
    pub starts: Date,
    pub ends: Date,
}

impl Season {
    /// Days left in the open enrollment on `today` (the last day counts), or None before it
    /// starts.
    pub fn days_left(&self, today: Date) -> Option<i64> {
        (today >= self.starts).then(|| (self.ends - today).whole_days() + 1)
    }

    /// The effective dates of the customers who renew: the whole year before.
    fn renewing(&self) -> Option<(Date, Date)> {
        Some((
            Date::from_calendar_date(self.from_year, Month::January, 1).ok()?,
            Date::from_calendar_date(self.from_year + 1, Month::January, 1).ok()?,
        ))
    }
}

/// The renewal season on `today` under `engine`'s calendar and catalog.
pub fn season(engine: &Engine, today: Date) -> Option<Season> {
    let mut years: Vec<_> = engine.calendar().plan_years.iter().collect();
    years.sort_by_key(|y| y.year);
    years
        .into_iter()
        .filter(|y| y.open_enrollment.end >= today)
        .find_map(|y| {
            let crosswalk = engine.catalog().crosswalk(y.year)?;
            Some(Season {
                plan_year: y.year,
                from_year: crosswalk.from_year,
                starts: y.open_enrollment.start,
                ends: y.open_enrollment.end,
            })
        })
}

/// One plan on either side of a renewal, as the worklist and the customer read it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct PlanTerms {
    pub plan_id: i64,
    pub name: String,
    pub carrier: String,
    pub metal: Option<String>,
    pub network: Option<String>,
    /// The monthly premium, dollars.
    pub premium: f64,
    /// Each member's monthly premium ("Subscriber", "Dependent 1"; 0 when not charged).
    pub members: Vec<MemberPremium>,
    pub deductible: Option<f64>,
    pub out_of_pocket_max: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct MemberPremium {
    pub member: String,
    pub age: i64,
    pub premium: f64,
}

/// A member who leaves a plan at renewal.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct AgingOffView {
    pub member: String,
    pub age: i64,
    pub says: String,
}

/// How one plan renews: this year's, the successor (none: discontinued or nobody stays), the
/// crosswalk's reason, the alternatives, who ages off.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct PlanRenewalView {
    /// `medical`, `dental` or `vision`.
    pub kind: String,
    pub current: PlanTerms,
    pub renewal: Option<PlanTerms>,
    pub reason: Option<String>,
    pub alternatives: Vec<PlanTerms>,
    pub aging_off: Vec<AgingOffView>,
    pub carrier_leaves: bool,
}

/// A customer's renewal as stored and shown.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct RenewalView {
    pub plan_year: i32,
    /// The new plan year's first day (YYYY-MM-DD).
    pub effective_date: String,
    pub plans: Vec<PlanRenewalView>,
}

fn terms(engine: &Engine, t: &Terms) -> PlanTerms {
    let plan = engine.catalog().plan(t.plan_id);
    let names = plan.map(|p| engine.catalog().names(p));
    PlanTerms {
        plan_id: t.plan_id,
        name: t.name.clone(),
        carrier: names
            .as_ref()
            .and_then(|n| n.carrier)
            .unwrap_or_default()
            .to_string(),
        metal: names.as_ref().and_then(|n| n.metal).map(str::to_string),
        network: names.as_ref().and_then(|n| n.network).map(str::to_string),
        premium: t.rates.total.dollars(),
        members: t
            .rates
            .members
            .iter()
            .map(|m| MemberPremium {
                member: m.member(),
                age: m.age,
                premium: m.amount().dollars(),
            })
            .collect(),
        deductible: t.deductible.map(|m| m.dollars()),
        out_of_pocket_max: t.out_of_pocket_max.map(|m| m.dollars()),
    }
}

fn plan_view(engine: &Engine, p: &PlanRenewal) -> PlanRenewalView {
    PlanRenewalView {
        kind: p.kind.key().to_string(),
        current: terms(engine, &p.current),
        renewal: p.renewal.as_ref().map(|t| terms(engine, t)),
        reason: p.reason.clone(),
        alternatives: p.alternatives.iter().map(|t| terms(engine, t)).collect(),
        aging_off: p
            .aging_off
            .iter()
            .map(|a| AgingOffView {
                member: a.member.clone(),
                age: a.age,
                says: a.says.clone(),
            })
            .collect(),
        carrier_leaves: p.carrier_leaves,
    }
}

/// The view of an engine's renewal.
pub fn view(engine: &Engine, r: &Renewal) -> RenewalView {
    RenewalView {
        plan_year: r.plan_year,
        effective_date: r.effective_date.to_string(),
        plans: r.plans.iter().map(|p| plan_view(engine, p)).collect(),
    }
}

/// The context a renewal is worked out in: the agent's carriers today.
pub fn context(agent: &AgentRow, today: Date) -> Context {
    Context {
        today,
        applying: Applying::Agent,
        agent: agent.engine_flags(),
    }
}

/// One application's renewal for storing, if it renews into `plan_year` (a rule's failure is
/// logged and the application left out).
fn worked(
    engine: &Engine,
    id: Uuid,
    data: &serde_json::Value,
    ctx: &Context,
    plan_year: i32,
) -> Option<Worked> {
    let r = match engine.renew(data, ctx) {
        Ok(Some(r)) if r.plan_year == plan_year => r,
        Ok(_) => return None,
        Err(e) => {
            tracing::warn!(application = %id, error = %e, "a renewal could not be worked out");
            return None;
        }
    };
    let status = r.status(engine.renewal_rules());
    let renewal = serde_json::to_value(view(engine, &r)).ok()?;
    Some(Worked {
        application_id: id,
        status: status.key(),
        risk: status.risk(),
        current_cents: r.current_premium().cents(),
        next_cents: r.next_premium().cents(),
        change_percent: r.change_percent(),
        renewal,
    })
}

/// Works out and stores the renewal of each of `agent`'s customers of the season that has none,
/// or one worked out under another rule set; how many.
pub async fn refresh(
    h: &Handles<'_>,
    bundle: &Arc<Bundle>,
    agent: &AgentRow,
    season: &Season,
) -> Result<usize, RenewalError> {
    let range = season.renewing().ok_or(RenewalError::NoSeason)?;
    let hash = bundle.engine.hash().to_string();
    let stale = store::stale(h.pool, agent.id, range, &hash).await?;
    if stale.is_empty() {
        return Ok(0);
    }
    let ctx = context(agent, h.clock.today());
    let plan_year = season.plan_year;
    let b = bundle.clone();
    let rows = tokio::task::spawn_blocking(move || {
        stale
            .iter()
            .filter_map(|s| worked(&b.engine, s.id, &s.data, &ctx, plan_year))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| RenewalError::Failed(e.into()))?;
    store::store(h.pool, agent.id, plan_year, &hash, &rows, h.clock.now()).await?;
    Ok(rows.len())
}
