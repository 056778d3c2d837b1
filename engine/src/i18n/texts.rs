//! Every text a consumer may see and where it is written: the forms', tables', flow's and
//! scripts' texts and the built-in lists, each at its file and line.

use regex::Regex;
use serde_json::Value;

use super::catalog::{is_prose, placeholder};
use super::{
    AGENT_TABLES, BUILT_IN, HostTexts, LISTS, MODAL_TEXT_KEYS, SCHEMA_TEXT_KEYS, TABLE_TEXT_KEYS,
    Text, UI_TEXT_KEYS,
};
use crate::{Source, yaml};

/// The 1-based line of `file` where `text` starts (for a folded text, where its first words are);
/// 1 when not found.
pub(super) fn line_of(source: &str, text: &str) -> usize {
    // Written whole in quotes first (a list in code, a quoted YAML value), then its first words.
    let quoted = format!("\"{text}\"");
    if let Some(i) = source.lines().position(|l| l.contains(&quoted)) {
        return i + 1;
    }
    let head: String = text.chars().take(30).collect();
    let head = head
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    let quoted = |line: &str| line.contains(&head) || line.contains(&head.replace('\'', "''"));
    source.lines().position(quoted).map_or(1, |i| i + 1)
}

/// Every text a consumer may see, with where it is written, in file and line order, each text
/// once (at its first place): the rule set's, the engine's and its host's (`host`).
pub fn texts(sources: &[Source], host: &[HostTexts]) -> Vec<Text> {
    let mut out: Vec<Text> = Vec::new();
    let mut sorted: Vec<&Source> = sources.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    // Where the built-in texts are listed (`i18n.rs`, the rating's explanation, the catalog's).
    let here = include_str!("../i18n.rs");
    let rating = include_str!("../rating.rs");
    let catalog = include_str!("../catalog/mod.rs");
    let listed = [
        (
            crate::rating::WHY_TEXTS.as_slice(),
            "engine/src/rating.rs",
            rating,
        ),
        (
            crate::catalog::RULE_TEXTS.as_slice(),
            "engine/src/catalog/mod.rs",
            catalog,
        ),
    ];
    for (list, file, source) in listed {
        for t in list {
            out.push(Text {
                text: t.to_string(),
                file: file.into(),
                line: line_of(source, t),
            });
        }
    }
    for t in BUILT_IN {
        out.push(Text {
            text: t.to_string(),
            file: "engine/src/i18n.rs".into(),
            line: line_of(here, t),
        });
    }
    for list in host {
        for t in list.texts {
            out.push(Text {
                text: t.to_string(),
                file: list.file.into(),
                line: line_of(list.source, t),
            });
        }
    }
    for s in sorted {
        let mut found = Vec::new();
        let is_form = s.path.starts_with("forms/")
            && !s.path[6..].contains('/')
            && s.path.ends_with(".form.yaml");
        let is_table = s.path.starts_with("rules/")
            && !s.path[6..].contains('/')
            && s.path.ends_with(".yaml")
            && !AGENT_TABLES.contains(&s.path.as_str());
        let is_flow = s.path.starts_with("rules/flows/") && s.path.ends_with(".yaml");
        let is_script = s.path.starts_with("rules/scripts/") && s.path.ends_with(".rhai");
        let is_plans = s.path.starts_with("rules/catalog/") && s.path.ends_with("/vision.yaml");
        if is_plans && let Ok(v) = yaml::parse::<Value>(&s.path, &s.text) {
            // A vision plan's exam frequency is a text; plan names stay as published.
            collect_keys(&v, &["eye_exam_frequency"], &mut found);
        }
        if s.path == LISTS {
            // The filter groups' metal levels and attributes (networks are acronyms).
            if let Ok(v) = yaml::parse::<Value>(&s.path, &s.text) {
                for group in ["metals", "medical_attributes", "dental_attributes"] {
                    collect_keys(v.get(group).unwrap_or(&Value::Null), &["name"], &mut found);
                }
            }
        }
        if is_form || is_table || is_flow {
            let Ok(v) = yaml::parse::<Value>(&s.path, &s.text) else {
                continue;
            };
            if is_form {
                if let Some(Value::String(t)) = v.get("title") {
                    found.push(t.clone());
                }
                if let Some(schema) = v.get("schema") {
                    collect_schema(schema, false, &mut found);
                }
                if let Some(ui) = v.get("ui") {
                    collect_keys(ui, &UI_TEXT_KEYS, &mut found);
                }
                if let Some(m) = v.get("modals") {
                    collect_keys(m, &MODAL_TEXT_KEYS, &mut found);
                }
            } else if is_flow {
                collect_keys(&v, &["title", "nav", "section"], &mut found);
            } else {
                collect_keys(&v, &TABLE_TEXT_KEYS, &mut found);
            }
            for t in found {
                let line = line_of(&s.text, &t);
                out.push(Text {
                    text: t,
                    file: s.path.clone(),
                    line,
                });
            }
        } else if is_script || is_plans || s.path == LISTS {
            let lines = if is_script {
                script_sentences(&s.text)
            } else {
                found
                    .into_iter()
                    .map(|t| (line_of(&s.text, &t), t))
                    .collect()
            };
            for (line, t) in lines {
                out.push(Text {
                    text: t,
                    file: s.path.clone(),
                    line,
                });
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|t| {
        (is_prose(&t.text)
            || BUILT_IN.contains(&t.text.as_str())
            || host.iter().any(|l| l.texts.contains(&t.text.as_str())))
            && seen.insert(t.text.clone())
    });
    out
}

fn collect_schema(v: &Value, in_messages: bool, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                match x {
                    Value::String(s) if in_messages || SCHEMA_TEXT_KEYS.contains(&k.as_str()) => {
                        out.push(s.clone());
                    }
                    _ => collect_schema(x, in_messages || k == "x-messages", out),
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|x| collect_schema(x, in_messages, out)),
        _ => {}
    }
}

fn collect_keys(v: &Value, keys: &[&str], out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                match x {
                    Value::String(s) if keys.contains(&k.as_str()) => out.push(s.clone()),
                    Value::Array(items) if keys.contains(&k.as_str()) => {
                        for item in items {
                            match item {
                                Value::String(s) => out.push(s.clone()),
                                other => collect_keys(other, keys, out),
                            }
                        }
                    }
                    _ => collect_keys(x, keys, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| collect_keys(x, keys, out)),
        _ => {}
    }
}

/// The texts a rule script writes: its string literals that read as words, outside comments: a
/// capital letter first and a small letter in them (`"Spouse"`, not the codes `"M"` or `"HMO"`),
/// or two words or more (`"* indicates a required field"`, `"this carrier"`), placeholders aside
/// (`${name} ${p}` is none). In a template literal,
/// each `${…}` is a placeholder named after its expression (`${input.residential_zip}` is
/// `{input.residential_zip}`), which is how the catalog writes it.
fn script_sentences(text: &str) -> Vec<(usize, String)> {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let literal = RE
        .get_or_init(|| Regex::new(r#""((?:[^"\\\n]|\\.)*)"|`([^`]*)`"#).expect("a valid pattern"));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let code = line.split(" // ").next().unwrap_or(line);
        for c in literal.captures_iter(code) {
            let raw = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
            let s = raw.replace("${", "{").replace("\\\"", "\"");
            let words = placeholder().replace_all(&s, " ");
            let capital = words
                .trim_start()
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
                && words.chars().any(char::is_lowercase);
            let several = words
                .split_whitespace()
                .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
                .count()
                >= 2;
            if capital || several {
                out.push((i + 1, s));
            }
        }
    }
    out
}
