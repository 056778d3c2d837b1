//! Enrollflow's rules engine: pure evaluation of the wizard's flows, forms and rules.
//!
//! Invariant: this crate does no IO. It receives already-read sources (`(path, text)` pairs) and an
//! explicit `today`; loading and watching files is the server's job.
//!
//! - [`load`] checks a whole rule set and returns an immutable [`Engine`] or every problem found.
//! - [`Engine::step_view`] gives a step's schema, UI schema, data and navigation for an application.
//! - [`Engine::submit`] validates a step's answers (schema + Rhai checks) into the transition or
//!   the errors map keyed by the spec's field keys.
//! - [`coverage`] notes what a coverage run reaches; the scenario runner, the reports, replay and
//!   impact are the tools crate's (`engine-tools/`).
//!
//! The API at a glance: the public types (`Source`, `Context`, `AgentFlags`, `StepInfo`,
//! `FlowView`, `StepView`, `Submission`, `Transition`); an `Engine`'s navigation (`step_view`,
//! `preview`, `valid_step`, `next_after`, `previous`, `reopen`, `flow_view`) and its plan pages
//! (`household`, `quote`, `select`, `continue_page`). An engine is immutable and shared: a reload
//! builds a new one and the server swaps its pointer (`server/src/rules/mod.rs`).

pub mod calendar;
mod calls;
pub mod catalog;
mod context;
pub mod coverage;
pub mod dates;
pub mod diagnostic;
mod engine;
mod form;
/// Reading a form's schema by an answer's path (`members[0].age`), for the tools that check views.
pub mod form_paths {
    pub use crate::form::{parse_path, path_string, schema_at};
}
pub mod i18n;
mod load;
mod model;
pub mod money;
pub mod protected;
pub mod rating;
pub mod renewal;
pub mod script;
pub mod sensitive;
mod submit;
pub mod summary;
mod view;
pub mod yaml;
pub mod yearly_cost;
pub mod zip;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rhai::Dynamic;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use context::{AgentFlags, Applying, Context};
pub use diagnostic::{Diagnostic, EvalError};
pub use form::Errors;
use form::Form;
pub use load::{COVERAGE_FLOOR, LoadOptions, load, load_with, load_with_coverage};
use script::Expr;
pub use view::{FlowStep, FlowView, Selection, StepInfo, StepView, Submission, Transition};

/// One source file of a rule set, its path relative to the repository root.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Source {
    pub path: String,
    pub text: String,
}

impl Source {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            text: text.into(),
        }
    }
}

struct Step {
    info: StepInfo,
    nav: String,
    section: Option<String>,
    listed_when: Option<Expr>,
    select: Option<Expr>,
    extras: Option<form::Extras>,
    form: Option<String>,
    page: Option<String>,
    params: Value,
    skip_when: Option<Expr>,
    next: Option<Expr>,
    previous: Option<Expr>,
    reopen: Option<Expr>,
    always_valid: bool,
}

/// The answer to a plan page's choice of a plan not quoted for the application.
pub const PLAN_NOT_QUOTED: &str = "The selected plan is not offered for this application.";

/// Why [`Engine::quote`] has no list.
#[derive(Debug, thiserror::Error)]
pub enum QuoteFailure {
    #[error("no household to quote yet (About You first)")]
    NoHousehold,
    #[error(transparent)]
    Rule(#[from] EvalError),
    #[error(transparent)]
    Quote(#[from] rating::QuoteError),
}

/// An immutable, checked rule set.
pub struct Engine {
    rhai: rhai::Engine,
    steps: Vec<Step>,
    submitted_step: String,
    forms: BTreeMap<String, Form>,
    tables: Dynamic,
    tables_json: Value,
    household: Option<Expr>,
    upload_step: Option<String>,
    save_for_later_from: Option<u8>,
    summary: Vec<(&'static str, summary::Kind, Expr)>,
    catalog: catalog::Catalog,
    calendar: calendar::Calendar,
    /// Who ages off a plan at renewal, and how many alternatives a renewal shows.
    renewals: renewal::RenewalRules,
    /// The expected use per service (`rules/yearly_cost/utilization.yaml`); empty without it.
    utilization: yearly_cost::Utilization,
    /// How known prescriptions are priced (`rules/yearly_cost/drug_tiers.yaml`).
    drug_tiers: yearly_cost::DrugTiers,
    /// The languages of the forms' and rules' texts.
    languages: i18n::Languages,
    hash: String,
    /// The rule set's files (coverage runs only: the report's file:line).
    sources: Vec<(String, String)>,
    /// What a coverage run reached (coverage runs only).
    probe: Option<Arc<coverage::Probe>>,
    /// The contexts as rules see them (`ctx`), by digest: a few agents and days at a time.
    contexts: script::ByContext<Dynamic>,
}

/// The variables every rule sees.
struct Vars {
    app: Dynamic,
    ctx: Dynamic,
    /// A digest of `ctx`: expressions that read only the context are remembered by it.
    context: u64,
    /// The answers of expressions that do not read `input`, by their text's number
    /// (`Expr::text_id`), for as long as these variables live (one request): forms repeat a
    /// condition on several fields (`subscriber::has_spouse(app)`), and it runs once.
    seen: std::cell::RefCell<HashMap<u64, Value>>,
}

#[cfg(test)]
mod tests;
