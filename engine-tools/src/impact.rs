//! What a rule change does: the scenario suites run under two rule sets (`compare_suites`), and
//! applications: each stored application walked through its
//! steps under two rule sets ([`crate::replay::walk`], personal details made up), what it met
//! written down as observations, and the observations that differ reported, grouped by what
//! changed.
//!
//! Observations are keyed by what they are about: a step's outcome (accepted, the error keys or
//! the dialog asked), where it went, the flags it set (skip flags, effective date, …), the plans a
//! plan page offered, each plan's monthly premium and each member's, and where a choice went.
//!
//! `replay::walk` feeds `observe`; `diff` groups what differs for the scenario suites and the
//! made-up households, shown with values; stored applications reach the report only through
//! `count`: counts in the base set's `Vocabulary`, a group under 5 written "fewer than 5" (tests
//! here, and `server/tests/api/governance.rs` `no_channel_of_a_draft_hands_back_a_stored_answer`).

use std::collections::BTreeMap;

use enrollflow_engine::{Context, Engine, Selection, Source, Submission};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::replay::{Event, walk};
use crate::scenario;

/// What one application met under one rule set: key -> value, both readable.
pub type Observations = BTreeMap<String, String>;

/// Walks `data` under `engine` and writes down what it met; a rule that fails is an observation
/// too (`error`).
pub fn observe(engine: &Engine, data: &Value, ctx: &Context) -> Observations {
    let mut out = Observations::new();
    let r = walk(engine, data, ctx, &mut |e| match e {
        Event::Submitted { step, result, .. } => match result {
            Submission::Invalid { errors } => {
                let keys: Vec<&str> = errors.keys().map(String::as_str).collect();
                out.insert(
                    format!("{step}: outcome"),
                    format!("errors on {}", keys.join(", ")),
                );
            }
            Submission::Accepted(t) => {
                let outcome = match &t.modal {
                    Some(m) => format!("dialog {m}"),
                    None => "accepted".into(),
                };
                out.insert(format!("{step}: outcome"), outcome);
                out.insert(format!("{step}: next"), t.next.id.clone());
                for (k, v) in &t.updates {
                    if k != "last_step" && !v.is_object() && !v.is_array() {
                        out.insert(format!("{step}: flag {k}"), shown(v));
                    }
                }
            }
        },
        Event::Continued { step, next } => {
            out.insert(format!("{step}: next"), next.id.clone());
        }
        Event::Quoted { step, plans, .. } => {
            let ids: Vec<String> = plans.iter().map(|(p, _)| p.id.to_string()).collect();
            out.insert(format!("{step}: plans offered"), ids.join(", "));
            for (p, r) in plans {
                out.insert(
                    format!("{step}: plan {} premium", p.id),
                    r.total.to_string(),
                );
                let members: Vec<String> = r
                    .members
                    .iter()
                    .map(|m| {
                        if m.charged {
                            m.rate.to_string()
                        } else {
                            "not charged".into()
                        }
                    })
                    .collect();
                out.insert(format!("{step}: plan {} members", p.id), members.join(", "));
            }
        }
        Event::Selected { step, result, .. } => match result {
            Selection::Refused(m) => {
                out.insert(format!("{step}: choice"), format!("refused: {m}"));
            }
            Selection::Done { updates, next } => {
                out.insert(format!("{step}: next"), next.id.clone());
                for (k, v) in updates {
                    if k != "last_step" && !v.is_object() && !v.is_array() {
                        out.insert(format!("{step}: flag {k}"), shown(v));
                    }
                }
            }
        },
    });
    if let Err(e) = r {
        out.insert("error".into(), e.to_string());
    }
    observe_renewal(engine, data, ctx, &mut out);
    out
}

/// The key of a renewal's observations (not a step id: `Vocabulary::group` reads it first).
const RENEWAL: &str = "renewal";

