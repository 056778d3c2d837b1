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

use std::collections::BTreeMap;
use std::sync::Arc;

use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::script::Expr;

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

/// The schema of the field at `path`.
pub fn schema_at<'a>(schema: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut s = schema;
    for seg in path {
        s = if seg == "*" {
            s.get("items")?
        } else {
            s.get("properties")?.get(seg)?
        };
    }
    Some(s)
}

fn schema_at_mut<'a>(schema: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut s = schema;
    for seg in path {
        s = if seg == "*" {
            s.get_mut("items")?
        } else {
            s.get_mut("properties")?.get_mut(seg)?
        };
    }
    Some(s)
}

/// Removes a field (and its `required` entry) from a schema.
pub fn drop_field(schema: &mut Value, path: &[String]) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let Some(parent) = schema_at_mut(schema, parent) else {
        return;
    };
    if let Some(props) = parent.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove(last);
    }
    if let Some(req) = parent.get_mut("required").and_then(Value::as_array_mut) {
        req.retain(|r| r.as_str() != Some(last));
    }
}

/// Marks a field required in its parent object.
pub fn mark_required(schema: &mut Value, path: &[String]) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let Some(Value::Object(parent)) = schema_at_mut(schema, parent) else {
        return;
    };
    let req = parent
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(req) = req.as_array_mut()
        && !req.iter().any(|r| r.as_str() == Some(last))
    {
        req.push(Value::String(last.clone()));
    }
}

/// The message of a required field left empty.
pub fn required_message(schema: &Value, path: &[String]) -> String {
    let title = title_of(
        schema_at(schema, path),
        path.last().map(String::as_str).unwrap_or("field"),
    );
    format!("The {title} field is required.")
}

/// Removes the answer at a path of property names (no `*`); true when there was one.
pub fn remove_answer(data: &mut Value, path: &[String]) -> bool {
    let Some((last, parent)) = path.split_last() else {
        return false;
    };
    let mut v = data;
    for seg in parent {
        match v.get_mut(seg) {
            Some(next) => v = next,
            None => return false,
        }
    }
    v.as_object_mut().is_some_and(|m| m.remove(last).is_some())
}

/// Replaces a field's choices with `oneOf: [{const, title}]`.
pub fn set_choices(schema: &mut Value, path: &[String], choices: &[Value]) {
    let Some(field) = schema_at_mut(schema, path).and_then(Value::as_object_mut) else {
        return;
    };
    field.remove("enum");
    let one_of: Vec<Value> = choices
        .iter()
        .map(|c| match c {
            Value::Object(m) => {
                let mut o = Map::new();
                o.insert("const".into(), m.get("id").cloned().unwrap_or(Value::Null));
                if let Some(t) = m.get("title") {
                    o.insert("title".into(), t.clone());
                }
                if let Some(d) = m.get("description") {
                    o.insert("description".into(), d.clone());
                }
                Value::Object(o)
            }
            other => serde_json::json!({ "const": other, "title": other }),
        })
        .collect();
    field.insert("oneOf".into(), Value::Array(one_of));
}

/// Trims strings and removes empty strings and nulls, recursively: an empty answer is no answer.
pub fn normalize(v: &Value) -> Option<Value> {
    match v {
        Value::Null => None,
        Value::String(s) => {
            let t = s.trim();
            (!t.is_empty()).then(|| Value::String(t.to_string()))
        }
        Value::Object(m) => Some(Value::Object(
            m.iter()
                .filter_map(|(k, v)| normalize(v).map(|v| (k.clone(), v)))
                .collect(),
        )),
        Value::Array(a) => Some(Value::Array(
            a.iter()
                .map(|v| normalize(v).unwrap_or(Value::Null))
                .collect(),
        )),
        other => Some(other.clone()),
    }
}

