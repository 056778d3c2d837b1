//! Wire types shared by several resources: what the engine's step types, a filter option and a
//! file look like on the wire. The engine keeps its own types; these convert from them
//! explicitly, so the OpenAPI document names every body (and the web app's types are generated
//! from it).
//!
//! Here: `Step`, `StepViewBody`, `Answers`, `FilterOption` (its id an `OptionId`: a number or a
//! token), `BinaryFile`, `UploadForm`. The plan pages' own (`PlanView`, `PlanRates`,
//! `PlanMemberRate`, `PlanInfo`) are in `plans.rs`. Serialization to the wire happens in the HTTP
//! layer only: database rows convert explicitly too. Checked by `server/tests/api/wire.rs`
//! (`every_request_and_response_body_is_a_named_type`, `no_two_wire_types_share_a_schema_name`,
//! `the_web_apps_copy_of_the_document_is_current`).

use std::sync::Arc;

use enrollflow_engine::catalog::Choice;
use enrollflow_engine::{FlowView, StepInfo, StepView};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// A step of the flow: its id, number, route and title.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Step {
    pub id: String,
    pub number: u8,
    pub route: String,
    pub title: String,
}

impl From<StepInfo> for Step {
    fn from(s: StepInfo) -> Self {
        Step {
            id: s.id,
            number: s.number,
            route: s.route,
            title: s.title,
        }
    }
}

/// Everything the browser needs to draw a step: the form's JSON Schema and UI schema, the
/// answers so far (sensitive ones masked), the dialogs it may ask, and its neighbours.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StepViewBody {
    pub step: Step,
    /// `form` (drawn from the schema) or the name of a hand-built page (`plans`, `review`).
    pub kind: String,
    /// A hand-built page's parameters (e.g. the plan kind); `null` for a form.
    #[schema(value_type = Option<Object>)]
    pub params: Value,
    /// The step is skipped for this application (the page says so and offers to go on).
    pub skipped: bool,
    pub previous: Option<Step>,
    pub next: Option<Step>,
    /// The form's JSON Schema, its choices resolved for this application; `null` for a
    /// hand-built page.
    #[schema(value_type = Option<Object>)]
    pub schema: Arc<Value>,
    /// The form's UI schema.
    #[schema(value_type = Object)]
    pub ui: Arc<Value>,
    /// The step's answers so far; `null` before the first save.
    #[schema(value_type = Option<Object>)]
    pub data: Value,
    /// Values the form's texts and widgets read (the agent's name, the household…).
    #[schema(value_type = Object)]
    pub extras: Value,
    /// The dialogs the step may ask, by id.
    #[schema(value_type = Object)]
    pub modals: Arc<Value>,
    /// Fields whose change should fetch a fresh view (`preview`).
    pub refresh_on: Vec<String>,
    /// The application's revision this view was drawn from (0 before it exists): a save sends it
    /// back as `If-Match`, and one made against a newer revision is refused (409).
    pub revision: i64,
}

impl From<StepView> for StepViewBody {
    fn from(v: StepView) -> Self {
        StepViewBody {
            step: v.step.into(),
            kind: v.kind,
            params: v.params,
            skipped: v.skipped,
            previous: v.previous.map(Step::from),
            next: v.next.map(Step::from),
            schema: v.schema,
            ui: v.ui,
            data: v.data,
            extras: v.extras,
            modals: v.modals,
            refresh_on: v.refresh_on,
            revision: 0,
        }
    }
}

/// The wizard's shape for the session's application (`GET /api/flow`): the browser's routes,
/// progress list and guards come from it, so a step added, renamed or skipped in
/// `rules/flows/enrollment.flow.yaml` needs no web build.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Flow {
    /// The serving rules' digest: a new one means the rules changed.
    pub rules: String,
    pub steps: Vec<FlowStep>,
    /// The only step a submitted application may open.
    pub submitted_step: String,
    pub submitted: bool,
    /// The highest step number the application has reached (1 before it exists).
    pub last_step: u8,
    /// The number of the first step that offers "Save and finish later"; none: the flow offers
    /// no resume link.
    pub save_for_later_from: Option<u8>,
}

/// A step of the wizard for the session's application.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FlowStep {
    pub id: String,
    pub number: u8,
    /// `/census`: the browser's address of the step.
    pub route: String,
    /// The page heading and the browser title.
    pub title: String,
    /// The progress list's label.
    pub nav: String,
    /// The progress list's group heading (consecutive steps with one section are one group).
    pub section: Option<String>,
    /// `form` (drawn from the schema) or the name of a hand-built page (`plans`, `review`).
    pub kind: String,
    /// The step's parameters (`{plan_type: 1}` on a plan page; `{}` when it has none).
    #[schema(value_type = Object)]
    pub params: Value,
    /// Opened even before an application exists.
    pub always_valid: bool,
    /// The progress list names it.
    pub listed: bool,
    /// It does not apply to this application.
    pub skipped: bool,
    /// The application has reached it.
    pub reached: bool,
    /// Where Previous goes from it (a step id).
    pub previous: Option<String>,
    /// The application may open it now (what `validStep` answers).
    pub valid: bool,
}

impl Flow {
    pub fn new(v: FlowView, rules: &str) -> Self {
        Flow {
            rules: rules.to_string(),
            steps: v
                .steps
                .into_iter()
                .map(|s| FlowStep {
                    id: s.id,
                    number: s.number,
                    route: s.route,
                    title: s.title,
                    nav: s.nav,
                    section: s.section,
                    kind: s.kind,
                    params: match s.params {
                        Value::Null => Value::Object(serde_json::Map::new()),
                        p => p,
                    },
                    always_valid: s.always_valid,
                    listed: s.listed,
                    skipped: s.skipped,
                    reached: s.reached,
                    previous: s.previous,
                    valid: s.valid,
                })
                .collect(),
            submitted_step: v.submitted_step,
            submitted: v.submitted,
            last_step: v.last_step,
            save_for_later_from: v.save_for_later_from,
        }
    }
}

/// A step's answers, by field key, as its form's schema shapes them.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = Object)]
pub struct Answers(pub Value);

/// An option of a filter group or a list (`{id, name}`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FilterOption {
    pub id: OptionId,
    pub name: String,
    /// Metals only: plans of this metal are quoted only up to this age.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_age: Option<i64>,
}

/// An option's id: a catalog number (a carrier, a network, a metal) or a token (`hsa`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum OptionId {
    Number(i64),
    Token(String),
}

impl From<Value> for OptionId {
    fn from(v: Value) -> Self {
        match v {
            Value::Number(n) if n.is_i64() => OptionId::Number(n.as_i64().unwrap_or_default()),
            Value::String(s) => OptionId::Token(s),
            other => OptionId::Token(other.to_string()),
        }
    }
}

impl From<Choice> for FilterOption {
    fn from(c: Choice) -> Self {
        FilterOption {
            id: c.id.into(),
            name: c.name,
            max_age: c.max_age,
        }
    }
}

/// A file's bytes (a PDF, a workbook, a logo).
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct BinaryFile(pub Vec<u8>);

/// The qualifying-event upload's form.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    /// The PDF, at most 3 MB.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// Optional; must be `qle` when sent.
    pub enrollment_type: Option<String>,
}