/// How a submitted application renews into the next plan year, when it does: the customer's
/// status, and each plan's successor and next year's premium.
fn observe_renewal(engine: &Engine, data: &Value, ctx: &Context, out: &mut Observations) {
    // Submitted: the purchasing step's answers are stored.
    if data.get(engine.submitted_step()).is_none_or(Value::is_null) {
        return;
    }
    match engine.renew(data, ctx) {
        Ok(Some(r)) => {
            out.insert(
                format!("{RENEWAL}: status"),
                r.status(engine.renewal_rules()).key().to_string(),
            );
            for p in &r.plans {
                let successor = p
                    .renewal
                    .as_ref()
                    .map_or_else(|| "discontinued".to_string(), |t| t.plan_id.to_string());
                out.insert(format!("{RENEWAL}: {} successor", p.kind.key()), successor);
                out.insert(
                    format!("{RENEWAL}: {} premium", p.kind.key()),
                    p.next_premium().to_string(),
                );
            }
        }
        Ok(None) => {}
        Err(e) => {
            out.insert(format!("{RENEWAL}: error"), e.to_string());
        }
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

/// One observation that differs for one application.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Change {
    /// The application (its id, as the caller names it).
    pub application: String,
    /// Before and after (`—` when the walk did not get there).
    pub before: String,
    pub after: String,
}

/// The changes of one kind: what changed (the observation's key with the plan and step kept, e.g.
/// `medical: plan 530 premium`) and every application it changed for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Group {
    pub what: String,
    pub changes: Vec<Change>,
}

/// The observations that differ between `before` and `after` for each application, grouped by key.
pub fn diff<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a Observations, &'a Observations)>,
) -> Vec<Group> {
    let mut groups: BTreeMap<String, Vec<Change>> = BTreeMap::new();
    for (id, before, after) in pairs {
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for k in keys {
            let (b, a) = (before.get(k), after.get(k));
            if b != a {
                groups.entry(k.clone()).or_default().push(Change {
                    application: id.to_string(),
                    before: b.cloned().unwrap_or_else(|| NOT_REACHED.into()),
                    after: a.cloned().unwrap_or_else(|| NOT_REACHED.into()),
                });
            }
        }
    }
    groups
        .into_iter()
        .map(|(what, changes)| Group { what, changes })
        .collect()
}

/// What an observation reads when the walk did not get there.
pub const NOT_REACHED: &str = "—";

/// The fewest applications a count names; a smaller group reads "fewer than 5".
pub const SMALLEST_GROUP: usize = 5;

/// The words of the set an analyst compares against (the one serving, approved): its step ids,
/// its plan ids, and every name its flow, forms, scripts and tables write (digits read as `#`, so
/// `dependent2_relationship` is the word `dependent#_relationship`). What a draft computes is
/// shown only in these words: a flag, error key or dialog it names otherwise reads as "a name
/// the published set does not use".
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    steps: std::collections::BTreeSet<String>,
    plans: std::collections::BTreeSet<String>,
    words: std::collections::BTreeSet<String>,
}

/// What a name the base set does not use reads as.
pub const UNKNOWN_NAME: &str = "a name the published set does not use";

