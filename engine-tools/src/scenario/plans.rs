//! A scenario's plan page steps: `quote` (the plans quoted now), `select` (a plan page's choice
//! through its rule) and `continue` (a page that saves nothing).

use serde_json::{Map, Value};

use super::checks::{check_flags, check_next, check_summary};
use super::{Action, Expect};
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{Filter, Rates};
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
    let rated: Vec<(i64, &Rates)> = list.iter().map(|(p, r)| (p.id, r)).collect();
    check_rates(&mut f, at, e, &rated, "is not quoted");
    if !e.yearly_cost.is_empty() {
        let care = match engine.household_and_care(app, ctx) {
            Ok(Some((_, care))) => care,
            Ok(None) => Vec::new(),
            Err(err) => return vec![format!("{at}: {err}")],
        };
        for (id, want) in &e.yearly_cost {
            let found = list.iter().find(|(p, _)| p.id.to_string() == id.trim());
            let Some((p, r)) = found else {
                f.push(format!("{at}: plan {id} is not quoted ({ids:?})"));
                continue;
            };
            let Some(got) = engine.yearly_cost(p, r, &care) else {
                f.push(format!("{at}: plan {id} has no yearly estimate"));
                continue;
            };
            let parts = [
                ("total", want.total, got.total),
                ("premium", want.premium, got.premium),
                ("deductible", want.deductible, got.deductible),
                ("cost_sharing", want.cost_sharing, got.cost_sharing),
                ("worst_case", want.worst_case, got.worst_case),
            ];
            for (what, want, got) in parts {
                if let Some(w) = want
                    && Money::from_dollars(w) != got
                {
                    f.push(format!(
                        "{at}: plan {id}'s yearly {what} is {got}, expected {}",
                        Money::from_dollars(w)
                    ));
                }
            }
        }
    }
    f
}

/// `premiums` and `members` checked against the plans `rated` (by id); a plan not among them is
/// said `missing` ("is not quoted").
pub(super) fn check_rates(
    f: &mut Vec<String>,
    at: &str,
    e: &Expect,
    rated: &[(i64, &Rates)],
    missing: &str,
) {
    let ids: Vec<i64> = rated.iter().map(|(id, _)| *id).collect();
    let rates_of = |id: &str| {
        let id: i64 = id.trim().parse().ok()?;
        rated.iter().find(|(p, _)| *p == id).map(|(_, r)| *r)
    };
    for (id, want) in &e.premiums {
        match rates_of(id) {
            None => f.push(format!("{at}: plan {id} {missing} ({ids:?})")),
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
            f.push(format!("{at}: plan {id} {missing} ({ids:?})"));
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
