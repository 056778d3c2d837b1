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
//! and the engine's own messages. [`check`] reports, for each language, each text without a
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

use std::collections::{BTreeMap, HashMap};

use regex::Regex;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::{FlowView, Source, StepView, yaml};

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

/// The engine's and the server's own texts: the engine's messages (`form.rs`), with the
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

/// The texts of the printed comparison and benefit selection (`server/src/sheets/`, their page
/// frame `server/src/pdf/`): listed here so that every language's catalogs are checked for them; a
/// test of the server checks that each text a sheet writes is listed.
pub const SHEETS: &[&str] = &[
    "Agent: {name}",
    "NPN {npn}",
    "Page {n} of {count}",
    "Premiums are monthly for the household shown; the carrier confirms the final rate at enrollment.",
    "Medical",
    "Dental",
    "Vision",
    "Not covered",
    "Out-of-pocket max (individual)",
    "Out-of-pocket max (2 people)",
    "Out-of-pocket max (family)",
    "Coverage effective",
    "{name} (subscriber)",
    "Subscriber",
    "Spouse",
    "Dependent {n}",
    "{who}, age {age}",
    "{who}, tobacco user",
    "Household ({count})",
    "Premiums are charged for the subscriber, spouse, all children {age} and older, and {who} under {age}.",
    "Pediatric vision is included in all medical plans.",
    "Medical, Dental and Vision Plans",
    "{kind} Plan Comparison",
    "{kind} plans ({count})",
    "Filters",
    "No plans match these filters.",
    "Sorry, there are no plans available in your area.",
    "Monthly premium",
    "Plan",
    "Carrier",
    "Network",
    "Metal",
    "In-network deductible (ind / fam)",
    "Out-of-network deductible (ind / fam)",
    "Coinsurance",
    "Includes vision",
    "Deductible (ind / fam)",
    "Annual maximum",
    "Coinsurance (major services)",
    "Yes",
    "No",
    "Eye exam copay",
    "Frames / contacts allowance",
    "Adult eye exam frequency",
    "{metal} (HSA)",
    "carrier {names}",
    "network {names}",
    "metal {names}",
    "{first} or {second}",
    "HSA eligible",
    "dental only",
    "dental and vision",
    "1 chosen plan",
    "{count} chosen plans",
    "premium {low} to {high} a month",
    "premium from {low} a month",
    "premium up to {high} a month",
    "Benefit Selection",
    "Your selections",
    "No plans have been selected yet. Choose a medical, dental or vision plan, then print your benefit selection again.",
    "{kind} plan",
    "Vision coverage is included in the dental plan.",
    "No {kind} plan selected.",
    "This plan is no longer quoted for this household; the premium is the one shown when it was selected.",
    "Your total cost: {total} per month",
    "Network and metal",
    "In-network deductible",
    "{individual} individual / {family} family",
    "Out-of-network deductible",
    "Out-of-pocket maximum",
    "Deductible",
    "Member",
    "Age",
    "How the premium is figured",
    "Monthly amount",
];

/// The server's own messages a consumer may meet (its refusals and the resume page's notes), as
/// the server writes them (`{placeholders}` where it fills in a value); a test of the server checks
/// that each sentence its consumer-facing modules write is listed here or known to be for
/// developers and agents only.
pub const MESSAGES: &[&str] = &[
    "This application has already been submitted.",
    "This application was changed in another window or by someone else since this page was opened, so your answers were not saved. The page now shows it as it is: please enter your changes again.",
    "This web address is not an agent's site.",
    "Please complete About You first.",
    "Documents are uploaded for a qualifying event only.",
    "Choose a PDF file to upload.",
    "The file is empty.",
    "This application takes no documents.",
    "Your document could not be saved. Please try again, or send it using one of the methods below.",
    "This application has used its {files} uploads ({megabytes} MB). Please send further documents using one of the methods below.",
    "This application cannot be saved for later.",
    "Save and finish later is offered from {title} on.",
    "Your application has no e-mail address yet: add it on About You, then save for later.",
    "the plans",
    "Please enter a valid e-mail address.",
    "You are logged in as an agent: this link is your customer's. Log out, then open it again.",
    "This link is not valid. Check that it was copied whole from the e-mail, or save your application again.",
    "This link has already been used. Each link opens your application once: save your application again to get a new one, or contact your agent.",
    "This link was withdrawn or replaced by a newer one: please use the newest e-mail, or contact your agent.",
    "This link has expired: links work for 14 days. Please contact your agent, or start again.",
    "This link belongs to another agent's site: open it from the e-mail, on the site where you started your application.",
    "This application has already been submitted: there is nothing left to finish.",
    "{step}: some answers need another look under today's rules.",
    "{name} is no longer offered for your household: please choose another {kind} plan.",
    "medical",
    "dental",
    "vision",
    "The monthly premium of {name} is now {total} (it was {was}).",
    "You are not allowed to do that.",
    "Your session has expired",
    "Your session has been replaced",
    "The file is too large.",
    "Only PDF files are accepted.",
    "Too many attempts. Please wait a moment and try again.",
    "Service unavailable",
    "Something went wrong!",
];

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