impl Vocabulary {
    /// The vocabulary of `engine`, loaded from `files` (the catalog's and languages' files are not
    /// read for words: their texts are not names).
    pub fn of(engine: &Engine, files: &[enrollflow_engine::Source]) -> Self {
        let mut words = std::collections::BTreeSet::new();
        for f in files.iter().filter(|f| {
            (f.path.starts_with("rules/") || f.path.starts_with("forms/"))
                && !f.path.starts_with("rules/catalog/")
                && !f.path.contains("/locales/")
        }) {
            let mut word = String::new();
            for c in f.text.chars().chain(std::iter::once(' ')) {
                if c.is_ascii_alphanumeric() || c == '_' {
                    word.push(c);
                } else if !word.is_empty() {
                    if word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                        words.insert(digits_as_hash(&word));
                    }
                    word.clear();
                }
            }
        }
        let plans = engine
            .catalog()
            .plans
            .values()
            .flat_map(|kinds| kinds.values().flatten().map(|p| p.id.to_string()))
            .collect();
        Vocabulary {
            steps: engine.steps().map(|s| s.id.clone()).collect(),
            plans,
            words,
        }
    }

    fn step<'a>(&self, id: &'a str) -> &'a str {
        if self.steps.contains(id) {
            id
        } else {
            "a step the published set does not have"
        }
    }

    fn name<'a>(&self, name: &'a str) -> &'a str {
        let plain = !name.is_empty()
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if plain && self.words.contains(&digits_as_hash(name)) {
            name
        } else {
            UNKNOWN_NAME
        }
    }

    fn plan<'a>(&self, id: &'a str) -> &'a str {
        if self.plans.contains(id) {
            id
        } else {
            "a plan the published set does not have"
        }
    }

    /// What a change of the observation `key` (to `after`) is counted under: the key in the
    /// vocabulary's words, and for a step's outcome the error keys or dialog it now has. No value
    /// a rule computed (a flag's value, a premium, a next step, a message) is part of it.
    pub fn group(&self, key: &str, after: &str) -> String {
        let Some((step, rest)) = key.split_once(": ") else {
            return "the walk stopped on a rule's error".into();
        };
        if step == RENEWAL {
            return Self::renewal_group(rest, after);
        }
        let step = self.step(step);
        let what = match rest {
            "outcome" => self.outcome(after),
            "next" => "next step changes".to_string(),
            "plans offered" => "plans offered change".to_string(),
            "choice" => "the plan choice's outcome changes".to_string(),
            _ => {
                if let Some(flag) = rest.strip_prefix("flag ") {
                    format!("flag {} changes", self.name(flag))
                } else if let Some(plan) = rest
                    .strip_prefix("plan ")
                    .and_then(|r| r.strip_suffix(" premium"))
                {
                    format!("plan {} premium changes", self.plan(plan))
                } else if let Some(plan) = rest
                    .strip_prefix("plan ")
                    .and_then(|r| r.strip_suffix(" members"))
                {
                    format!("plan {} members' premiums change", self.plan(plan))
                } else {
                    "another observation changes".to_string()
                }
            }
        };
        format!("{step}: {what}")
    }

    /// A renewal's change: the status it now has (one of six names), or that a plan's successor
    /// or premium changes.
    fn renewal_group(rest: &str, after: &str) -> String {
        let what = match rest {
            "status" => match enrollflow_engine::renewal::RenewalStatus::parse(after) {
                Some(s) => format!("status becomes {}", s.key()),
                None => "no longer renews".to_string(),
            },
            "error" => "a rule's error".to_string(),
            _ => {
                let Some((kind, what)) = rest.split_once(' ') else {
                    return "renewals: another observation changes".into();
                };
                let kind = enrollflow_engine::catalog::PlanKind::ALL
                    .into_iter()
                    .find(|k| k.key() == kind)
                    .map_or("a plan", |k| k.key());
                match what {
                    "successor" => format!("{kind} successor changes"),
                    "premium" => format!("{kind} premium changes"),
                    _ => "another observation changes".to_string(),
                }
            }
        };
        format!("renewals: {what}")
    }

    fn outcome(&self, after: &str) -> String {
        if after == "accepted" {
            return "now accepted".into();
        }
        if after == NOT_REACHED {
            return "no longer reached".into();
        }
        if let Some(dialog) = after.strip_prefix("dialog ") {
            return format!("now asks dialog {}", self.name(dialog));
        }
        if let Some(keys) = after.strip_prefix("errors on ") {
            let mut named: Vec<&str> = keys.split(", ").map(|k| self.name(k)).collect();
            named.sort_unstable();
            named.dedup();
            return format!("now has errors on {}", named.join(", "));
        }
        "outcome changes".into()
    }
}

fn digits_as_hash(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How many applications one kind of change touches: none, or a number from [`SMALLEST_GROUP`]
/// up; `None` between.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Count {
    /// What changed, in the base set's words (`medical: plan 530 premium changes`).
    pub what: String,
    /// How many applications; absent when fewer than [`SMALLEST_GROUP`].
    pub applications: Option<usize>,
    /// The count as read: "12" or "fewer than 5".
    pub shown: String,
}

