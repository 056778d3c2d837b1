//! Enrollflow's rules engine: pure evaluation of the wizard's flows, forms and rules.
//!
//! Invariant: this crate does no IO. It receives already-read sources (`(path, text)` pairs) and an
//! explicit `today`; loading and watching files is the server's job.
//!
//! - [`load`] checks a whole rule set and returns an immutable [`Engine`] or every problem found.
//! - [`Engine::step_view`] gives a step's schema, UI schema, data and navigation for an application.
//! - [`Engine::submit`] validates a step's answers (schema + Rhai checks) into the transition or
//!   the errors map keyed by the spec's field keys.
//! - [`scenario`] runs the YAML scenario suites testers write.
//!
//! The API at a glance: the public types (`Source`, `Context`, `AgentFlags`, `StepInfo`,
//! `FlowView`, `StepView`, `Submission`, `Transition`); an `Engine`'s navigation (`step_view`,
//! `preview`, `valid_step`, `next_after`, `previous`, `reopen`, `flow_view`) and its plan pages
//! (`household`, `quote`, `select`, `continue_page`). An engine is immutable and shared: a reload
//! builds a new one and the server swaps its pointer (`server/src/rules.rs`).

pub mod calendar;
mod calls;
pub mod catalog;
pub mod coverage;
pub mod dates;
pub mod diagnostic;
mod form;
pub mod i18n;
pub mod impact;
mod load;
mod model;
pub mod money;
pub mod protected;
pub mod rating;
pub mod replay;
pub mod scenario;
pub mod script;
pub mod sensitive;
mod submit;
pub mod summary;
mod yaml;
pub mod zip;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rhai::Dynamic;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

pub use diagnostic::{Diagnostic, EvalError};
pub use form::Errors;
use form::{FieldPath, Form};
pub use load::{COVERAGE_FLOOR, load, load_with_coverage};
use script::Expr;

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

/// Who is filling in the application.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Applying {
    #[default]
    Consumer,
    Agent,
}

/// What the agent whose site this is offers (spec part 1, section 3 "Agent branding").
#[derive(Debug, Clone, Default, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentFlags {
    /// The agent's carrier flags that are on: the catalog's `agent_flag` names
    /// (`rules/catalog/carriers.yaml`; today `display_bcbsm`, `display_ph`). Rules see them as
    /// `ctx.agent.offers` and the carriers they make quoted as `ctx.agent.carriers` (ids; a carrier
    /// without an `agent_flag` always).
    pub offers: Vec<String>,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub name: String,
    pub npn: String,
}

/// The context of an evaluation: known on the server, not typed by the applicant.
#[derive(Debug, Clone, Hash, Serialize, Deserialize)]
pub struct Context {
    #[serde(with = "iso_date")]
    pub today: time::Date,
    #[serde(default)]
    pub applying: Applying,
    #[serde(default)]
    pub agent: AgentFlags,
}

mod iso_date {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &time::Date, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::dates::format(*d))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<time::Date, D::Error> {
        let s = String::deserialize(d)?;
        crate::dates::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a date")))
    }
}

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

impl Engine {
    /// A digest of every source of the rule set (stored with applications).
    /// The step whose accepted submission purchases the application (the flow's `submitted_step`).
    pub fn submitted_step(&self) -> &str {
        &self.submitted_step
    }

