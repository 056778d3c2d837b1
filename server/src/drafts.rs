//! Where drafts are evaluated: a rule set nobody has approved yet (a workbench draft's load,
//! impact and publish check) may loop or be slow, so it never runs where consumers are answered.
//! Draft work runs on its own threads ([`THREADS`], at the lowest CPU priority the system gives,
//! and resting three quarters of the time while it evaluates rules, [`DUTY`], so a busy draft
//! takes little of what consumers need), a few jobs may wait ([`QUEUE`]; more are
//! refused at once, 429), only one impact runs at a time on an instance, and an impact stops at its
//! overall budget ([`IMPACT_BUDGET`] by default) with a message saying so.

use std::sync::OnceLock;
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// Threads evaluating drafts, per instance.
pub const THREADS: usize = 1;
/// Draft jobs that may wait for a thread.
pub const QUEUE: usize = 4;
/// An impact run's overall budget, unless configured otherwise.
pub const IMPACT_BUDGET: Duration = Duration::from_secs(60);
/// The draft thread's duty cycle: this much rule work, then this much rest.
pub const DUTY: (Duration, Duration) = (Duration::from_millis(2), Duration::from_millis(6));
/// What a refused draft job is told to wait, in seconds.
const RETRY_AFTER: u64 = 30;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// An instance's draft threads and its impact turn (`AppState::drafts`).
#[derive(Default)]
pub struct Drafts {
    /// Started at the first draft job.
    pool: OnceLock<Option<SyncSender<Job>>>,
    turn: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl Drafts {
    fn pool(&self) -> Option<&SyncSender<Job>> {
        self.pool.get_or_init(start_threads).as_ref()
    }

    /// Runs `work` on a draft thread and answers its result; refused with 429 when the queue is
    /// full.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || ApiError::Busy {
            message: "The server is evaluating other drafts. Please try again in a minute.".into(),
            retry_after: RETRY_AFTER,
        };
        let pool = self.pool().ok_or_else(busy)?;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(work());
        });
        match pool.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => return Err(busy()),
        }
        rx.await.map_err(|_| {
            ApiError::Internal(anyhow::anyhow!("the draft job stopped without an answer"))
        })
    }

    /// This instance's turn to run an impact, or 429 with `Retry-After` when one is running.
    pub fn impact_turn(&self) -> Result<ImpactTurn, ApiError> {
        self.turn
            .clone()
            .try_lock_owned()
            .map(|held| ImpactTurn { _held: held })
            .map_err(|_| ApiError::Busy {
                message: "Another impact is running on this server; it ends within a minute. \
                          Please try again then."
                    .into(),
                retry_after: RETRY_AFTER,
            })
    }
}

/// The draft threads, each taking the next job; they end when the instance's `Drafts` is dropped.
fn start_threads() -> Option<SyncSender<Job>> {
    let (tx, rx) = sync_channel::<Job>(QUEUE);
    let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
    for i in 0..THREADS {
        let rx = rx.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("draft-{i}"))
            .spawn(move || {
                lowest_priority();
                // A quarter of one core at most: the operating system may weigh a low priority
                // against the whole process only (Linux's autogroups), not against PostgreSQL.
                enrollflow_engine::script::throttle(Some(DUTY));
                loop {
                    let job = match rx.lock() {
                        Ok(r) => r.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job(),
                        Err(_) => return,
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "the draft thread could not start");
            return None;
        }
    }
    Some(tx)
}

/// This thread yields the CPU to every other (nice 19: Linux weighs it 15 against a request
/// thread's 1024). Linux keeps a nice value per thread: `renice` is given this thread's id, read
/// from `/proc/thread-self` (`<pid>/task/<tid>`). Where either is missing the thread keeps its
/// priority, and the queue and budgets still bound it.
fn lowest_priority() {
    let tid = std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name().map(|t| t.to_string_lossy().into_owned()));
    let Some(tid) = tid else { return };
    let reniced = std::process::Command::new("renice")
        .args(["-n", "19", "-p", &tid])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    if !reniced.is_ok_and(|s| s.success()) {
        tracing::warn!("the draft thread keeps its priority: renice failed");
    }
}

/// Held while an impact runs on this instance; the next is refused (429) until it ends.
pub struct ImpactTurn {
    _held: tokio::sync::OwnedMutexGuard<()>,
}

/// An overall budget for one run, checked between its pieces of work.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    until: Instant,
    of: Duration,
}

impl Budget {
    pub fn new(of: Duration) -> Self {
        Budget {
            until: Instant::now() + of,
            of,
        }
    }

    /// The message that ends a run over its budget.
    pub fn check(&self) -> Result<(), String> {
        if Instant::now() > self.until {
            Err(format!(
                "The impact was stopped: it ran past its budget of {} seconds. A rule of the draft \
                 may loop or be very slow; the scenarios and a preview show which.",
                self.of.as_secs()
            ))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_impact_at_a_time_and_the_next_once_it_ends() {
        let drafts = Drafts::default();
        let first = drafts.impact_turn().expect("the first impact runs");
        match drafts.impact_turn() {
            Err(ApiError::Busy { retry_after, .. }) => assert!(retry_after > 0),
            other => panic!("a second impact must wait: {:?}", other.is_ok()),
        }
        drop(first);
        assert!(drafts.impact_turn().is_ok(), "the turn is given back");
    }

    #[test]
    fn a_budget_says_when_it_is_spent() {
        assert!(Budget::new(Duration::from_secs(60)).check().is_ok());
        let spent = Budget::new(Duration::ZERO);
        std::thread::sleep(Duration::from_millis(2));
        let message = spent.check().expect_err("spent");
        assert!(message.contains("ran past its budget"), "{message}");
    }

    #[tokio::test]
    async fn draft_work_runs_on_its_own_thread_at_the_lowest_priority() {
        let (name, nice) = Drafts::default()
            .run(|| {
                assert_eq!(enrollflow_engine::script::throttled(), Some(DUTY));
                let name = std::thread::current().name().map(str::to_string);
                let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
                // Field 19 of stat is the nice value (after the command name's closing parenthesis).
                let nice = stat
                    .rsplit(')')
                    .next()
                    .and_then(|rest| rest.split_whitespace().nth(16))
                    .and_then(|n| n.parse::<i32>().ok());
                (name, nice)
            })
            .await
            .expect("the job ran");
        assert_eq!(name.as_deref(), Some("draft-0"));
        assert_eq!(nice, Some(19));
    }
}