/// A count as shown: 0, the number from 5 up, or "fewer than 5".
pub fn count_shown(n: usize) -> (Option<usize>, String) {
    if n == 0 || n >= SMALLEST_GROUP {
        (Some(n), n.to_string())
    } else {
        (None, format!("fewer than {SMALLEST_GROUP}"))
    }
}

/// The changes of stored applications as counts: each application counted once per group its
/// changes fall in, groups in the vocabulary's words, largest first. Also how many applications
/// changed at all.
pub fn count<'a>(
    pairs: impl IntoIterator<Item = (&'a Observations, &'a Observations)>,
    vocabulary: &Vocabulary,
) -> (usize, Vec<Count>) {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    let mut changed = 0;
    for (before, after) in pairs {
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        let mut mine = std::collections::BTreeSet::new();
        for k in keys {
            let (b, a) = (before.get(k), after.get(k));
            if b != a {
                mine.insert(vocabulary.group(k, a.map_or(NOT_REACHED, String::as_str)));
            }
        }
        changed += usize::from(!mine.is_empty());
        for g in mine {
            *groups.entry(g).or_default() += 1;
        }
    }
    let mut out: Vec<Count> = groups
        .into_iter()
        .map(|(what, n)| {
            let (applications, shown) = count_shown(n);
            Count {
                what,
                applications,
                shown,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.applications
            .cmp(&a.applications)
            .then(a.what.cmp(&b.what))
    });
    (changed, out)
}

/// Every difference the draft makes. Values (before and after) are shown for what is made up:
/// the scenario suites and the made-up households. Stored applications are customers' answers:
/// of them an analyst sees counts only, in the base set's words ([`Vocabulary`]), a
/// group smaller than [`SMALLEST_GROUP`] as "fewer than 5".
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Report {
    /// The engine hashes of the base and the draft.
    pub base: String,
    pub against: String,
    pub scenarios_run: usize,
    pub scenarios_changed: Vec<ScenarioChange>,
    /// How many made-up households were walked under both sets.
    pub households_made: usize,
    /// What differs for the made-up households, grouped by what it is about (`medical: plan 530
    /// premium`), with each household's before and after (`household 17`).
    #[schema(value_type = Vec<Object>)]
    pub household_changes: Vec<Group>,
    /// How many stored applications were replayed.
    pub applications_replayed: usize,
    /// How many of them change, as shown ("12", "fewer than 5").
    pub applications_changed: String,
    /// How many stored applications change, by what changes.
    #[schema(value_type = Vec<Object>)]
    pub application_counts: Vec<Count>,
}

impl Report {
    pub fn is_empty(&self) -> bool {
        self.scenarios_changed.is_empty()
            && self.household_changes.is_empty()
            && self.application_counts.is_empty()
    }

    /// The report as a readable table.
    pub fn table(&self) -> String {
        let mut out = format!(
            "impact: base rules {} -> draft {}\n",
            short(&self.base),
            short(&self.against)
        );
        out += &format!(
            "scenarios: {} run, {} changed\n",
            self.scenarios_run,
            self.scenarios_changed.len()
        );
        for s in &self.scenarios_changed {
            out += &format!("  {}: {} -> {}: {}\n", s.at, s.before, s.after, s.name);
            for f in s.failures.iter().take(3) {
                out += &format!("      {f}\n");
            }
        }
        let households: std::collections::BTreeSet<&str> = self
            .household_changes
            .iter()
            .flat_map(|g| g.changes.iter().map(|c| c.application.as_str()))
            .collect();
        out += &format!(
            "made-up households: {} walked, {} changed\n",
            self.households_made,
            households.len()
        );
        for g in &self.household_changes {
            out += &format!("  {} ({} household(s))\n", g.what, g.changes.len());
            for c in g.changes.iter().take(5) {
                out += &format!("      {}  {} -> {}\n", c.application, c.before, c.after);
            }
            if g.changes.len() > 5 {
                out += &format!("      … {} more\n", g.changes.len() - 5);
            }
        }
        out += &format!(
            "stored applications: {} replayed, {} changed\n",
            self.applications_replayed, self.applications_changed
        );
        for c in &self.application_counts {
            out += &format!("  {}: {}\n", c.what, c.shown);
        }
        out += if self.is_empty() {
            "no change\n"
        } else {
            "changes found\n"
        };
        out
    }
}

fn short(s: &str) -> &str {
    &s[..12.min(s.len())]
}

impl Report {
    /// What the scenario suites alone say of a draft: no made-up household walked, no stored
    /// application replayed (the analysts' binary, which reads no database).
    pub fn of_suites(
        base: &Engine,
        against: &Engine,
        scenarios_run: usize,
        scenarios_changed: Vec<ScenarioChange>,
    ) -> Self {
        Report {
            base: base.hash().to_string(),
            against: against.hash().to_string(),
            scenarios_run,
            scenarios_changed,
            households_made: 0,
            household_changes: Vec::new(),
            applications_replayed: 0,
            applications_changed: count_shown(0).1,
            application_counts: Vec::new(),
        }
    }
}

/// A scenario whose result differs between the two sets.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ScenarioChange {
    /// `file:line`.
    pub at: String,
    pub name: String,
    /// `passed` or `failed`.
    pub before: String,
    pub after: String,
    /// Why it fails after the change (or failed before it).
    pub failures: Vec<String>,
}

