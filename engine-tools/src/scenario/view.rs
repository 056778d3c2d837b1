//! A scenario's `view` step: what a step shows (fields, choices, heading, texts and data).

use serde_json::Value;

use super::Expect;
use super::checks::same;
use enrollflow_engine::{Context, Engine, form_paths as form};

pub(super) fn view(
    engine: &Engine,
    app: &Value,
    step: &str,
    e: &Expect,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let mut f = Vec::new();
    let v = match engine.step_view(step, app, ctx) {
        Ok(v) => v,
        Err(err) => return vec![format!("{at}: {err}")],
    };
    for p in &e.fields {
        if form::schema_at(&v.schema, &form::parse_path(p)).is_none() {
            f.push(format!("{at}: `{step}` does not show `{p}`"));
        }
    }
    for p in &e.absent {
        if form::schema_at(&v.schema, &form::parse_path(p)).is_some() {
            f.push(format!("{at}: `{step}` shows `{p}`, expected it absent"));
        }
    }
    for (p, want_required) in e
        .required
        .iter()
        .map(|p| (p, true))
        .chain(e.optional.iter().map(|p| (p, false)))
    {
        let path = form::parse_path(p);
        let required = match path.split_last() {
            Some((last, parent)) => form::schema_at(&v.schema, parent)
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(last))),
            None => false,
        };
        if required != want_required {
            let what = if want_required {
                "required"
            } else {
                "optional"
            };
            f.push(format!("{at}: `{p}` of `{step}` is not {what}"));
        }
    }
    for (p, want) in &e.options {
        let got: Vec<Value> = form::schema_at(&v.schema, &form::parse_path(p))
            .and_then(|s| s.get("oneOf").or_else(|| s.get("enum")))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|c| c.get("const").cloned().unwrap_or_else(|| c.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let same_list = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| same(g, w));
        if !same_list {
            f.push(format!("{at}: `{p}` offers {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = &e.title
        && *want != v.step.title
    {
        f.push(format!(
            "{at}: the heading of `{step}` is `{}`, expected `{want}`",
            v.step.title
        ));
    }
    if let Some(want) = e.skipped
        && want != v.skipped
    {
        f.push(format!(
            "{at}: `{step}` skipped is {}, expected {want}",
            v.skipped
        ));
    }
    for (label, want, got) in [
        ("Previous on", &e.previous, &v.previous),
        ("the step after", &e.next, &v.next),
    ] {
        let got = got.as_ref().map_or("none", |p| p.id.as_str());
        if let Some(want) = want
            && want != got
        {
            f.push(format!(
                "{at}: {label} `{step}` is `{got}`, expected `{want}`"
            ));
        }
    }
    for (p, words) in &e.texts {
        let shown = dotted(&v.extras, p).or_else(|| dotted(&v.data, p));
        let text = shown.map(|t| match t {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        if !text.as_deref().is_some_and(|t| t.contains(words.as_str())) {
            f.push(format!(
                "{at}: text `{p}` is {text:?}, expected it to contain `{words}`"
            ));
        }
    }
    for (label, source, wanted) in [("data", &v.data, &e.data), ("extras", &v.extras, &e.extras)] {
        for (p, want) in wanted {
            let got = dotted(source, p);
            if !got.is_some_and(|g| same(g, want)) {
                f.push(format!("{at}: {label} `{p}` is {got:?}, expected {want}"));
            }
        }
    }
    f
}

fn dotted<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(v, |v, seg| match seg.parse::<usize>() {
            Ok(i) if v.is_array() => v.get(i),
            _ => v.get(seg),
        })
}
