//! One language's catalog: a translation found by its exact text or by a pattern of
//! `{placeholders}`, and what a placeholder and a text of prose are.

use regex::Regex;

use super::{Catalog, Pattern};

/// A `{name}` placeholder: what a form's client fills (`{n}`), what the engine fills
/// (`{title}`), or a rule script's `${expression}` (`{us_date(app.effective_date)}`).
pub(super) fn placeholder() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\{([^{}\s][^{}]*)\}").expect("a valid pattern"))
}

pub(super) fn placeholders(text: &str) -> Vec<String> {
    let mut names: Vec<String> = placeholder()
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    names.sort();
    names
}

/// A text with letters outside its placeholders (`"{continuous_coverage_note}"` is none).
pub(super) fn is_prose(text: &str) -> bool {
    placeholder()
        .replace_all(text, "")
        .chars()
        .any(char::is_alphabetic)
}

impl Catalog {
    pub(super) fn insert(&mut self, key: String, translation: String, file: &str, line: usize) {
        if placeholder().is_match(&key) && is_prose(&key) {
            let mut names = Vec::new();
            let mut regex = String::from("^");
            let mut last = 0;
            for c in placeholder().captures_iter(&key) {
                let whole = c.get(0).map_or(0..0, |m| m.range());
                regex.push_str(&regex::escape(&key[last..whole.start]));
                regex.push_str("(.+?)");
                names.push(c[1].to_string());
                last = whole.end;
            }
            regex.push_str(&regex::escape(&key[last..]));
            regex.push('$');
            if let Ok(regex) = Regex::new(&regex) {
                self.patterns.push(Pattern {
                    regex,
                    names,
                    translation: translation.clone(),
                });
            }
        }
        self.keys.insert(key.clone(), (file.to_string(), line));
        self.exact.insert(key, translation);
    }

    /// The translation of a text, if the catalog has it (exactly, or by a pattern).
    pub fn get(&self, text: &str) -> Option<String> {
        self.get_within(text, 0)
    }

    /// What a placeholder stands for is translated too (a field's title, a sentence a rule
    /// added), a few levels deep at most.
    fn get_within(&self, text: &str, depth: u8) -> Option<String> {
        if let Some(t) = self.exact.get(text) {
            return Some(t.clone());
        }
        if depth > 4 {
            return None;
        }
        self.patterns.iter().find_map(|p| {
            let caps = p.regex.captures(text)?;
            let mut out = p.translation.clone();
            for (i, name) in p.names.iter().enumerate() {
                let value = caps.get(i + 1).map_or("", |m| m.as_str());
                let value = self
                    .get_within(value, depth + 1)
                    .unwrap_or_else(|| value.to_string());
                out = out.replace(&format!("{{{name}}}"), &value);
            }
            Some(out)
        })
    }

    /// The translation written for exactly this text, if any (no pattern applied).
    pub fn exact(&self, text: &str) -> Option<&str> {
        self.exact.get(text).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}
