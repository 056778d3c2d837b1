//! Where the rules run (issue 22, item 8): off the async workers, a bounded number at a time, and
//! within one time budget per request.
//!
//! A rule is user-written Rhai: a slow or looping one must not stall the requests that share its
//! worker thread. `run` takes a slot (at most `slots()` evaluations at once; more wait without
//! blocking a thread) and then leaves the async worker for the blocking pool
//! (`tokio::task::block_in_place`: the worker's other tasks move to another thread while this one
//! evaluates). The request's budget (`ENROLLFLOW_RULE_BUDGET_MS`) is one allowance for all the
//! evaluations it makes, wherever they run: `layer` gives it, every evaluation spends from it (the
//! engine asks `install`'s source), and a rule that runs past what is left stops and fails its
//! request.
//!
//! Work outside a request (background tasks, the CLI) has the engine's budget per evaluation.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::Semaphore;

use crate::state::AppState;

tokio::task_local! {
    /// What is left of the request's rule budget.
    static LEFT: Cell<Duration>;
}

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

/// Makes the engine draw every evaluation's time from the request's budget (once per process).
pub fn install() {
    enrollflow_engine::script::set_budget_source(enrollflow_engine::script::BudgetSource {
        left: || LEFT.try_with(Cell::get).ok(),
        spend: |d| {
            let _ = LEFT.try_with(|l| l.set(l.get().saturating_sub(d)));
        },
    });
}

/// Gives the request its rule budget.
pub async fn layer(State(app): State<AppState>, req: Request, next: Next) -> Response {
    LEFT.scope(Cell::new(app.config.rule_budget()), next.run(req))
        .await
}

/// Runs rule work (anything that evaluates the rules) off the async workers, a bounded number at
/// a time; its evaluations spend the request's budget.
pub async fn run<R>(work: impl FnOnce() -> R) -> R {
    // The semaphore is never closed, so acquiring only waits.
    let _slot = semaphore().acquire().await.ok();
    let multi_thread =
        Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
    // A current-thread runtime (most tests) has no other worker to hand its tasks to.
    if multi_thread {
        tokio::task::block_in_place(work)
    } else {
        work()
    }
}

/// Counts a rule stopped by its budget (`enrollflow_rule_budget_exceeded_total`).
pub fn note_failure(e: &enrollflow_engine::Diagnostic) {
    if enrollflow_engine::script::out_of_time(e) {
        metrics::counter!("enrollflow_rule_budget_exceeded_total").increment(1);
        tracing::warn!("a request's rules ran past its rule budget");
    }
}
