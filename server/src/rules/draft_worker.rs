//! The draft worker: a process of its own where a draft's impact is worked out (`enrollflow
//! draft-worker`, started by the server it serves). A draft nobody has approved may loop or be slow,
//! and an impact walks a thousand households under two rule sets; in the server's process even its
//! lowest-priority thread took a share of the cores from consumers' requests and from PostgreSQL,
//! because Linux weighs the priorities of threads only within one session's group (autogroups). The
//! worker starts a session of its own and gives that session's group the lowest priority, so the
//! whole of its work yields to the server and the database; it holds only the made-up households,
//! the counts and the sets it was sent, and a runaway draft's memory is its own.
//!
//! The protocol: one JSON line per job on the worker's standard input ([`Job`]), one JSON line per
//! answer on its standard output ([`Answer`]).

use std::io::{BufRead, Write};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::rules::budget::Budget;
use crate::rules::impact::{Inputs, Report, Stored};
use crate::rules::{self, Bundle};

/// One impact to work out: the serving set against the draft, on the suites, the made-up
/// households drawn to the book's mix and the stored applications (counted only).
#[derive(Serialize, Deserialize)]
pub struct Job {
    pub base: Vec<enrollflow_engine::Source>,
    pub draft: Vec<enrollflow_engine::Source>,
    pub suites: Vec<enrollflow_engine::Source>,
    pub stored: Vec<Stored>,
    pub mix: crate::demo_data::Mix,
    pub households: usize,
    /// The day the households apply on (`YYYY-MM-DD`).
    pub today: String,
    /// What is left of the run's overall budget, in milliseconds, and the whole of it, in seconds
    /// (what the analyst is told when it runs out).
    pub budget_ms: u64,
    pub budget_of_secs: u64,
}

/// The worker's answer: the report, or why there is none (the draft does not load, the budget ran
/// out).
#[derive(Serialize, Deserialize)]
pub enum Answer {
    Report(Box<Report>),
    Problems(Vec<String>),
}

impl From<Answer> for Result<Report, Vec<String>> {
    fn from(answer: Answer) -> Self {
        match answer {
            Answer::Report(report) => Ok(*report),
            Answer::Problems(problems) => Err(problems),
        }
    }
}

/// The worker's loop: jobs in, answers out, until its input closes. The serving set's bundle is
/// kept from one job to the next (it changes only when a set is published).
pub fn serve() -> anyhow::Result<()> {
    // It ends when its input closes (the server ended). Not PR_SET_PDEATHSIG: Linux sends that
    // when the thread that started the worker ends, and the server's threads come and go.
    lowest_priority();
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut base: Option<(String, Bundle)> = None;
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Job>(&line) {
            Ok(job) => work(job, &mut base),
            Err(e) => Answer::Problems(vec![format!(
                "the draft worker could not read its job: {e}"
            )]),
        };
        serde_json::to_writer(&mut stdout, &answer)?;
        stdout.write_all(b"\n")?;
        stdout.flush()?;
    }
    Ok(())
}

pub fn work(job: Job, base: &mut Option<(String, Bundle)>) -> Answer {
    let budget = Budget::resumed(
        Duration::from_millis(job.budget_ms),
        Duration::from_secs(job.budget_of_secs),
    );
    let hash = rules::set_hash(&job.base);
    if base.as_ref().is_none_or(|(h, _)| *h != hash) {
        match rules::bundle_of(&job.base) {
            Ok(b) => *base = Some((hash, b)),
            Err(problems) => {
                return Answer::Problems(problems.iter().map(ToString::to_string).collect());
            }
        }
    }
    let Some((_, base)) = base.as_ref() else {
        return Answer::Problems(vec!["the serving set did not load".into()]);
    };
    let draft = match rules::bundle_of(&job.draft) {
        Ok(d) => d,
        Err(problems) => {
            return Answer::Problems(problems.iter().map(ToString::to_string).collect());
        }
    };
    let Ok(today) = time::Date::parse(
        &job.today,
        time::macros::format_description!("[year]-[month]-[day]"),
    ) else {
        return Answer::Problems(vec![format!("not a day: {}", job.today)]);
    };
    let inputs = Inputs {
        suites: &job.suites,
        stored: &job.stored,
        mix: &job.mix,
        households: job.households,
        today,
    };
    match crate::rules::impact::compare(base, &draft.engine, &inputs, &budget) {
        Ok(report) => Answer::Report(Box::new(report)),
        Err(e) => Answer::Problems(vec![e]),
    }
}

/// The worker's session (it was started in one of its own, `setsid`) gets the lowest priority
/// against every other session's group, and the process the lowest within it. Where Linux has no
/// autogroups, or `renice` is missing, the priority stays and the budget still bounds the run.
fn lowest_priority() {
    let _ = std::fs::write("/proc/self/autogroup", "19");
    let pid = std::process::id().to_string();
    // Every thread of the worker: runs only when nothing else wants the core (SCHED_IDLE), which
    // the scheduler also preempts at once when another task wakes.
    quietly("renice", &["-n", "19", "-p", &pid]);
    quietly("chrt", &["--idle", "--all-tasks", "--pid", "0", &pid]);
}

/// Runs a system tool with its output dropped; whether it ran and succeeded.
pub fn quietly(program: &str, args: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
