//! A form's errors: JSON-Schema errors under the spec's field keys and wording, the rules' checks
//! merged in, and the validator of a form's schema.

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::schema::schema_at;
use super::{Errors, FieldPath, Form};
use crate::diagnostic::Diagnostic;

/// The message of a required field left empty.
pub fn required_message(schema: &Value, path: &[String]) -> String {
    let title = title_of(
        schema_at(schema, path),
        path.last().map(String::as_str).unwrap_or("field"),
    );
    format!("The {title} field is required.")
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
