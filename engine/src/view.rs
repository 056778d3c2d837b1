//! What the engine answers: a step as the client sees it, the wizard's shape (`FlowView`), a
//! step's view, and the outcomes of a submission and of a plan page's selection.

use std::sync::Arc;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Errors, catalog};

/// A step as the client sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepInfo {
    pub id: String,
    pub number: u8,
    pub route: String,
    pub title: String,
}

/// The wizard's shape for one application: every step with what the browser needs to route to
/// it, list it in the progress list and guard it (spec part 1, 2.1 to 2.3).
#[derive(Debug, Clone, Serialize)]
pub struct FlowView {
    pub steps: Vec<FlowStep>,
    /// The only step a submitted application may open.
    pub submitted_step: String,
    /// The application has been submitted.
    pub submitted: bool,
    /// The highest step number the application has reached (1 before it exists).
    pub last_step: u8,
    /// The number of the first step that offers "Save and finish later" (the flow's
    /// `save_for_later_from`); none when the flow offers no resume link.
    pub save_for_later_from: Option<u8>,
}

/// A step of [`FlowView`].
#[derive(Debug, Clone, Serialize)]
pub struct FlowStep {
    pub id: String,
    pub number: u8,
    pub route: String,
    pub title: String,
    /// The progress list's label.
    pub nav: String,
    /// The progress list's group heading, if any.
    pub section: Option<String>,
    /// `form`, or the name of a hand-built page (`plans`, `review`).
    pub kind: String,
    pub params: Value,
    /// Opened even before an application exists.
    pub always_valid: bool,
    /// The progress list names it.
    pub listed: bool,
    /// It does not apply to this application.
    pub skipped: bool,
    /// The application has reached it (its number is at most the last step).
    pub reached: bool,
    /// Where Previous goes from it.
    pub previous: Option<String>,
    /// The application may open it now (what `valid_step` answers).
    pub valid: bool,
}

/// Everything the browser needs to draw a step.
#[derive(Debug, Clone, Serialize)]
pub struct StepView {
    pub step: StepInfo,
    /// `form` (drawn from the schema) or the name of a hand-built page.
    pub kind: String,
    pub params: Value,
    pub skipped: bool,
    pub previous: Option<StepInfo>,
    pub next: Option<StepInfo>,
    /// The form's schema, ui schema and dialogs are shared with the loaded form unless the
    /// view changes them (choices, fields dropped, a translation).
    pub schema: Arc<Value>,
    pub ui: Arc<Value>,
    pub data: Value,
    pub extras: Value,
    pub modals: Arc<Value>,
    /// Fields whose change should fetch a fresh view (`preview`).
    pub refresh_on: Vec<String>,
}

/// The kind of plans a plan page lists, from its `params: { plan_type }`; none for other steps.
fn plan_kind_of(params: &Value) -> Option<catalog::PlanKind> {
    params
        .get("plan_type")
        .and_then(Value::as_u64)
        .and_then(|t| u8::try_from(t).ok())
        .and_then(catalog::PlanKind::from_type)
}

impl StepView {
    /// The kind of plans a plan page lists (its `params: { plan_type }`); none for other steps.
    pub fn plan_kind(&self) -> Option<catalog::PlanKind> {
        plan_kind_of(&self.params)
    }
}

impl FlowStep {
    /// The kind of plans the step lists, if it is a plan page.
    pub fn plan_kind(&self) -> Option<catalog::PlanKind> {
        plan_kind_of(&self.params)
    }
}

/// The result of a plan page's selection.
#[derive(Debug, Clone)]
pub enum Selection {
    /// The flags to store and where the application goes.
    Done {
        updates: Map<String, Value>,
        next: StepInfo,
    },
    /// The `select` rule refused, with its message.
    Refused(String),
}

/// The result of submitting a step.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum Submission {
    /// The errors map, keyed by the spec's field keys.
    Invalid {
        errors: Errors,
    },
    Accepted(Transition),
}

#[derive(Debug, Clone, Serialize)]
pub struct Transition {
    /// The cleaned answers to store under the step's id.
    pub answers: Value,
    /// Application flags to merge (derived flags and `last_step`).
    pub updates: Map<String, Value>,
    /// Where to go: the next step, or the same step when a modal is asked.
    pub next: StepInfo,
    /// A dialog to show before going on (its id in the form's `modals`).
    pub modal: Option<String>,
}
