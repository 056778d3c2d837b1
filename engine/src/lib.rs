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

pub mod catalog;
pub mod dates;
pub mod diagnostic;
mod form;
mod model;
pub mod rating;
pub mod scenario;
pub mod script;
mod yaml;

use std::collections::BTreeMap;

use rhai::Dynamic;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

pub use diagnostic::{Diagnostic, EvalError};
pub use form::Errors;
use form::{FieldPath, Form};
use script::Expr;

/// One source file of a rule set, its path relative to the repository root.
#[derive(Debug, Clone)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Applying {
    #[default]
    Consumer,
    Agent,
}

/// What the agent whose site this is offers (spec part 1, section 3 "Agent branding").
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentFlags {
    /// display_bcbsm: the Blue Cross family carriers (ids 1 and 2).
    pub offers_blue: bool,
    /// display_ph: the Priority carrier (id 3).
    pub offers_priority: bool,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub name: String,
    pub npn: String,
}

/// The context of an evaluation: known on the server, not typed by the applicant.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    pub schema: Value,
    pub ui: Value,
    pub data: Value,
    pub extras: Value,
    pub modals: Value,
    /// Fields whose change should fetch a fresh view (`preview`).
    pub refresh_on: Vec<String>,
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
    select: Option<Expr>,
    extras: Option<Expr>,
    form: Option<String>,
    page: Option<String>,
    params: Value,
    skip_when: Option<Expr>,
    next: Option<Expr>,
    previous: Option<Expr>,
    reopen: Option<Expr>,
    always_valid: bool,
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
    catalog: catalog::Catalog,
    hash: String,
}

/// Loads and checks a whole rule set. Files the engine does not own (templates, catalog, READMEs)
/// are ignored. Either every file is fine, or every problem found is returned.
pub fn load(sources: &[Source]) -> Result<Engine, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let mut rhai = script::sandbox();

    let mut sorted: Vec<&Source> = sources.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut hasher = Sha256::new();
    for s in &sorted {
        hasher.update(s.path.as_bytes());
        hasher.update([0]);
        hasher.update(s.text.as_bytes());
        hasher.update([0]);
    }
    let hash = hex::encode(hasher.finalize());

    // Scripts first: every module is registered before any expression runs.
    let mut modules = Vec::new();
    for s in sorted
        .iter()
        .filter(|s| is_in(&s.path, "rules/scripts/", ".rhai"))
    {
        match script::compile_module(&rhai, &s.path, &s.text) {
            Ok(m) => modules.push((stem(&s.path, ".rhai"), m)),
            Err(d) => problems.push(d),
        }
    }
    for (name, m) in modules {
        rhai.register_static_module(name, m.into());
    }

    // Data tables: every top-level `rules/*.yaml` is `data.<name>` in scripts.
    let mut tables = Map::new();
    for s in sorted.iter().filter(|s| is_in(&s.path, "rules/", ".yaml")) {
        match yaml::parse::<Value>(&s.path, &s.text) {
            Ok(v) => {
                tables.insert(stem(&s.path, ".yaml"), v);
            }
            Err(d) => problems.push(d),
        }
    }
    let tables_json = Value::Object(tables);

    let mut forms = BTreeMap::new();
    for s in sorted
        .iter()
        .filter(|s| is_in(&s.path, "forms/", ".form.yaml"))
    {
        match load_form(&rhai, s) {
            Ok(f) => {
                forms.insert(f.name.clone(), f);
            }
            Err(mut ds) => problems.append(&mut ds),
        }
    }

    let catalog = match catalog::load(&sorted) {
        Ok(c) => c,
        Err(mut ds) => {
            problems.append(&mut ds);
            catalog::Catalog::default()
        }
    };

    // Rules may ask the catalog about places: `catalog::counties_of("48104")` -> [161].
    rhai.register_static_module("catalog", catalog_module(&catalog).into());

    let flows: Vec<&&Source> = sorted
        .iter()
        .filter(|s| is_in(&s.path, "rules/flows/", ".flow.yaml"))
        .collect();
    let mut steps = Vec::new();
    let mut submitted_step = String::new();
    let mut household = None;
    match flows.as_slice() {
        [flow] => match load_flow(&rhai, flow, &forms) {
            Ok(f) => {
                steps = f.steps;
                submitted_step = f.submitted_step;
                household = f.household;
            }
            Err(mut ds) => problems.append(&mut ds),
        },
        [] => problems.push(Diagnostic::file(
            "rules/flows",
            "no flow file (`*.flow.yaml`) found",
        )),
        [_, extra, ..] => problems.push(Diagnostic::file(
            &extra.path,
            "only one flow file is allowed; the wizard has one order of steps",
        )),
    }

    if !problems.is_empty() {
        problems.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        problems.dedup();
        return Err(problems);
    }
    Ok(Engine {
        tables: script::to_dynamic(&tables_json),
        tables_json,
        rhai,
        steps,
        submitted_step,
        forms,
        household,
        catalog,
        hash,
    })
}

