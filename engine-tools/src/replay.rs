//! An application as a scenario: its stored answers replayed through the flow from the first step,
//! with every personal detail made up, and each step's outcome written down as the expectation, so
//! the scenario passes when run against the rules it was made with and says what changed when run
//! against others (`enrollflow scenarios`).
//!
//! Form steps are submitted, plan pages quoted and chosen with `select:`, pages continued with
//! `continue:`; the forms' `x-sensitive` answers are among the details made up. Served as `GET
//! /api/dashboard/scenario/{id}`, the agents' row menu's Save as scenario.

use serde_json::{Map, Value, json};
use time::Date;

use enrollflow_engine::catalog::{Plan, PlanKind};
use enrollflow_engine::rating::Rates;
use enrollflow_engine::{
    Context, Engine, EvalError, QuoteFailure, Selection, StepInfo, Submission, dates, sensitive,
};

/// What a walk through an application's steps met, in order.
pub enum Event<'a> {
    /// A form step's stored answers (personal details made up) submitted, and the outcome.
    Submitted {
        step: &'a str,
        given: &'a Value,
        result: &'a Submission,
    },
    /// A plan page's plans quoted now, and the choice the application stored there (a plan
    /// snapshot, or null for none).
    Quoted {
        step: &'a str,
        kind: PlanKind,
        plans: &'a [(&'a Plan, Rates)],
        chosen: &'a Value,
    },
    /// The stored choice made again through the page's `select` rule.
    Selected {
        step: &'a str,
        plan: &'a Value,
        input: &'a Value,
        result: &'a Selection,
    },
    /// A page that saves nothing went on.
    Continued { step: &'a str, next: &'a StepInfo },
}

