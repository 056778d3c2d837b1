//! The protected core: what no rule set may weaken, whoever wrote it. The operators' policy (the
//! server ships it, outside `rules/`, `forms/` and `templates/`) names the answers that must be
//! sensitive and what a field that reads as an SSN or a tax id looks like; [`check`] refuses a set
//! that marks a named answer otherwise, or that adds such a field without `x-sensitive: true`, each
//! problem with its file and line.

use serde::Deserialize;
use serde_json::Value;

use crate::{Diagnostic, Source, yaml};

/// The operators' policy.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Answers that must be `x-sensitive: true` in whichever form has them: a property path, its
    /// parts joined by `.`, `*` for an array's items (`dependents.*.ssn`).
    pub sensitive: Vec<String>,
    /// What reads as an SSN or a tax id.
    pub looks_like: LooksLike,
}

/// What makes a field read as an SSN or a tax id.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LooksLike {
    /// A word of the field's key (split at `_`, `-` and case changes), lower case: `ssn`.
    pub key_words: Vec<String>,
    /// Two or more words that together name one (`tax id`, `social security`): found in the
    /// key's words or in the field's title, lower case.
    pub phrases: Vec<String>,
    /// A `format` or a `ui:widget` value.
    pub formats: Vec<String>,
}

impl Policy {
    /// Reads the policy's YAML.
    pub fn parse(path: &str, text: &str) -> Result<Self, Diagnostic> {
        yaml::parse(path, text)
    }

    fn names(&self, path: &[String]) -> bool {
        let joined = path.join(".");
        self.sensitive.contains(&joined)
    }

    /// Why a field reads as an SSN or a tax id, if it does.
    fn reads_as_tax_id(&self, key: &str, schema: &Value, widget: Option<&str>) -> Option<String> {
        let words = key_words(key);
        if let Some(w) = words
            .iter()
            .find(|w| self.looks_like.key_words.iter().any(|k| k == *w))
        {
            return Some(format!("its key has the word `{w}`"));
        }
        let spaced = words.join(" ");
        let title = schema
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_lowercase();
        if let Some(p) = self
            .looks_like
            .phrases
            .iter()
            .find(|p| spaced.contains(p.as_str()) || title.contains(p.as_str()))
        {
            return Some(format!("its key or title says `{p}`"));
        }
        let format = schema.get("format").and_then(Value::as_str);
        [format, widget]
            .into_iter()
            .flatten()
            .find(|f| self.looks_like.formats.iter().any(|k| k == f))
            .map(|f| format!("its format is `{f}`"))
    }
}

/// A key's words, lower case: `subSSN_number` -> `sub`, `ssn`, `number`.
fn key_words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Every problem of a set against the policy: a named answer not sensitive, a field that reads as
/// an SSN or a tax id and is not sensitive.
pub fn check(files: &[Source], policy: &Policy) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for f in files
        .iter()
        .filter(|f| f.path.starts_with("forms/") && f.path.ends_with(".form.yaml"))
    {
        // A form that does not parse is the loader's problem, reported there.
        let Ok(form) = yaml::parse::<Value>(&f.path, &f.text) else {
            continue;
        };
        let Some(schema) = form.get("schema") else {
            continue;
        };
        let ui = form.get("ui").cloned().unwrap_or(Value::Null);
        walk(schema, &ui, &mut Vec::new(), &mut |path, field, ui| {
            let sensitive = field.get("x-sensitive").and_then(Value::as_bool) == Some(true);
            if sensitive {
                return;
            }
            let key = path.last().map(String::as_str).unwrap_or_default();
            let widget = ui.get("ui:widget").and_then(Value::as_str);
            let why = if policy.names(path) {
                Some("the operators' policy names it sensitive".to_string())
            } else {
                policy.reads_as_tax_id(key, field, widget)
            };
            if let Some(why) = why {
                problems.push(Diagnostic::new(
                    &f.path,
                    line_of_path(&f.text, path),
                    1,
                    format!(
                        "`{}` must be `x-sensitive: true` ({why}): it is encrypted at rest and \
                         masked, and no rule set may change that",
                        path.join(".")
                    ),
                ));
            }
        });
    }
    problems
}

/// Calls `f` with every property of `schema` (its path, its schema and its `ui` options), in
/// nested objects and array items too.
fn walk(
    schema: &Value,
    ui: &Value,
    path: &mut Vec<String>,
    f: &mut dyn FnMut(&[String], &Value, &Value),
) {
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            path.push(k.clone());
            let child_ui = ui.get(k).unwrap_or(&Value::Null);
            f(path, v, child_ui);
            walk(v, child_ui, path, f);
            path.pop();
        }
    }
    if let Some(items) = schema.get("items") {
        path.push("*".into());
        walk(items, ui.get("items").unwrap_or(&Value::Null), path, f);
        path.pop();
    }
}

/// The line a property is written on: each part of its path found as a key below the previous
/// one (the first line when it cannot be found).
fn line_of_path(text: &str, path: &[String]) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    for part in path.iter().filter(|p| *p != "*") {
        let key = format!("{part}:");
        match (at..lines.len()).find(|&i| lines[i].trim_start().starts_with(&key)) {
            Some(i) => at = i,
            None => return 1,
        }
    }
    at + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy::parse(
            "policy.yaml",
            "sensitive: [sub_ssn, spouse.ssn, dependents.*.ssn]\n\
             looks_like:\n  key_words: [ssn, itin, ein, tin]\n  \
             phrases: [social security, tax id, taxpayer id]\n  formats: [ssn]\n",
        )
        .expect("policy")
    }

    fn form(schema: &str) -> Vec<Source> {
        vec![Source::new(
            "forms/x.form.yaml",
            format!("title: X\nschema:\n  type: object\n  properties:\n{schema}ui: {{}}\n"),
        )]
    }

    #[test]
    fn a_named_answer_must_stay_sensitive_wherever_it_is() {
        let ok = form(
            "    sub_ssn: { type: string, x-sensitive: true }\n    spouse:\n      type: object\n      properties:\n        ssn: { type: string, x-sensitive: true }\n",
        );
        assert!(check(&ok, &policy()).is_empty());
        let weak = form(
            "    sub_ssn: { type: string, x-sensitive: true }\n    spouse:\n      type: object\n      properties:\n        first: { type: string }\n        ssn: { type: string, x-sensitive: false }\n",
        );
        let p = check(&weak, &policy());
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!((p[0].file.as_str(), p[0].line), ("forms/x.form.yaml", 10));
        assert!(p[0].message.contains("`spouse.ssn`"), "{}", p[0].message);
        let items = form(
            "    dependents:\n      type: array\n      items:\n        type: object\n        properties:\n          ssn: { type: string }\n",
        );
        let p = check(&items, &policy());
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].line, 10);
    }

    #[test]
    fn a_new_field_that_reads_as_a_tax_id_must_be_sensitive() {
        for field in [
            "    member_SSN: { type: string }\n",
            "    taxId: { type: string }\n",
            "    employer_ein: { type: string }\n",
            "    number: { type: string, title: Social Security Number }\n",
            "    number: { type: string, format: ssn }\n",
        ] {
            let p = check(&form(field), &policy());
            assert_eq!(p.len(), 1, "{field}: {p:?}");
            assert_eq!(p[0].line, 5, "{field}");
        }
        // Words that only contain the letters are not a tax id.
        for field in [
            "    destination: { type: string }\n",
            "    lessons: { type: string }\n",
            "    tinted: { type: string }\n",
        ] {
            assert!(check(&form(field), &policy()).is_empty(), "{field}");
        }
    }
}
