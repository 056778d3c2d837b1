//! Forms: a JSON Schema with context conditions, dynamic choices and error keys.
//!
//! Conventions the form files follow (documented in `forms/README.md`):
//! - every field is declared under `properties` (conditional `required` may use `if`/`then`);
//! - `x-error-prefix` on an object or array property names nested errors:
//!   `spouse: { x-error-prefix: "spouse_" }` gives `spouse_gender`; on an array, `{n}` is the 1-based
//!   item number and `{field}` any field of the item: `dependent{n}_` gives `dependent3_birth_date`;
//! - `x-messages: { <keyword>: "…" }` on a property replaces the default wording for that keyword.
//!
//! Here: a form's resolution for a view (`only_when`, dynamic `options`), answers normalized and
//! pruned, JSON-Schema errors turned into the spec's field keys and wording, and `Extras`, a view's
//! extras: one expression, or one per key, each remembered on its own.

mod answers;
mod schema;
mod validate;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::script::Expr;

pub use answers::{normalize, overlay, prune, read_only_part, remove_answer, strip_read_only};
pub use schema::{drop_field, mark_required, schema_at, set_choices};
pub use validate::{compile_schema, error_key, merge_checks, required_message, schema_errors};

/// A field path: property names, with `*` for "every item of the array".
pub type FieldPath = Vec<String>;

pub type Errors = BTreeMap<String, Vec<String>>;

pub struct Form {
    pub name: String,
    pub title: Option<String>,
    /// Shared with every view of the form that changes nothing in it.
    pub schema: Arc<Value>,
    pub validator: jsonschema::Validator,
    pub ui: Arc<Value>,
    pub only_when: Vec<(FieldPath, Expr)>,
    pub options: Vec<(FieldPath, Expr)>,
    pub keep_when: Vec<(FieldPath, Expr)>,
    pub required_when: Vec<(FieldPath, Expr)>,
    pub refresh_on: Vec<String>,
    pub initial: Option<Expr>,
    pub extras: Option<Extras>,
    pub checks: Option<Expr>,
    pub derive: Option<Expr>,
    pub modals: Arc<Value>,
}

impl Form {
    /// Whether a view's expressions (conditions, choices, extras) read the answers (`input`).
    pub fn reads_input(&self) -> bool {
        self.only_when
            .iter()
            .chain(&self.required_when)
            .chain(&self.options)
            .map(|(_, e)| e)
            .chain(self.extras.iter().flat_map(Extras::exprs))
            .any(|e| e.uses.input)
    }
}

/// A view's extras: one expression that gives the whole map, or an expression per key (each
/// remembered on its own when it cannot change).
#[derive(Debug, Clone)]
pub enum Extras {
    Whole(Expr),
    Each(Vec<(String, Expr)>),
}

impl Extras {
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        let (whole, each) = match self {
            Extras::Whole(e) => (Some(e), &[][..]),
            Extras::Each(each) => (None, &each[..]),
        };
        whole.into_iter().chain(each.iter().map(|(_, e)| e))
    }
}

pub fn parse_path(s: &str) -> FieldPath {
    s.split('/')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

pub fn path_string(p: &[String]) -> String {
    p.join("/")
}

#[cfg(test)]
mod tests;
