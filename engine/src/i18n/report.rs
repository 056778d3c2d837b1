//! What `enrollflow check` reports of the languages (each text a language lacks, each
//! translation of no text); a language's catalogs as they should be are the tools' (`engine-tools/`).

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
pub fn catalog_of(file: &str, code: &str) -> String {
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