    pub fn languages(&self) -> &i18n::Languages {
        &self.languages
    }

    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The step whose answers show an uploaded qualifying-event document (the flow's
    /// `upload_step`); none when the flow takes no uploads.
    pub fn upload_step(&self) -> Option<&str> {
        self.upload_step.as_deref()
    }

    /// The number of the first step that offers "Save and finish later" (`save_for_later_from`).
    pub fn save_for_later_from(&self) -> Option<u8> {
        self.save_for_later_from
    }

    /// What the server reads of the application (the flow's `summary:`); empty when the flow
    /// declares none.
    pub fn summary(&self, app: &Value) -> Result<summary::Summary, EvalError> {
        if self.summary.is_empty() {
            return Ok(summary::Summary::default());
        }
        let v = Vars {
            app: script::to_dynamic(app),
            ctx: Dynamic::UNIT,
            context: 0,
            seen: Default::default(),
        };
        let mut values = Vec::with_capacity(self.summary.len());
        for (name, kind, e) in &self.summary {
            values.push((e, *kind, *name, self.eval(e, &v, None)?));
        }
        summary::Summary::from_values(values)
    }

    pub fn steps(&self) -> impl Iterator<Item = &StepInfo> {
        self.steps.iter().map(|s| &s.info)
    }

    pub fn step_info(&self, id: &str) -> Option<&StepInfo> {
        self.step(id).ok().map(|s| &s.info)
    }

    pub fn form_names(&self) -> impl Iterator<Item = &str> {
        self.forms.keys().map(String::as_str)
    }

    /// The full (unresolved) JSON Schema of a form step, if the step has a form.
    pub fn form_schema(&self, id: &str) -> Option<&Value> {
        let step = self.step(id).ok()?;
        step.form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .map(|f| &*f.schema)
    }

    /// The UI schema of a form step (`ui:order`, widgets), if the step has a form.
    pub fn form_ui(&self, id: &str) -> Option<&Value> {
        let step = self.step(id).ok()?;
        step.form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .map(|f| &*f.ui)
    }

    /// `rules/calendar.yaml`, typed (empty when the file is absent).
    pub fn calendar(&self) -> &calendar::Calendar {
        &self.calendar
    }

    /// The plan catalog (empty when `rules/catalog/` is absent).
    pub fn catalog(&self) -> &catalog::Catalog {
        &self.catalog
    }

    /// The data tables (`rules/*.yaml`) as JSON.
    pub fn tables(&self) -> &Value {
        &self.tables_json
    }

    fn step(&self, id: &str) -> Result<&Step, EvalError> {
        self.steps
            .iter()
            .find(|s| s.info.id == id)
            .ok_or_else(|| EvalError::UnknownStep(id.into()))
    }

    fn vars(&self, app: &Value, ctx: &Context) -> Vars {
        let context = digest(ctx);
        Vars {
            app: script::to_dynamic(app),
            ctx: self.context(ctx, context),
            context,
            seen: Default::default(),
        }
    }

    /// `ctx` as rules see it: the context with `is_agent` and the carriers the agent's flags make
    /// quoted (`agent.carriers`). Made once per context (`context`, its digest).
    fn context(&self, ctx: &Context, context: u64) -> Dynamic {
        if let Some(d) = self.contexts.get(context) {
            return d;
        }
        let mut c = serde_json::to_value(ctx).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut c {
            m.insert(
                "is_agent".into(),
                Value::Bool(ctx.applying == Applying::Agent),
            );
            if let Some(Value::Object(agent)) = m.get_mut("agent") {
                let ids = self.catalog.offered_carriers(&ctx.agent.offers);
                agent.insert("carriers".into(), Value::from(ids));
            }
        }
        let d = script::to_lasting_dynamic(&c);
        self.contexts.keep(context, &d);
        d
    }

    fn eval(&self, e: &Expr, v: &Vars, input: Option<&Dynamic>) -> Result<Value, EvalError> {
        let mut vars: Vec<(&str, &Dynamic)> =
            vec![("app", &v.app), ("ctx", &v.ctx), ("data", &self.tables)];
        if let Some(i) = input {
            vars.push(("input", i));
        }
        if self.probe.is_some() {
            // Coverage counts what runs: nothing is remembered.
            return e.eval(&self.rhai, &vars).map_err(EvalError::Rule);
        }
        if e.uses.input {
            // The answers change from call to call: nothing to remember.
            return e.eval(&self.rhai, &vars).map_err(EvalError::Rule);
        }
        if !e.uses.app {
            // Remembered for the rule set or the context by the expression itself.
            return e
                .eval_remembered(&self.rhai, &vars, v.context)
                .map_err(EvalError::Rule);
        }
        // It reads the application: the same text has the same answer for the rest of this call.
        if let Some(known) = v.seen.borrow().get(&e.text_id) {
            return Ok(known.clone());
        }
        let value = e.eval(&self.rhai, &vars).map_err(EvalError::Rule)?;
        v.seen.borrow_mut().insert(e.text_id, value.clone());
        Ok(value)
    }

    /// A view's extras: the whole map, or the map of each key's answer.
    fn extras(
        &self,
        x: &form::Extras,
        v: &Vars,
        input: Option<&Dynamic>,
    ) -> Result<Value, EvalError> {
        match x {
            form::Extras::Whole(e) => self.eval(e, v, input),
            form::Extras::Each(each) => each
                .iter()
                .map(|(key, e)| Ok((key.clone(), self.eval(e, v, input)?)))
                .collect::<Result<serde_json::Map<_, _>, _>>()
                .map(Value::Object),
        }
    }

    fn is_skipped(&self, step: &Step, v: &Vars) -> Result<bool, EvalError> {
        match &step.skip_when {
            Some(e) => {
                let r = self.eval(e, v, None)?;
                Ok(truthy(&r))
            }
            None => Ok(false),
        }
    }

    /// The nearest step in `dir` (+1 or -1) from `index` that is not skipped.
    fn neighbour(&self, index: usize, forward: bool, v: &Vars) -> Result<Option<&Step>, EvalError> {
        let mut i = index;
        loop {
            i = match (forward, i) {
                (true, i) if i + 1 < self.steps.len() => i + 1,
                (false, i) if i > 0 => i - 1,
                _ => return Ok(None),
            };
            if !self.is_skipped(&self.steps[i], v)? {
                return Ok(Some(&self.steps[i]));
            }
        }
    }

    fn index_of(&self, id: &str) -> Result<usize, EvalError> {
        self.steps
            .iter()
            .position(|s| s.info.id == id)
            .ok_or_else(|| EvalError::UnknownStep(id.into()))
    }

    fn named_step(&self, value: &Value, e: &Expr) -> Result<&Step, EvalError> {
        let id = value.as_str().unwrap_or_default();
        self.step(id).map_err(|_| {
            EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` named `{value}`, which is not a step", e.source),
            ))
        })
    }

    /// The step Previous goes to.
    pub fn previous(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<StepInfo>, EvalError> {
        let v = self.vars(app, ctx);
        self.previous_with(id, &v)
    }

    fn previous_with(&self, id: &str, v: &Vars) -> Result<Option<StepInfo>, EvalError> {
        let step = self.step(id)?;
        if let Some(e) = &step.previous {
            let r = self.eval(e, v, None)?;
            if r.is_null() {
                return Ok(None);
            }
            let named = self.named_step(&r, e)?;
            if self.is_skipped(named, v)? {
                let i = self.index_of(&named.info.id)?;
                return Ok(self.neighbour(i, false, v)?.map(|s| s.info.clone()));
            }
            return Ok(Some(named.info.clone()));
        }
        Ok(self
            .neighbour(self.index_of(id)?, false, v)?
            .map(|s| s.info.clone()))
    }

    /// Whether the application may open a step (spec part 1, 2.2): the step exists, applies, has
    /// been reached, and a submitted application may open only the submitted step.
    pub fn valid_step(&self, id: &str, app: &Value, ctx: &Context) -> Result<bool, EvalError> {
        let Ok(step) = self.step(id) else {
            return Ok(false);
        };
        self.valid_with(step, app, || self.vars(app, ctx))
    }

    fn valid_with<V: std::borrow::Borrow<Vars>>(
        &self,
        step: &Step,
        app: &Value,
        vars: impl FnOnce() -> V,
    ) -> Result<bool, EvalError> {
        if app.get("submitted").is_some_and(truthy) {
            return Ok(step.info.id == self.submitted_step);
        }
        if step.always_valid {
            return Ok(true);
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        if u64::from(step.info.number) > last {
            return Ok(false);
        }
        // The application is converted for the rules only when a rule is asked: most steps have
        // no skip rule, and a step is checked at every save.
        if step.skip_when.is_none() {
            return Ok(true);
        }
        Ok(!self.is_skipped(step, vars().borrow())?)
    }

    /// Opening a skipped step again (its `reopen` rule): the application flags to save, or None
    /// when the step cannot be reopened (it is not skipped, has no `reopen` rule, lies past the
    /// last step reached, or the application is submitted). The flags must make the step apply.
    pub fn reopen(&self, id: &str, app: &Value, ctx: &Context) -> Result<Option<Value>, EvalError> {
        let Ok(step) = self.step(id) else {
            return Ok(None);
        };
        let Some(e) = &step.reopen else {
            return Ok(None);
        };
        if app.get("submitted").is_some_and(truthy) {
            return Ok(None);
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        let v = self.vars(app, ctx);
        if u64::from(step.info.number) > last || !self.is_skipped(step, &v)? {
            return Ok(None);
        }
        let flags = self.eval(e, &v, None)?;
        let Value::Object(map) = &flags else {
            return Err(EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` must give a map of application flags", e.source),
            )));
        };
        let mut reopened = app.clone();
        if let Value::Object(a) = &mut reopened {
            for (k, x) in map {
                a.insert(k.clone(), x.clone());
            }
        }
        if self.is_skipped(step, &self.vars(&reopened, ctx))? {
            return Err(EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` leaves step `{id}` skipped", e.source),
            )));
        }
        Ok(Some(flags))
    }

    /// The wizard's shape for an application (`{}` before it exists): each step's route, labels,
    /// whether it is listed, skipped and reached, and where Previous goes. The browser builds its
    /// routes, progress list and guards from it; `valid_step` stays the server's word.
    pub fn flow_view(&self, app: &Value, ctx: &Context) -> Result<FlowView, EvalError> {
        let v = self.vars(app, ctx);
        let submitted = app.get("submitted").is_some_and(truthy);
        let last = app
            .get("last_step")
            .and_then(Value::as_u64)
            .map_or(1, |n| u8::try_from(n).unwrap_or(u8::MAX))
            .max(1);
        let mut steps = Vec::with_capacity(self.steps.len());
        for s in &self.steps {
            let listed = match &s.listed_when {
                Some(e) => truthy(&self.eval(e, &v, None)?),
                None => true,
            };
            steps.push(FlowStep {
                valid: self.valid_with(s, app, || &v)?,
                id: s.info.id.clone(),
                number: s.info.number,
                route: s.info.route.clone(),
                title: s.info.title.clone(),
                nav: s.nav.clone(),
                section: s.section.clone(),
                kind: s.page.clone().unwrap_or_else(|| "form".into()),
                params: s.params.clone(),
                always_valid: s.always_valid,
                listed,
                skipped: self.is_skipped(s, &v)?,
                reached: s.always_valid || s.info.number <= last,
                previous: self.previous_with(&s.info.id, &v)?.map(|p| p.id),
            });
        }
        Ok(FlowView {
            steps,
            submitted_step: self.submitted_step.clone(),
            submitted,
            last_step: last,
            save_for_later_from: self.save_for_later_from,
        })
    }

    /// The lowest and highest step numbers (the range of an application's last step).
    pub fn step_numbers(&self) -> (u8, u8) {
        let n = |s: Option<&Step>| s.map_or(1, |s| s.info.number);
        (n(self.steps.first()), n(self.steps.last()))
    }

    /// The view of a step for an application.
    pub fn step_view(&self, id: &str, app: &Value, ctx: &Context) -> Result<StepView, EvalError> {
        self.view_with(id, app, ctx, None)
    }

    /// The view of a step as it would be with these (unsaved) answers: choices and extras that
    /// depend on answers, recomputed while the user fills the form in.
    pub fn preview(
        &self,
        id: &str,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<StepView, EvalError> {
        let answers = form::normalize(input).unwrap_or_else(|| json!({}));
        self.view_with(id, app, ctx, Some(answers))
    }

    fn view_with(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
        draft: Option<Value>,
    ) -> Result<StepView, EvalError> {
        let step = self.step(id)?;
        let v = self.vars(app, ctx);
        let index = self.index_of(id)?;
        let skipped = self.is_skipped(step, &v)?;
        let previous = self.previous_with(id, &v)?;
        let next = self.neighbour(index, true, &v)?.map(|s| s.info.clone());
        let form = step.form.as_ref().and_then(|f| self.forms.get(f));
        let mut view = StepView {
            step: step.info.clone(),
            kind: step.page.clone().unwrap_or_else(|| "form".into()),
            params: step.params.clone(),
            skipped,
            previous,
            next,
            schema: Arc::new(Value::Null),
            ui: Arc::new(json!({})),
            // A form's data is its pruned answers (below).
            data: match form {
                Some(_) => Value::Null,
                None => app.get(id).cloned().unwrap_or(Value::Null),
            },
            extras: json!({}),
            modals: Arc::new(json!({})),
            refresh_on: Vec::new(),
        };
        let Some(form) = form else {
            if let Some(e) = &step.extras {
                view.extras = self.extras(e, &v, None)?;
            }
            return Ok(view);
        };
        // The initial data (the people and facts of the application, as they are now) under the
        // saved answers or the draft being previewed.
        let saved = match &draft {
            Some(d) => Some(d),
            None => app.get(id).filter(|d| !d.is_null()),
        };
        let initial = match &form.initial {
            Some(e) => Some(self.eval(e, &v, None)?),
            None => None,
        };
        let mut data = match (saved, initial) {
            (Some(d), Some(i)) => form::overlay(i, d.clone()),
            (Some(d), None) => d.clone(),
            (None, Some(i)) => i,
            (None, None) => json!({}),
        };
        // The answers as the rules' `input`, converted only when an expression reads them.
        let input = if form.reads_input() {
            script::to_dynamic(&data)
        } else {
            Dynamic::UNIT
        };
        let (schema, _) = self.resolve(form, &v, &input)?;
        form::prune(&mut data, &schema);
        view.data = data;
        view.schema = schema;
        view.ui = Arc::clone(&form.ui);
        view.modals = Arc::clone(&form.modals);
        view.refresh_on = form.refresh_on.clone();
        if let Some(title) = &form.title {
            view.step.title = title.clone();
        }
        if let Some(e) = &form.extras {
            view.extras = self.extras(e, &v, Some(&input))?;
        }
        Ok(view)
    }

    /// The form's schema for this context: fields whose `only_when` is false dropped, dynamic
    /// choices filled in. Returns the schema and the dropped paths.
    fn resolve(
        &self,
        form: &Form,
        v: &Vars,
        input: &Dynamic,
    ) -> Result<(Arc<Value>, Vec<FieldPath>), EvalError> {
        // Copied on the first change: a form whose conditions and choices change nothing shares
        // the loaded schema.
        let mut schema = Arc::clone(&form.schema);
        let mut dropped = Vec::new();
        for (path, e) in &form.only_when {
            if !truthy(&self.eval(e, v, Some(input))?) {
                form::drop_field(Arc::make_mut(&mut schema), path);
                dropped.push(path.clone());
            }
        }
        for (path, e) in &form.required_when {
            if !dropped.contains(path) && truthy(&self.eval(e, v, Some(input))?) {
                form::mark_required(Arc::make_mut(&mut schema), path);
            }
        }
        for (path, e) in &form.options {
            if dropped.contains(path) {
                continue;
            }
            match self.eval(e, v, Some(input))? {
                Value::Array(choices) => {
                    form::set_choices(Arc::make_mut(&mut schema), path, &choices);
                }
                other => {
                    return Err(EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!(
                            "options for `{}` must be a list, not {other}",
                            form::path_string(path)
                        ),
                    )));
                }
            }
        }
        if let Some(p) = &self.probe {
            p.form_resolved(&form.name, &form.schema, &dropped);
        }
        Ok((schema, dropped))
    }

    /// The plans of a kind quoted for the application now, cheapest first: the flow's household,
    /// the carriers the agent offers (what the plan pages list before a chosen plan is put first).
    pub fn quote(
        &self,
        kind: catalog::PlanKind,
        app: &Value,
        ctx: &Context,
    ) -> Result<Vec<(&catalog::Plan, rating::Rates)>, QuoteFailure> {
        let h = self.household(app, ctx)?.ok_or(QuoteFailure::NoHousehold)?;
        let carriers = self.catalog.offered_carriers(&ctx.agent.offers);
        let plans = rating::quote(&self.catalog, kind, &h, &carriers)?;
        if let Some(p) = &self.probe {
            for (plan, _) in &plans {
                p.quoted(plan.plan_year, plan.carrier, plan.kind);
            }
        }
        Ok(plans)
    }

    /// The household to quote, from the flow's `household` rule; None until it is known.
    pub fn household(
        &self,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<rating::Household>, EvalError> {
        let Some(e) = &self.household else {
            return Ok(None);
        };
        let v = self.vars(app, ctx);
        let r = self.eval(e, &v, None)?;
        if r.is_null() {
            return Ok(None);
        }
        let bad = |m: &str| {
            EvalError::Rule(Diagnostic::new(
                &e.file,
                e.line,
                1,
                format!("`{}` {m}", e.source),
            ))
        };
        let date_of = |v: &Value| v.as_str().and_then(dates::parse);
        let county = r
            .get("county")
            .and_then(Value::as_u64)
            .and_then(|c| u16::try_from(c).ok());
        let effective = r.get("effective_date").and_then(date_of);
        let (Some(county), Some(effective_date)) = (county, effective) else {
            return Err(bad("must give a county id and an effective_date"));
        };
        let mut members = Vec::new();
        for m in r
            .get("members")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let role = match m.get("role").and_then(Value::as_str) {
                Some("subscriber") => rating::Role::Subscriber,
                Some("spouse") => rating::Role::Spouse,
                Some("dependent") => rating::Role::Dependent,
                _ => {
                    return Err(bad(
                        "gave a member whose role is not subscriber, spouse or dependent",
                    ));
                }
            };
            let Some(birth_date) = m.get("birth_date").and_then(date_of) else {
                return Err(bad("gave a member without a birth_date"));
            };
            let tobacco = m.get("tobacco").is_some_and(truthy);
            members.push(rating::Member {
                role,
                birth_date,
                tobacco,
            });
        }
        Ok(Some(rating::Household {
            members,
            county,
            effective_date,
        }))
    }

    /// The page step that shows plans of a type (its flow `params.plan_type`).
    /// The first step drawn by a hand-built page (`review`: Review Selections).
    pub fn page_step(&self, page: &str) -> Option<&StepInfo> {
        self.steps
            .iter()
            .find(|s| s.page.as_deref() == Some(page))
            .map(|s| &s.info)
    }

    pub fn plan_step(&self, plan_type: u8) -> Option<&StepInfo> {
        self.steps
            .iter()
            .find(|s| {
                s.params.get("plan_type").and_then(Value::as_u64) == Some(u64::from(plan_type))
            })
            .map(|s| &s.info)
    }

    /// Going on from a hand-built page that saves nothing (one without a `select` rule, such as
    /// Review Selections): where the application goes and the `last_step` it reaches. `None` for a
    /// form step or a page that saves through its `select` rule.
    pub fn continue_page(
        &self,
        id: &str,
        app: &Value,
        ctx: &Context,
    ) -> Result<Option<(StepInfo, u64)>, EvalError> {
        let step = self.step(id)?;
        if step.form.is_some() || step.select.is_some() {
            return Ok(None);
        }
        let next = self.next_after(id, app, ctx)?;
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        Ok(Some((next.clone(), last.max(u64::from(next.number)))))
    }

    /// A plan page's selection (or going on without a plan when `plan` is null): the flags its
    /// `select` rule sets, then where the application goes, or the rule's refusal.
    pub fn select(
        &self,
        id: &str,
        plan: &Value,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<Selection, EvalError> {
        let step = self.step(id)?;
        let Some(e) = &step.select else {
            return Err(EvalError::NotAForm(id.into()));
        };
        let v = self.vars(app, ctx);
        let plan_d = script::to_dynamic(plan);
        let input_d = script::to_dynamic(input);
        let vars: Vec<(&str, &Dynamic)> = vec![
            ("app", &v.app),
            ("ctx", &v.ctx),
            ("data", &self.tables),
            ("plan", &plan_d),
            ("input", &input_d),
        ];
        let mut updates = match e.eval(&self.rhai, &vars).map_err(EvalError::Rule)? {
            Value::Object(m) => m,
            other => {
                return Err(EvalError::Rule(Diagnostic::new(
                    &e.file,
                    e.line,
                    1,
                    format!("`{}` must return a map of flags, not {other}", e.source),
                )));
            }
        };
        if let Some(message) = updates.get("error").and_then(Value::as_str) {
            return Ok(Selection::Refused(message.to_string()));
        }
        let mut next_app = app.as_object().cloned().unwrap_or_default();
        for (k, val) in &updates {
            next_app.insert(k.clone(), val.clone());
        }
        let next_app = Value::Object(next_app);
        let next = self.next_after(id, &next_app, ctx)?;
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        updates.insert("last_step".into(), json!(last.max(u64::from(next.number))));
        Ok(Selection::Done { updates, next })
    }

    /// Where the application goes after a hand-built page step saved its part (a plan selection):
    /// the step's `next` rule or the next step not skipped, over the updated application.
    pub fn next_after(&self, id: &str, app: &Value, ctx: &Context) -> Result<StepInfo, EvalError> {
        let step = self.step(id)?;
        let v = self.vars(app, ctx);
        let target = match &step.next {
            Some(e) => {
                let r = self.eval(e, &v, None)?;
                let named = self.named_step(&r, e)?;
                if self.is_skipped(named, &v)? {
                    let i = self.index_of(&named.info.id)?;
                    self.neighbour(i, true, &v)?.unwrap_or(named)
                } else {
                    named
                }
            }
            None => self
                .neighbour(self.index_of(id)?, true, &v)?
                .unwrap_or(step),
        };
        if let Some(p) = &self.probe {
            p.transition(id, &target.info.id, None);
        }
        Ok(target.info.clone())
    }
}

/// A digest of a JSON value (its text: `serde_json` writes an object's keys in one order).
fn digest(ctx: &Context) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ctx.hash(&mut h);
    h.finish()
}

/// Rhai/JSON truthiness for conditions: booleans, non-zero numbers.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
