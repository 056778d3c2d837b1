//! Where the rules run: off the async workers, a bounded number at a time, and
//! within one time budget per request.
//!
//! A rule is user-written Rhai: a slow or looping one must not stall the requests that share its
//! worker thread. `run` takes a slot (at most `slots()` evaluations at once; more wait without
//! blocking a thread), then runs the work on the worker in a slice of `SLICE` (most rule work,
//! a step's submission and summary, takes a few hundred microseconds). Work that runs past the
//! slice stops there and runs again off the async worker (`tokio::task::block_in_place`: the
//! worker's other tasks move to another thread while this one evaluates), so a slow rule holds
//! its neighbours up for one slice at most. Leaving the worker at every call cost a fifth of the
//! server's CPU per step save (docs/performance.md): the hand-over wakes another thread.
//!
//! The request's budget (`ENROLLFLOW_RULE_BUDGET_MS`) is one allowance for all the evaluations it
//! makes, wherever they run: a `RuleBudget` value the session layer makes for the request and
//! the work carries (`run` takes it), every evaluation spends from it, and a rule that runs past
//! what is left stops and fails its request.
//!
//! Work outside a request (background tasks, the CLI) has the engine's budget per evaluation.
//!
//! A run moved off the worker is counted (`enrollflow_rule_work_moved_total`). The flow's summary,
//! evaluated at every save, spends from the same budget (`app::applying::open::saving`; a step save works
//! it out in the same `run` as its submission, `open::summarize`). Checked by
//! `server/tests/api/reload.rs` on a one-worker runtime
//! (`a_runaway_rule_fails_its_request_in_time…`, which fails without the hand-off;
//! `a_runaway_summary_fails_its_save_in_time…`: nothing is written and the server answers
//! meanwhile), the tests below (work past its slice runs again and keeps its answer) and
//! `engine::script::tests::work_in_a_slice_ends_with_it…`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use enrollflow_engine::script::{Allowance, spending};
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::Semaphore;

/// One request's rule time (`ENROLLFLOW_RULE_BUDGET_MS`): made by the session layer for each
/// request (`Session::budget`) and carried with its work as a value (a use case's `Caller`, an
/// opened step), so every evaluation of the request spends from it.
pub type RuleBudget = Arc<Allowance>;

/// A budget of `d` for one request's rule work.
pub fn budget(d: Duration) -> RuleBudget {
    Allowance::new(d)
}

/// How long rule work may run on an async worker before it moves off it.
pub const SLICE: Duration = Duration::from_millis(2);

/// How many evaluations may run at once: one per core, and two at least.
pub fn slots() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(2)
        .max(2)
}

fn semaphore() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| Semaphore::new(slots()))
}

/// Runs rule work (anything that evaluates the rules), a bounded number at a time: on the async
/// worker for one `SLICE`, then, when it needs longer, again from the start off the async
/// workers. Its evaluations spend the request's budget. The work must give the same answer when
/// run twice (rules are pure; it may draw new random nonces).
pub async fn run<R>(budget: &RuleBudget, work: impl Fn() -> R) -> R {
    run_sliced(SLICE, budget, work).await
}

async fn run_sliced<R>(slice: Duration, budget: &RuleBudget, work: impl Fn() -> R) -> R {
    // The semaphore is never closed, so acquiring only waits.
    let _slot = semaphore().acquire().await.ok();
    let multi_thread =
        Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
    // A current-thread runtime (most tests) has no other worker to hand its tasks to.
    if !multi_thread {
        return spending(budget, work);
    }
    if let Some(done) = enrollflow_engine::script::in_slice(slice, || spending(budget, &work)) {
        return done;
    }
    metrics::counter!("enrollflow_rule_work_moved_total").increment(1);
    tokio::task::block_in_place(|| spending(budget, work))
}

/// Counts a rule stopped by its budget (`enrollflow_rule_budget_exceeded_total`).
pub fn note_failure(e: &enrollflow_engine::Diagnostic) {
    if enrollflow_engine::script::out_of_time(e) {
        metrics::counter!("enrollflow_rule_budget_exceeded_total").increment(1);
        tracing::warn!("a request's rules ran past its rule budget");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn work_that_needs_longer_than_its_slice_runs_again_off_the_worker_and_keeps_its_answer()
    {
        let engine = enrollflow_engine::script::sandbox();
        let sum = enrollflow_engine::script::compile_expression(&engine, "f.yaml", 1, "40 + 2")
            .expect("compiles");
        let runs = AtomicUsize::new(0);
        let slice = Duration::from_millis(1);
        let answer = run_sliced(slice, &budget(Duration::from_secs(60)), || {
            // The first run takes longer than its slice before it evaluates.
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                std::thread::sleep(slice * 5);
            }
            sum.eval(&engine, &[])
        })
        .await;
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        assert_eq!(answer.ok(), Some(serde_json::json!(42)));
        // Work within its slice runs once.
        let runs = AtomicUsize::new(0);
        let quick = run_sliced(
            Duration::from_secs(60),
            &budget(Duration::from_secs(60)),
            || {
                runs.fetch_add(1, Ordering::SeqCst);
                sum.eval(&engine, &[])
            },
        )
        .await;
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(quick.ok(), Some(serde_json::json!(42)));
    }
}
