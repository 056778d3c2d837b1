//! A form's answers: normalized, pruned to the schema, their read-only part, laid over the
//! initial data, and one removed.

use serde_json::Value;

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