/// A `{name}` placeholder: what a form's client fills (`{n}`), what the engine fills
/// (`{title}`), or a rule script's `${expression}` (`{us_date(app.effective_date)}`).
fn placeholder() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\{([^{}\s][^{}]*)\}").expect("a valid pattern"))
}

fn placeholders(text: &str) -> Vec<String> {
    let mut names: Vec<String> = placeholder()
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    names.sort();
    names
}

/// A text with letters outside its placeholders (`"{continuous_coverage_note}"` is none).
fn is_prose(text: &str) -> bool {
    placeholder()
        .replace_all(text, "")
        .chars()
        .any(char::is_alphabetic)
}

impl Catalog {
    fn insert(&mut self, key: String, translation: String, file: &str, line: usize) {
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

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// The languages of a rule set: English (the files' own), each language with catalogs, and the
/// tests' pseudo-language.
#[derive(Debug, Default)]
pub struct Languages {
    catalogs: BTreeMap<String, Catalog>,
    pseudo: Catalog,
}

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

/// The 1-based line of `file` where `text` starts (for a folded text, where its first words are);
/// 1 when not found.
fn line_of(source: &str, text: &str) -> usize {
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

impl Languages {
    /// Reads the catalogs of a rule set's sources; a catalog that is not a map of texts is a
    /// problem.
    pub fn load(sources: &[Source], problems: &mut Vec<Diagnostic>) -> Self {
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
        for t in texts(sources) {
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

    fn catalog(&self, code: &str) -> Option<&Catalog> {
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

    /// A step's view in `code`: the title, the schema's titles, descriptions and messages (the
    /// choices the rules filled in included), the UI's labels, the dialogs and the texts among the
    /// extras.
    pub fn step_view(&self, code: &str, view: &mut StepView) {
        let Some(c) = self.catalog(code) else { return };
        for info in std::iter::once(&mut view.step)
            .chain(view.previous.as_mut())
            .chain(view.next.as_mut())
        {
            translate(c, &mut info.title);
        }
        walk_schema(c, std::sync::Arc::make_mut(&mut view.schema), false);
        walk_keys(c, std::sync::Arc::make_mut(&mut view.ui), &UI_TEXT_KEYS);
        walk_keys(
            c,
            std::sync::Arc::make_mut(&mut view.modals),
            &MODAL_TEXT_KEYS,
        );
        walk_values(c, &mut view.extras);
    }

    /// The flow (the progress list's labels and the steps' titles) in `code`.
    pub fn flow(&self, code: &str, flow: &mut FlowView) {
        let Some(c) = self.catalog(code) else { return };
        for step in &mut flow.steps {
            translate(c, &mut step.title);
            translate(c, &mut step.nav);
            if let Some(s) = step.section.as_mut() {
                translate(c, s);
            }
        }
    }

    /// Field errors (and a refusal's message) in `code`.
    pub fn errors(&self, code: &str, errors: &mut crate::Errors) {
        let Some(c) = self.catalog(code) else { return };
        for list in errors.values_mut() {
            for m in list {
                translate(c, m);
            }
        }
    }

    /// Every string of a JSON value that a catalog has (the extras of a page the rules build).
    pub fn values(&self, code: &str, value: &mut Value) {
        if let Some(c) = self.catalog(code) {
            walk_values(c, value);
        }
    }
}

fn translate(c: &Catalog, s: &mut String) {
    if is_prose(s)
        && let Some(t) = c.get(s)
    {
        *s = t;
    }
}

fn walk_schema(c: &Catalog, v: &mut Value, in_messages: bool) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match x {
                    Value::String(s) if in_messages || SCHEMA_TEXT_KEYS.contains(&k.as_str()) => {
                        translate(c, s);
                    }
                    _ => walk_schema(c, x, in_messages || k == "x-messages"),
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|x| walk_schema(c, x, in_messages)),
        _ => {}
    }
}

fn walk_keys(c: &Catalog, v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match x {
                    Value::String(s) if keys.contains(&k.as_str()) => translate(c, s),
                    // A text in paragraphs: `text: [first, second]`.
                    Value::Array(items) if keys.contains(&k.as_str()) => {
                        for item in items {
                            match item {
                                Value::String(s) => translate(c, s),
                                other => walk_keys(c, other, keys),
                            }
                        }
                    }
                    _ => walk_keys(c, x, keys),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| walk_keys(c, x, keys)),
        _ => {}
    }
}

/// Extras mix texts with data (dates, routes, ids): only strings the catalog has are texts.
fn walk_values(c: &Catalog, v: &mut Value) {
    match v {
        Value::String(s) => translate(c, s),
        Value::Object(map) => map.values_mut().for_each(|x| walk_values(c, x)),
        Value::Array(items) => items.iter_mut().for_each(|x| walk_values(c, x)),
        _ => {}
    }
}

/// Every text a consumer may see, with where it is written, in file and line order, each text
/// once (at its first place).
pub fn texts(sources: &[Source]) -> Vec<Text> {
    let mut out: Vec<Text> = Vec::new();
    let mut sorted: Vec<&Source> = sources.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    // Where the built-in texts are listed (this file, the rating's explanation).
    let here = include_str!("i18n.rs");
    let rating = include_str!("rating.rs");
    let catalog = include_str!("catalog/mod.rs");
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
    for t in BUILT_IN.iter().chain(SHEETS).chain(MESSAGES) {
        out.push(Text {
            text: t.to_string(),
            file: "engine/src/i18n.rs".into(),
            line: line_of(here, t),
        });
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
            || SHEETS.contains(&t.text.as_str())
            || MESSAGES.contains(&t.text.as_str()))
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

/// Everything `enrollflow check` reports of the languages: the catalogs' own problems, each text
/// a language lacks ([`gaps`]) and each translation of no text ([`extras`]).
pub fn check(sources: &[Source]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let languages = Languages::load(sources, &mut problems);
    let texts = texts(sources);
    problems.extend(gaps_in(&languages, &texts));
    problems.extend(extras_in(&languages, &texts));
    problems
}

/// Each text without a translation, at the text, for each language: a rule set with one is not
/// served (a consumer never meets an English text in another language).
pub fn gaps(languages: &Languages, sources: &[Source]) -> Vec<Diagnostic> {
    gaps_in(languages, &texts(sources))
}

/// Each translation of no text, at the catalog's line: left over from a text changed or removed.
/// Harmless to serve; `enrollflow check` (and so `make test`) reports it.
pub fn extras(sources: &[Source]) -> Vec<Diagnostic> {
    let mut ignored = Vec::new();
    let languages = Languages::load(sources, &mut ignored);
    extras_in(&languages, &texts(sources))
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
pub fn skeleton(sources: &[Source], code: &str) -> Vec<(String, String)> {
    let mut ignored = Vec::new();
    let languages = Languages::load(sources, &mut ignored);
    let catalog = languages.catalogs.get(code);
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for t in texts(sources) {
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

/// The pseudo-language's form of a text: accented and bracketed, placeholders kept.
pub fn pseudo_text(text: &str) -> String {
    let mut out = String::from("[");
    let mut in_placeholder = false;
    for ch in text.chars() {
        match ch {
            '{' => in_placeholder = true,
            '}' => in_placeholder = false,
            _ => {}
        }
        out.push(if in_placeholder { ch } else { accent(ch) });
    }
    out.push(']');
    out
}

fn accent(ch: char) -> char {
    match ch {
        'a' => 'à',
        'e' => 'é',
        'i' => 'î',
        'o' => 'ö',
        'u' => 'ü',
        'c' => 'ç',
        'n' => 'ñ',
        's' => 'š',
        'y' => 'ý',
        'A' => 'Å',
        'E' => 'É',
        'I' => 'Î',
        'O' => 'Ö',
        'U' => 'Ü',
        'C' => 'Ç',
        'N' => 'Ñ',
        'S' => 'Š',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(path: &str, text: &str) -> Source {
        Source::new(path, text)
    }

    fn set() -> Vec<Source> {
        vec![
            src(
                "forms/census.form.yaml",
                "title: About You\nschema:\n  type: object\n  properties:\n    zip: { type: string, title: ZIP Code }\n    g:\n      type: string\n      title: Gender\n      oneOf: [{ const: M, title: Male }]\nui:\n  g: { \"ui:widget\": radio }\n  items: { \"ui:options\": { addLabel: Add a dependent, itemTitle: \"Dependent {n}\" } }\n",
            ),
            src(
                "rules/scripts/census.rhai",
                "fn check(input) {\n    // A comment: \"Not a text.\"\n    let e = `The County is not one of the counties of ZIP code ${input.zip}.`;\n    e\n}\n",
            ),
            src(
                "forms/locales/es.yaml",
                "About You: Acerca de usted\nZIP Code: Código postal\nGender: Sexo\nMale: Masculino\nAdd a dependent: Agregar un dependiente\n\"Dependent {n}\": \"Dependiente {n}\"\n\"The {title} field is required.\": \"El campo {title} es obligatorio.\"\n",
            ),
            src(
                "rules/locales/es.yaml",
                "\"The County is not one of the counties of ZIP code {input.zip}.\": \"El condado no es uno de los condados del código postal {input.zip}.\"\nGone text.: Texto que ya no existe.\n",
            ),
        ]
    }

    #[test]
    fn a_pattern_translates_a_message_and_the_title_it_names() {
        let mut problems = Vec::new();
        let l = Languages::load(&set(), &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            l.text("es", "The ZIP Code field is required."),
            "El campo Código postal es obligatorio."
        );
        assert_eq!(
            l.text(
                "es",
                "The County is not one of the counties of ZIP code 48201."
            ),
            "El condado no es uno de los condados del código postal 48201."
        );
        // A sentence a rule fills into another is translated too.
        let mut nested = set();
        nested[3].text.push_str(
            "\"{zip} is not in Michigan. {contact}\": \"{zip} no está en Michigan. {contact}\"\n\"Please contact your agent, {name}.\": \"Comuníquese con su agente, {name}.\"\n",
        );
        let mut problems = Vec::new();
        let n = Languages::load(&nested, &mut problems);
        assert_eq!(
            n.text(
                "es",
                "48201 is not in Michigan. Please contact your agent, Maria Alvarez."
            ),
            "48201 no está en Michigan. Comuníquese con su agente, Maria Alvarez."
        );
        let date = time::macros::date!(2025 - 01 - 01);
        assert_eq!(l.long_date("en", date), "January 1, 2025");
        // A name, a date or an English text no catalog has stays as it is.
        assert_eq!(l.text("es", "Priority Health"), "Priority Health");
        assert_eq!(l.text("en", "Male"), "Male");
        assert_eq!(l.codes(), vec!["en", "es"]);
        assert!(l.speaks("pseudo") && !l.speaks("fr"));
    }

    #[test]
    fn check_names_each_missing_text_where_it_is_written_and_each_extra_key_where_it_is() {
        let problems = check(&set());
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        // Every built-in message but the one translated is missing, at the engine.
        assert!(
            shown.iter().any(|p| p.contains("engine/src/i18n.rs")
                && p.contains("no es translation of `The {title} is invalid.`")),
            "{shown:#?}"
        );
        assert!(
            shown
                .iter()
                .any(|p| p.starts_with("rules/locales/es.yaml:2")
                    && p.contains("`Gone text.` is not a text")),
            "{shown:#?}"
        );
        // The translated texts are not reported; the comment's sentence is no text.
        assert!(
            !shown
                .iter()
                .any(|p| p.contains("`Gender`") || p.contains("Not a text"))
        );
    }

    #[test]
    fn a_removed_key_is_reported_with_its_form_file_and_line() {
        let mut sources = set();
        sources[2].text = sources[2].text.replace("Gender: Sexo\n", "");
        let problems = check(&sources);
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(
            shown
                .iter()
                .any(|p| p.starts_with("forms/census.form.yaml:8") && p.contains("`Gender`")),
            "{shown:#?}"
        );
    }

    #[test]
    fn a_translation_that_drops_a_placeholder_is_refused() {
        let sources = vec![src(
            "forms/locales/es.yaml",
            "\"Dependent {n}\": Dependiente\n",
        )];
        let mut problems = Vec::new();
        Languages::load(&sources, &mut problems);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].to_string().contains("placeholders"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_skeleton_keeps_the_translations_and_leaves_the_missing_texts_blank() {
        let files = skeleton(&set(), "es");
        let (forms, rules) = (&files[0], &files[1]);
        assert_eq!(forms.0, "forms/locales/es.yaml");
        assert!(forms.1.contains("\"Gender\": \"Sexo\""), "{}", forms.1);
        assert!(
            forms.1.contains("# forms/census.form.yaml:8\n"),
            "{}",
            forms.1
        );
        assert!(
            forms.1.contains("\"The {title} is invalid.\": \"\""),
            "{}",
            forms.1
        );
        assert_eq!(rules.0, "rules/locales/es.yaml");
        assert!(!rules.1.contains("Gone text."), "{}", rules.1);
        // What it writes loads, and what was translated stays translated.
        let mut sources = set();
        sources[2].text = forms.1.clone();
        sources[3].text = rules.1.clone();
        let mut problems = Vec::new();
        let l = Languages::load(&sources, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(l.text("es", "Gender"), "Sexo");
    }

    #[test]
    fn the_pseudo_language_marks_every_known_text_and_keeps_placeholders() {
        let mut problems = Vec::new();
        let l = Languages::load(&set(), &mut problems);
        assert_eq!(l.text(PSEUDO, "Dependent {n}"), "[Dépéñdéñt {n}]");
        assert_eq!(l.text(PSEUDO, "Acme Health"), "Acme Health");
    }
}