/// The scenarios run, and those whose result differs between the sets; past `keep_going` no
/// further scenario starts (the caller then stops the run).
pub fn compare_suites(
    base: &Engine,
    against: &Engine,
    suites: &[Source],
    keep_going: &(dyn Fn() -> bool + Sync),
) -> (usize, Vec<ScenarioChange>) {
    let mut scenarios_run = 0;
    let mut scenarios_changed = Vec::new();
    let texts: Vec<(&str, &str)> = suites
        .iter()
        .map(|s| (s.path.as_str(), s.text.as_str()))
        .collect();
    let befores = scenario::run_suites(base, &texts, |_| keep_going());
    let afters = scenario::run_suites(against, &texts, |_| keep_going());
    for ((suite, before), after) in suites.iter().zip(befores).zip(afters) {
        let path = &suite.path;
        match (before, after) {
            (Ok(b), Ok(a)) => {
                let before: BTreeMap<(usize, String), _> = b
                    .into_iter()
                    .map(|r| ((r.line, r.name.clone()), r))
                    .collect();
                for r in a {
                    scenarios_run += 1;
                    let was = before.get(&(r.line, r.name.clone())).map(|b| b.passed());
                    if was != Some(r.passed()) {
                        scenarios_changed.push(ScenarioChange {
                            at: format!("{path}:{}", r.line),
                            name: r.name.clone(),
                            before: verdict(was.unwrap_or(false)).into(),
                            after: verdict(r.passed()).into(),
                            failures: match (r.passed(), before.get(&(r.line, r.name))) {
                                (false, _) => r.failures,
                                (true, Some(b)) => b.failures.clone(),
                                (true, None) => Vec::new(),
                            },
                        });
                    }
                }
            }
            (_, Err(d)) | (Err(d), _) => scenarios_changed.push(ScenarioChange {
                at: path.clone(),
                name: "the suite".into(),
                before: "passed".into(),
                after: "failed".into(),
                failures: vec![d.to_string()],
            }),
        }
    }
    (scenarios_run, scenarios_changed)
}