/// Removes read-only fields (`readOnly: true`): they are shown from `initial`, never taken from the
/// browser.
pub fn strip_read_only(v: &mut Value, schema: &Value) {
    match v {
        Value::Object(m) => {
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                m.retain(|k, _| {
                    props
                        .get(k)
                        .and_then(|p| p.get("readOnly"))
                        .and_then(Value::as_bool)
                        != Some(true)
                });
                for (k, child) in m.iter_mut() {
                    if let Some(ps) = props.get(k) {
                        strip_read_only(child, ps);
                    }
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = schema.get("items") {
                for child in a {
                    strip_read_only(child, items);
                }
            }
        }
        _ => {}
    }
}

/// Only the read-only fields of some data (objects and lists keep their shape).
pub fn read_only_part(v: &Value, schema: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let props = schema.get("properties").and_then(Value::as_object);
            Value::Object(
                m.iter()
                    .filter_map(|(k, child)| {
                        let ps = props?.get(k)?;
                        if ps.get("readOnly").and_then(Value::as_bool) == Some(true) {
                            return Some((k.clone(), child.clone()));
                        }
                        match child {
                            Value::Object(_) | Value::Array(_) => {
                                Some((k.clone(), read_only_part(child, ps)))
                            }
                            _ => None,
                        }
                    })
                    .collect(),
            )
        }
        Value::Array(a) => match schema.get("items") {
            Some(items) => Value::Array(a.iter().map(|c| read_only_part(c, items)).collect()),
            None => Value::Array(Vec::new()),
        },
        other => other.clone(),
    }
}

/// Saved answers laid over the initial data: saved values win; a list keeps the initial list's
/// length (the people of the application), item by item. Both are taken: values are moved, not
/// copied.
pub fn overlay(initial: Value, saved: Value) -> Value {
    match (initial, saved) {
        (Value::Object(mut i), Value::Object(s)) => {
            for (k, sv) in s {
                match i.get_mut(&k) {
                    Some(slot) => {
                        let iv = std::mem::take(slot);
                        *slot = overlay(iv, sv);
                    }
                    None => {
                        i.insert(k, sv);
                    }
                }
            }
            Value::Object(i)
        }
        (Value::Array(i), Value::Array(s)) => {
            let mut saved = s.into_iter();
            Value::Array(
                i.into_iter()
                    .map(|iv| match saved.next() {
                        Some(sv) => overlay(iv, sv),
                        None => iv,
                    })
                    .collect(),
            )
        }
        (_, s) => s,
    }
}

/// Keeps only the fields the schema declares, in place; true when it removed any.
pub fn prune(v: &mut Value, schema: &Value) -> bool {
    match v {
        Value::Object(m) => match schema.get("properties").and_then(Value::as_object) {
            Some(props) => {
                let before = m.len();
                m.retain(|k, _| props.contains_key(k));
                let mut removed = m.len() != before;
                for (k, child) in m.iter_mut() {
                    if let Some(s) = props.get(k) {
                        removed |= prune(child, s);
                    }
                }
                removed
            }
            None => false,
        },
        Value::Array(a) => match schema.get("items") {
            Some(items) => a
                .iter_mut()
                .fold(false, |removed, child| prune(child, items) | removed),
            None => false,
        },
        _ => false,
    }
}

