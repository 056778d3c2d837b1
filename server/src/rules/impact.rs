//! Impact before publish: a draft rule set against a base (the published set, a folder or a git
//! revision), over every scenario suite, made-up households drawn to match the book, and the most
//! recent stored applications. Applications are walked in memory with their personal details made
//! up ([`enrollflow_engine_tools::replay::walk`]); of them only counts leave, named in the base set's
//! words, never a value a rule computed from a customer's answers.
//!
//! The households are `demo_data::households`, drawn to the book's mix of counties and household
//! sizes; a group of stored applications under 5 is "fewer than 5". `enrollflow impact` and `POST
//! /api/admin/rules/impact`.

use std::collections::HashMap;

use crate::db::PgPool;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use enrollflow_engine::{Applying, Context, Engine};
use enrollflow_engine_tools::impact;
pub use enrollflow_engine_tools::impact::Report;
pub use enrollflow_engine_tools::set::set_at_revision;

use crate::db;

/// The agents' time zone: Michigan's (spec: agents follow their business in local time).
pub const AGENT_TIME_ZONE: &str = "America/Detroit";

/// Michigan's zone rules, looked up once (an export converts a million instants).
fn agent_zone() -> Option<&'static jiff::tz::TimeZone> {
    static ZONE: std::sync::OnceLock<Option<jiff::tz::TimeZone>> = std::sync::OnceLock::new();
    ZONE.get_or_init(|| jiff::tz::TimeZone::get(AGENT_TIME_ZONE).ok())
        .as_ref()
}

/// An instant as the wall-clock time in Michigan (daylight saving included).
pub fn michigan_datetime(t: OffsetDateTime) -> Option<jiff::civil::DateTime> {
    let at = jiff::Timestamp::from_second(t.unix_timestamp()).ok()?;
    Some(agent_zone()?.to_datetime(at))
}

/// The day an instant falls on in Michigan.
pub fn michigan_date(t: OffsetDateTime) -> Option<Date> {
    let local = michigan_datetime(t)?;
    let month = time::Month::try_from(u8::try_from(local.month()).ok()?).ok()?;
    Date::from_calendar_date(
        i32::from(local.year()),
        month,
        u8::try_from(local.day()).ok()?,
    )
    .ok()
}

/// What the rules saw when an application was last saved: the agent's flags, who applied, and
/// the day (in Michigan).
pub fn replay_context(
    agent: &db::agents::AgentRow,
    saved: OffsetDateTime,
    by_agent: bool,
) -> Context {
    Context {
        today: michigan_date(saved).unwrap_or_else(|| saved.date()),
        applying: if by_agent {
            Applying::Agent
        } else {
            Applying::Consumer
        },
        agent: agent.engine_flags(),
    }
}

/// A stored application to walk: its id, answers and the context it was saved in.
#[derive(Serialize, Deserialize)]
pub struct Stored {
    pub id: Uuid,
    pub data: Value,
    pub ctx: Context,
}

/// The `n` applications saved most recently, with their contexts.
pub async fn recent_applications(pool: &PgPool, n: i64) -> anyhow::Result<Vec<Stored>> {
    let rows = db::applications::recent(pool, n).await?;
    let mut agents: HashMap<Uuid, db::agents::AgentRow> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let agent = match agents.entry(r.agent_id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let Some(a) = db::agents::by_id(pool, r.agent_id).await? else {
                    continue;
                };
                e.insert(a)
            }
        };
        out.push(Stored {
            id: r.id,
            ctx: replay_context(agent, r.updated_at, r.agent_started),
            data: r.data,
        });
    }
    Ok(out)
}

/// The made-up households' seed: the same households from one run to the next, so a change is
/// compared on the same people.
pub const HOUSEHOLD_SEED: u64 = 7_919;

/// What an impact compares the two sets on.
pub struct Inputs<'a> {
    /// The scenario suites (made-up data: their results are shown whole).
    pub suites: &'a [enrollflow_engine::Source],
    /// Stored applications: counted only.
    pub stored: &'a [Stored],
    /// The book's mix the made-up households are drawn to, how many, and the day they apply on.
    pub mix: &'a crate::demo_data::Mix,
    pub households: usize,
    pub today: Date,
}

/// Runs every suite, makes up the households (`demo_data::households`, their changes shown
/// whole) and walks them and every stored application (counted only, in the base set's
/// `impact::Vocabulary`) under both sets; stopped with the budget's message when it runs past it.
pub fn compare(
    base: &crate::rules::Bundle,
    against: &Engine,
    inputs: &Inputs<'_>,
    budget: &crate::rules::budget::Budget,
) -> Result<Report, String> {
    let base_files = &base.files;
    let base = &base.engine;
    let (scenarios_run, scenarios_changed) =
        impact::compare_suites(base, against, inputs.suites, &|| budget.check().is_ok());
    budget.check()?;
    let made = crate::demo_data::households(
        base,
        inputs.households,
        inputs.today,
        HOUSEHOLD_SEED,
        inputs.mix,
        &|| budget.check().is_ok(),
    )
    .map_err(|e| format!("the made-up households could not be walked: {e}"))?;
    let mut observed: Vec<(String, impact::Observations, impact::Observations)> =
        Vec::with_capacity(made.len());
    for (i, h) in made.iter().enumerate() {
        budget.check()?;
        observed.push((
            format!("household {}", i + 1),
            impact::observe(base, &h.data, &h.ctx),
            impact::observe(against, &h.data, &h.ctx),
        ));
    }
    let household_changes = impact::diff(observed.iter().map(|(id, b, a)| (id.as_str(), b, a)));
    let mut stored = Vec::with_capacity(inputs.stored.len());
    for a in inputs.stored {
        budget.check()?;
        stored.push((
            impact::observe(base, &a.data, &a.ctx),
            impact::observe(against, &a.data, &a.ctx),
        ));
    }
    let vocabulary = impact::Vocabulary::of(base, base_files);
    let (changed, application_counts) =
        impact::count(stored.iter().map(|(b, a)| (b, a)), &vocabulary);
    Ok(Report {
        base: base.hash().to_string(),
        against: against.hash().to_string(),
        scenarios_run,
        scenarios_changed,
        households_made: made.len(),
        household_changes,
        applications_replayed: inputs.stored.len(),
        applications_changed: impact::count_shown(changed).1,
        application_counts,
    })
}

/// The book's mix (counts by county and household size) that made-up households are drawn to
/// match; counties from the ZIP codes by the catalog (a ZIP in several counties counts for each).
pub async fn book_mix(
    pool: &PgPool,
    catalog: &enrollflow_engine::catalog::Catalog,
) -> anyhow::Result<crate::demo_data::Mix> {
    let (zips, sizes) = db::applications::book_mix(pool).await?;
    let mut mix = crate::demo_data::Mix::default();
    for (zip, n) in zips {
        let Ok(zip) = zip.parse::<enrollflow_engine::zip::Zip>() else {
            continue;
        };
        for county in catalog.zips.get(&zip).into_iter().flatten() {
            *mix.counties.entry(*county).or_default() += u64::try_from(n).unwrap_or(0);
        }
    }
    for (size, n) in sizes {
        if let Ok(size) = u16::try_from(size) {
            *mix.household_sizes.entry(size).or_default() += u64::try_from(n).unwrap_or(0);
        }
    }
    Ok(mix)
}
