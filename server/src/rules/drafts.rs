//! Where drafts are evaluated: a rule set nobody has approved yet (a workbench draft's load,
//! impact and publish check) may loop or be slow, so it never runs where consumers are answered.
//! Draft work runs on its own threads ([`THREADS`], at the lowest CPU priority the system gives,
//! and resting three quarters of the time while it evaluates rules, [`DUTY`], so a busy draft
//! takes little of what consumers need), a few jobs may wait ([`QUEUE`]; more are
//! refused at once, 429), only one impact runs at a time on an instance, and an impact stops at its
//! overall budget ([`IMPACT_BUDGET`] by default) with a message saying so.
//!
//! An impact, the longest draft work, runs in the instance's draft worker instead
//! ([`crate::rules::draft_worker`]): a process in a session of its own at the lowest priority, so that
//! even the households' walk outside the rules yields to consumers' requests and to PostgreSQL.
//!
//! `Pause`: the server stops the worker while consumers' requests are in flight and for `QUIET`
//! (100 ms) after, and lets it run `SHARE` (20 ms) of every second on a server never quiet. The
//! load at publish and a proposal's suites run on the instance's own nice-19 thread with a short
//! queue (429 past it); one impact at a time (429 with `Retry-After`); an overall budget per run
//! (`crate::rules::budget`).

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

pub use crate::rules::budget::Budget;

use crate::platform::error::ApiError;

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

/// An instance's draft threads, its draft worker and its impact turn (`AppState::drafts`).
#[derive(Default)]
pub struct Drafts {
    /// Consumers first: the worker is stopped while requests are in flight.
    pub pause: Pause,
    /// Started at the first draft job.
    pool: OnceLock<Option<SyncSender<Job>>>,
    turn: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// The program the worker runs (`enrollflow`); without one, impacts run on the draft thread.
    worker_program: Option<PathBuf>,
    /// The worker, started at the first impact and again after it failed.
    worker: tokio::sync::Mutex<Option<Worker>>,
}

/// The draft worker's process and its pipes.
struct Worker {
    child: tokio::process::Child,
    input: tokio::process::ChildStdin,
    output: tokio::io::BufReader<tokio::process::ChildStdout>,
}

/// How long past its budget a worker may take to answer before it is stopped (a rule that loops
/// between two budget checks).
const WORKER_GRACE: Duration = Duration::from_secs(10);

impl Drafts {
    /// Draft work with impacts in a worker running `program draft-worker`.
    pub fn with_worker(program: Option<PathBuf>) -> Self {
        Drafts {
            worker_program: program,
            ..Drafts::default()
        }
    }

    /// Works out an impact in the draft worker (on the draft thread where there is none). The
    /// worker is started when needed; one that fails or runs past the budget and its grace is
    /// stopped, and the next impact starts another.
    pub async fn impact(
        &self,
        job: crate::rules::draft_worker::Job,
    ) -> Result<Result<crate::rules::impact::Report, Vec<String>>, ApiError> {
        let Some(program) = self.worker_program.clone() else {
            // On the draft thread: the job as the worker would work it out.
            return self
                .run(move || crate::rules::draft_worker::work(job, &mut None).into())
                .await;
        };
        let limit = Duration::from_millis(job.budget_ms) + WORKER_GRACE;
        let budget_secs = job.budget_of_secs;
        let line = serde_json::to_vec(&job).map_err(|e| ApiError::Internal(e.into()))?;
        let mut worker = self.worker.lock().await;
        if worker.is_none() {
            let started = start_worker(&program).map_err(ApiError::Internal)?;
            self.pause.follow(started.child.id());
            *worker = Some(started);
        }
        let Some(running) = worker.as_mut() else {
            return Err(ApiError::Internal(anyhow::anyhow!(
                "the draft worker did not start"
            )));
        };
        match tokio::time::timeout(limit, exchange(running, &line)).await {
            Ok(Ok(answer)) => Ok(answer.into()),
            Ok(Err(e)) => {
                self.pause.follow(None);
                stop(worker.take()).await;
                Err(ApiError::Internal(e.context("the draft worker failed")))
            }
            Err(_) => {
                self.pause.follow(None);
                stop(worker.take()).await;
                Ok(Err(vec![Budget::spent_message(budget_secs)]))
            }
        }
    }

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

/// Consumers first: while any request other than the workbench's own is in flight, and for
/// [`QUIET`] after the last one, the draft worker is stopped (SIGSTOP); it goes on (SIGCONT) once
/// the server has been quiet that long. On a machine of two cores a busy worker slowed consumers'
/// saves two- to threefold whatever its priority: it ran beside them on the other core, and each
/// of its bursts between two requests left the next one to caches it had filled. Stopped, it takes
/// nothing from them and works while nobody is asking. Its budget runs on meanwhile, so on a server
/// that is never quiet an impact stops at its budget and says so.
#[derive(Default, Clone)]
pub struct Pause(std::sync::Arc<PauseState>);

#[derive(Default)]
struct PauseState {
    in_flight: AtomicUsize,
    /// Counts the times the server went busy: a continue waits for its own quiet to last.
    busy_spells: AtomicUsize,
    worker: std::sync::Mutex<Followed>,
}

/// The worker followed: its process id (0: none), whether it is stopped, and until when it runs
/// whatever the requests in flight (its share).
#[derive(Default, Clone, Copy)]
struct Followed {
    pid: i32,
    stopped: bool,
    share_until: Option<Instant>,
}

/// How long the server must have had no request in flight before the worker goes on.
pub const QUIET: Duration = Duration::from_millis(100);
/// On a server that is never quiet the worker still runs [`SHARE`] of every [`SHARE_EVERY`]
/// (2 %): an ordinary impact (1,000 households) ends in well under its budget.
pub const SHARE: Duration = Duration::from_millis(20);
pub const SHARE_EVERY: Duration = Duration::from_secs(1);

/// A request in flight, counted until it is dropped.
pub struct InFlight(Pause);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.went_quiet();
        }
    }
}

