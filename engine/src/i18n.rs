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

mod catalog;
mod languages;
mod pseudo;
mod report;
mod texts;
mod translate;

use std::collections::{BTreeMap, HashMap};

use regex::Regex;

pub use pseudo::pseudo_text;
pub use report::{check, extras, gaps, skeleton};
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

/// The languages of a rule set: English (the files' own), each language with catalogs, and the
/// tests' pseudo-language.
#[derive(Debug, Default)]
pub struct Languages {
    catalogs: BTreeMap<String, Catalog>,
    pseudo: Catalog,
}

#[cfg(test)]
mod tests;
