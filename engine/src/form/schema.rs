//! A form's schema as a view changes it: the schema of a field, a field dropped or marked
//! required, and a field's choices replaced.

use serde_json::{Map, Value};

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
