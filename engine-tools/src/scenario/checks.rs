//! What a step of a scenario checks after a save: where it went, the application's flags and
//! its summary, with the equality scenarios are written for.

use serde_json::Value;

use super::Expect;
use enrollflow_engine::Engine;

pub(super) fn check_next(f: &mut Vec<String>, at: &str, went: &str, e: &Expect) {
    if let Some(want) = &e.next
        && want != went
    {
        f.push(format!("{at}: went to `{went}`, expected `{want}`"));
    }
}

pub(super) fn check_flags(f: &mut Vec<String>, at: &str, app: &Value, e: &Expect) {
    for (k, want) in &e.flags {
        let got = app.get(k).cloned().unwrap_or(Value::Null);
        if !same(&got, want) {
            f.push(format!("{at}: flag `{k}` is {got}, expected {want}"));
        }
    }
}

/// Every save keeps the application's summary (as the server does): it must evaluate, and match
/// `expect.summary`.
pub(super) fn check_summary(
    f: &mut Vec<String>,
    at: &str,
    engine: &Engine,
    app: &Value,
    e: &Expect,
) {
    let summary = match engine.summary(app) {
        Ok(s) => serde_json::to_value(s).unwrap_or(Value::Null),
        Err(err) => {
            f.push(format!("{at}: the summary: {err}"));
            return;
        }
    };
    for (k, want) in &e.summary {
        let got = summary.get(k).cloned().unwrap_or(Value::Null);
        if !same(&got, want) {
            f.push(format!("{at}: summary `{k}` is {got}, expected {want}"));
        }
    }
}

/// Equality that lets a scenario write `1` for `1.0`, or `"2"` for a number where the data is text.
pub(super) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::Number(y)) | (Value::Number(y), Value::String(x)) => {
            *x == y.to_string()
        }
        _ => a == b,
    }
}
