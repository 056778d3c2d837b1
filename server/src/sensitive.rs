//! Sensitive answers (`x-sensitive: true` in a form's schema, e.g. SSNs): encrypted before they
//! are stored, masked (`*****6789`) in every view, and a mask sent back unchanged means "keep
//! the stored value".

use serde_json::Value;

use enrollflow_engine::sensitive::{map_strings, sensitive_paths};

use crate::crypto::{self, Cipher};

/// Stored (encrypted) sensitive values, as the browser sees them: masked.
pub fn mask(cipher: &Cipher, schema: &Value, data: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings::<anyhow::Error>(data, &path, &mut |s| {
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
            map_strings::<anyhow::Error>(&mut s, &path, &mut |v| {
                stored_values.push(v.to_string());
                Ok(None)
            })?;
        }
        map_strings::<anyhow::Error>(input, &path, &mut |v| {
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

/// Stored sensitive values decrypted (to check stored answers again under newer rules; never
/// answered to a browser).
pub fn decrypt(cipher: &Cipher, schema: &Value, answers: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings::<anyhow::Error>(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                Some(cipher.decrypt(s)?)
            } else {
                None
            })
        })?;
    }
    Ok(())
}

/// A submission's sensitive values, encrypted for storage (values stored already stay).
pub fn encrypt(cipher: &Cipher, schema: &Value, answers: &mut Value) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        map_strings::<anyhow::Error>(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                None
            } else {
                Some(cipher.encrypt(s)?)
            })
        })?;
    }
    Ok(())
}