impl Pause {
    /// Counts a request in flight (the worker stops at the first).
    pub fn enter(&self) -> InFlight {
        if self.0.in_flight.fetch_add(1, Ordering::AcqRel) == 0 {
            self.0.busy_spells.fetch_add(1, Ordering::AcqRel);
            self.settle();
        }
        InFlight(self.clone())
    }

    /// No request is in flight: the worker goes on if it stays so for [`QUIET`].
    fn went_quiet(&self) {
        if self.0.worker.lock().unwrap_or_else(|e| e.into_inner()).pid == 0 {
            return;
        }
        let spell = self.0.busy_spells.load(Ordering::Acquire);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.settle();
            return;
        };
        let pause = self.clone();
        runtime.spawn(async move {
            tokio::time::sleep(QUIET).await;
            if pause.0.busy_spells.load(Ordering::Acquire) == spell {
                pause.settle();
            }
        });
    }

    /// The worker to stop and go on from now (`None`: it ended), with its share on a busy server.
    fn follow(&self, pid: Option<u32>) {
        let pid = pid.and_then(|p| i32::try_from(p).ok()).unwrap_or(0);
        *self.0.worker.lock().unwrap_or_else(|e| e.into_inner()) = Followed {
            pid,
            ..Followed::default()
        };
        self.settle();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if pid == 0 {
            return;
        }
        let pause = self.clone();
        runtime.spawn(async move {
            let mut every = tokio::time::interval(SHARE_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every.tick().await;
            loop {
                every.tick().await;
                {
                    let mut w = pause.0.worker.lock().unwrap_or_else(|e| e.into_inner());
                    if w.pid != pid {
                        return;
                    }
                    if !w.stopped {
                        continue;
                    }
                    w.share_until = Some(Instant::now() + SHARE);
                    if signal(pid, nix::sys::signal::Signal::SIGCONT) {
                        w.stopped = false;
                    }
                }
                tokio::time::sleep(SHARE).await;
                pause.settle();
            }
        });
    }

    /// Stops or continues the worker as the count says. Under the lock, the last to look sends the
    /// signal the count asks for, so a stop and a continue sent in the wrong order are corrected.
    fn settle(&self) {
        let mut worker = self.0.worker.lock().unwrap_or_else(|e| e.into_inner());
        if worker.pid == 0 {
            return;
        }
        let sharing = worker.share_until.is_some_and(|t| Instant::now() < t);
        let busy = self.0.in_flight.load(Ordering::Acquire) > 0 && !sharing;
        if busy != worker.stopped {
            let to = if busy {
                nix::sys::signal::Signal::SIGSTOP
            } else {
                nix::sys::signal::Signal::SIGCONT
            };
            if signal(worker.pid, to) {
                worker.stopped = busy;
            }
        }
    }
}

/// Sends `to` to process `pid`; whether it was sent.
fn signal(pid: i32, to: nix::sys::signal::Signal) -> bool {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), to).is_ok()
}

