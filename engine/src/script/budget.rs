//! The time rules may take: each evaluation's wall-clock budget or the request's (an `Allowance`
//! the host passes with the work, `spending`), the slice of a thread that work must give back
//! (`in_slice`), and a thread's duty cycle (`throttle`).

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::diagnostic::Diagnostic;

/// Wall-clock budget of one evaluation.
pub const TIME_BUDGET: Duration = Duration::from_millis(250);

thread_local! {
    /// The deadline of the evaluation running on this thread.
    pub(super) static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// While work runs in a slice of a thread it must give back (`in_slice`): the slice's end.
    static SLICE_END: Cell<Option<Instant>> = const { Cell::new(None) };
    /// An evaluation of the work in progress stopped at the slice's end.
    pub(super) static SLICE_OVER: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` in a slice of this thread: an evaluation of it that would run past `slice` stops
/// there (and any evaluation it starts later stops at once), and the answer is `None`, so that
/// the host runs the work again where it may take its whole budget. Rules are pure, so a second
/// run gives what the first would have. The server runs rule work so on its async workers, and
/// only work that needs longer leaves them (`evaluation.rs`). The time a stopped run took is
/// spent from the request's budget like any other.
pub fn in_slice<R>(slice: Duration, work: impl FnOnce() -> R) -> Option<R> {
    /// Gives back the slice this one is inside of, if any, when it ends (a panic included).
    struct Slice {
        outer: (Option<Instant>, bool),
    }
    impl Drop for Slice {
        fn drop(&mut self) {
            SLICE_END.with(|e| e.set(self.outer.0));
            SLICE_OVER.with(|o| o.set(self.outer.1));
        }
    }
    let outer = (
        SLICE_END.with(|e| e.replace(Some(Instant::now() + slice))),
        SLICE_OVER.with(|o| o.replace(false)),
    );
    let slice = Slice { outer };
    let r = work();
    let over = SLICE_OVER.with(Cell::get);
    drop(slice);
    if over { None } else { Some(r) }
}

pub(super) fn slice_is_on() -> bool {
    SLICE_END.with(Cell::get).is_some()
}

/// Whether the slice this thread runs in is over; notes it for `in_slice`.
pub(super) fn slice_over(now: Instant) -> bool {
    let over = SLICE_END.with(|e| e.get().is_some_and(|t| now > t));
    if over {
        SLICE_OVER.with(|o| o.set(true));
    }
    over
}

pub(super) const SLICE_OVER_MESSAGE: &str = "rule stopped: its work moves off the async worker";

/// One request's rule time, for a host that gives each request one budget for all its evaluations
/// (the server: `evaluation.rs`) instead of `TIME_BUDGET` for each: a value the host passes with
/// the work (`spending`), shared by the request's evaluations wherever they run.
#[derive(Debug)]
pub struct Allowance {
    left_nanos: AtomicU64,
}

impl Allowance {
    pub fn new(budget: Duration) -> Arc<Self> {
        Arc::new(Allowance {
            left_nanos: AtomicU64::new(u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX)),
        })
    }

    /// What is left.
    pub fn left(&self) -> Duration {
        Duration::from_nanos(self.left_nanos.load(Ordering::Relaxed))
    }

    fn spend(&self, d: Duration) {
        let d = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let _ = self
            .left_nanos
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
                Some(l.saturating_sub(d))
            });
    }
}

thread_local! {
    /// The allowance the work in progress on this thread spends from (`spending`).
    static ALLOWANCE: RefCell<Option<Arc<Allowance>>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread with every evaluation it makes drawing on `allowance`; an
/// evaluation that runs past what is left stops (and says the request's budget ran out).
pub fn spending<R>(allowance: &Arc<Allowance>, work: impl FnOnce() -> R) -> R {
    /// Puts back the allowance this call is inside of, if any, when it ends (a panic included).
    struct Outer(Option<Arc<Allowance>>);
    impl Drop for Outer {
        fn drop(&mut self) {
            let outer = self.0.take();
            ALLOWANCE.with(|a| *a.borrow_mut() = outer);
        }
    }
    let _outer = Outer(ALLOWANCE.with(|a| a.replace(Some(allowance.clone()))));
    work()
}

fn current_allowance() -> Option<Arc<Allowance>> {
    ALLOWANCE.with(|a| a.borrow().clone())
}

pub(super) fn shared_budget_left() -> Option<Duration> {
    current_allowance().map(|a| a.left())
}

/// Whether `e` is an evaluation stopped by its time budget.
pub fn out_of_time(e: &Diagnostic) -> bool {
    e.message.contains(OUT_OF_TIME)
}

pub(super) const OUT_OF_TIME: &str = "rule stopped: it ran past its time budget";

thread_local! {
    /// This thread's duty cycle, if it has one: work at most `run`, then rest `rest` (since when).
    static THROTTLE: std::cell::Cell<Option<(Duration, Duration, Instant)>> =
        const { std::cell::Cell::new(None) };
}

/// Gives this thread's rule work a duty cycle (`Some((run, rest))`: at most `run` of work, then
/// `rest` asleep), or takes it away. Work nobody is waiting on (an analyst's draft) then leaves the
/// machine's cores to the requests people wait for, whatever the operating system's scheduler
/// makes of thread priorities.
pub fn throttle(run_rest: Option<(Duration, Duration)>) {
    THROTTLE.with(|t| t.set(run_rest.map(|(run, rest)| (run, rest, Instant::now()))));
}

/// This thread's duty cycle, to give to the threads it starts.
pub fn throttled() -> Option<(Duration, Duration)> {
    THROTTLE.with(|t| t.get().map(|(run, rest, _)| (run, rest)))
}

/// Rests when this thread's duty cycle says so (checked with the time budget).
pub(super) fn rest_if_due(now: Instant) {
    THROTTLE.with(|t| {
        if let Some((run, rest, since)) = t.get()
            && now.duration_since(since) >= run
        {
            std::thread::sleep(rest);
            t.set(Some((run, rest, Instant::now())));
        }
    });
}

/// Sets this thread's deadline for the evaluation in progress (what is left of the request's
/// budget, or `TIME_BUDGET`); clears it when dropped, and spends the time from the request's.
pub(super) struct Budget {
    pub(super) started: Instant,
    shared: bool,
}

impl Budget {
    pub(super) fn start() -> Self {
        let started = Instant::now();
        let left = shared_budget_left();
        DEADLINE.with(|d| d.set(Some(started + left.unwrap_or(TIME_BUDGET))));
        Budget {
            started,
            shared: left.is_some(),
        }
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
        if self.shared
            && let Some(allowance) = current_allowance()
        {
            allowance.spend(self.started.elapsed());
        }
    }
}
