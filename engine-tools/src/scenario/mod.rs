//! YAML scenario suites: what testers write to pin the wizard's behaviour.
//!
//! A suite is a list of scenarios. Each states its context, an optional starting application, and
//! steps: `submit` (answers for a step, then what must follow), `view` (what a step shows),
//! `valid` (whether a step may be opened), `select` (a plan page's choice, through its rule),
//! `continue` (a page that saves nothing), `after` (a page saved its part), `reopen`, `quote`
//! (the plans of a kind quoted now: ids, order, premiums per plan and member), `renew` (where a
//! plan renews next year for the household, by the crosswalk) or `renewal` (the application's
//! renewal of its plan of a kind: successor, premiums, alternatives, members ageing off). An accepted
//! submission updates the application as the server would (answers under the step id, derived
//! flags, last step), so later steps see it. A failure names the suite file and the line of the
//! step that failed.
//!
//! ```yaml
//! - name: a 16-year-old alone is asked whether this is a child-only application
//!   context: { today: 2024-11-20, applying: consumer, agent: { offers: [display_bcbsm] } }
//!   steps:
//!     - submit: census
//!       with: { sub_birth_date: 2008-11-01, residential_zip: "48104" }
//!       expect: { modal: possible_child_only, next: census }
//! ```
//!
//! Used by `enrollflow scenarios`, `enrollflow coverage` and the engine's tests. A `submit` also
//! checks the summary each save keeps; `select` quotes the plan now. `run_suite_matching` serves
//! `--filter`; `run_suites` runs many files side by side, a thread per core (`enrollflow
//! scenarios`, the workbench's impact), each file's results in order.

mod checks;
mod plans;
mod renewals;
mod run;
mod steps;
mod view;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use enrollflow_engine::Context;
use enrollflow_engine::catalog::PlanKind;

pub use run::{run_suite, run_suite_matching, run_suites};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    context: Context,
    #[serde(default)]
    app: Map<String, Value>,
    steps: Vec<Spanned<Action>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Action {
    #[serde(default)]
    submit: Option<String>,
    #[serde(default)]
    with: Option<Value>,
    #[serde(default)]
    view: Option<String>,
    #[serde(default)]
    valid: Option<String>,
    /// Open a skipped step again (its `reopen` rule); `allowed` says whether it could be.
    #[serde(default)]
    reopen: Option<String>,
    /// A hand-built page step (plans) saved its part: `set` these flags, then go on.
    #[serde(default)]
    after: Option<String>,
    /// A plan page's choice, as the plan pages save it: `plan` (a quoted plan's id; none or null
    /// to go on without a plan of the page's kind) through the step's `select` rule, with `with`
    /// as the page's other answers (`add_hsa`). `expect: { refused: "…" }` when the rule refuses.
    #[serde(default)]
    select: Option<String>,
    #[serde(default)]
    plan: Option<i64>,
    /// Going on from a page that saves nothing (Review Selections), as its Continue button does.
    #[serde(default, rename = "continue")]
    go_on: Option<String>,
    /// The plans of this kind (`medical`, `dental`, `vision`) quoted now for the flow's household
    /// and the agent's carriers, narrowed by `filters` (the plan pages' tokens: `car_1,net_2`).
    #[serde(default)]
    quote: Option<PlanKind>,
    #[serde(default)]
    filters: Option<String>,
    /// Where this plan (an id of the catalog) renews next plan year for the application's
    /// household, by the crosswalk: `expect: { successor: 538 }` or `{ successor: discontinued }`,
    /// and `reason` (words of the mapping's reason).
    #[serde(default)]
    renew: Option<i64>,
    /// The application's renewal of its plan of this kind into the next plan year: `successor`,
    /// `premiums` (the current plan's, the renewal's and the alternatives' by plan id), `members`,
    /// `alternatives` and `aging_off`.
    #[serde(default)]
    renewal: Option<PlanKind>,
    #[serde(default)]
    set: Map<String, Value>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Expect {
    /// submit: the step it goes to (also `view`: the default next step).
    next: Option<String>,
    /// select: the rule refused the choice with a message containing this text.
    refused: Option<String>,
    /// submit: the dialog asked (`none` for no dialog).
    modal: Option<String>,
    /// submit: exactly these field keys have errors (`[]` for an accepted submission).
    errors: Option<Vec<String>>,
    /// submit: these keys have a message containing this text.
    messages: BTreeMap<String, String>,
    /// submit: these application flags after the submission.
    flags: Map<String, Value>,
    /// submit, select: the application's summary after the save (the flow's `summary:`, what the
    /// dashboard lists), by name: `{ first_name: Ann, dependents: 2 }`.
    summary: Map<String, Value>,
    /// view: fields shown (paths like `dependents/*/relationship`).
    fields: Vec<String>,
    /// view: fields not shown.
    absent: Vec<String>,
    /// view: fields marked required.
    required: Vec<String>,
    /// view: fields not marked required.
    optional: Vec<String>,
    /// view: the ids of a field's choices, in order.
    options: BTreeMap<String, Vec<Value>>,
    /// view: the step is skipped.
    skipped: Option<bool>,
    /// view: where Previous goes (`none` for nowhere).
    previous: Option<String>,
    /// view: the page's heading.
    title: Option<String>,
    /// view: values in the shown data / extras (dotted paths).
    data: Map<String, Value>,
    extras: Map<String, Value>,
    /// view: texts shown (dotted paths into the data or extras) containing these words.
    texts: BTreeMap<String, String>,
    /// valid: whether the step may be opened.
    allowed: Option<bool>,
    /// quote: exactly these plan ids, in the list's order (cheapest first).
    plans: Option<Vec<i64>>,
    /// quote: how many plans.
    count: Option<usize>,
    /// quote: these plan ids are among them / are not.
    includes: Vec<i64>,
    excludes: Vec<i64>,
    /// quote: a plan's monthly premium in dollars (`{ 520: 412.50 }`).
    premiums: BTreeMap<String, f64>,
    /// quote: what each member pays in a plan, in the household's order (0 when not charged).
    members: BTreeMap<String, Vec<f64>>,
    /// quote: a medical plan's estimated yearly cost in dollars, by plan id: `total`, and any of
    /// its parts (`premium`, `deductible`, `cost_sharing`) and `worst_case`.
    yearly_cost: BTreeMap<String, YearlyExpect>,
    /// renew: the plan it renews into, or `discontinued`.
    successor: Option<Value>,
    /// renew: the mapping's reason contains these words.
    reason: Option<String>,
    /// renewal: exactly these alternatives' plan ids, in order.
    alternatives: Option<Vec<i64>>,
    /// renewal: exactly these members leave the plan ("Dependent 1").
    aging_off: Option<Vec<String>>,
    /// renewal: the customer's status, all their plans together (`carrier_change`, …).
    status: Option<String>,
}

/// A plan's expected yearly estimate, in dollars; what is left out is not checked.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct YearlyExpect {
    #[serde(default)]
    pub total: Option<f64>,
    #[serde(default)]
    pub premium: Option<f64>,
    #[serde(default)]
    pub deductible: Option<f64>,
    #[serde(default)]
    pub cost_sharing: Option<f64>,
    #[serde(default)]
    pub worst_case: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioResult {
    pub name: String,
    /// The line of the scenario in its suite file.
    pub line: usize,
    /// Each failure starts with `file:line:` of the step that failed.
    pub failures: Vec<String>,
}

impl ScenarioResult {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}
