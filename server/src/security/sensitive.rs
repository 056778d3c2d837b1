//! Sensitive answers (`x-sensitive: true` in a form's schema, e.g. SSNs): encrypted before they
//! are stored, masked (`*****6789`) in every view, and a mask sent back unchanged means "keep
//! the stored value". Each is bound to its place (`Place`: the application, the step and the
//! field's path, `*` for any array item), so a value copied to another row or field does not
//! decrypt.
//!
//! Their places in a view's schema are `enrollflow_engine::sensitive`'s; the values are
//! re-encrypted by `rotate` (`enrollflow rotate-key`) and removed from the demo data.

use serde_json::Value;

use enrollflow_engine::sensitive::{map_strings, sensitive_paths};

use crate::security::crypto::{self, Cipher};

/// Where a form's answers are stored: an application's step.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub application: uuid::Uuid,
    pub step: &'a str,
}

impl Place<'_> {
    /// The associated data binding a value at `path` (the schema's path, `*` for array items).
    pub fn of(&self, path: &[String]) -> String {
        format!("{}:{}:{}", self.application, self.step, path.join("/"))
    }
}

/// Stored (encrypted) sensitive values, as the browser sees them: masked.
pub fn mask(
    cipher: &Cipher,
    place: Place<'_>,
    schema: &Value,
    data: &mut Value,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let bound = place.of(&path);
        map_strings::<anyhow::Error>(data, &path, &mut |s| {
            Ok(Some(if Cipher::is_encrypted(s) {
                crypto::mask(&cipher.decrypt_bound(s, &bound)?)
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
    place: Place<'_>,
    schema: &Value,
    input: &mut Value,
    stored: Option<&Value>,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let bound = place.of(&path);
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
                    let plain = cipher.decrypt_bound(&p, &bound)?;
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
pub fn decrypt(
    cipher: &Cipher,
    place: Place<'_>,
    schema: &Value,
    answers: &mut Value,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let bound = place.of(&path);
        map_strings::<anyhow::Error>(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                Some(cipher.decrypt_bound(s, &bound)?)
            } else {
                None
            })
        })?;
    }
    Ok(())
}

/// A submission's sensitive values, encrypted for storage (values stored already stay).
pub fn encrypt(
    cipher: &Cipher,
    place: Place<'_>,
    schema: &Value,
    answers: &mut Value,
) -> anyhow::Result<()> {
    for path in sensitive_paths(schema) {
        let bound = place.of(&path);
        map_strings::<anyhow::Error>(answers, &path, &mut |s| {
            Ok(if Cipher::is_encrypted(s) {
                None
            } else {
                Some(cipher.encrypt_bound(s, &bound)?)
            })
        })?;
    }
    Ok(())
}

/// A step's stored answers re-encrypted under the current key (each in its place); whether any
/// value changed (`enrollflow rotate-key`).
pub fn rotate(
    cipher: &Cipher,
    place: Place<'_>,
    schema: &Value,
    answers: &mut Value,
) -> anyhow::Result<bool> {
    let mut changed = false;
    for path in sensitive_paths(schema) {
        let bound = place.of(&path);
        map_strings::<anyhow::Error>(answers, &path, &mut |s| {
            let rotated = if Cipher::is_encrypted(s) {
                cipher.rotate(s, &bound)?
            } else {
                None
            };
            changed |= rotated.is_some();
            Ok(rotated)
        })?;
    }
    Ok(changed)
}
