//! A scenario's form steps: `submit` (answers, then what must follow) and `after` (a page saved
//! its part).

use serde_json::{Map, Value};

use super::Action;
use super::checks::{check_flags, check_next, check_summary};
use enrollflow_engine::{Context, Engine, Submission};

pub(super) fn after(
    engine: &Engine,
    app: &mut Value,
    step: &str,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    if let Value::Object(m) = app {
        for (k, v) in &a.set {
            m.insert(k.clone(), v.clone());
        }
    }
    match engine.next_after(step, app, ctx) {
        Ok(next) => {
            if let Value::Object(m) = app {
                let last = m.get("last_step").and_then(Value::as_u64).unwrap_or(0);
                m.insert(
                    "last_step".into(),
                    Value::from(last.max(u64::from(next.number))),
                );
            }
            match &a.expect.next {
                Some(want) if *want != next.id => {
                    vec![format!(
                        "{at}: after `{step}` went to `{}`, expected `{want}`",
                        next.id
                    )]
                }
                _ => vec![],
            }
        }
        Err(e) => vec![format!("{at}: {e}")],
    }
}

pub(super) fn submit(
    engine: &Engine,
    app: &mut Value,
    step: &str,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let mut f = Vec::new();
    let input = a.with.clone().unwrap_or(Value::Object(Map::new()));
    let e = &a.expect;
    match engine.submit(step, &input, app, ctx) {
        Err(err) => f.push(format!("{at}: {err}")),
        Ok(Submission::Invalid { errors }) => {
            let keys: Vec<String> = errors.keys().cloned().collect();
            match &e.errors {
                Some(want) => {
                    let mut want = want.clone();
                    want.sort();
                    if want != keys {
                        f.push(format!(
                            "{at}: errors on {keys:?}, expected {want:?} ({errors:?})"
                        ));
                    }
                }
                None => f.push(format!("{at}: `{step}` was refused: {errors:?}")),
            }
            for (k, text) in &e.messages {
                let found = errors
                    .get(k)
                    .is_some_and(|l| l.iter().any(|m| m.contains(text.as_str())));
                if !found {
                    f.push(format!(
                        "{at}: no message on `{k}` containing `{text}` ({errors:?})"
                    ));
                }
            }
        }
        Ok(Submission::Accepted(t)) => {
            if e.errors.as_ref().is_some_and(|w| !w.is_empty()) {
                f.push(format!("{at}: accepted, expected errors on {:?}", e.errors));
            }
            check_next(&mut f, at, &t.next.id, e);
            let modal = t.modal.clone().unwrap_or_else(|| "none".into());
            if let Some(want) = &e.modal
                && *want != modal
            {
                f.push(format!("{at}: asked `{modal}`, expected `{want}`"));
            }
            if let Value::Object(m) = app {
                m.insert(step.to_string(), t.answers.clone());
                for (k, v) in &t.updates {
                    m.insert(k.clone(), v.clone());
                }
            }
            check_flags(&mut f, at, app, e);
            check_summary(&mut f, at, engine, app, e);
        }
    }
    f
}
