//! Running scenario suites, one file or many side by side, and each scenario's steps in order.

use serde_json::Value;
use serde_saphyr::Spanned;

use super::plans::{go_on, quote, select};
use super::renewals::{renew, renewal};
use super::steps::{after, submit};
use super::view::view;
use super::{Scenario, ScenarioResult};
use enrollflow_engine::diagnostic::Diagnostic;
use enrollflow_engine::{Engine, yaml};

/// Runs every scenario of one suite file.
pub fn run_suite(
    engine: &Engine,
    path: &str,
    text: &str,
) -> Result<Vec<ScenarioResult>, Diagnostic> {
    run_suite_matching(engine, path, text, |_| true)
}

/// Runs the scenarios of one suite file whose name `keep` accepts.
pub fn run_suite_matching(
    engine: &Engine,
    path: &str,
    text: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<ScenarioResult>, Diagnostic> {
    let scenarios: Vec<Spanned<Scenario>> = yaml::parse(path, text)?;
    Ok(scenarios
        .iter()
        .filter(|s| keep(&s.value.name))
        .map(|s| run(engine, path, s))
        .collect())
}

/// Runs many suite files side by side, one thread per core taking the next file in turn (the
/// engine is shared; each scenario runs on one thread): each file's results, in the order given.
/// A suite set of 240 scenarios runs about twice as fast on two cores. Not for an engine loaded
/// for coverage: its hits are counted under one lock, which threads would take in turn.
pub fn run_suites<K>(
    engine: &Engine,
    suites: &[(&str, &str)],
    keep: K,
) -> Vec<Result<Vec<ScenarioResult>, Diagnostic>>
where
    K: Fn(&str) -> bool + Sync,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Throttled work (a draft's) keeps to one thread.
    let throttle = enrollflow_engine::script::throttled();
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(suites.len());
    let threads = if throttle.is_some() { 1 } else { threads };
    if threads <= 1 {
        return suites
            .iter()
            .map(|(path, text)| run_suite_matching(engine, path, text, &keep))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<Result<Vec<ScenarioResult>, Diagnostic>>> =
        std::iter::repeat_with(|| None).take(suites.len()).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((path, text)) = suites.get(i) else {
                            return done;
                        };
                        done.push((i, run_suite_matching(engine, path, text, &keep)));
                    }
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(done) => {
                    for (i, r) in done {
                        out[i] = Some(r);
                    }
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    out.into_iter().flatten().collect()
}

const ONE_OF: &str = "give exactly one of `submit`, `view`, `after`, `select`, `continue`, `valid`, \
                      `reopen`, `quote`, `renew` or `renewal`";

fn run(engine: &Engine, path: &str, spanned: &Spanned<Scenario>) -> ScenarioResult {
    let s = &spanned.value;
    let mut failures = Vec::new();
    let mut app = Value::Object(s.app.clone());
    for (i, step) in s.steps.iter().enumerate() {
        let a = &step.value;
        let at = format!("{path}:{}: step {}", yaml::line_of(step), i + 1);
        let actions = [
            a.submit.is_some(),
            a.view.is_some(),
            a.valid.is_some(),
            a.after.is_some(),
            a.reopen.is_some(),
            a.quote.is_some(),
            a.select.is_some(),
            a.go_on.is_some(),
            a.renew.is_some(),
            a.renewal.is_some(),
        ];
        let r = match (&a.submit, &a.view, &a.valid, &a.after) {
            _ if actions.iter().filter(|x| **x).count() != 1 => vec![format!("{at}: {ONE_OF}")],
            _ if a.quote.is_some() => quote(engine, &app, a, &s.context, &at),
            _ if a.select.is_some() => select(engine, &mut app, a, &s.context, &at),
            _ if a.go_on.is_some() => go_on(engine, &mut app, a, &s.context, &at),
            _ if a.renewal.is_some() => renewal(engine, &app, a, &s.context, &at),
            _ if a.renew.is_some() => {
                let id = a.renew.unwrap_or_default();
                renew(engine, &app, id, &a.expect, &s.context, &at)
            }
            (None, None, None, None) if a.reopen.is_some() => {
                let step = a.reopen.as_deref().unwrap_or_default();
                match engine.reopen(step, &app, &s.context) {
                    Ok(flags) => {
                        let reopened = flags.is_some();
                        if let (Some(Value::Object(f)), Value::Object(m)) = (flags, &mut app) {
                            m.extend(f);
                        }
                        match a.expect.allowed {
                            Some(want) if want != reopened => vec![format!(
                                "{at}: reopening `{step}` was {}, expected {}",
                                if reopened { "allowed" } else { "refused" },
                                if want { "allowed" } else { "refused" }
                            )],
                            _ => vec![],
                        }
                    }
                    Err(e) => vec![format!("{at}: {e}")],
                }
            }
            (Some(step), None, None, None) => submit(engine, &mut app, step, a, &s.context, &at),
            (None, Some(step), None, None) => view(engine, &app, step, &a.expect, &s.context, &at),
            (None, None, None, Some(step)) => after(engine, &mut app, step, a, &s.context, &at),
            (None, None, Some(step), None) => match engine.valid_step(step, &app, &s.context) {
                Ok(allowed) => match a.expect.allowed {
                    Some(want) if want != allowed => {
                        vec![format!(
                            "{at}: `{step}` allowed is {allowed}, expected {want}"
                        )]
                    }
                    _ => vec![],
                },
                Err(e) => vec![format!("{at}: {e}")],
            },
            _ => vec![format!("{at}: {ONE_OF}")],
        };
        let stop = !r.is_empty();
        failures.extend(r);
        if stop {
            break;
        }
    }
    ScenarioResult {
        name: s.name.clone(),
        line: yaml::line_of(spanned),
        failures,
    }
}
