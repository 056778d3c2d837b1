//! The shapes of the analysts' files, as read from YAML.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;
use serde_saphyr::Spanned;

/// `rules/flows/*.flow.yaml`: the wizard's steps in order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowFile {
    /// The only step a submitted application may visit.
    pub submitted_step: Spanned<String>,
    /// Rhai: the household quoting rates (`#{ county, effective_date, members: [#{ role,
    /// birth_date, tobacco }] }`), or () while it is not known yet.
    #[serde(default)]
    pub household: Option<Spanned<String>>,
    /// The step whose answers show an uploaded qualifying-event document's name.
    #[serde(default)]
    pub upload_step: Option<Spanned<String>>,
    /// The first step that offers "Save and finish later" (it and every later step do); none: the
    /// flow offers no resume link.
    #[serde(default)]
    pub save_for_later_from: Option<Spanned<String>>,
    /// What the server reads of an application: a Rhai expression over `app` for each of the
    /// names of `summary::NAMES` (all of them, or none for a flow without a server).
    #[serde(default)]
    pub summary: BTreeMap<String, Spanned<String>>,
    pub steps: Vec<StepFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepFile {
    pub id: Spanned<String>,
    pub number: u8,
    pub route: String,
    pub title: String,
    /// The step's label in the progress list (default: its title).
    #[serde(default)]
    pub nav: Option<String>,
    /// The heading of the progress list's group the step is in (none: a group without a heading).
    /// Consecutive steps with the same section form one group.
    #[serde(default)]
    pub section: Option<String>,
    /// Rhai: true when the progress list names the step (default: always). A step listed but
    /// skipped is shown disabled; one not listed is not shown at all.
    #[serde(default)]
    pub listed_when: Option<Spanned<String>>,
    /// The form drawn by the generic renderer (a file `forms/<form>.form.yaml`) …
    #[serde(default)]
    pub form: Option<Spanned<String>>,
    /// … or a hand-built page (`plans`, …).
    #[serde(default)]
    pub page: Option<String>,
    /// Step-specific parameters for the page or the client (plan type, …).
    #[serde(default)]
    pub params: Option<Value>,
    /// Rhai, on hand-built pages: extra data the page shows (forms have their own `extras`).
    #[serde(default)]
    pub extras: Option<ExtrasSource>,
    /// Rhai: true when the step does not apply to this application.
    #[serde(default)]
    pub skip_when: Option<Spanned<String>>,
    /// Rhai: the step after a successful save (a step id, or `#{ modal: "id" }` to stay and ask).
    #[serde(default)]
    pub next: Option<Spanned<String>>,
    /// Rhai: the step that Previous goes to (default: the nearest earlier step not skipped).
    #[serde(default)]
    pub previous: Option<Spanned<String>>,
    /// Rhai, on hand-built plan pages: the application flags a selection sets; sees `plan` (the
    /// chosen plan, or () to go on without one) and `input` (the request). May return
    /// `#{ error: "…" }` to refuse.
    #[serde(default)]
    pub select: Option<Spanned<String>>,
    /// The step may always be opened, even before an application exists.
    #[serde(default)]
    pub always_valid: bool,
    /// Rhai: the application flags that open this step again after it was skipped ("I want to
    /// select a dental plan instead": `#{ skip_dental: false }`). Without it a skipped step stays
    /// skipped.
    #[serde(default)]
    pub reopen: Option<Spanned<String>>,
}

/// `forms/<name>.form.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormFile {
    #[serde(default)]
    pub title: Option<String>,
    pub schema: Spanned<Value>,
    #[serde(default)]
    pub ui: Value,
    /// Field path (`sub_us_citizen`, `dependents/*/relationship`) -> Rhai: keep the field only when true.
    #[serde(default)]
    pub only_when: BTreeMap<String, Spanned<String>>,
    /// Field path -> Rhai returning the field's choices (`[#{ id: 1, title: "…" }, …]`).
    #[serde(default)]
    pub options: BTreeMap<String, Spanned<String>>,
    /// Field path -> Rhai over `input`: the answer is kept only when true (dropped before
    /// validation otherwise), so answers that no longer apply are cleared.
    #[serde(default)]
    pub keep_when: BTreeMap<String, Spanned<String>>,
    /// Field path (no `*`) -> Rhai over `app`, `ctx` and `input`: the field is required when true
    /// (a condition on the application, which `if`/`then` in the schema cannot see).
    #[serde(default)]
    pub required_when: BTreeMap<String, Spanned<String>>,
    /// Fields whose change makes the client ask for a fresh view (choices that depend on answers).
    #[serde(default)]
    pub refresh_on: Vec<String>,
    /// Rhai: the data shown when the step has no saved answers.
    #[serde(default)]
    pub initial: Option<Spanned<String>>,
    /// Rhai: extra data for the view (lists, dates, texts the page shows).
    #[serde(default)]
    pub extras: Option<ExtrasSource>,
    /// Rhai: cross-field rules; returns `#{ field_key: ["message", …] }` (empty when fine).
    #[serde(default)]
    pub checks: Option<Spanned<String>>,
    /// Rhai: application flags derived from a valid submission (`#{ skip_medical: true }`).
    #[serde(default)]
    pub derive: Option<Spanned<String>>,
    /// Dialogs the step's `next` rule can ask for, passed to the client as they are.
    #[serde(default)]
    pub modals: Value,
}

/// `extras`: one Rhai expression that gives the whole map, or a map with a Rhai expression per
/// key. Each expression of the second form is evaluated on its own, so one that reads neither the
/// application nor the answers (a table, the agent's texts) is worked out once, not at every view.
#[derive(Debug)]
pub enum ExtrasSource {
    Whole(Spanned<String>),
    Each(BTreeMap<String, Spanned<String>>),
}

/// What `extras` holds, before its place is known.
enum Extras {
    Whole(String),
    Each(BTreeMap<String, Spanned<String>>),
}

impl<'de> Deserialize<'de> for Extras {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Extras;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a Rhai expression, or a map of a Rhai expression per key")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Extras, E> {
                Ok(Extras::Whole(v.to_string()))
            }
            // Each value is read by the YAML reader itself, so it keeps its own line.
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Extras, A::Error> {
                let mut each = BTreeMap::new();
                while let Some(key) = m.next_key::<String>()? {
                    let value = m.next_value::<Spanned<String>>()?;
                    if each.insert(key.clone(), value).is_some() {
                        return Err(serde::de::Error::custom(format!("`{key}` is given twice")));
                    }
                }
                Ok(Extras::Each(each))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl<'de> Deserialize<'de> for ExtrasSource {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = Spanned::<Extras>::deserialize(d)?;
        Ok(match read.value {
            Extras::Whole(text) => {
                ExtrasSource::Whole(Spanned::new(text, read.referenced, read.defined))
            }
            Extras::Each(each) => ExtrasSource::Each(each),
        })
    }
}
