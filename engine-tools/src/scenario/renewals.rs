//! A scenario's renewal steps: `renew` (where a plan renews next plan year for the household, by
//! the crosswalk) and `renewal` (the application's renewal of its plan of a kind: the successor
//! re-rated at next year's ages, the alternatives, the members who age off).

use serde_json::Value;

use super::Expect;
use super::plans::check_rates;
use enrollflow_engine::catalog::Successor;
use enrollflow_engine::rating::Rates;
use enrollflow_engine::{Context, Engine};

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
    let what = format!("plan {id}");
    check_successor(&mut f, at, &what, &got, renewal.reason.as_deref(), e);
    f
}

/// `successor` and `reason` checked against what `what` renews into (`got`: a plan id, or
/// `discontinued`) and the reason given.
fn check_successor(
    f: &mut Vec<String>,
    at: &str,
    what: &str,
    got: &Value,
    reason: Option<&str>,
    e: &Expect,
) {
    if let Some(want) = &e.successor
        && want != got
    {
        f.push(format!("{at}: {what} renews into {got}, expected {want}"));
    }
    if let Some(want) = &e.reason {
        let said = reason.unwrap_or_default();
        if !said.contains(want.as_str()) {
            f.push(format!(
                "{at}: {what}'s renewal says `{said}`, expected words `{want}`"
            ));
        }
    }
}

/// The application's renewal of its plan of kind `renewal`, checked against `successor`,
/// `reason`, `premiums` and `members` (the current plan's, the renewal's and the alternatives', by
/// plan id), `alternatives`, `aging_off` and the customer's `status`.
pub(super) fn renewal(
    engine: &Engine,
    app: &Value,
    a: &super::Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let Some(kind) = a.renewal else {
        return vec![];
    };
    let renewal = match engine.renew(app, ctx) {
        Ok(Some(r)) => r,
        Ok(None) => {
            return vec![format!(
                "{at}: no renewal: the next plan year has no crosswalk"
            )];
        }
        Err(e) => return vec![format!("{at}: {e}")],
    };
    let Some(p) = renewal.plans.iter().find(|p| p.kind == kind) else {
        return vec![format!(
            "{at}: the application holds no {kind} plan to renew"
        )];
    };
    let e = &a.expect;
    let mut f = Vec::new();
    let got = match &p.renewal {
        Some(t) => Value::from(t.plan_id),
        None => Value::from("discontinued"),
    };
    let what = format!("the {kind} plan");
    check_successor(&mut f, at, &what, &got, p.reason.as_deref(), e);
    let alternatives: Vec<i64> = p.alternatives.iter().map(|t| t.plan_id).collect();
    if let Some(want) = &e.alternatives
        && *want != alternatives
    {
        f.push(format!(
            "{at}: alternatives {alternatives:?}, expected {want:?}"
        ));
    }
    let leaving: Vec<String> = p.aging_off.iter().map(|m| m.member.clone()).collect();
    if let Some(want) = &e.aging_off
        && *want != leaving
    {
        f.push(format!("{at}: ageing off {leaving:?}, expected {want:?}"));
    }
    if let Some(want) = &e.status {
        let got = renewal.status(engine.renewal_rules()).key();
        if got != want {
            f.push(format!(
                "{at}: the renewal's status is {got}, expected {want}"
            ));
        }
    }
    let mut rated: Vec<(i64, &Rates)> = vec![(p.current.plan_id, &p.current.rates)];
    rated.extend(p.renewal.iter().map(|t| (t.plan_id, &t.rates)));
    rated.extend(p.alternatives.iter().map(|t| (t.plan_id, &t.rates)));
    check_rates(&mut f, at, e, &rated, "is not in the renewal");
    f
}
