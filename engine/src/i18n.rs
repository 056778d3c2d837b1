//! Languages: the texts of the forms, the tables and the rules' messages in the
//! consumer's language.
//!
//! A language is a set of catalogs, `forms/locales/<code>.yaml` and `rules/locales/<code>.yaml`,
//! each a map from the English text, as the form, table or rule writes it, to the language's text.
//! English is the source and needs none. A key may hold `{placeholders}`: `"The County is not one
//! of the counties of ZIP code {zip}."` matches that message whatever the ZIP, and the translation
//! repeats `{zip}`. What a placeholder stands for is translated too when it is itself a text of
//! the catalog (`The {title} field is required.` with the field's title).
//!
//! [`texts`] lists every text a consumer may see: the forms' titles, descriptions, messages, labels
//! and dialogs, the tables' titles, descriptions and notes, the sentences the rule scripts write,
//! the engine's own messages and its host's ([`HostTexts`]). [`check`] reports, for each language, each text without a
//! translation (at the text) and each translation of no text (at the catalog's line), so a
//! language never falls back to English silently.
//!
//! `pseudo` is the tests' language: every known text accented and bracketed (`[Ƒîŕšţ Ñàɱé]`), so
//! a text that went round the catalogs shows as plain English.
//!
//! `texts` also lists the flow's labels, the metal levels and the engine's member names, each text
//! with its file and line. `gaps` (a text a language lacks) is a load problem, so such a set is
//! never served (tests here, `tools/i18n/test_cli.py`, `server/tests/api/reload.rs`); `extras` (a
//! translation of no text) is reported by `enrollflow check` only; `skeleton` writes a language's
//! catalogs (`enrollflow texts --language <code> [--write]`). The view, flow, error and plan
//! translations the server applies are here too.

mod catalog;
mod languages;
mod pseudo;
mod report;
mod texts;
mod translate;

use std::collections::{BTreeMap, HashMap};

use regex::Regex;

pub use pseudo::pseudo_text;
pub use report::{catalog_of, check, extras, gaps};
pub use texts::texts;

/// The language of the form and rule files.
pub const SOURCE: &str = "en";
/// The tests' pseudo-language (see the module's documentation).
pub const PSEUDO: &str = "pseudo";

/// Keys whose string values are texts in a form's `schema` (also every string under `x-messages`).
const SCHEMA_TEXT_KEYS: [&str; 2] = ["title", "description"];
/// Keys whose string values are texts in a form's `ui`.
const UI_TEXT_KEYS: [&str; 15] = [
    "title",
    "text",
    "label",
    "caption",
    "empty",
    "addLabel",
    "removeLabel",
    "itemTitle",
    "sectionTitle",
    "submitText",
    "requiresMessage",
    "ui:help",
    "ui:description",
    "ui:placeholder",
    "ui:title",
];
/// Keys whose string values are texts in a form's `modals`.
const MODAL_TEXT_KEYS: [&str; 3] = ["title", "body", "label"];
/// Keys whose string values are texts in the tables (`rules/*.yaml`) a consumer's step shows.
const TABLE_TEXT_KEYS: [&str; 5] = ["title", "description", "note", "label", "message"];
/// The plan catalog's filter groups (`metals`, attributes): their names are texts (so are the
/// vision plans' `eye_exam_frequency`).
const LISTS: &str = "rules/catalog/lists.yaml";
/// Tables only the agents' dashboard shows (it may stay English).
const AGENT_TABLES: [&str; 2] = ["rules/calendar.yaml", "rules/dashboard.yaml"];

/// How [`Languages::long_date`] writes a date ("January 1, 2025"), and the months it names.
const LONG_DATE: &str = "{month} {day}, {year}";
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The engine's and the server's own texts: the engine's messages (`form/validate.rs`), with the
/// placeholders the engine fills, the household's members as the premium breakdown names them
/// (`rating.rs`), the legal texts' titles (`http/legal.rs`) and a date in words with its months
/// (the e-mails: [`Languages::long_date`]).
pub const BUILT_IN: &[&str] = &[
    "Privacy Policy",
    "Terms of Use",
    LONG_DATE,
    MONTHS[0],
    MONTHS[1],
    MONTHS[2],
    MONTHS[3],
    MONTHS[4],
    MONTHS[5],
    MONTHS[6],
    MONTHS[7],
    MONTHS[8],
    MONTHS[9],
    MONTHS[10],
    MONTHS[11],
    "Subscriber",
    "Spouse",
    "Dependent {n}",
    "The {title} field is required.",
    "The {title} may not be greater than {limit} characters.",
    "The {title} must be at least {limit} characters.",
    "No more than {limit} {title} may be added.",
    "The {title} must be at least {limit}.",
    "The {title} may not be greater than {limit}.",
    "The {title} is not a valid date.",
    "The {title} format is invalid.",
    "The selected {title} is invalid.",
    "The {title} is invalid.",
    "The {title} field is required when {other} is present.",
];

/// Texts a program built on the engine shows besides the rule set's (a server's refusals, its
/// printed sheets), with the file that lists them and that file's text (for each text's line):
/// handed to [`crate::load_with`] and the reports here, so every language's catalogs are checked
/// for them and the pseudo-language covers them. The engine names no list of its host's.
#[derive(Debug, Clone, Copy)]
pub struct HostTexts {
    pub file: &'static str,
    pub source: &'static str,
    pub texts: &'static [&'static str],
}

/// A text a consumer may see, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub text: String,
    pub file: String,
    pub line: usize,
}

/// One language's translations.
#[derive(Debug, Default)]
pub struct Catalog {
    exact: HashMap<String, String>,
    patterns: Vec<Pattern>,
    /// Each key's catalog file and line (for [`check`]).
    keys: BTreeMap<String, (String, usize)>,
}

#[derive(Debug)]
struct Pattern {
    regex: Regex,
    names: Vec<String>,
    translation: String,
}

/// The languages of a rule set: English (the files' own), each language with catalogs, and the
/// tests' pseudo-language.
#[derive(Debug, Default)]
pub struct Languages {
    catalogs: BTreeMap<String, Catalog>,
    pseudo: Catalog,
}

#[cfg(test)]
mod tests;
