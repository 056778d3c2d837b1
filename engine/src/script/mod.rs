//! The Rhai sandbox: one engine per rule set with every script registered as a module named after
//! its file (`rules/scripts/census.rhai` -> `census::`), plus the built-in `date::` helpers.
//!
//! Limits: operations, call depth, expression depth, string/array/map sizes, no `eval`, and a
//! wall-clock budget enforced from `on_progress`: per evaluation by default, or one budget for all
//! the evaluations of a request (an `Allowance` the server passes with its work, `spending`). A runaway
//! script fails its evaluation, and so its request, with a clear error.
//!
//! Also here:
//! - Rhai's string interner is off; each script is a module, and expressions are compiled once.
//! - `Record`, the JSON object rules see: a map behind an `Arc`, passed as a pointer and copied on
//!   write, with a getter for every field name of the rule files (`register_fields`); `to_dynamic`
//!   and `to_json` convert.
//! - `Uses` (which of `app`, `ctx` and `input` an expression names, read from its AST) and
//!   `eval_remembered`: an expression naming neither `app` nor `input` runs once per rule set or
//!   per context; the engine also keeps, for one request, the answer of each expression text that
//!   reads the application (`Vars::seen`), by a number each text is given while the rule set loads.
//!   Rules are pure, which is what makes this right: tests
//!   `answers_that_cannot_change_are_remembered`, `rules_cannot_change_the_data_they_are_given`,
//!   `records_read_like_maps`; the scenario suites run with the memory on, coverage without it.
//! - `Loading`: what the expressions compiled during one load share (the scripts' functions for
//!   `calls`, a coverage run's probe, those numbers).
//! - `eval_keeping`: Rhai's function resolutions kept per thread and rule set (`crate::calls` makes
//!   that safe).
//! - The crate's state outside an `Engine` is all here, in thread-locals: the allowance of the call
//!   in progress (`spending`), the deadline and slice of `in_slice`, a draft thread's duty cycle,
//!   `Loading`, `eval_keeping`'s resolutions.

mod budget;
mod compile;
mod diagnostics;
mod expr;
mod record;
mod resolutions;
mod sandbox;

use std::sync::Arc;

use rhai::AST;
use serde_json::Value;

pub use budget::{Allowance, TIME_BUDGET, in_slice, out_of_time, spending, throttle, throttled};
pub use compile::{ExpressionWatch, Uses, compile_expression, compile_module};
pub(crate) use compile::{Loading, compile_module_at};
pub(crate) use expr::ByContext;
pub use record::{Record, register_fields, to_dynamic, to_json, to_lasting_dynamic, with_fields};
pub(crate) use resolutions::keep_resolutions;
pub use sandbox::sandbox;

/// The answers of an expression that does not read the application or the answers: one for the
/// rule set, or one per context (a few: the agents' flags, the day, consumer or agent).
#[derive(Debug, Default)]
struct Memo {
    constant: std::sync::OnceLock<Value>,
    by_context: ByContext<Value>,
}

/// A compiled Rhai expression and where it was written.
#[derive(Debug, Clone)]
pub struct Expr {
    ast: AST,
    /// The same for every expression of the same text in the rule set
    /// ([`LoadState`](compile::LoadState)).
    pub(crate) text_id: u64,
    pub source: String,
    pub file: String,
    pub line: usize,
    pub uses: Uses,
    memo: Arc<Memo>,
}

#[cfg(test)]
mod tests;
