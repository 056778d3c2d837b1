//! Loading a form file: its schema compiled, the fields its rules name checked, its expressions
//! compiled.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use super::{expr, extras, stem};
use crate::form::{self, FieldPath, Form};
use crate::script::Expr;
use crate::{Diagnostic, Source, model, yaml};

pub(super) fn load_form(rhai: &rhai::Engine, s: &Source) -> Result<Form, Vec<Diagnostic>> {
    let file: model::FormFile = yaml::parse(&s.path, &s.text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let schema_line = yaml::line_of(&file.schema);
    let schema = file.schema.value;
    let validator = match form::compile_schema(&s.path, schema_line, &schema) {
        Ok(v) => Some(v),
        Err(d) => {
            problems.push(d);
            None
        }
    };
    let paths = |map: BTreeMap<String, serde_saphyr::Spanned<String>>,
                 what: &str,
                 problems: &mut Vec<Diagnostic>|
     -> Vec<(FieldPath, Expr)> {
        let mut out = Vec::new();
        for (key, e) in map {
            let path = form::parse_path(&key);
            if form::schema_at(&schema, &path).is_none() {
                problems.push(Diagnostic::new(
                    &s.path,
                    yaml::line_of(&e),
                    1,
                    format!("{what} names `{key}`, which is not a field of the schema"),
                ));
                continue;
            }
            if let Some(x) = expr(rhai, &s.path, &e, problems) {
                out.push((path, x));
            }
        }
        out
    };
    let only_when = paths(file.only_when, "only_when", &mut problems);
    let options = paths(file.options, "options", &mut problems);
    let keep_when = paths(file.keep_when, "keep_when", &mut problems);
    let required_when = paths(file.required_when, "required_when", &mut problems);
    for (path, e) in &required_when {
        if path.iter().any(|p| p == "*") {
            problems.push(Diagnostic::new(
                &s.path,
                e.line,
                1,
                format!(
                    "required_when names `{}`: a field inside a list cannot be required by a rule",
                    form::path_string(path)
                ),
            ));
        }
    }
    for f in &file.refresh_on {
        if form::schema_at(&schema, &form::parse_path(f)).is_none() {
            problems.push(Diagnostic::file(
                &s.path,
                format!("refresh_on names `{f}`, which is not a field of the schema"),
            ));
        }
    }
    let mut one = |e: Option<serde_saphyr::Spanned<String>>| {
        e.and_then(|e| expr(rhai, &s.path, &e, &mut problems))
    };
    let initial = one(file.initial);
    let checks = one(file.checks);
    let derive = one(file.derive);
    let extras = extras(rhai, &s.path, file.extras.as_ref(), &mut problems);
    match validator {
        Some(validator) if problems.is_empty() => Ok(Form {
            name: stem(&s.path, ".form.yaml"),
            title: file.title,
            schema: Arc::new(schema),
            validator,
            ui: Arc::new(if file.ui.is_null() {
                json!({})
            } else {
                file.ui
            }),
            only_when,
            options,
            keep_when,
            required_when,
            refresh_on: file.refresh_on,
            initial,
            extras,
            checks,
            derive,
            modals: Arc::new(if file.modals.is_null() {
                json!({})
            } else {
                file.modals
            }),
        }),
        _ => Err(problems),
    }
}