/// Walks an application's stored answers through the flow from the first step, as its person
/// did, telling `on` what each step met; stops where the stored answers end, at a refusal or a
/// dialog, or at the submitted step. Personal details are made up before any rule sees them.
pub fn walk(
    engine: &Engine,
    data: &Value,
    ctx: &Context,
    on: &mut dyn FnMut(Event<'_>),
) -> Result<(), EvalError> {
    let mut given = |_: &str, stored: &Value, schema: &Value| made_up(stored, schema, ctx.today);
    walk_with(engine, data, ctx, &mut given, on, false).map(|_| ())
}

/// An application's answers carried into a new one under the rules in force: `data`'s answers
/// walked through the flow from the first step as [`walk`] does, each form step's stored answers
/// as `given` makes them (`step`, stored answers, the step's schema), the plan pages choosing the
/// plans `data` holds (as quoted now). It stops where the stored answers end, at a refusal (the
/// refused answers kept, for the person to complete) or a dialog, before the submitted step, and at a plan page whose kind `data` holds no key for
/// (`medical_plan`; null: no plan of the kind): the new document, whose `last_step` says how
/// far it got.
pub fn carry(
    engine: &Engine,
    data: &Value,
    ctx: &Context,
    given: &mut dyn FnMut(&str, &Value, &Value) -> Value,
) -> Result<Map<String, Value>, EvalError> {
    let mut data = data.clone();
    if let Some(m) = data.as_object_mut() {
        m.remove(engine.submitted_step());
    }
    walk_with(engine, &data, ctx, given, &mut |_| {}, true)
}

/// [`walk`] with the answers each form step is given made by `given`; when `carrying`, it stops
/// at a plan page whose kind `data` holds no key for, and keeps the answers of a step the rules
/// refuse. The application as walked.
fn walk_with(
    engine: &Engine,
    data: &Value,
    ctx: &Context,
    given: &mut dyn FnMut(&str, &Value, &Value) -> Value,
    on: &mut dyn FnMut(Event<'_>),
    carrying: bool,
) -> Result<Map<String, Value>, EvalError> {
    let steps: Vec<StepInfo> = engine.steps().cloned().collect();
    let mut app = Map::new();
    let Some(mut at) = steps.first().cloned() else {
        return Ok(app);
    };
    // Each step at most a few times (a reopened step comes back once).
    for _ in 0..steps.len() * 3 {
        let now = Value::Object(app.clone());
        let view = engine.step_view(&at.id, &now, ctx)?;
        if view.kind == "form" {
            let Some(stored) = data.get(&at.id).filter(|a| a.is_object()) else {
                break;
            };
            let given = given(&at.id, stored, &view.schema);
            let result = engine.submit(&at.id, &given, &now, ctx)?;
            on(Event::Submitted {
                step: &at.id,
                given: &given,
                result: &result,
            });
            let Submission::Accepted(t) = result else {
                // Carried answers the rules now refuse stay, for the person to complete.
                if carrying {
                    app.insert(at.id.clone(), given);
                }
                break;
            };
            if t.modal.is_some() {
                break;
            }
            app.insert(at.id.clone(), t.answers);
            app.extend(t.updates);
            if at.id == engine.submitted_step() {
                break;
            }
            at = t.next;
        } else if let Some((next, last)) = engine.continue_page(&at.id, &now, ctx)? {
            on(Event::Continued {
                step: &at.id,
                next: &next,
            });
            app.insert("last_step".into(), json!(last));
            at = next;
        } else {
            // A plan page: the plans quoted now, then the stored choice (or none) made again.
            let Some(kind) = view.plan_kind() else {
                break;
            };
            if carrying && data.get(format!("{}_plan", kind.key())).is_none() {
                break;
            }
            let plan = data
                .get(format!("{}_plan", kind.key()))
                .filter(|p| p.get("id").is_some())
                .cloned()
                .unwrap_or(Value::Null);
            let plans = match engine.quote(kind, &now, ctx) {
                Ok(list) => list,
                Err(QuoteFailure::Rule(e)) => return Err(e),
                Err(_) => Vec::new(),
            };
            on(Event::Quoted {
                step: &at.id,
                kind,
                plans: &plans,
                chosen: &plan,
            });
            // The choice as quoted now (its premium today), or as stored when no longer quoted.
            let chosen = match plan.get("id").and_then(Value::as_i64) {
                Some(id) => plans.iter().find(|(p, _)| p.id == id).map_or_else(
                    || plan.clone(),
                    |(p, r)| engine.catalog().snapshot(p, r.total),
                ),
                None => Value::Null,
            };
            let input = json!({ "add_hsa": data.get("add_hsa").cloned().unwrap_or(Value::Null) });
            let result = engine.select(&at.id, &chosen, &input, &now, ctx)?;
            on(Event::Selected {
                step: &at.id,
                plan: &chosen,
                input: &input,
                result: &result,
            });
            let Selection::Done { updates, next } = result else {
                break;
            };
            app.extend(updates);
            at = next;
        }
    }
    Ok(app)
}

/// The scenario (a suite of one, as YAML) replaying `data`, an application's stored document,
/// under `ctx` (the agent's flags and the day it was last saved).
pub fn scenario_of(
    engine: &Engine,
    name: &str,
    data: &Value,
    ctx: &Context,
) -> Result<String, EvalError> {
    let mut actions = Vec::new();
    walk(engine, data, ctx, &mut |e| match e {
        Event::Submitted {
            step,
            given,
            result,
        } => actions.push(match result {
            Submission::Invalid { errors } => {
                let keys: Vec<&String> = errors.keys().collect();
                json!({ "submit": step, "with": given, "expect": { "errors": keys } })
            }
            Submission::Accepted(t) => {
                let mut flags = t.updates.clone();
                flags.remove("last_step");
                let modal = t.modal.clone().unwrap_or_else(|| "none".into());
                json!({
                    "submit": step, "with": given,
                    "expect": { "next": t.next.id, "modal": modal, "flags": flags },
                })
            }
        }),
        Event::Continued { step, next } => {
            actions.push(json!({ "continue": step, "expect": { "next": next.id } }));
        }
        // The chosen plan quoted again at the premium it was bought at.
        Event::Quoted { kind, chosen, .. } => {
            if let (Some(id), Some(rate)) = (
                chosen.get("id").and_then(Value::as_i64),
                chosen.get("rate").and_then(Value::as_f64),
            ) {
                let premiums = Map::from_iter([(id.to_string(), json!(rate))]);
                actions.push(json!({
                    "quote": kind.key(),
                    "expect": { "includes": [id], "premiums": premiums },
                }));
            }
        }
        Event::Selected {
            step,
            plan,
            input,
            result,
        } => {
            if let Selection::Done { next, .. } = result {
                let mut select = json!({
                    "select": step,
                    "with": input,
                    "expect": { "next": next.id },
                });
                if let (Some(id), Value::Object(m)) = (plan.get("id"), &mut select) {
                    m.insert("plan".into(), id.clone());
                }
                actions.push(select);
            }
        }
    })?;
    Ok(yaml(name, ctx, actions))
}

fn yaml(name: &str, ctx: &Context, steps: Vec<Value>) -> String {
    let scenario = json!([{ "name": name, "context": ctx, "steps": steps }]);
    let body = serde_saphyr::to_string(&scenario).unwrap_or_else(|e| format!("# {e}\n"));
    format!(
        "# yaml-language-server: $schema=../../schemas/scenarios.schema.json\n\
         # Made from a stored application: its answers replayed step by step, every personal detail\n\
         # made up, each outcome the expectation. Run it: enrollflow scenarios <this file>\n{body}"
    )
}

/// The answers with every personal detail made up: names, e-mail, phones, street and signatures,
/// and the form's sensitive answers (`x-sensitive` in its schema: SSNs); a birth date keeps its
/// year and month and the day's side of the 1st and of today (so every age and rule comes out the
/// same).
fn made_up(answers: &Value, schema: &Value, today: Date) -> Value {
    fn walk(v: &Value, key: &str, who: &str, today: Date) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let who = match k.as_str() {
                            "spouse" => "Sam",
                            "dependents" => "Kid",
                            _ => who,
                        };
                        (k.clone(), walk(v, k, who, today))
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let who = if who == "Kid" {
                            format!("Kid{}", i + 1)
                        } else {
                            who.to_string()
                        };
                        walk(v, key, &who, today)
                    })
                    .collect(),
            ),
            Value::String(s) => Value::String(replace(key, s, who, today)),
            other => other.clone(),
        }
    }
    let mut out = walk(answers, "", "Pat", today);
    for path in sensitive::sensitive_paths(schema) {
        let _ = sensitive::map_strings::<std::convert::Infallible>(&mut out, &path, &mut |_| {
            Ok(Some(MADE_UP_SSN.into()))
        });
    }
    out
}

