//! Sensitive answers (`x-sensitive: true` in a form's schema, e.g. SSNs): where they are in a
//! view's schema, and a walk over their values. The server encrypts and masks them; a replayed
//! application (`replay`) makes them up.

use serde_json::Value;

/// Paths of sensitive fields in a view's schema (`x-sensitive: true`).
pub fn sensitive_paths(schema: &Value) -> Vec<Vec<String>> {
    fn walk(s: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if s.get("x-sensitive").and_then(Value::as_bool) == Some(true) {
            out.push(prefix.clone());
        }
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (k, v) in props {
                prefix.push(k.clone());
                walk(v, prefix, out);
                prefix.pop();
            }
        }
        if let Some(items) = s.get("items") {
            prefix.push("*".into());
            walk(items, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(schema, &mut Vec::new(), &mut out);
    out
}

/// Applies `f` to every string at `path` (`*` = each array item).
pub fn map_strings<E>(
    v: &mut Value,
    path: &[String],
    f: &mut dyn FnMut(&str) -> Result<Option<String>, E>,
) -> Result<(), E> {
    let Some((first, rest)) = path.split_first() else {
        if let Value::String(s) = v
            && let Some(new) = f(s)?
        {
            *s = new;
        }
        return Ok(());
    };
    if first == "*" {
        if let Value::Array(items) = v {
            for item in items {
                map_strings(item, rest, f)?;
            }
        }
    } else if let Some(child) = v.get_mut(first) {
        map_strings(child, rest, f)?;
    }
    Ok(())
}
