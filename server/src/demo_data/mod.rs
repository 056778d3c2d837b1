//! Demo applications and messages for the agent dashboard (`enrollflow seed-demo-data`, run by
//! `make demo` after `enrollflow seed`): thousands of quotes and submissions for the demo agents,
//! spread over the twelve months before today, with made-up people (names, `example.*` e-mail
//! addresses, 555-01xx phone numbers, Michigan addresses) and households, walked through the
//! engine's own steps (`generator.rs`: the reasons the rules offer, each form's checks and next
//! rule, the plan pages' select rules with plans quoted from the real catalog, the purchase), so
//! that every card, chart and list of the dashboard has something to show and nothing disagrees
//! with the rules. Also three agent messages. `tests/load/dashboard.sh` uses it for 125,000
//! applications (100,000 quotes and 25,000 submissions).
//!
//! Every demo document carries `"demo": true`. Loading is idempotent: an agent that already has
//! demo applications gets none, and the messages have fixed ids. Nothing here writes an SSN: the
//! made-up numbers the walk answers with are removed (the forms' `x-sensitive` fields) before a
//! row is written.
//!
//! The module is compiled into the `enrollflow` binary (and, by path, into the API tests); it uses
//! the library through its public API only.
//!
//! The load ends by rewriting the day and name counts whole and vacuuming the rest
//! (`db::demo_data::vacuum_after_load`). `make bench-dashboard` loads 125,000 applications, and
//! 1,000,000 with `--distinct N`: N applications per agent walked through the rules, the rest
//! `Generator::copy` (the same day, household, answers and plans made by another person: names,
//! e-mail and time of day changed).

use crate::db::PgPool;
use enrollflow_engine::Engine;
use enrollflow_engine::summary::Summary;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use time::Date;

mod answers;
mod generator;
mod messages;
mod names;

use generator::{Generator, Row};
use messages::messages;
use names::places;

use crate::db::demo_data::{self as store, ApplicationBatch};
use crate::npn::Npn;

/// The key marking demo documents.
pub const DEMO_KEY: &str = "demo";
/// Rows per INSERT.
const BATCH: usize = 1000;

/// What to load.
#[derive(Debug, Clone)]
pub struct Options {
    /// Applications in all, shared equally by the agents.
    pub applications: usize,
    /// Only these agents (NPNs); all agents when empty.
    pub agents: Vec<Npn>,
    /// The share of applications that are submitted (0 to 1).
    pub submitted_share: f64,
    /// The server's today: applications are made in the 364 days before it.
    pub today: Date,
    /// The random generator's seed (the same seed makes the same people).
    pub seed: u64,
    /// At most this many applications per agent are walked through the rules; the others are
    /// copies of them made by other people (`Generator::copy`). All are walked by default.
    pub distinct: usize,
}

impl Options {
    pub fn new(applications: usize, today: Date) -> Self {
        Options {
            applications,
            agents: Vec::new(),
            submitted_share: 0.38,
            today,
            seed: 2024,
            distinct: usize::MAX,
        }
    }
}

/// What a load did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Loaded {
    pub applications: u64,
    pub submitted: u64,
    /// Agents skipped because they already had demo applications.
    pub agents_skipped: usize,
    pub messages: u64,
}

/// The rules the generator reads: the catalog, the enrollment calendar (`rules/calendar.yaml`:
/// the plan years, their open enrollment and effective dates), the flow's summary of each
/// application and the rules' hash.
pub struct Rules<'a> {
    pub engine: &'a Engine,
}

