//! A rule set's languages read from its catalogs, and a text or a date in one of them.

use std::collections::BTreeMap;

use super::catalog::{is_prose, placeholders};
use super::pseudo::pseudo_text;
use super::texts::{line_of, texts};
use super::{Catalog, HostTexts, LONG_DATE, Languages, MONTHS, PSEUDO, SOURCE};
use crate::diagnostic::Diagnostic;
use crate::{Source, yaml};

/// A catalog's language code: `es`, `pt-BR`, … (the file's stem).
fn language_of(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("forms/locales/")
        .or_else(|| path.strip_prefix("rules/locales/"))?;
    let code = rest.strip_suffix(".yaml")?;
    let valid = !code.is_empty()
        && !code.contains('/')
        && code
            .split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()));
    valid.then_some(code)
}

impl Languages {
    /// Reads the catalogs of a rule set's sources; a catalog that is not a map of texts is a
    /// problem.
    pub fn load(sources: &[Source], host: &[HostTexts], problems: &mut Vec<Diagnostic>) -> Self {
        let mut catalogs: BTreeMap<String, Catalog> = BTreeMap::new();
        for s in sources {
            let Some(code) = language_of(&s.path) else {
                if (s.path.starts_with("forms/locales/") || s.path.starts_with("rules/locales/"))
                    && s.path.ends_with(".yaml")
                {
                    problems.push(Diagnostic::file(
                        &s.path,
                        "a catalog's name is its language code: es.yaml, pt-BR.yaml",
                    ));
                }
                continue;
            };
            if code == SOURCE || code == PSEUDO {
                problems.push(Diagnostic::file(
                    &s.path,
                    format!("`{code}` needs no catalog: the files are written in English, and `pseudo` is made from them"),
                ));
                continue;
            }
            let map =
                match yaml::parse::<Option<BTreeMap<String, Option<String>>>>(&s.path, &s.text) {
                    Ok(m) => m.unwrap_or_default(),
                    Err(d) => {
                        problems.push(d);
                        continue;
                    }
                };
            let catalog = catalogs.entry(code.to_string()).or_default();
            for (key, value) in map {
                let line = line_of(&s.text, &key);
                if let Some((file, _)) = catalog.keys.get(&key) {
                    problems.push(Diagnostic::new(
                        &s.path,
                        line,
                        1,
                        format!("`{key}` is translated in {file} already"),
                    ));
                    continue;
                }
                let value = value.unwrap_or_default();
                if value.trim().is_empty() {
                    // Not translated yet: `check` reports the text as missing.
                    continue;
                }
                if placeholders(&key) != placeholders(&value) {
                    problems.push(Diagnostic::new(
                        &s.path,
                        line,
                        1,
                        format!(
                            "the translation of `{key}` must keep its placeholders {:?}",
                            placeholders(&key)
                        ),
                    ));
                    continue;
                }
                catalog.insert(key, value, &s.path, line);
            }
        }
        let mut pseudo = Catalog::default();
        for t in texts(sources, host) {
            let p = pseudo_text(&t.text);
            pseudo.insert(t.text, p, &t.file, t.line);
        }
        Self { catalogs, pseudo }
    }

    /// The languages with catalogs, English first (the pseudo-language is not listed).
    pub fn codes(&self) -> Vec<&str> {
        std::iter::once(SOURCE)
            .chain(self.catalogs.keys().map(String::as_str))
            .collect()
    }

    /// The first of `wanted` (most wanted first) the rule set speaks, a regional tag falling back
    /// to its language (`es-MX` is `es`); English when none is.
    pub fn pick(&self, wanted: &[String]) -> String {
        wanted
            .iter()
            .find_map(|tag| {
                let primary = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
                [tag.clone(), primary].into_iter().find(|t| self.speaks(t))
            })
            .unwrap_or_else(|| SOURCE.to_string())
    }

    /// Whether the rule set speaks `code` (English, a language with catalogs, or `pseudo`).
    pub fn speaks(&self, code: &str) -> bool {
        code == SOURCE || code == PSEUDO || self.catalogs.contains_key(code)
    }

    /// The catalog of a language with one (or of the pseudo-language).
    pub fn catalog(&self, code: &str) -> Option<&Catalog> {
        if code == PSEUDO {
            Some(&self.pseudo)
        } else {
            self.catalogs.get(code)
        }
    }

    /// A text in `code`: its translation, or the text itself (English, or a text no catalog
    /// has: a name, a date, an address).
    pub fn text(&self, code: &str, text: &str) -> String {
        self.catalog(code)
            .filter(|_| is_prose(text))
            .and_then(|c| c.get(text))
            .unwrap_or_else(|| text.to_string())
    }

    /// A date in words in `code` ("January 1, 2025"; in Spanish "1 de enero de 2025"): the
    /// catalogs' own form of `{month} {day}, {year}` and their months.
    pub fn long_date(&self, code: &str, date: time::Date) -> String {
        let month = MONTHS[usize::from(u8::from(date.month())) - 1];
        // The form has no words of its own: asked of the catalog directly.
        self.catalog(code)
            .and_then(|c| c.get(LONG_DATE))
            .unwrap_or_else(|| LONG_DATE.to_string())
            .replace("{month}", &self.text(code, month))
            .replace("{day}", &date.day().to_string())
            .replace("{year}", &date.year().to_string())
    }
}
