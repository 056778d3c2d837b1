//! Sensitive answers (`x-sensitive: true` in a form's schema, e.g. SSNs): encrypted before they
//! are stored, masked (`*****6789`) in every view, and a mask sent back unchanged means "keep
//! the stored value".

use serde_json::Value;

use crate::crypto::{self, Cipher};

/// Paths of sensitive fields in a view's schema (`x-sensitive: true`).
fn sensitive_paths(schema: &Value) -> Vec<Vec<String>> {
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
fn map_strings(
    v: &mut Value,
    path: &[String],
    f: &mut dyn FnMut(&str) -> anyhow::Result<Option<String>>,
) -> anyhow::Result<()> {
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

/// Stored (encrypted) sensitive values, as the browser sees them: masked.
pub fn mask(cipher: &Cipher, schema: &Value, data: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings(data, &path, &mut |s| {
            Ok(Some(if Cipher::is_encrypted(s) {
                crypto::mask(&cipher.decrypt(s)?)
            } else {
                crypto::mask(s)
            }))
        })?;
    }
    Ok(())
}

/// A submission's sensitive values: a mask sent back unchanged means "keep what is stored".
pub fn unmask(
    cipher: &Cipher,
    schema: &Value,
    input: &mut Value,
    stored: Option<&Value>,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let mut i = 0usize;
        let mut stored_values = Vec::new();
        if let Some(stored) = stored {
            let mut s = stored.clone();
            map_strings(&mut s, &path, &mut |v| {
                stored_values.push(v.to_string());
                Ok(None)
            })?;
        }
        map_strings(input, &path, &mut |v| {
            let prior = stored_values.get(i).cloned();
            i += 1;
            if !crypto::is_mask(v) {
                return Ok(None);
            }
            match prior {
                Some(p) if Cipher::is_encrypted(&p) => {
                    let plain = cipher.decrypt(&p)?;
                    Ok((crypto::mask(&plain) == v).then_some(plain))
                }
                _ => Ok(None),
            }
        })?;
    }
    Ok(())
}

/// A submission's sensitive values removed (the demo data, which stores none).
pub fn remove(schema: &Value, answers: &mut Value) {
    fn at(v: &mut Value, path: &[String]) {
        match path {
            [] => {}
            [last] if last != "*" => {
                if let Value::Object(m) = v {
                    m.remove(last);
                }
            }
            [first, rest @ ..] if first == "*" => {
                if let Value::Array(items) = v {
                    for item in items {
                        at(item, rest);
                    }
                }
            }
            [first, rest @ ..] => {
                if let Some(child) = v.get_mut(first) {
                    at(child, rest);
                }
            }
        }
    }
    for path in sensitive_paths(schema) {
        at(answers, &path);
    }
}

/// A submission's sensitive values, encrypted for storage (values stored already stay).
pub fn encrypt(cipher: &Cipher, schema: &Value, answers: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                None
            } else {
                Some(cipher.encrypt(s)?)
            })
        })?;
    }
    Ok(())
}