/// Loads the demo applications and messages (see the module's documentation).
pub async fn load(pool: &PgPool, rules: &Rules<'_>, opts: &Options) -> anyhow::Result<Loaded> {
    let years = &rules.engine.calendar().plan_years;
    anyhow::ensure!(!years.is_empty(), "rules/calendar.yaml has no plan_years");
    let agents = store::agents(pool, &opts.agents).await?;
    if agents.is_empty() {
        anyhow::bail!("no agents to load demo data for: run `enrollflow seed` first");
    }
    if let Some(missing) = opts
        .agents
        .iter()
        .find(|n| !agents.iter().any(|a| &a.npn == *n))
    {
        anyhow::bail!("no agent with NPN {missing}");
    }
    let places = places(rules.engine.catalog());
    let mut loaded = Loaded::default();
    let per_agent = opts.applications / agents.len();
    let extra = opts.applications % agents.len();
    for (i, agent) in agents.iter().enumerate() {
        let n = per_agent + usize::from(i < extra);
        let mut tx = pool.begin().await?;
        // Two loads at once: the second waits, then sees the first one's rows.
        let has = store::lock_and_check(&mut tx, agent).await?;
        if has {
            loaded.agents_skipped += 1;
            continue;
        }
        let seed = opts.seed ^ agent.npn.as_str().parse::<u64>().unwrap_or(0);
        let mut g = Generator {
            rng: StdRng::seed_from_u64(seed),
            years,
            places: &places,
            today: opts.today,
            agent,
            submitted_share: opts.submitted_share.clamp(0.0, 1.0),
        };
        let mut batch = ApplicationBatch::default();
        let mut walked: Vec<Row> = Vec::new();
        for i in 0..n {
            let row = if i < opts.distinct {
                let row = g.application(rules.engine)?;
                if opts.distinct < n {
                    walked.push(row.clone());
                }
                row
            } else {
                let template = &walked[g.rng.random_range(0..walked.len())];
                g.copy(template)
            };
            loaded.submitted += u64::from(row.submission_time.is_some());
            let summary = rules.engine.summary(&row.data)?;
            batch.push(row, rules.engine.hash(), summary);
            if batch.len() == BATCH {
                loaded.applications += batch.insert(&mut tx).await?;
            }
        }
        loaded.applications += batch.insert(&mut tx).await?;
        tx.commit().await?;
    }
    if loaded.applications > 0 {
        // An agent's applications go in in one transaction, so every increment of a day's count
        // (migration 24's trigger) left a row version the table could not prune: after a million,
        // a year's total read 790,000 dead index entries for 8,600 live rows, and a plain VACUUM
        // left the table at 9,346 pages for 15,091 rows, which every total then read (10–20 ms
        // once other tables took its place in PostgreSQL's buffers; docs/performance.md). The
        // counts (and migration 28's per-day name counts, kept the same way) are rewritten whole
        // (142 pages; a fraction of a second), the rest vacuumed; the lists are quick at once,
        // with fresh planner statistics too. (One statement a message: VACUUM cannot run in a
        // multi-statement one.)
        crate::db::demo_data::vacuum_after_load(pool).await?;
    }
    loaded.messages = messages(pool, &agents, opts.today).await?;
    Ok(loaded)
}

impl ApplicationBatch {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn push(&mut self, r: Row, hash: &str, summary: Summary) {
        let c = r.columns;
        self.id.push(r.id);
        self.agent_id.push(r.agent_id);
        self.last_step.push(c.last_step);
        self.effective_date.push(c.effective_date);
        self.period.push(c.enrollment_period_type_id);
        self.medical_carrier_id.push(c.medical_carrier_id);
        self.dental_carrier_id.push(c.dental_carrier_id);
        self.vision_carrier_id.push(c.vision_carrier_id);
        self.network.push(c.medical_network_type_id);
        self.skip_medical.push(c.skip_medical);
        self.skip_dental.push(c.skip_dental);
        self.skip_vision.push(c.skip_vision);
        self.skip_other.push(c.skip_other);
        self.skip_pcp.push(c.skip_pcp);
        self.submission_time.push(r.submission_time);
        self.created_at.push(r.created_at);
        self.updated_at.push(r.updated_at);
        self.data.push(r.data);
        self.rules_hash.push(hash.to_string());
        self.summary.push(crate::db::Json(summary));
        self.agent_started.push(r.agent_started);
        self.started_by.push(r.started_by_user_id);
        self.subdomain.push(r.subdomain);
    }
}

/// The mix of a book of business that made-up households are drawn to match: how many of its
/// applications live in each county and have each household size (counts only).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Mix {
    /// Applications by county id.
    pub counties: std::collections::BTreeMap<u16, u64>,
    /// Applications by household size (people covered, 1 up).
    pub household_sizes: std::collections::BTreeMap<u16, u64>,
}

/// One made-up household's application, walked through the rules, and the context it was walked
/// in.
pub struct Household {
    pub data: serde_json::Value,
    pub ctx: enrollflow_engine::Context,
}

