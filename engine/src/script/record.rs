//! `Record`, the JSON object rules see, and the conversions between JSON and Rhai values.

use std::sync::Arc;

use rhai::{Dynamic, Engine};
use serde_json::{Map, Value};

/// A JSON object handed to rules (the application, the context, the answers, the data tables):
/// a map behind a shared pointer. Rhai passes arguments by value and copies a map it passes, node
/// by node; a `Record` is copied by bumping a reference count, so handing the application or the
/// data tables to a rule function costs nothing, whatever their size.
///
/// In a rule it reads like a map (`r.field`, `r["field"]`, `type_of(r) == "map"`, `keys`,
/// `values`, `len`, `contains`, `in`, a missing field is `()`), and a write makes the writer's
/// own copy of that one level (copy on write), so no rule can change what the next one sees.
///
/// A record made once for the whole rule set (the data tables) also keeps its JSON, so a rule
/// that returns a table's rows as they are costs a copy of that JSON, not a conversion.
///
/// The fields are one slice sorted by name, made in one allocation (a JSON object's fields come
/// sorted): converting an application is a good part of a step's cost, and a tree of maps took
/// several allocations an object.
#[derive(Clone, Debug)]
pub struct Record(Arc<[(rhai::Identifier, Dynamic)]>, Option<Arc<Value>>);

impl Record {
    fn new(mut fields: Vec<(rhai::Identifier, Dynamic)>, json: Option<Arc<Value>>) -> Self {
        if !fields.is_sorted_by(|a, b| a.0 < b.0) {
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            fields.dedup_by(|a, b| a.0 == b.0);
        }
        Record(fields.into(), json)
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    fn get(&self, key: &str) -> Dynamic {
        self.position(key)
            .map_or(Dynamic::UNIT, |i| self.0[i].1.clone())
    }

    fn set(&mut self, key: &str, value: Dynamic) {
        self.1 = None;
        let mut fields = self.0.to_vec();
        match self.position(key) {
            Ok(i) => fields[i].1 = value,
            Err(i) => fields.insert(i, (key.into(), value)),
        }
        self.0 = fields.into();
    }
}

pub(super) fn register_record(engine: &mut Engine) {
    // The functions that read take the record by value (a pointer copy): Rhai then knows they do
    // not write, and allows them on constants.
    engine
        .register_type_with_name::<Record>("map")
        .register_indexer_get(|r: &mut Record, key: &str| r.get(key))
        .register_indexer_set(|r: &mut Record, key: &str, value: Dynamic| r.set(key, value))
        .register_fn("len", |r: Record| {
            i64::try_from(r.0.len()).unwrap_or(i64::MAX)
        })
        .register_fn("is_empty", |r: Record| r.0.is_empty())
        .register_fn("contains", |r: Record, key: &str| r.position(key).is_ok())
        .register_fn("get", |r: Record, key: &str| r.get(key))
        .register_fn("keys", |r: Record| {
            r.0.iter()
                .map(|(k, _)| Dynamic::from(rhai::ImmutableString::from(k.as_str())))
                .collect::<rhai::Array>()
        })
        .register_fn("values", |r: Record| {
            r.0.iter().map(|(_, v)| v.clone()).collect::<rhai::Array>()
        });
}

/// Registers a getter for every field name written after a dot in `texts` (the rule set's
/// scripts and forms): `r.name` then calls it directly. Without one, Rhai looks for a getter,
/// formats an error, and falls back to the indexer: the same answer at several times the cost, so
/// a name this scan misses still reads right.
pub fn register_fields<'a>(engine: &mut Engine, texts: impl Iterator<Item = &'a str>) {
    let mut names = std::collections::BTreeSet::new();
    for text in texts {
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices('.') {
            let rest = &text[i + 1..];
            let len = rest
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let starts_well = rest
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
            let after_dot = i == 0 || bytes[i - 1] != b'.';
            if len > 0 && starts_well && after_dot {
                names.insert(rest[..len].to_string());
            }
        }
    }
    for name in names {
        let key: rhai::ImmutableString = name.as_str().into();
        let field = key.clone();
        engine.register_get(&name, move |r: &mut Record| r.get(&key));
        engine.register_set(&name, move |r: &mut Record, value: Dynamic| {
            r.set(&field, value);
        });
    }
}

/// `record` (a [`Record`], or nothing) with `fields` set: the record's own fields are shared, not
/// copied or converted again.
pub fn with_fields<'a>(
    record: &Dynamic,
    fields: impl IntoIterator<Item = (&'a str, Dynamic)>,
) -> Dynamic {
    let mut r = record
        .read_lock::<Record>()
        .map_or_else(|| Record::new(Vec::new(), None), |r| r.clone());
    for (k, v) in fields {
        r.set(k, v);
    }
    Dynamic::from(r)
}

/// JSON to a Rhai value: objects become [`Record`]s, arrays arrays, null `()`.
pub fn to_dynamic(v: &Value) -> Dynamic {
    convert(v, false)
}

/// [`to_dynamic`] for a value kept for the whole rule set: each record also keeps its JSON.
pub fn to_lasting_dynamic(v: &Value) -> Dynamic {
    convert(v, true)
}

fn convert(v: &Value, keep_json: bool) -> Dynamic {
    match v {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::String(s) => Dynamic::from(rhai::ImmutableString::from(s.as_str())),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Dynamic::from_int(i),
            None => Dynamic::from_float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::Array(a) => Dynamic::from_array(a.iter().map(|v| convert(v, keep_json)).collect()),
        Value::Object(m) => Dynamic::from(Record::new(
            m.iter()
                .map(|(k, v)| (k.as_str().into(), convert(v, keep_json)))
                .collect(),
            keep_json.then(|| Arc::new(v.clone())),
        )),
    }
}

/// A rule's result as JSON; the error names a value JSON cannot hold.
pub fn to_json(d: &Dynamic) -> Result<Value, String> {
    if d.is_shared() {
        return to_json(&d.flatten_clone());
    }
    if d.is_unit() {
        return Ok(Value::Null);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = d.as_float() {
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("the number {f}"));
    }
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        // Copied, not formatted (`to_string` goes through `Display`).
        return Ok(Value::String(s.as_str().to_owned()));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::String(c.to_string()));
    }
    if let Some(r) = d.read_lock::<Record>() {
        return match &r.1 {
            Some(json) => Ok(Value::clone(json)),
            None => fields_to_json(r.0.iter().map(|(k, v)| (k, v))),
        };
    }
    if let Some(m) = d.read_lock::<rhai::Map>() {
        return fields_to_json(m.iter());
    }
    if let Some(a) = d.read_lock::<rhai::Array>() {
        return a
            .iter()
            .map(to_json)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    Err(format!("a value of type {}", d.type_name()))
}

fn fields_to_json<'a>(
    fields: impl Iterator<Item = (&'a rhai::Identifier, &'a Dynamic)>,
) -> Result<Value, String> {
    fields
        .map(|(k, v)| to_json(v).map(|v| (k.as_str().to_owned(), v)))
        .collect::<Result<Map<String, Value>, _>>()
        .map(Value::Object)
}