fn title_of(schema: Option<&Value>, fallback: &str) -> String {
    schema
        .and_then(|s| s.get("title"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| fallback.replace('_', " "))
}

fn limit_text(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// The field key of an error at `instance` (JSON pointer segments), per the spec's naming.
pub fn error_key(
    schema: &Value,
    data: &Value,
    instance: &[String],
    missing: Option<&str>,
) -> String {
    let mut segs: Vec<&str> = instance.iter().map(String::as_str).collect();
    if let Some(m) = missing {
        segs.push(m);
    }
    let Some(first) = segs.first() else {
        return "form".into();
    };
    let prop = schema.get("properties").and_then(|p| p.get(*first));
    let prefix = prop
        .and_then(|p| p.get("x-error-prefix"))
        .and_then(Value::as_str);
    match (prefix, segs.len()) {
        (_, 1) => (*first).to_string(),
        (Some(prefix), _) => {
            let is_array =
                prop.and_then(|p| p.get("type")).and_then(Value::as_str) == Some("array");
            if is_array {
                let index: usize = segs[1].parse().unwrap_or(0);
                let item = data.get(*first).and_then(|a| a.get(index));
                let mut p = prefix.replace("{n}", &(index + 1).to_string());
                while let Some(start) = p.find('{') {
                    let Some(end) = p[start..].find('}') else {
                        break;
                    };
                    let field = &p[start + 1..start + end];
                    let value = item
                        .and_then(|i| i.get(field))
                        .map(|v| {
                            v.as_str()
                                .map(str::to_string)
                                .unwrap_or_else(|| v.to_string())
                        })
                        .unwrap_or_default();
                    p.replace_range(start..start + end + 1, &value);
                }
                if segs.len() == 2 {
                    p.trim_end_matches('_').to_string()
                } else {
                    format!("{p}{}", segs[2..].join("_"))
                }
            } else {
                format!("{prefix}{}", segs[1..].join("_"))
            }
        }
        // No prefix: the innermost field name (an item's number is not a field).
        (None, _) => segs
            .iter()
            .rev()
            .find(|s| s.parse::<usize>().is_err())
            .map(|s| (*s).to_string())
            .unwrap_or_default(),
    }
}

/// The schema path (with `*` for items) of an instance path.
fn field_path_of(instance: &[String], schema: &Value) -> FieldPath {
    let mut out = Vec::new();
    let mut s = Some(schema);
    for seg in instance {
        let is_array = s.and_then(|x| x.get("type")).and_then(Value::as_str) == Some("array");
        if is_array {
            out.push("*".to_string());
            s = s.and_then(|x| x.get("items"));
        } else {
            out.push(seg.clone());
            s = s.and_then(|x| x.get("properties")).and_then(|p| p.get(seg));
        }
    }
    out
}

/// Validates `data` (already normalized and pruned) against the form's full schema, ignoring
/// fields dropped for this context. Messages use the fields' titles and `x-messages`.
pub fn schema_errors(form: &Form, resolved: &Value, data: &Value, dropped: &[FieldPath]) -> Errors {
    let mut errors = Errors::new();
    for e in form.validator.iter_errors(data) {
        let instance: Vec<String> = e
            .instance_path()
            .iter()
            .map(|s| match s {
                jsonschema::paths::LocationSegment::Property(p) => p.to_string(),
                jsonschema::paths::LocationSegment::Index(i) => i.to_string(),
            })
            .collect();
        let missing = match e.kind() {
            ValidationErrorKind::Required { property } => property.as_str().map(str::to_string),
            _ => None,
        };
        let mut field = field_path_of(&instance, resolved);
        if let Some(m) = &missing {
            field.push(m.clone());
        }
        if dropped.contains(&field) || schema_at(resolved, &field).is_none() {
            continue;
        }
        let field_schema = schema_at(resolved, &field);
        let title = title_of(
            field_schema,
            field.last().map(String::as_str).unwrap_or("field"),
        );
        let keyword = e.kind().keyword();
        let custom = field_schema
            .and_then(|s| s.get("x-messages"))
            .and_then(|m| m.get(keyword))
            .and_then(Value::as_str);
        let message = match custom {
            Some(c) => c.to_string(),
            None => default_message(e.kind(), &title, field_schema),
        };
        let key = error_key(resolved, data, &instance, missing.as_deref());
        let list = errors.entry(key).or_default();
        if !list.contains(&message) {
            list.push(message);
        }
    }
    errors
}

fn default_message(kind: &ValidationErrorKind, title: &str, schema: Option<&Value>) -> String {
    let is_date = schema.and_then(|s| s.get("format")).and_then(Value::as_str) == Some("date");
    match kind {
        ValidationErrorKind::Required { .. } => format!("The {title} field is required."),
        ValidationErrorKind::MaxLength { limit } => {
            format!("The {title} may not be greater than {limit} characters.")
        }
        ValidationErrorKind::MinLength { limit } => {
            format!("The {title} must be at least {limit} characters.")
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("No more than {limit} {title} may be added.")
        }
        ValidationErrorKind::Minimum { limit } => {
            format!("The {title} must be at least {}.", limit_text(limit))
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("The {title} may not be greater than {}.", limit_text(limit))
        }
        ValidationErrorKind::Format { .. } if is_date => {
            format!("The {title} is not a valid date.")
        }
        ValidationErrorKind::Format { .. } | ValidationErrorKind::Pattern { .. } => {
            format!("The {title} format is invalid.")
        }
        ValidationErrorKind::Enum { .. }
        | ValidationErrorKind::Constant { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::AnyOf { .. } => format!("The selected {title} is invalid."),
        _ => format!("The {title} is invalid."),
    }
}

/// Builds the validator of a form's schema; problems point at the `schema:` line.
pub fn compile_schema(
    file: &str,
    line: usize,
    schema: &Value,
) -> Result<jsonschema::Validator, Diagnostic> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| Diagnostic::new(file, line, 1, format!("invalid json schema: {e}")))
}

/// Merges a Rhai checks result (`#{ key: ["msg"] }` or `#{ key: "msg" }`) into `errors`.
pub fn merge_checks(errors: &mut Errors, result: &Value) -> Result<(), String> {
    let Value::Object(m) = result else {
        return match result {
            Value::Null => Ok(()),
            _ => Err("must return a map of field keys to messages".into()),
        };
    };
    for (k, v) in m {
        let list = errors.entry(k.clone()).or_default();
        match v {
            Value::String(s) => list.push(s.clone()),
            Value::Array(a) => {
                for x in a {
                    if let Some(s) = x.as_str() {
                        list.push(s.to_string());
                    }
                }
            }
            Value::Null => {}
            _ => return Err(format!("messages for `{k}` must be text")),
        }
        if list.is_empty() {
            errors.remove(k);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "sub_first_name": { "type": "string", "title": "First Name", "maxLength": 30 },
                "spouse": { "type": "object", "x-error-prefix": "spouse_",
                            "properties": { "gender": { "type": "string" } } },
                "dependents": { "type": "array", "x-error-prefix": "dependent{n}_",
                                "items": { "type": "object", "properties": { "gender": {} } } },
                "members": { "type": "array", "x-error-prefix": "dependent_{member_id}_pcp_",
                             "items": { "type": "object", "properties": { "npi": {} } } }
            }
        })
    }

    #[test]
    fn error_keys_follow_the_spec_naming() {
        let s = schema();
        let data = json!({ "members": [{ "member_id": 77 }] });
        let seg = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            error_key(&s, &data, &seg(&["sub_first_name"]), None),
            "sub_first_name"
        );
        assert_eq!(
            error_key(&s, &data, &seg(&["spouse"]), Some("gender")),
            "spouse_gender"
        );
        assert_eq!(
            error_key(&s, &data, &seg(&["dependents", "2", "gender"]), None),
            "dependent3_gender"
        );
        assert_eq!(
            error_key(&s, &data, &seg(&["dependents"]), None),
            "dependents"
        );
        assert_eq!(
            error_key(&s, &data, &seg(&["members", "0", "npi"]), None),
            "dependent_77_pcp_npi"
        );
        assert_eq!(error_key(&s, &data, &[], Some("email")), "email");
        assert_eq!(
            error_key(&s, &data, &seg(&["ethnicity", "0"]), None),
            "ethnicity"
        );
    }

    #[test]
    fn pruning_and_overlaying_in_place_say_what_they_did() {
        let s = schema();
        let kept = json!({ "sub_first_name": "Ann", "spouse": { "gender": "F" },
                           "dependents": [{ "gender": "M" }, {}] });
        let mut v = kept.clone();
        assert!(!prune(&mut v, &s), "nothing undeclared: nothing removed");
        assert_eq!(v, kept);
        for (extra, pruned) in [
            (
                json!({ "sub_first_name": "Ann", "nickname": "A" }),
                json!({ "sub_first_name": "Ann" }),
            ),
            (
                json!({ "spouse": { "gender": "F", "age": 40 } }),
                json!({ "spouse": { "gender": "F" } }),
            ),
            (
                json!({ "dependents": [{ "gender": "M" }, { "gender": "F", "ssn": "x" }] }),
                json!({ "dependents": [{ "gender": "M" }, { "gender": "F" }] }),
            ),
        ] {
            let mut v = extra.clone();
            assert!(prune(&mut v, &s), "{extra}");
            assert_eq!(v, pruned, "{extra}");
        }
        let initial =
            json!({ "a": 1, "people": [{ "age": 40, "name": "x" }, { "age": 9 }], "z": true });
        for (saved, overlaid) in [
            (
                json!({ "people": [{ "name": "Ann" }], "b": "new" }),
                json!({ "a": 1, "b": "new", "people": [{ "age": 40, "name": "Ann" }, { "age": 9 }], "z": true }),
            ),
            (
                json!({ "people": [{ "name": "Ann" }, { "name": "Bo" }, { "name": "extra" }] }),
                json!({ "a": 1, "people": [{ "age": 40, "name": "Ann" }, { "age": 9, "name": "Bo" }], "z": true }),
            ),
            (
                json!({ "a": { "nested": 1 }, "z": false }),
                json!({ "a": { "nested": 1 }, "people": [{ "age": 40, "name": "x" }, { "age": 9 }], "z": false }),
            ),
            (json!({}), initial.clone()),
        ] {
            assert_eq!(overlay(initial.clone(), saved.clone()), overlaid, "{saved}");
        }
        let mut v = json!({ "spouse": { "gender": "F" } });
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(remove_answer(&mut v, &path(&["spouse", "gender"])));
        assert!(!remove_answer(&mut v, &path(&["spouse", "gender"])));
        assert!(!remove_answer(&mut v, &path(&["nobody", "gender"])));
    }

    #[test]
    fn normalize_trims_and_forgets_empty_answers() {
        let v = json!({ "a": "  Ann ", "b": "", "c": null, "d": [ { "x": " " } ], "e": 0 });
        assert_eq!(
            normalize(&v),
            Some(json!({ "a": "Ann", "d": [ {} ], "e": 0 }))
        );
    }

    #[test]
    fn saved_answers_overlay_the_initial_people() {
        let initial = json!({ "a": 1, "people": [{ "born": "2000" }, { "born": "2010" }] });
        let saved = json!({ "a": 2, "b": 3, "people": [{ "name": "Ann" }, { "name": "Bo" }, { "name": "Gone" }] });
        assert_eq!(
            overlay(initial, saved),
            json!({ "a": 2, "b": 3, "people": [{ "born": "2000", "name": "Ann" }, { "born": "2010", "name": "Bo" }] })
        );
    }

    #[test]
    fn read_only_fields_are_never_taken_from_the_browser() {
        let schema = json!({ "properties": { "a": { "readOnly": true }, "b": {},
            "l": { "items": { "properties": { "c": { "readOnly": true }, "d": {} } } } } });
        let mut v = json!({ "a": 1, "b": 2, "l": [{ "c": 3, "d": 4 }] });
        strip_read_only(&mut v, &schema);
        assert_eq!(v, json!({ "b": 2, "l": [{ "d": 4 }] }));
    }

    #[test]
    fn prune_keeps_declared_fields_only() {
        let v = json!({ "sub_first_name": "A", "hack": 1, "spouse": { "gender": "F", "x": 2 } });
        let mut pruned = v.clone();
        prune(&mut pruned, &schema());
        assert_eq!(
            pruned,
            json!({ "sub_first_name": "A", "spouse": { "gender": "F" } })
        );
    }

    #[test]
    fn dropping_a_field_removes_it_from_required() {
        let mut s = json!({ "type": "object", "required": ["a", "b"],
                            "properties": { "a": {}, "b": {} } });
        drop_field(&mut s, &parse_path("b"));
        assert_eq!(
            s,
            json!({ "type": "object", "required": ["a"], "properties": { "a": {} } })
        );
    }
}