/// `n` made-up households (`seed` makes the same ones again), walked through `engine` as the demo
/// data is, by an agent who offers every carrier, on days in the year before `today`: drawn to
/// match `mix` where it has counts (each county's share of the places, each household size's
/// share of the households), uniformly where it has none; fewer when `keep_going` says stop.
/// Nothing is written anywhere; the households' answers are made up, so they can be shown.
pub fn households(
    engine: &Engine,
    n: usize,
    today: Date,
    seed: u64,
    mix: &Mix,
    keep_going: &dyn Fn() -> bool,
) -> anyhow::Result<Vec<Household>> {
    let years = &engine.calendar().plan_years;
    anyhow::ensure!(
        !years.is_empty(),
        "the rules have no plan years to apply for"
    );
    let all = places(engine.catalog());
    // Each county's places repeated by the county's share of the book (out of 1,000 draws).
    let total: u64 = mix
        .counties
        .iter()
        .filter(|(c, _)| all.iter().any(|p| p.county == **c))
        .map(|(_, n)| n)
        .sum();
    let mut drawn: Vec<names::Place> = Vec::new();
    for (county, count) in &mix.counties {
        let here: Vec<&names::Place> = all.iter().filter(|p| p.county == *county).collect();
        if let Some(share) = (count * 1000).checked_div(total) {
            let share = usize::try_from(share).unwrap_or(0).max(1);
            for i in 0..share {
                if let Some(p) = here.get(i % here.len().max(1)) {
                    drawn.push((*p).clone());
                }
            }
        }
    }
    let places = if drawn.is_empty() { all } else { drawn };
    let flags: Vec<String> = engine
        .catalog()
        .carriers
        .iter()
        .filter_map(|c| c.agent_flag.clone())
        .collect();
    let agent = crate::db::demo_data::DemoAgent {
        id: uuid::Uuid::nil(),
        npn: "1".parse()?,
        agent_name: "Alex Example".into(),
        offers: flags,
        marketplace_certified: true,
        display_medicare: false,
        subdomains: Vec::new(),
        user_id: None,
    };
    let mut g = Generator {
        rng: StdRng::seed_from_u64(seed),
        years,
        places: &places,
        today,
        agent: &agent,
        submitted_share: 0.38,
    };
    // Each household size's quota of the `n` (by the book's shares); a size past its quota is
    // drawn again, up to four times `n` draws in all.
    let sizes: u64 = mix.household_sizes.values().sum();
    let mut quota: std::collections::BTreeMap<u16, usize> = mix
        .household_sizes
        .iter()
        .map(|(size, count)| {
            let q = usize::try_from(count * n as u64 / sizes.max(1)).unwrap_or(n);
            (*size, q.max(1))
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    let mut draws = 0;
    while out.len() < n && draws < 4 * n.max(1) && keep_going() {
        draws += 1;
        // A household whose walk a rule stopped (its time budget on a busy machine) is drawn again.
        let Ok(row) = g.application(engine) else {
            continue;
        };
        let size = household_size(engine, &row.data);
        let spare = draws + (n - out.len()) < 4 * n;
        if sizes > 0 && spare && quota.values().any(|q| *q > 0) {
            match quota.get_mut(&size) {
                Some(left) if *left > 0 => *left -= 1,
                _ => continue,
            }
        }
        let ctx = enrollflow_engine::Context {
            today: row.updated_at.date(),
            applying: if row.agent_started {
                enrollflow_engine::Applying::Agent
            } else {
                enrollflow_engine::Applying::Consumer
            },
            agent: enrollflow_engine::AgentFlags {
                offers: agent.offers.clone(),
                marketplace_certified: agent.marketplace_certified,
                display_medicare: agent.display_medicare,
                name: agent.agent_name.clone(),
                npn: agent.npn.to_string(),
            },
        };
        out.push(Household {
            data: row.data,
            ctx,
        });
    }
    Ok(out)
}

/// The people an application covers, as the flow's summary counts them (1 when it has none).
fn household_size(engine: &Engine, data: &serde_json::Value) -> u16 {
    engine
        .summary(data)
        .map_or(1, |s| 1 + u16::from(s.has_spouse) + s.dependents)
}
