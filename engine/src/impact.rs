//! What a rule change does to real applications: each stored application walked through its
//! steps under two rule sets ([`crate::replay::walk`], personal details made up), what it met
//! written down as observations, and the observations that differ reported, grouped by what
//! changed.
//!
//! Observations are keyed by what they are about: a step's outcome (accepted, the error keys or
//! the dialog asked), where it went, the flags it set (skip flags, effective date, …), the plans a
//! plan page offered, each plan's monthly premium and each member's, and where a choice went.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::replay::{Event, walk};
use crate::{Context, Engine, Selection, Submission};

/// What one application met under one rule set: key -> value, both readable.
pub type Observations = BTreeMap<String, String>;

/// Walks `data` under `engine` and writes down what it met; a rule that fails is an observation
/// too (`error`).
pub fn observe(engine: &Engine, data: &Value, ctx: &Context) -> Observations {
    let mut out = Observations::new();
    let r = walk(engine, data, ctx, &mut |e| match e {
        Event::Submitted { step, result, .. } => match result {
            Submission::Invalid { errors } => {
                let keys: Vec<&str> = errors.keys().map(String::as_str).collect();
                out.insert(
                    format!("{step}: outcome"),
                    format!("errors on {}", keys.join(", ")),
                );
            }
            Submission::Accepted(t) => {
                let outcome = match &t.modal {
                    Some(m) => format!("dialog {m}"),
                    None => "accepted".into(),
                };
                out.insert(format!("{step}: outcome"), outcome);
                out.insert(format!("{step}: next"), t.next.id.clone());
                for (k, v) in &t.updates {
                    if k != "last_step" && !v.is_object() && !v.is_array() {
                        out.insert(format!("{step}: flag {k}"), shown(v));
                    }
                }
            }
        },
        Event::Continued { step, next } => {
            out.insert(format!("{step}: next"), next.id.clone());
        }
        Event::Quoted { step, plans, .. } => {
            let ids: Vec<String> = plans.iter().map(|(p, _)| p.id.to_string()).collect();
            out.insert(format!("{step}: plans offered"), ids.join(", "));
            for (p, r) in plans {
                out.insert(
                    format!("{step}: plan {} premium", p.id),
                    r.total.to_string(),
                );
                let members: Vec<String> = r
                    .members
                    .iter()
                    .map(|m| {
                        if m.charged {
                            m.rate.to_string()
                        } else {
                            "not charged".into()
                        }
                    })
                    .collect();
                out.insert(format!("{step}: plan {} members", p.id), members.join(", "));
            }
        }
        Event::Selected { step, result, .. } => match result {
            Selection::Refused(m) => {
                out.insert(format!("{step}: choice"), format!("refused: {m}"));
            }
            Selection::Done { updates, next } => {
                out.insert(format!("{step}: next"), next.id.clone());
                for (k, v) in updates {
                    if k != "last_step" && !v.is_object() && !v.is_array() {
                        out.insert(format!("{step}: flag {k}"), shown(v));
                    }
                }
            }
        },
    });
    if let Err(e) = r {
        out.insert("error".into(), e.to_string());
    }
    out
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

/// One observation that differs for one application.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Change {
    /// The application (its id, as the caller names it).
    pub application: String,
    /// Before and after (`—` when the walk did not get there).
    pub before: String,
    pub after: String,
}

/// The changes of one kind: what changed (the observation's key with the plan and step kept, e.g.
/// `medical: plan 530 premium`) and every application it changed for.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Group {
    pub what: String,
    pub changes: Vec<Change>,
}

/// The observations that differ between `before` and `after` for each application, grouped by key.
pub fn diff<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a Observations, &'a Observations)>,
) -> Vec<Group> {
    let mut groups: BTreeMap<String, Vec<Change>> = BTreeMap::new();
    for (id, before, after) in pairs {
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for k in keys {
            let (b, a) = (before.get(k), after.get(k));
            if b != a {
                groups.entry(k.clone()).or_default().push(Change {
                    application: id.to_string(),
                    before: b.cloned().unwrap_or_else(|| NOT_REACHED.into()),
                    after: a.cloned().unwrap_or_else(|| NOT_REACHED.into()),
                });
            }
        }
    }
    groups
        .into_iter()
        .map(|(what, changes)| Group { what, changes })
        .collect()
}

/// What an observation reads when the walk did not get there.
pub const NOT_REACHED: &str = "—";

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(pairs: &[(&str, &str)]) -> Observations {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn only_differences_are_reported_grouped_by_what_changed() {
        let a1 = obs(&[
            ("medical: plan 530 premium", "412.50"),
            ("census: next", "medical"),
        ]);
        let b1 = obs(&[
            ("medical: plan 530 premium", "100.00"),
            ("census: next", "medical"),
        ]);
        let a2 = obs(&[("medical: plan 530 premium", "300.00")]);
        let b2 = obs(&[
            ("medical: plan 530 premium", "90.00"),
            ("review: next", "subInfo"),
        ]);
        let groups = diff([("one", &a1, &b1), ("two", &a2, &b2)]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].what, "medical: plan 530 premium");
        assert_eq!(groups[0].changes.len(), 2);
        assert_eq!(groups[0].changes[0].before, "412.50");
        assert_eq!(groups[0].changes[0].after, "100.00");
        assert_eq!(groups[1].what, "review: next");
        assert_eq!(groups[1].changes[0].before, NOT_REACHED);
        assert!(diff([("one", &a1, &a1)]).is_empty());
    }
}