/// What every sensitive answer becomes (an SSN the SSA never issues: it starts with 9).
const MADE_UP_SSN: &str = "900000001";

fn replace(key: &str, s: &str, who: &str, today: Date) -> String {
    let k = key.to_ascii_lowercase();
    let signer = |k: &str| {
        if k.starts_with("spouse") {
            "Sam Example".to_string()
        } else {
            "Pat Example".to_string()
        }
    };
    match () {
        _ if s.is_empty()
            || k.starts_with("agent_")
            || (k.ends_with("_date") && !k.contains("birth")) =>
        {
            s.to_string()
        }
        _ if k.contains("birth") => {
            dates::parse(s).map_or_else(|| s.to_string(), |d| birth(d, today))
        }
        _ if k.contains("first_name") => who.into(),
        _ if k.contains("last_name") => "Example".into(),
        _ if k.contains("middle") => "Q".into(),
        _ if k.contains("email") => "applicant@example.com".into(),
        _ if k.contains("phone") && !k.contains("type") => "5555550100".into(),
        _ if k.contains("street") => "100 Example St".into(),
        _ if k.contains("signature") || k.contains("full_name") => signer(&k),
        _ => s.to_string(),
    }
}

/// A made-up birth date with the same age at the effective date (the 1st of a month) and today.
fn birth(d: Date, today: Date) -> String {
    if d.day() == 1 {
        return d.to_string();
    }
    let day = if d.month() == today.month() && d.day() > today.day() {
        today.day() + 1
    } else {
        2
    };
    Date::from_calendar_date(d.year(), d.month(), day)
        .unwrap_or(d)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn personal_details_are_made_up_and_ages_kept() {
        let answers = json!({
            "sub_first_name": "Ann", "sub_last_name": "Lee", "email": "ann@x.example",
            "sub_ssn": "v1:secret", "primary_phone": "7345550199", "primary_phone_type_id": 4,
            "residential_street": "1 Main St", "residential_zip": "48104",
            "sub_birth_date": "1985-03-17", "qle_event_date": "2024-11-01",
            "spouse": { "first_name": "Bo", "birth_date": "1984-11-25" },
            "dependents": [{ "first_name": "Cy", "birth_date": "2015-11-01" }],
            "subscriber_signature": "Ann Lee", "agent_signature": "Maria Alvarez",
        });
        let schema =
            json!({ "properties": { "sub_ssn": { "type": "string", "x-sensitive": true } } });
        let m = made_up(&answers, &schema, date!(2024 - 11 - 20));
        assert_eq!(m["sub_first_name"], "Pat");
        assert_eq!(m["spouse"]["first_name"], "Sam");
        assert_eq!(m["dependents"][0]["first_name"], "Kid1");
        assert_eq!(m["sub_ssn"], "900000001");
        assert_eq!(m["email"], "applicant@example.com");
        assert_eq!(m["primary_phone_type_id"], 4);
        assert_eq!(m["residential_zip"], "48104");
        assert_eq!(m["subscriber_signature"], "Pat Example");
        assert_eq!(m["agent_signature"], "Maria Alvarez");
        assert_eq!(m["qle_event_date"], "2024-11-01");
        // Same year and month; the birthday still before today's day, or still after it.
        assert_eq!(m["sub_birth_date"], "1985-03-02");
        assert_eq!(m["spouse"]["birth_date"], "1984-11-21");
        assert_eq!(m["dependents"][0]["birth_date"], "2015-11-01");
        assert!(!m.to_string().contains("Ann") && !m.to_string().contains("1 Main"));
    }
}
