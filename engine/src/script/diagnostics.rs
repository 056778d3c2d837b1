//! Rhai's errors as diagnostics: a syntax error, or a run stopped (by its budget, its slice or a
//! limit of the sandbox).

use std::cell::Cell;

use rhai::EvalAltResult;

use super::budget::{
    OUT_OF_TIME, SLICE_OVER, SLICE_OVER_MESSAGE, TIME_BUDGET, shared_budget_left, slice_is_on,
};
use crate::diagnostic::Diagnostic;

pub(super) fn parse_diagnostic(file: &str, line_offset: usize, e: &rhai::ParseError) -> Diagnostic {
    let pos = e.position();
    Diagnostic::new(
        file,
        line_offset + pos.line().unwrap_or(1),
        pos.position().unwrap_or(1),
        format!("syntax error: {}", lowercase_first(&e.0.to_string())),
    )
}

pub(super) fn runtime_diagnostic(file: &str, line_offset: usize, e: &EvalAltResult) -> Diagnostic {
    let pos = e.position();
    let message = match e.unwrap_inner() {
        EvalAltResult::ErrorTerminated(..) if slice_is_on() && SLICE_OVER.with(Cell::get) => {
            SLICE_OVER_MESSAGE.to_string()
        }
        EvalAltResult::ErrorTerminated(..) => match shared_budget_left() {
            Some(_) => format!("{OUT_OF_TIME} (the request's)"),
            None => format!("{OUT_OF_TIME} of {} ms", TIME_BUDGET.as_millis()),
        },
        EvalAltResult::ErrorTooManyOperations(..) => {
            "rule stopped: it ran too many operations (an endless loop?)".to_string()
        }
        EvalAltResult::ErrorStackOverflow(..) => {
            "rule stopped: calls nest too deeply (endless recursion?)".to_string()
        }
        EvalAltResult::ErrorDataTooLarge(what, ..) => {
            format!("rule stopped: {} grew too large", what.to_lowercase())
        }
        inner => lowercase_first(&inner.to_string()),
    };
    Diagnostic::new(
        file,
        line_offset + pos.line().unwrap_or(1),
        pos.position().unwrap_or(1),
        message,
    )
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}