/// Starts `program draft-worker` in a session of its own (`setsid`, so that its priority group is
/// its own; without `setsid`, in the server's), its input and output piped, its errors the server's.
fn start_worker(program: &std::path::Path) -> anyhow::Result<Worker> {
    use std::process::Stdio;
    let setsid = ["/usr/bin/setsid", "/bin/setsid"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let mut command = match setsid {
        Some(setsid) => {
            let mut c = tokio::process::Command::new(setsid);
            c.arg(program);
            c
        }
        None => {
            tracing::warn!("no setsid: the draft worker shares the server's priority group");
            tokio::process::Command::new(program)
        }
    };
    let mut child = command
        .arg("draft-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| anyhow::anyhow!("the draft worker could not start: {e}"))?;
    let input = child
        .stdin
        .take()
        .ok_or_else(|| anyhow::anyhow!("the draft worker has no input"))?;
    let output = child
        .stdout
        .take()
        .ok_or_else(|| anyhow::anyhow!("the draft worker has no output"))?;
    Ok(Worker {
        child,
        input,
        output: tokio::io::BufReader::new(output),
    })
}

/// Sends one job and reads its answer.
async fn exchange(
    worker: &mut Worker,
    line: &[u8],
) -> anyhow::Result<crate::rules::draft_worker::Answer> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    worker.input.write_all(line).await?;
    worker.input.write_all(b"\n").await?;
    worker.input.flush().await?;
    let mut answer = String::new();
    if worker.output.read_line(&mut answer).await? == 0 {
        anyhow::bail!("the draft worker ended without an answer");
    }
    Ok(serde_json::from_str(&answer)?)
}

/// Stops a worker that failed or ran past its time.
async fn stop(worker: Option<Worker>) {
    if let Some(mut w) = worker {
        let _ = w.child.kill().await;
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
    if !crate::rules::draft_worker::quietly("renice", &["-n", "19", "-p", &tid]) {
        tracing::warn!("the draft thread keeps its priority: renice failed");
    }
}

/// Held while an impact runs on this instance; the next is refused (429) until it ends.
pub struct ImpactTurn {
    _held: tokio::sync::OwnedMutexGuard<()>,
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

    /// The state letter of process `pid` (`T` stopped, `S` asleep, `R` running).
    fn state_of(pid: u32) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat.rsplit_once(')')?
            .1
            .split_whitespace()
            .next()?
            .chars()
            .next()
    }

    /// Waits (up to a generous bound) until `pid` is in one of `states`.
    async fn reaches(pid: u32, states: &[char]) -> Option<char> {
        for _ in 0..500 {
            match state_of(pid) {
                Some(s) if states.contains(&s) => return Some(s),
                _ => tokio::time::sleep(Duration::from_millis(10)).await,
            }
        }
        state_of(pid)
    }

    /// A process for a pause to follow in a worker's stead (`sleep 60`), and the pause.
    fn followed() -> (tokio::process::Child, u32, Pause) {
        let child = tokio::process::Command::new("sleep")
            .arg("60")
            .kill_on_drop(true)
            .spawn()
            .expect("a process to follow");
        let pid = child.id().expect("its id");
        let pause = Pause::default();
        pause.follow(Some(pid));
        (child, pid, pause)
    }

    #[tokio::test]
    async fn the_worker_is_stopped_while_requests_are_in_flight_and_goes_on_once_quiet() {
        let (mut child, pid, pause) = followed();
        assert!(matches!(reaches(pid, &['S', 'R']).await, Some('S' | 'R')));
        let first = pause.enter();
        assert_eq!(
            reaches(pid, &['T']).await,
            Some('T'),
            "stopped at the first request"
        );
        let second = pause.enter();
        drop(first);
        // One request is still in flight: it stays stopped past the quiet time.
        tokio::time::sleep(QUIET * 2).await;
        assert_eq!(state_of(pid), Some('T'));
        drop(second);
        assert!(
            matches!(reaches(pid, &['S', 'R']).await, Some('S' | 'R')),
            "goes on once quiet"
        );
        // A worker that ended is left alone.
        pause.follow(None);
        let _counted = pause.enter();
        tokio::time::sleep(QUIET).await;
        assert!(matches!(state_of(pid), Some('S' | 'R')));
        let _ = child.kill().await;
    }

    #[tokio::test]
    async fn a_server_that_is_never_quiet_still_gives_the_worker_its_share() {
        let (mut child, pid, pause) = followed();
        let _always_busy = pause.enter();
        assert_eq!(reaches(pid, &['T']).await, Some('T'));
        // Within a few of its periods it runs again for its share, then is stopped again.
        assert!(
            matches!(reaches(pid, &['S', 'R']).await, Some('S' | 'R')),
            "its share"
        );
        assert_eq!(
            reaches(pid, &['T']).await,
            Some('T'),
            "stopped after its share"
        );
        let _ = child.kill().await;
    }
}
