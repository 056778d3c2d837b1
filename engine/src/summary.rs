//! What the server reads of an application, declared in the flow (`summary:`, one Rhai expression
//! over `app` per name): the dashboard's lists (names, e-mail, household), More Info (contact and
//! addresses) and the printed household. The server keeps it in the application's columns at each
//! save, so no server code knows which step asked what.
//!
//! `Engine::summary` evaluates it; `NAMES` is the contract a flow must fill, each name with its
//! kind: a flow whose `summary:` lacks a name or adds one is refused at load
//! (`engine/src/tests.rs`; also `engine-tools/tests/rules.rs` and the dashboard's API tests). The
//! upload's step is likewise the flow's `upload_step`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, EvalError};
use crate::script::Expr;

/// The summary of one application. Text is `None` when there is no answer; a stored summary that
/// lacks a name (an application not saved since) reads it as none, zero or false.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub primary_phone: Option<String>,
    pub residential_street: Option<String>,
    pub residential_street2: Option<String>,
    pub residential_city: Option<String>,
    pub residential_state: Option<String>,
    pub residential_zip: Option<String>,
    /// A billing address apart from the residential one was given.
    pub billing_provided: bool,
    pub billing_street: Option<String>,
    pub billing_street2: Option<String>,
    pub billing_city: Option<String>,
    pub billing_state: Option<String>,
    pub billing_zip: Option<String>,
    /// The dependents of the household (not the subscriber or the spouse).
    pub dependents: u16,
    pub has_spouse: bool,
}

/// What a name's expression gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text, or () for none (an empty text is none).
    Text,
    /// A whole number from 0.
    Count,
    /// true or false.
    Flag,
}

/// The names a flow's `summary:` gives, each once, and what each gives: the fields of [`Summary`].
pub const NAMES: [(&str, Kind); 17] = [
    ("first_name", Kind::Text),
    ("last_name", Kind::Text),
    ("email", Kind::Text),
    ("primary_phone", Kind::Text),
    ("residential_street", Kind::Text),
    ("residential_street2", Kind::Text),
    ("residential_city", Kind::Text),
    ("residential_state", Kind::Text),
    ("residential_zip", Kind::Text),
    ("billing_provided", Kind::Flag),
    ("billing_street", Kind::Text),
    ("billing_street2", Kind::Text),
    ("billing_city", Kind::Text),
    ("billing_state", Kind::Text),
    ("billing_zip", Kind::Text),
    ("dependents", Kind::Count),
    ("has_spouse", Kind::Flag),
];

impl Summary {
    /// "First Last", trimmed (empty when neither is known).
    pub fn full_name(&self) -> String {
        let part = |p: &Option<String>| p.as_deref().unwrap_or("").trim().to_string();
        format!("{} {}", part(&self.first_name), part(&self.last_name))
            .trim()
            .to_string()
    }

    /// Builds the summary from the values of the flow's expressions; a value of the wrong kind is
    /// that expression's error, at its line.
    pub(crate) fn from_values<'a>(
        values: impl IntoIterator<Item = (&'a Expr, Kind, &'a str, Value)>,
    ) -> Result<Self, EvalError> {
        let mut map = serde_json::Map::new();
        for (e, kind, name, v) in values {
            let v = match (kind, v) {
                (Kind::Text, Value::String(s)) if s.trim().is_empty() => Value::Null,
                (Kind::Text, Value::String(s)) => Value::String(s.trim().to_string()),
                (Kind::Text, Value::Null) => Value::Null,
                (Kind::Count, Value::Number(n)) if n.as_u64().is_some_and(|n| n <= 1000) => {
                    Value::Number(n)
                }
                (Kind::Flag, Value::Bool(b)) => Value::Bool(b),
                (kind, v) => {
                    let wanted = match kind {
                        Kind::Text => "text or ()",
                        Kind::Count => "a whole number from 0",
                        Kind::Flag => "true or false",
                    };
                    return Err(EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!("summary `{name}`: `{}` gave {v}, not {wanted}", e.source),
                    )));
                }
            };
            map.insert(name.to_string(), v);
        }
        serde_json::from_value(Value::Object(map)).map_err(|err| {
            EvalError::Rule(Diagnostic::file("rules/flows", format!("summary: {err}")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_fields() {
        let fields: Vec<String> = match serde_json::to_value(Summary::default()) {
            Ok(Value::Object(m)) => m.keys().cloned().collect(),
            other => panic!("{other:?}"),
        };
        let mut names: Vec<String> = NAMES.iter().map(|(n, _)| n.to_string()).collect();
        names.sort();
        let mut fields = fields;
        fields.sort();
        assert_eq!(names, fields);
    }

    #[test]
    fn the_full_name_is_trimmed() {
        let s = Summary {
            first_name: Some("Ann".into()),
            ..Summary::default()
        };
        assert_eq!(s.full_name(), "Ann");
        assert_eq!(Summary::default().full_name(), "");
    }
}