fn catalog_module(cat: &catalog::Catalog) -> rhai::Module {
    let zips = std::sync::Arc::new(cat.zips.clone());
    let mut m = rhai::Module::new();
    m.set_native_fn("counties_of", move |zip: &str| {
        Ok(zips
            .get(zip)
            .map(|ids| {
                ids.iter()
                    .map(|id| Dynamic::from(i64::from(*id)))
                    .collect::<rhai::Array>()
            })
            .unwrap_or_default())
    });
    let known = !cat.zips.is_empty();
    m.set_native_fn("has_places", move || Ok(known));
    m
}

fn is_in(path: &str, dir: &str, ext: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| !rest.contains('/') && rest.ends_with(ext))
}

fn stem(path: &str, ext: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(ext).unwrap_or(name).to_string()
}

fn expr(
    rhai: &rhai::Engine,
    file: &str,
    s: &serde_saphyr::Spanned<String>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Expr> {
    match script::compile_expression(rhai, file, yaml::line_of(s), &s.value) {
        Ok(e) => Some(e),
        Err(d) => {
            problems.push(d);
            None
        }
    }
}

fn load_form(rhai: &rhai::Engine, s: &Source) -> Result<Form, Vec<Diagnostic>> {
    let file: model::FormFile = yaml::parse(&s.path, &s.text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let schema_line = yaml::line_of(&file.schema);
    let schema = file.schema.value;
    let validator = match form::compile_schema(&s.path, schema_line, &schema) {
        Ok(v) => Some(v),
        Err(d) => {
            problems.push(d);
            None
        }
    };
    let paths = |map: BTreeMap<String, serde_saphyr::Spanned<String>>,
                 what: &str,
                 problems: &mut Vec<Diagnostic>|
     -> Vec<(FieldPath, Expr)> {
        let mut out = Vec::new();
        for (key, e) in map {
            let path = form::parse_path(&key);
            if form::schema_at(&schema, &path).is_none() {
                problems.push(Diagnostic::new(
                    &s.path,
                    yaml::line_of(&e),
                    1,
                    format!("{what} names `{key}`, which is not a field of the schema"),
                ));
                continue;
            }
            if let Some(x) = expr(rhai, &s.path, &e, problems) {
                out.push((path, x));
            }
        }
        out
    };
    let only_when = paths(file.only_when, "only_when", &mut problems);
    let options = paths(file.options, "options", &mut problems);
    let keep_when = paths(file.keep_when, "keep_when", &mut problems);
    let required_when = paths(file.required_when, "required_when", &mut problems);
    for (path, e) in &required_when {
        if path.iter().any(|p| p == "*") {
            problems.push(Diagnostic::new(
                &s.path,
                e.line,
                1,
                format!(
                    "required_when names `{}`: a field inside a list cannot be required by a rule",
                    form::path_string(path)
                ),
            ));
        }
    }
    for f in &file.refresh_on {
        if form::schema_at(&schema, &form::parse_path(f)).is_none() {
            problems.push(Diagnostic::file(
                &s.path,
                format!("refresh_on names `{f}`, which is not a field of the schema"),
            ));
        }
    }
    let mut one = |e: Option<serde_saphyr::Spanned<String>>| {
        e.and_then(|e| expr(rhai, &s.path, &e, &mut problems))
    };
    let initial = one(file.initial);
    let extras = one(file.extras);
    let checks = one(file.checks);
    let derive = one(file.derive);
    match validator {
        Some(validator) if problems.is_empty() => Ok(Form {
            name: stem(&s.path, ".form.yaml"),
            title: file.title,
            schema,
            validator,
            ui: if file.ui.is_null() {
                json!({})
            } else {
                file.ui
            },
            only_when,
            options,
            keep_when,
            required_when,
            refresh_on: file.refresh_on,
            initial,
            extras,
            checks,
            derive,
            modals: if file.modals.is_null() {
                json!({})
            } else {
                file.modals
            },
        }),
        _ => Err(problems),
    }
}

fn load_flow(
    rhai: &rhai::Engine,
    s: &Source,
    forms: &BTreeMap<String, Form>,
) -> Result<LoadedFlow, Vec<Diagnostic>> {
    let file: model::FlowFile = yaml::parse(&s.path, &s.text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    for st in file.steps {
        let line = yaml::line_of(&st.id);
        let id = st.id.value.clone();
        if steps.iter().any(|x| x.info.id == id) {
            problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` is listed twice"),
            ));
        }
        if steps.last().is_some_and(|x| x.info.number >= st.number) {
            problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` must have a higher number than the step before it"),
            ));
        }
        match (&st.form, &st.page) {
            (Some(f), None) if !forms.contains_key(&f.value) => problems.push(Diagnostic::new(
                &s.path,
                yaml::line_of(f),
                1,
                format!(
                    "step `{id}` uses form `{}`, but there is no forms/{}.form.yaml",
                    f.value, f.value
                ),
            )),
            (Some(_), Some(_)) | (None, None) => problems.push(Diagnostic::new(
                &s.path,
                line,
                1,
                format!("step `{id}` needs exactly one of `form` and `page`"),
            )),
            _ => {}
        }
        let skip_when = st
            .skip_when
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let next = st
            .next
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let previous = st
            .previous
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let select = st
            .select
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let extras = st
            .extras
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        let reopen = st
            .reopen
            .as_ref()
            .and_then(|e| expr(rhai, &s.path, e, &mut problems));
        steps.push(Step {
            select,
            extras,
            info: StepInfo {
                id,
                number: st.number,
                route: st.route,
                title: st.title,
            },
            form: st.form.map(|f| f.value),
            page: st.page,
            params: st.params.unwrap_or(Value::Null),
            skip_when,
            next,
            previous,
            reopen,
            always_valid: st.always_valid,
        });
    }
    if !steps.iter().any(|x| x.info.id == file.submitted_step.value) {
        problems.push(Diagnostic::new(
            &s.path,
            yaml::line_of(&file.submitted_step),
            1,
            format!(
                "submitted_step `{}` is not a step",
                file.submitted_step.value
            ),
        ));
    }
    let household = file
        .household
        .as_ref()
        .and_then(|e| expr(rhai, &s.path, e, &mut problems));
    if problems.is_empty() {
        Ok(LoadedFlow {
            steps,
            submitted_step: file.submitted_step.value,
            household,
        })
    } else {
        Err(problems)
    }
}

struct LoadedFlow {
    steps: Vec<Step>,
    submitted_step: String,
    household: Option<Expr>,
}

/// The variables every rule sees.
struct Vars {
    app: Dynamic,
    ctx: Dynamic,
}

impl Engine {
    /// A digest of every source of the rule set (stored with applications).
    /// The step whose accepted submission purchases the application (the flow's `submitted_step`).
    pub fn submitted_step(&self) -> &str {
        &self.submitted_step
    }

    pub fn hash(&self) -> &str {
        &self.hash
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
            .map(|f| &f.schema)
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
        let mut c = serde_json::to_value(ctx).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut c {
            m.insert(
                "is_agent".into(),
                Value::Bool(ctx.applying == Applying::Agent),
            );
        }
        Vars {
            app: script::to_dynamic(app),
            ctx: script::to_dynamic(&c),
        }
    }

    fn eval(&self, e: &Expr, v: &Vars, input: Option<&Dynamic>) -> Result<Value, EvalError> {
        let mut vars: Vec<(&str, &Dynamic)> =
            vec![("app", &v.app), ("ctx", &v.ctx), ("data", &self.tables)];
        if let Some(i) = input {
            vars.push(("input", i));
        }
        e.eval(&self.rhai, &vars).map_err(EvalError::Rule)
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
        if app.get("submitted").is_some_and(truthy) {
            return Ok(id == self.submitted_step);
        }
        if step.always_valid {
            return Ok(true);
        }
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        if u64::from(step.info.number) > last {
            return Ok(false);
        }
        let v = self.vars(app, ctx);
        Ok(!self.is_skipped(step, &v)?)
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
        let mut view = StepView {
            step: step.info.clone(),
            kind: step.page.clone().unwrap_or_else(|| "form".into()),
            params: step.params.clone(),
            skipped,
            previous,
            next,
            schema: Value::Null,
            ui: json!({}),
            data: app.get(id).cloned().unwrap_or(Value::Null),
            extras: json!({}),
            modals: json!({}),
            refresh_on: Vec::new(),
        };
        let Some(form) = step.form.as_ref().and_then(|f| self.forms.get(f)) else {
            if let Some(e) = &step.extras {
                view.extras = self.eval(e, &v, None)?;
            }
            return Ok(view);
        };
        // The initial data (the people and facts of the application, as they are now) under the
        // saved answers or the draft being previewed.
        let saved = draft.or_else(|| app.get(id).cloned().filter(|d| !d.is_null()));
        let data = match (saved, &form.initial) {
            (Some(d), Some(e)) => form::overlay(&self.eval(e, &v, None)?, &d),
            (Some(d), None) => d,
            (None, Some(e)) => self.eval(e, &v, None)?,
            (None, None) => json!({}),
        };
        let input = script::to_dynamic(&data);
        let (schema, _) = self.resolve(form, &v, &input)?;
        view.data = form::prune(&data, &schema);
        view.schema = schema;
        view.ui = form.ui.clone();
        view.modals = form.modals.clone();
        view.refresh_on = form.refresh_on.clone();
        if let Some(title) = &form.title {
            view.step.title = title.clone();
        }
        if let Some(e) = &form.extras {
            view.extras = self.eval(e, &v, Some(&input))?;
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
    ) -> Result<(Value, Vec<FieldPath>), EvalError> {
        let mut schema = form.schema.clone();
        let mut dropped = Vec::new();
        for (path, e) in &form.only_when {
            if !truthy(&self.eval(e, v, Some(input))?) {
                form::drop_field(&mut schema, path);
                dropped.push(path.clone());
            }
        }
        for (path, e) in &form.required_when {
            if !dropped.contains(path) && truthy(&self.eval(e, v, Some(input))?) {
                form::mark_required(&mut schema, path);
            }
        }
        for (path, e) in &form.options {
            if dropped.contains(path) {
                continue;
            }
            match self.eval(e, v, Some(input))? {
                Value::Array(choices) => form::set_choices(&mut schema, path, &choices),
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
        Ok((schema, dropped))
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
        Ok(target.info.clone())
    }

    /// Validates a step's answers and works out where the application goes next.
    pub fn submit(
        &self,
        id: &str,
        input: &Value,
        app: &Value,
        ctx: &Context,
    ) -> Result<Submission, EvalError> {
        let step = self.step(id)?;
        let form = step
            .form
            .as_ref()
            .and_then(|f| self.forms.get(f))
            .ok_or_else(|| EvalError::NotAForm(id.into()))?;
        let v = self.vars(app, ctx);
        let mut normalized = form::normalize(input).unwrap_or_else(|| json!({}));
        // Read-only fields come from the rules' initial data, never from the browser; the initial
        // data's lists (the people) also fix how many items there are.
        form::strip_read_only(&mut normalized, &form.schema);
        if let Some(e) = &form.initial {
            let facts = form::read_only_part(&self.eval(e, &v, None)?, &form.schema);
            normalized = form::overlay(&facts, &normalized);
        }
        let raw_input = script::to_dynamic(&normalized);
        let (schema, dropped) = self.resolve(form, &v, &raw_input)?;
        let mut answers = form::prune(&normalized, &schema);
        for (path, e) in &form.keep_when {
            if !truthy(&self.eval(e, &v, Some(&raw_input))?) {
                form::remove_answer(&mut answers, path);
            }
        }
        let mut errors = form::schema_errors(form, &schema, &answers, &dropped);
        for (path, _) in &form.required_when {
            let marked = form::schema_at(&schema, path.split_last().map_or(&[][..], |(_, p)| p))
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| {
                    r.iter()
                        .any(|x| x.as_str() == path.last().map(String::as_str))
                });
            let empty = match answers_at(&answers, path) {
                None | Some(Value::Null) => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            if marked
                && empty
                && let Some((last, parent)) = path.split_last()
            {
                errors
                    .entry(form::error_key(&schema, &answers, parent, Some(last)))
                    .or_default()
                    .push(form::required_message(&schema, path));
            }
        }
        for (path, _) in &form.options {
            if let Some(field) = answers_at(&answers, path) {
                let choices = form::schema_at(&schema, path)
                    .and_then(|s| s.get("oneOf"))
                    .and_then(Value::as_array);
                if let Some(choices) = choices
                    && !choices.iter().any(|c| c.get("const") == Some(field))
                {
                    let title = form::schema_at(&schema, path)
                        .and_then(|s| s.get("title"))
                        .and_then(Value::as_str)
                        .unwrap_or("choice");
                    errors
                        .entry(form::error_key(&schema, &answers, path, None))
                        .or_default()
                        .push(format!("The selected {title} is invalid."));
                }
            }
        }
        let input = script::to_dynamic(&answers);
        if let Some(e) = &form.checks {
            if errors.is_empty() {
                let r = self.eval(e, &v, Some(&input))?;
                form::merge_checks(&mut errors, &r).map_err(|m| {
                    EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!("`{}` {m}", e.source),
                    ))
                })?;
            } else if let Ok(r) = self.eval(e, &v, Some(&input)) {
                // With schema errors the cross-field rules see imperfect answers: their findings
                // are added where the schema found nothing, and a rule that trips is ignored.
                let mut more = Errors::new();
                if form::merge_checks(&mut more, &r).is_ok() {
                    for (k, msgs) in more {
                        errors.entry(k).or_insert(msgs);
                    }
                }
            }
        }
        if !errors.is_empty() {
            return Ok(Submission::Invalid { errors });
        }

        let mut updates = Map::new();
        if let Some(e) = &form.derive {
            match self.eval(e, &v, Some(&input))? {
                Value::Object(m) => updates = m,
                Value::Null => {}
                other => {
                    return Err(EvalError::Rule(Diagnostic::new(
                        &e.file,
                        e.line,
                        1,
                        format!("`{}` must return a map of flags, not {other}", e.source),
                    )));
                }
            }
        }
        let mut next_app = app.as_object().cloned().unwrap_or_default();
        next_app.insert(id.to_string(), answers.clone());
        for (k, val) in &updates {
            next_app.insert(k.clone(), val.clone());
        }
        let next_app = Value::Object(next_app);
        let nv = self.vars(&next_app, ctx);

        let index = self.index_of(id)?;
        let (target, modal) = match &step.next {
            Some(e) => {
                let r = self.eval(e, &nv, Some(&input))?;
                match &r {
                    Value::Object(m) if m.contains_key("modal") => (
                        step,
                        m.get("modal").and_then(Value::as_str).map(str::to_string),
                    ),
                    _ => {
                        let named = self.named_step(&r, e)?;
                        if self.is_skipped(named, &nv)? {
                            let i = self.index_of(&named.info.id)?;
                            (self.neighbour(i, true, &nv)?.unwrap_or(named), None)
                        } else {
                            (named, None)
                        }
                    }
                }
            }
            None => (self.neighbour(index, true, &nv)?.unwrap_or(step), None),
        };
        let last = app.get("last_step").and_then(Value::as_u64).unwrap_or(0);
        let reached = u64::from(target.info.number)
            .max(last)
            .max(u64::from(step.info.number));
        updates.insert("last_step".into(), json!(reached));
        Ok(Submission::Accepted(Transition {
            answers,
            updates,
            next: target.info.clone(),
            modal,
        }))
    }
}

fn answers_at<'a>(answers: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut v = answers;
    for seg in path {
        if seg == "*" {
            return None;
        }
        v = v.get(seg)?;
    }
    Some(v)
}

/// Rhai/JSON truthiness for conditions: booleans, non-zero numbers.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        _ => false,
    }
}
