//! Impact before publish (issue 18, item 4): a draft rule set against a base (the published set, a
//! folder or a git revision), over every scenario suite and the most recent stored applications.
//! Applications are walked in memory with their personal details made up
//! ([`enrollflow_engine::replay::walk`]); what leaves is step ids, flags, plan ids and premiums,
//! never an answer.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

use enrollflow_engine::impact::{self, Group};
use enrollflow_engine::{Applying, Context, Engine, scenario};

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

/// A scenario whose result differs between the two sets.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ScenarioChange {
    /// `file:line`.
    pub at: String,
    pub name: String,
    /// `passed` or `failed`.
    pub before: String,
    pub after: String,
    /// Why it fails after the change (or failed before it).
    pub failures: Vec<String>,
}

/// Every difference the draft makes.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Report {
    /// The engine hashes of the base and the draft.
    pub base: String,
    pub against: String,
    pub scenarios_run: usize,
    pub scenarios_changed: Vec<ScenarioChange>,
    pub applications_replayed: usize,
    /// The observations that differ, grouped by what they are about (`medical: plan 530
    /// premium`), with each application's before and after.
    #[schema(value_type = Vec<Object>)]
    pub changes: Vec<Group>,
}

impl Report {
    pub fn is_empty(&self) -> bool {
        self.scenarios_changed.is_empty() && self.changes.is_empty()
    }

    /// The report as a readable table.
    pub fn table(&self) -> String {
        let mut out = format!(
            "impact: base rules {} -> draft {}\n",
            short(&self.base),
            short(&self.against)
        );
        out += &format!(
            "scenarios: {} run, {} changed\n",
            self.scenarios_run,
            self.scenarios_changed.len()
        );
        for s in &self.scenarios_changed {
            out += &format!("  {}: {} -> {}: {}\n", s.at, s.before, s.after, s.name);
            for f in s.failures.iter().take(3) {
                out += &format!("      {f}\n");
            }
        }
        let apps: std::collections::BTreeSet<&str> = self
            .changes
            .iter()
            .flat_map(|g| g.changes.iter().map(|c| c.application.as_str()))
            .collect();
        out += &format!(
            "applications: {} replayed, {} changed\n",
            self.applications_replayed,
            apps.len()
        );
        for g in &self.changes {
            out += &format!("  {} ({} application(s))\n", g.what, g.changes.len());
            for c in g.changes.iter().take(5) {
                out += &format!(
                    "      {}  {} -> {}\n",
                    short(&c.application),
                    c.before,
                    c.after
                );
            }
            if g.changes.len() > 5 {
                out += &format!("      … {} more\n", g.changes.len() - 5);
            }
        }
        out += if self.is_empty() {
            "no change\n"
        } else {
            "changes found\n"
        };
        out
    }
}

fn short(s: &str) -> &str {
    &s[..12.min(s.len())]
}

/// Runs every suite and walks every application under both engines.
pub fn compare(
    base: &Engine,
    against: &Engine,
    suites: &[enrollflow_engine::Source],
    apps: &[Stored],
) -> Report {
    let mut scenarios_run = 0;
    let mut scenarios_changed = Vec::new();
    let texts: Vec<(&str, &str)> = suites
        .iter()
        .map(|s| (s.path.as_str(), s.text.as_str()))
        .collect();
    let befores = scenario::run_suites(base, &texts, |_| true);
    let afters = scenario::run_suites(against, &texts, |_| true);
    for ((suite, before), after) in suites.iter().zip(befores).zip(afters) {
        let path = &suite.path;
        match (before, after) {
            (Ok(b), Ok(a)) => {
                let before: BTreeMap<(usize, String), _> = b
                    .into_iter()
                    .map(|r| ((r.line, r.name.clone()), r))
                    .collect();
                for r in a {
                    scenarios_run += 1;
                    let was = before.get(&(r.line, r.name.clone())).map(|b| b.passed());
                    if was != Some(r.passed()) {
                        scenarios_changed.push(ScenarioChange {
                            at: format!("{path}:{}", r.line),
                            name: r.name.clone(),
                            before: verdict(was.unwrap_or(false)).into(),
                            after: verdict(r.passed()).into(),
                            failures: match (r.passed(), before.get(&(r.line, r.name))) {
                                (false, _) => r.failures,
                                (true, Some(b)) => b.failures.clone(),
                                (true, None) => Vec::new(),
                            },
                        });
                    }
                }
            }
            (_, Err(d)) | (Err(d), _) => scenarios_changed.push(ScenarioChange {
                at: path.clone(),
                name: "the suite".into(),
                before: "passed".into(),
                after: "failed".into(),
                failures: vec![d.to_string()],
            }),
        }
    }
    let observed: Vec<(String, impact::Observations, impact::Observations)> = apps
        .iter()
        .map(|a| {
            (
                a.id.to_string(),
                impact::observe(base, &a.data, &a.ctx),
                impact::observe(against, &a.data, &a.ctx),
            )
        })
        .collect();
    let changes = impact::diff(observed.iter().map(|(id, b, a)| (id.as_str(), b, a)));
    Report {
        base: base.hash().to_string(),
        against: against.hash().to_string(),
        scenarios_run,
        scenarios_changed,
        applications_replayed: apps.len(),
        changes,
    }
}

fn verdict(passed: bool) -> &'static str {
    if passed { "passed" } else { "failed" }
}

/// The rule set at a git revision of the repository at `repo`: every file under `rules/`,
/// `forms/` and `templates/` there (`git ls-tree`, `git show`).
pub fn set_at_revision(repo: &Path, rev: &str) -> anyhow::Result<Vec<enrollflow_engine::Source>> {
    let git = |args: &[&str]| -> anyhow::Result<String> {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(args)
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run git: {e}"))?;
        anyhow::ensure!(
            out.status.success(),
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let mut files = Vec::new();
    let listed = git(&[
        "ls-tree",
        "-r",
        "--name-only",
        rev,
        "--",
        "rules",
        "forms",
        "templates",
    ])?;
    for path in listed.lines() {
        let name = path.rsplit('/').next().unwrap_or(path);
        let engine_file = name.ends_with(".yaml") || name.ends_with(".rhai");
        if name.starts_with('.') || (!path.starts_with("templates/") && !engine_file) {
            continue;
        }
        files.push(enrollflow_engine::Source::new(
            path,
            git(&["show", &format!("{rev}:{path}")])?,
        ));
    }
    anyhow::ensure!(!files.is_empty(), "no rules at git revision {rev}");
    Ok(files)
}
