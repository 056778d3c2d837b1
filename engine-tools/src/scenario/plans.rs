//! A scenario's plan page steps: `quote` (the plans quoted now), `select` (a plan page's choice
//! through its rule), `continue` (a page that saves nothing), and `renew` (where a plan renews
//! next year, by the crosswalk).

use serde_json::{Map, Value};

use super::checks::{check_flags, check_next, check_summary};
use super::{Action, Expect};
use enrollflow_engine::catalog::Successor;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::Filter;
use enrollflow_engine::{Context, Engine, Selection};

/// The plans of a kind quoted for the application now, as the plan pages list them (before a
/// chosen plan is put first), checked against `plans`, `count`, `includes`, `excludes`,
/// `premiums` and `members`.
pub(super) fn quote(
    engine: &Engine,
    app: &Value,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let Some(kind) = a.quote else {
        return vec![];
    };
    let filter = match Filter::parse(a.filters.as_deref().unwrap_or("")) {
        Ok(f) => f,
        Err(e) => return vec![format!("{at}: filters: {e}")],
    };
    let list: Vec<_> = match engine.quote(kind, app, ctx) {
        Ok(l) => l
            .into_iter()
            .filter(|(p, r)| filter.accepts(p, r.total))
            .collect(),
        Err(e) => return vec![format!("{at}: {e}")],
    };
    let ids: Vec<i64> = list.iter().map(|(p, _)| p.id).collect();
    let e = &a.expect;
    let mut f = Vec::new();
    if let Some(want) = &e.plans
        && *want != ids
    {
        f.push(format!(
            "{at}: {kind} plans quoted {ids:?}, expected {want:?}"
        ));
    }
    if let Some(want) = e.count
        && want != ids.len()
    {
        f.push(format!(
            "{at}: {} {kind} plans quoted, expected {want}",
            ids.len()
        ));
    }
    for id in &e.includes {
        if !ids.contains(id) {
            f.push(format!("{at}: plan {id} is not quoted ({ids:?})"));
        }
    }
    for id in &e.excludes {
        if ids.contains(id) {
            f.push(format!("{at}: plan {id} is quoted, expected it not to be"));
        }
    }
    let rates_of = |id: &str| {
        let id: i64 = id.trim().parse().ok()?;
        list.iter().find(|(p, _)| p.id == id).map(|(_, r)| r)
    };
    for (id, want) in &e.premiums {
        match rates_of(id) {
            None => f.push(format!("{at}: plan {id} is not quoted ({ids:?})")),
            Some(r) if r.total != Money::from_dollars(*want) => f.push(format!(
                "{at}: plan {id} costs {} a month, expected {}",
                r.total,
                Money::from_dollars(*want)
            )),
            Some(_) => {}
        }
    }
    for (id, want) in &e.members {
        let Some(r) = rates_of(id) else {
            f.push(format!("{at}: plan {id} is not quoted ({ids:?})"));
            continue;
        };
        let got: Vec<Money> = r
            .members
            .iter()
            .map(|m| if m.charged { m.rate } else { Money::ZERO })
            .collect();
        let want: Vec<Money> = want.iter().map(|d| Money::from_dollars(*d)).collect();
        if got != want {
            let show = |l: &[Money]| {
                l.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            f.push(format!(
                "{at}: plan {id} charges [{}] by member, expected [{}]",
                show(&got),
                show(&want)
            ));
        }
    }
    f
}

/// Where the plan `id` renews next plan year for the application's household, checked against
/// `successor` (a plan id, or `discontinued`) and `reason`.
pub(super) fn renew(
    engine: &Engine,
    app: &Value,
    id: i64,
    e: &Expect,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let renewal = match engine.renewal(id, app, ctx) {
        Ok(Some(r)) => r,
        Ok(None) => {
            return vec![format!(
                "{at}: plan {id} has no renewal: it is not in the catalog, or the next year has \
                 no crosswalk"
            )];
        }
        Err(e) => return vec![format!("{at}: {e}")],
    };
    let got = match renewal.successor {
        Successor::Plan(to) => Value::from(to),
        Successor::Discontinued => Value::from("discontinued"),
    };
    let mut f = Vec::new();
    if let Some(want) = &e.successor
        && *want != got
    {
        f.push(format!(
            "{at}: plan {id} renews into {got}, expected {want}"
        ));
    }
    if let Some(want) = &e.reason {
        let said = renewal.reason.as_deref().unwrap_or_default();
        if !said.contains(want.as_str()) {
            f.push(format!(
                "{at}: plan {id}'s renewal says `{said}`, expected words `{want}`"
            ));
        }
    }
    f
}

/// A plan page's choice through its `select` rule (the plan looked up among those quoted now, as
/// the server does), then `next` and `flags` checked; or the refusal checked against `refused`.
pub(super) fn select(
    engine: &Engine,
    app: &mut Value,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let step = a.select.as_deref().unwrap_or_default();
    let plan = match a.plan {
        None => Value::Null,
        Some(id) => {
            let kind = match engine.step_view(step, app, ctx) {
                Ok(v) => v.plan_kind(),
                Err(e) => return vec![format!("{at}: {e}")],
            };
            let Some(kind) = kind else {
                return vec![format!("{at}: `{step}` is not a plan page")];
            };
            let quoted = match engine.quote(kind, app, ctx) {
                Ok(q) => q,
                Err(e) => return vec![format!("{at}: no quote: {e}")],
            };
            match quoted.iter().find(|(p, _)| p.id == id) {
                Some((p, r)) => engine.catalog().snapshot(p, r.total),
                // As the server answers a plan it does not quote for the application.
                None => return refused(at, enrollflow_engine::PLAN_NOT_QUOTED, &a.expect),
            }
        }
    };
    let input = a.with.clone().unwrap_or(Value::Object(Map::new()));
    let e = &a.expect;
    match engine.select(step, &plan, &input, app, ctx) {
        Err(err) => vec![format!("{at}: {err}")],
        Ok(Selection::Refused(message)) => refused(at, &message, e),
        Ok(Selection::Done { updates, next }) => {
            let mut f = Vec::new();
            if let Some(want) = &e.refused {
                f.push(format!(
                    "{at}: accepted, expected a refusal containing `{want}`"
                ));
            }
            if let Value::Object(m) = app {
                m.extend(updates);
            }
            check_next(&mut f, at, &next.id, e);
            check_flags(&mut f, at, app, e);
            check_summary(&mut f, at, engine, app, e);
            f
        }
    }
}

fn refused(at: &str, message: &str, e: &Expect) -> Vec<String> {
    match &e.refused {
        Some(want) if message.contains(want.as_str()) => vec![],
        _ => vec![format!("{at}: the choice was refused: {message}")],
    }
}

/// Review Selections' Continue: where a page that saves nothing goes.
pub(super) fn go_on(
    engine: &Engine,
    app: &mut Value,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let step = a.go_on.as_deref().unwrap_or_default();
    match engine.continue_page(step, app, ctx) {
        Err(err) => vec![format!("{at}: {err}")],
        Ok(None) => vec![format!(
            "{at}: `{step}` saves its answers: use `submit` or `select`"
        )],
        Ok(Some((next, last))) => {
            if let Value::Object(m) = app {
                m.insert("last_step".into(), Value::from(last));
            }
            let mut f = Vec::new();
            check_next(&mut f, at, &next.id, &a.expect);
            f
        }
    }
}