fn verdict(passed: bool) -> &'static str {
    if passed { "passed" } else { "failed" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(pairs: &[(&str, &str)]) -> Observations {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    }

    #[test]
    fn only_differences_are_reported_grouped_by_what_changed() {
        let a1 = obs(&[
            ("medical: plan 530 premium", "412.50"),
            ("census: next", "medical"),
        ]);
        let b1 = obs(&[
            ("medical: plan 530 premium", "100.00"),
            ("census: next", "medical"),
        ]);
        let a2 = obs(&[("medical: plan 530 premium", "300.00")]);
        let b2 = obs(&[
            ("medical: plan 530 premium", "90.00"),
            ("review: next", "subInfo"),
        ]);
        let groups = diff([("one", &a1, &b1), ("two", &a2, &b2)]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].what, "medical: plan 530 premium");
        assert_eq!(groups[0].changes.len(), 2);
        assert_eq!(groups[0].changes[0].before, "412.50");
        assert_eq!(groups[0].changes[0].after, "100.00");
        assert_eq!(groups[1].what, "review: next");
        assert_eq!(groups[1].changes[0].before, NOT_REACHED);
        assert!(diff([("one", &a1, &a1)]).is_empty());
    }

    fn vocabulary() -> Vocabulary {
        Vocabulary {
            steps: ["census", "medical"].map(String::from).into(),
            plans: ["530"].map(String::from).into(),
            words: [
                "skip_dental",
                "sub_zip",
                "dependent#_relationship",
                "over_65",
            ]
            .map(String::from)
            .into(),
        }
    }

    #[test]
    fn stored_applications_are_counted_in_the_base_sets_words_only() {
        let v = vocabulary();
        // What a draft computed from answers (a ZIP as a flag's name and value, a birth date as
        // an error key, a new plan) never shows: only names the base set uses.
        let before = obs(&[("census: outcome", "accepted"), ("census: next", "medical")]);
        let after = obs(&[
            (
                "census: outcome",
                "errors on 48103_M_1984, sub_zip, dependent3_relationship",
            ),
            ("census: next", "48103"),
            ("census: flag 48103|M|1984-06", "48103|M|1984-06"),
            ("census: flag skip_dental", "48103"),
            ("medical: plan 9999 premium", "$48,103.00"),
            ("medical: plan 530 premium", "$1.00"),
            ("zip48103: outcome", "dialog zip_48103"),
        ]);
        let pairs: Vec<(&Observations, &Observations)> = vec![(&before, &after); 6];
        let (changed, counts) = count(pairs, &v);
        assert_eq!(changed, 6);
        let text = format!("{counts:?}");
        for secret in ["48103", "1984", "$"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        let groups: Vec<&str> = counts.iter().map(|c| c.what.as_str()).collect();
        assert!(groups.contains(&"census: now has errors on a name the published set does not use, dependent3_relationship, sub_zip"), "{groups:?}");
        assert!(
            groups.contains(&"census: flag skip_dental changes"),
            "{groups:?}"
        );
        assert!(
            groups.contains(&"census: flag a name the published set does not use changes"),
            "{groups:?}"
        );
        assert!(
            groups
                .contains(&"medical: plan a plan the published set does not have premium changes"),
            "{groups:?}"
        );
        assert!(groups.contains(&"a step the published set does not have: now asks dialog a name the published set does not use"), "{groups:?}");
        assert!(
            counts
                .iter()
                .all(|c| c.applications == Some(6) && c.shown == "6")
        );
        // Four applications: every group reads "fewer than 5".
        let (changed, counts) = count(vec![(&before, &after); 4], &v);
        assert_eq!(changed, 4);
        assert!(
            counts
                .iter()
                .all(|c| c.applications.is_none() && c.shown == "fewer than 5")
        );
    }

    #[test]
    fn renewals_are_counted_by_the_status_they_move_to_and_never_by_a_premium() {
        let v = vocabulary();
        let before = obs(&[
            ("renewal: status", "same_plan"),
            ("renewal: medical successor", "525"),
            ("renewal: medical premium", "$395.18"),
        ]);
        let after = obs(&[
            ("renewal: status", "carrier_change"),
            ("renewal: medical successor", "discontinued"),
            ("renewal: medical premium", "$412.00"),
        ]);
        let (changed, counts) = count(vec![(&before, &after); 5], &v);
        assert_eq!(changed, 5);
        let groups: Vec<&str> = counts.iter().map(|c| c.what.as_str()).collect();
        assert_eq!(
            groups,
            [
                "renewals: medical premium changes",
                "renewals: medical successor changes",
                "renewals: status becomes carrier_change",
            ]
        );
        let text = format!("{counts:?}");
        for secret in ["412", "525", "$"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        // A status the base set does not know of is not repeated.
        let odd = obs(&[("renewal: status", "48103")]);
        let (_, counts) = count(vec![(&before, &odd); 5], &v);
        assert!(
            counts
                .iter()
                .any(|c| c.what == "renewals: no longer renews")
        );
    }
}
