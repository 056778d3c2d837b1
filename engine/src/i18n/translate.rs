//! The translations the server applies: a step's view, the flow, field errors and the strings
//! of a JSON value, in a language.

use serde_json::Value;

use super::catalog::is_prose;
use super::{Catalog, Languages, MODAL_TEXT_KEYS, SCHEMA_TEXT_KEYS, UI_TEXT_KEYS};
use crate::{FlowView, StepView};

impl Languages {
    /// A step's view in `code`: the title, the schema's titles, descriptions and messages (the
    /// choices the rules filled in included), the UI's labels, the dialogs and the texts among the
    /// extras.
    pub fn step_view(&self, code: &str, view: &mut StepView) {
        let Some(c) = self.catalog(code) else { return };
        for info in std::iter::once(&mut view.step)
            .chain(view.previous.as_mut())
            .chain(view.next.as_mut())
        {
            translate(c, &mut info.title);
        }
        walk_schema(c, std::sync::Arc::make_mut(&mut view.schema), false);
        walk_keys(c, std::sync::Arc::make_mut(&mut view.ui), &UI_TEXT_KEYS);
        walk_keys(
            c,
            std::sync::Arc::make_mut(&mut view.modals),
            &MODAL_TEXT_KEYS,
        );
        walk_values(c, &mut view.extras);
    }

    /// The flow (the progress list's labels and the steps' titles) in `code`.
    pub fn flow(&self, code: &str, flow: &mut FlowView) {
        let Some(c) = self.catalog(code) else { return };
        for step in &mut flow.steps {
            translate(c, &mut step.title);
            translate(c, &mut step.nav);
            if let Some(s) = step.section.as_mut() {
                translate(c, s);
            }
        }
    }

    /// Field errors (and a refusal's message) in `code`.
    pub fn errors(&self, code: &str, errors: &mut crate::Errors) {
        let Some(c) = self.catalog(code) else { return };
        for list in errors.values_mut() {
            for m in list {
                translate(c, m);
            }
        }
    }

    /// Every string of a JSON value that a catalog has (the extras of a page the rules build).
    pub fn values(&self, code: &str, value: &mut Value) {
        if let Some(c) = self.catalog(code) {
            walk_values(c, value);
        }
    }
}

fn translate(c: &Catalog, s: &mut String) {
    if is_prose(s)
        && let Some(t) = c.get(s)
    {
        *s = t;
    }
}

fn walk_schema(c: &Catalog, v: &mut Value, in_messages: bool) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match x {
                    Value::String(s) if in_messages || SCHEMA_TEXT_KEYS.contains(&k.as_str()) => {
                        translate(c, s);
                    }
                    _ => walk_schema(c, x, in_messages || k == "x-messages"),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|x| walk_schema(c, x, in_messages)),
        _ => {}
    }
}

fn walk_keys(c: &Catalog, v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match x {
                    Value::String(s) if keys.contains(&k.as_str()) => translate(c, s),
                    // A text in paragraphs: `text: [first, second]`.
                    Value::Array(items) if keys.contains(&k.as_str()) => {
                        for item in items {
                            match item {
                                Value::String(s) => translate(c, s),
                                other => walk_keys(c, other, keys),
                            }
                        }
                    }
                    _ => walk_keys(c, x, keys),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| walk_keys(c, x, keys)),
        _ => {}
    }
}

/// Extras mix texts with data (dates, routes, ids): only strings the catalog has are texts.
fn walk_values(c: &Catalog, v: &mut Value) {
    match v {
        Value::String(s) => translate(c, s),
        Value::Object(map) => map.values_mut().for_each(|x| walk_values(c, x)),
        Value::Array(items) => items.iter_mut().for_each(|x| walk_values(c, x)),
        _ => {}
    }
}
