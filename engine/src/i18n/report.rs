//! What `enrollflow check` reports of the languages (each text a language lacks, each
//! translation of no text), and a language's catalogs as they should be (`skeleton`).

use std::collections::BTreeMap;

use super::texts::texts;
use super::{HostTexts, Languages, Text};
use crate::Source;
use crate::diagnostic::Diagnostic;

/// Everything `enrollflow check` reports of the languages: the catalogs' own problems, each text
/// a language lacks ([`gaps`]) and each translation of no text ([`extras`]).
pub fn check(sources: &[Source], host: &[HostTexts]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let languages = Languages::load(sources, host, &mut problems);
    let texts = texts(sources, host);
    problems.extend(gaps_in(&languages, &texts));
    problems.extend(extras_in(&languages, &texts));
    problems
}

/// Each text without a translation, at the text, for each language: a rule set with one is not
/// served (a consumer never meets an English text in another language).
pub fn gaps(languages: &Languages, sources: &[Source], host: &[HostTexts]) -> Vec<Diagnostic> {
    gaps_in(languages, &texts(sources, host))
}

/// Each translation of no text, at the catalog's line: left over from a text changed or removed.
/// Harmless to serve; `enrollflow check` (and so `make test`) reports it.
pub fn extras(sources: &[Source], host: &[HostTexts]) -> Vec<Diagnostic> {
    let mut ignored = Vec::new();
    let languages = Languages::load(sources, host, &mut ignored);
    extras_in(&languages, &texts(sources, host))
}

fn gaps_in(languages: &Languages, texts: &[Text]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for (code, catalog) in &languages.catalogs {
        for t in texts {
            if !catalog.exact.contains_key(&t.text) {
                problems.push(Diagnostic::new(
                    &t.file,
                    t.line,
                    1,
                    format!(
                        "no {code} translation of `{}` (in {})",
                        t.text,
                        catalog_of(&t.file, code)
                    ),
                ));
            }
        }
    }
    problems
}

/// The catalog a text's translation goes in: `rules/locales/<code>.yaml` for the tables', the
/// flow's and the scripts' texts, `forms/locales/<code>.yaml` for the forms' and the engine's.
fn catalog_of(file: &str, code: &str) -> String {
    let folder = if file.starts_with("rules/") {
        "rules"
    } else {
        "forms"
    };
    format!("{folder}/locales/{code}.yaml")
}

fn extras_in(languages: &Languages, texts: &[Text]) -> Vec<Diagnostic> {
    let known: std::collections::HashSet<&str> = texts.iter().map(|t| t.text.as_str()).collect();
    let mut problems = Vec::new();
    for catalog in languages.catalogs.values() {
        for (key, (file, line)) in &catalog.keys {
            if !known.contains(key.as_str()) {
                problems.push(Diagnostic::new(
                    file,
                    *line,
                    1,
                    format!("`{key}` is not a text of the forms, tables or rules"),
                ));
            }
        }
    }
    problems
}

/// A language's catalogs as they should be: for `forms/locales/<code>.yaml` (the forms' texts
/// and the engine's messages) and `rules/locales/<code>.yaml` (the tables', the flow's and the
/// scripts' texts), every text in order with the translation the catalogs have, or `""` where
/// they have none, and a comment naming where the text is written. Translations of no text are
/// left out. What `enrollflow texts --language <code>` prints or writes: a new language starts
/// from it.
pub fn skeleton(sources: &[Source], code: &str, host: &[HostTexts]) -> Vec<(String, String)> {
    let mut ignored = Vec::new();
    let languages = Languages::load(sources, host, &mut ignored);
    let catalog = languages.catalogs.get(code);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for t in texts(sources, host) {
        let path = catalog_of(&t.file, code);
        let folder = path.split('/').next().unwrap_or("forms").to_string();
        let out = files.entry(path).or_insert_with(|| {
            format!(
                "# yaml-language-server: $schema=../../schemas/catalog.schema.json\n\
                 # {code} texts of {folder}/: the English text as the files write it, then its \
                 translation\n# (`enrollflow texts --language {code}` lists them; \
                 `enrollflow check` reports what is missing).\n"
            )
        });
        let translation = catalog
            .and_then(|c| c.exact.get(&t.text))
            .cloned()
            .unwrap_or_default();
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        out.push_str(&format!(
            "# {}:{}\n{}: {}\n",
            t.file,
            t.line,
            quote(&t.text),
            quote(&translation)
        ));
    }
    files.into_iter().collect()
}
