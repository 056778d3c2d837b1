//! YAML scenario suites: what testers write to pin the wizard's behaviour.
//!
//! A suite is a list of scenarios. Each states its context, an optional starting application, and
//! steps: `submit` (answers for a step, then what must follow), `view` (what a step shows),
//! `valid` (whether a step may be opened), `select` (a plan page's choice, through its rule),
//! `continue` (a page that saves nothing), `after` (a page saved its part), `reopen`, or `quote`
//! (the plans of a kind quoted now: ids, order, premiums per plan and member). An accepted
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

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use crate::catalog::PlanKind;
use crate::diagnostic::Diagnostic;
use crate::money::Money;
use crate::rating::Filter;
use crate::{Context, Engine, Selection, Submission, form, yaml};

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

/// Runs every scenario of one suite file.
pub fn run_suite(
    engine: &Engine,
    path: &str,
    text: &str,
) -> Result<Vec<ScenarioResult>, Diagnostic> {
    run_suite_matching(engine, path, text, |_| true)
}

/// Runs the scenarios of one suite file whose name `keep` accepts.
pub fn run_suite_matching(
    engine: &Engine,
    path: &str,
    text: &str,
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<ScenarioResult>, Diagnostic> {
    let scenarios: Vec<Spanned<Scenario>> = yaml::parse(path, text)?;
    Ok(scenarios
        .iter()
        .filter(|s| keep(&s.value.name))
        .map(|s| run(engine, path, s))
        .collect())
}

/// Runs many suite files side by side, one thread per core taking the next file in turn (the
/// engine is shared; each scenario runs on one thread): each file's results, in the order given.
/// A suite set of 240 scenarios runs about twice as fast on two cores. Not for an engine loaded
/// for coverage: its hits are counted under one lock, which threads would take in turn.
pub fn run_suites<K>(
    engine: &Engine,
    suites: &[(&str, &str)],
    keep: K,
) -> Vec<Result<Vec<ScenarioResult>, Diagnostic>>
where
    K: Fn(&str) -> bool + Sync,
{
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Throttled work (a draft's) keeps to one thread.
    let throttle = crate::script::throttled();
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(suites.len());
    let threads = if throttle.is_some() { 1 } else { threads };
    if threads <= 1 {
        return suites
            .iter()
            .map(|(path, text)| run_suite_matching(engine, path, text, &keep))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<Result<Vec<ScenarioResult>, Diagnostic>>> =
        std::iter::repeat_with(|| None).take(suites.len()).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((path, text)) = suites.get(i) else {
                            return done;
                        };
                        done.push((i, run_suite_matching(engine, path, text, &keep)));
                    }
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(done) => {
                    for (i, r) in done {
                        out[i] = Some(r);
                    }
                }
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    out.into_iter().flatten().collect()
}

const ONE_OF: &str = "give exactly one of `submit`, `view`, `after`, `select`, `continue`, `valid`, \
                      `reopen` or `quote`";

fn run(engine: &Engine, path: &str, spanned: &Spanned<Scenario>) -> ScenarioResult {
    let s = &spanned.value;
    let mut failures = Vec::new();
    let mut app = Value::Object(s.app.clone());
    for (i, step) in s.steps.iter().enumerate() {
        let a = &step.value;
        let at = format!("{path}:{}: step {}", yaml::line_of(step), i + 1);
        let actions = [
            a.submit.is_some(),
            a.view.is_some(),
            a.valid.is_some(),
            a.after.is_some(),
            a.reopen.is_some(),
            a.quote.is_some(),
            a.select.is_some(),
            a.go_on.is_some(),
        ];
        let r = match (&a.submit, &a.view, &a.valid, &a.after) {
            _ if actions.iter().filter(|x| **x).count() != 1 => vec![format!("{at}: {ONE_OF}")],
            _ if a.quote.is_some() => quote(engine, &app, a, &s.context, &at),
            _ if a.select.is_some() => select(engine, &mut app, a, &s.context, &at),
            _ if a.go_on.is_some() => go_on(engine, &mut app, a, &s.context, &at),
            (None, None, None, None) if a.reopen.is_some() => {
                let step = a.reopen.as_deref().unwrap_or_default();
                match engine.reopen(step, &app, &s.context) {
                    Ok(flags) => {
                        let reopened = flags.is_some();
                        if let (Some(Value::Object(f)), Value::Object(m)) = (flags, &mut app) {
                            m.extend(f);
                        }
                        match a.expect.allowed {
                            Some(want) if want != reopened => vec![format!(
                                "{at}: reopening `{step}` was {}, expected {}",
                                if reopened { "allowed" } else { "refused" },
                                if want { "allowed" } else { "refused" }
                            )],
                            _ => vec![],
                        }
                    }
                    Err(e) => vec![format!("{at}: {e}")],
                }
            }
            (Some(step), None, None, None) => submit(engine, &mut app, step, a, &s.context, &at),
            (None, Some(step), None, None) => view(engine, &app, step, &a.expect, &s.context, &at),
            (None, None, None, Some(step)) => after(engine, &mut app, step, a, &s.context, &at),
            (None, None, Some(step), None) => match engine.valid_step(step, &app, &s.context) {
                Ok(allowed) => match a.expect.allowed {
                    Some(want) if want != allowed => {
                        vec![format!(
                            "{at}: `{step}` allowed is {allowed}, expected {want}"
                        )]
                    }
                    _ => vec![],
                },
                Err(e) => vec![format!("{at}: {e}")],
            },
            _ => vec![format!("{at}: {ONE_OF}")],
        };
        let stop = !r.is_empty();
        failures.extend(r);
        if stop {
            break;
        }
    }
    ScenarioResult {
        name: s.name.clone(),
        line: yaml::line_of(spanned),
        failures,
    }
}

/// The plans of a kind quoted for the application now, as the plan pages list them (before a
/// chosen plan is put first), checked against `plans`, `count`, `includes`, `excludes`,
/// `premiums` and `members`.
fn quote(engine: &Engine, app: &Value, a: &Action, ctx: &Context, at: &str) -> Vec<String> {
    let Some(kind) = a.quote else {
        return vec![];
    };
    let filter = match Filter::parse(a.filters.as_deref().unwrap_or("")) {
        Ok(f) => f,
        Err(e) => return vec![format!("{at}: filters: {e}")],
    };
    let list: Vec<_> = match engine.quote(kind, app, ctx) {
        Ok(l) => l
            .into_iter()
            .filter(|(p, r)| filter.accepts(p, r.total))
            .collect(),
        Err(e) => return vec![format!("{at}: {e}")],
    };
    let ids: Vec<i64> = list.iter().map(|(p, _)| p.id).collect();
    let e = &a.expect;
    let mut f = Vec::new();
    if let Some(want) = &e.plans
        && *want != ids
    {
        f.push(format!(
            "{at}: {kind} plans quoted {ids:?}, expected {want:?}"
        ));
    }
    if let Some(want) = e.count
        && want != ids.len()
    {
        f.push(format!(
            "{at}: {} {kind} plans quoted, expected {want}",
            ids.len()
        ));
    }
    for id in &e.includes {
        if !ids.contains(id) {
            f.push(format!("{at}: plan {id} is not quoted ({ids:?})"));
        }
    }
    for id in &e.excludes {
        if ids.contains(id) {
            f.push(format!("{at}: plan {id} is quoted, expected it not to be"));
        }
    }
    let rates_of = |id: &str| {
        let id: i64 = id.trim().parse().ok()?;
        list.iter().find(|(p, _)| p.id == id).map(|(_, r)| r)
    };
    for (id, want) in &e.premiums {
        match rates_of(id) {
            None => f.push(format!("{at}: plan {id} is not quoted ({ids:?})")),
            Some(r) if r.total != Money::from_dollars(*want) => f.push(format!(
                "{at}: plan {id} costs {} a month, expected {}",
                r.total,
                Money::from_dollars(*want)
            )),
            Some(_) => {}
        }
    }
    for (id, want) in &e.members {
        let Some(r) = rates_of(id) else {
            f.push(format!("{at}: plan {id} is not quoted ({ids:?})"));
            continue;
        };
        let got: Vec<Money> = r
            .members
            .iter()
            .map(|m| if m.charged { m.rate } else { Money::ZERO })
            .collect();
        let want: Vec<Money> = want.iter().map(|d| Money::from_dollars(*d)).collect();
        if got != want {
            let show = |l: &[Money]| {
                l.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            f.push(format!(
                "{at}: plan {id} charges [{}] by member, expected [{}]",
                show(&got),
                show(&want)
            ));
        }
    }
    f
}

/// A plan page's choice through its `select` rule (the plan looked up among those quoted now, as
/// the server does), then `next` and `flags` checked; or the refusal checked against `refused`.
fn select(engine: &Engine, app: &mut Value, a: &Action, ctx: &Context, at: &str) -> Vec<String> {
    let step = a.select.as_deref().unwrap_or_default();
    let plan = match a.plan {
        None => Value::Null,
        Some(id) => {
            let kind = match engine.step_view(step, app, ctx) {
                Ok(v) => v.plan_kind(),
                Err(e) => return vec![format!("{at}: {e}")],
            };
            let Some(kind) = kind else {
                return vec![format!("{at}: `{step}` is not a plan page")];
            };
            let quoted = match engine.quote(kind, app, ctx) {
                Ok(q) => q,
                Err(e) => return vec![format!("{at}: no quote: {e}")],
            };
            match quoted.iter().find(|(p, _)| p.id == id) {
                Some((p, r)) => engine.catalog().snapshot(p, r.total),
                // As the server answers a plan it does not quote for the application.
                None => return refused(at, crate::PLAN_NOT_QUOTED, &a.expect),
            }
        }
    };
    let input = a.with.clone().unwrap_or(Value::Object(Map::new()));
    let e = &a.expect;
    match engine.select(step, &plan, &input, app, ctx) {
        Err(err) => vec![format!("{at}: {err}")],
        Ok(Selection::Refused(message)) => refused(at, &message, e),
        Ok(Selection::Done { updates, next }) => {
            let mut f = Vec::new();
            if let Some(want) = &e.refused {
                f.push(format!(
                    "{at}: accepted, expected a refusal containing `{want}`"
                ));
            }
            if let Value::Object(m) = app {
                m.extend(updates);
            }
            check_next(&mut f, at, &next.id, e);
            check_flags(&mut f, at, app, e);
            check_summary(&mut f, at, engine, app, e);
            f
        }
    }
}

fn refused(at: &str, message: &str, e: &Expect) -> Vec<String> {
    match &e.refused {
        Some(want) if message.contains(want.as_str()) => vec![],
        _ => vec![format!("{at}: the choice was refused: {message}")],
    }
}

/// Review Selections' Continue: where a page that saves nothing goes.
fn go_on(engine: &Engine, app: &mut Value, a: &Action, ctx: &Context, at: &str) -> Vec<String> {
    let step = a.go_on.as_deref().unwrap_or_default();
    match engine.continue_page(step, app, ctx) {
        Err(err) => vec![format!("{at}: {err}")],
        Ok(None) => vec![format!(
            "{at}: `{step}` saves its answers: use `submit` or `select`"
        )],
        Ok(Some((next, last))) => {
            if let Value::Object(m) = app {
                m.insert("last_step".into(), Value::from(last));
            }
            let mut f = Vec::new();
            check_next(&mut f, at, &next.id, &a.expect);
            f
        }
    }
}

fn check_next(f: &mut Vec<String>, at: &str, went: &str, e: &Expect) {
    if let Some(want) = &e.next
        && want != went
    {
        f.push(format!("{at}: went to `{went}`, expected `{want}`"));
    }
}

fn check_flags(f: &mut Vec<String>, at: &str, app: &Value, e: &Expect) {
    for (k, want) in &e.flags {
        let got = app.get(k).cloned().unwrap_or(Value::Null);
        if !same(&got, want) {
            f.push(format!("{at}: flag `{k}` is {got}, expected {want}"));
        }
    }
}

fn after(
    engine: &Engine,
    app: &mut Value,
    step: &str,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    if let Value::Object(m) = app {
        for (k, v) in &a.set {
            m.insert(k.clone(), v.clone());
        }
    }
    match engine.next_after(step, app, ctx) {
        Ok(next) => {
            if let Value::Object(m) = app {
                let last = m.get("last_step").and_then(Value::as_u64).unwrap_or(0);
                m.insert(
                    "last_step".into(),
                    Value::from(last.max(u64::from(next.number))),
                );
            }
            match &a.expect.next {
                Some(want) if *want != next.id => {
                    vec![format!(
                        "{at}: after `{step}` went to `{}`, expected `{want}`",
                        next.id
                    )]
                }
                _ => vec![],
            }
        }
        Err(e) => vec![format!("{at}: {e}")],
    }
}

fn submit(
    engine: &Engine,
    app: &mut Value,
    step: &str,
    a: &Action,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let mut f = Vec::new();
    let input = a.with.clone().unwrap_or(Value::Object(Map::new()));
    let e = &a.expect;
    match engine.submit(step, &input, app, ctx) {
        Err(err) => f.push(format!("{at}: {err}")),
        Ok(Submission::Invalid { errors }) => {
            let keys: Vec<String> = errors.keys().cloned().collect();
            match &e.errors {
                Some(want) => {
                    let mut want = want.clone();
                    want.sort();
                    if want != keys {
                        f.push(format!(
                            "{at}: errors on {keys:?}, expected {want:?} ({errors:?})"
                        ));
                    }
                }
                None => f.push(format!("{at}: `{step}` was refused: {errors:?}")),
            }
            for (k, text) in &e.messages {
                let found = errors
                    .get(k)
                    .is_some_and(|l| l.iter().any(|m| m.contains(text.as_str())));
                if !found {
                    f.push(format!(
                        "{at}: no message on `{k}` containing `{text}` ({errors:?})"
                    ));
                }
            }
        }
        Ok(Submission::Accepted(t)) => {
            if e.errors.as_ref().is_some_and(|w| !w.is_empty()) {
                f.push(format!("{at}: accepted, expected errors on {:?}", e.errors));
            }
            check_next(&mut f, at, &t.next.id, e);
            let modal = t.modal.clone().unwrap_or_else(|| "none".into());
            if let Some(want) = &e.modal
                && *want != modal
            {
                f.push(format!("{at}: asked `{modal}`, expected `{want}`"));
            }
            if let Value::Object(m) = app {
                m.insert(step.to_string(), t.answers.clone());
                for (k, v) in &t.updates {
                    m.insert(k.clone(), v.clone());
                }
            }
            check_flags(&mut f, at, app, e);
            check_summary(&mut f, at, engine, app, e);
        }
    }
    f
}

/// Every save keeps the application's summary (as the server does): it must evaluate, and match
/// `expect.summary`.
fn check_summary(f: &mut Vec<String>, at: &str, engine: &Engine, app: &Value, e: &Expect) {
    let summary = match engine.summary(app) {
        Ok(s) => serde_json::to_value(s).unwrap_or(Value::Null),
        Err(err) => {
            f.push(format!("{at}: the summary: {err}"));
            return;
        }
    };
    for (k, want) in &e.summary {
        let got = summary.get(k).cloned().unwrap_or(Value::Null);
        if !same(&got, want) {
            f.push(format!("{at}: summary `{k}` is {got}, expected {want}"));
        }
    }
}

fn view(
    engine: &Engine,
    app: &Value,
    step: &str,
    e: &Expect,
    ctx: &Context,
    at: &str,
) -> Vec<String> {
    let mut f = Vec::new();
    let v = match engine.step_view(step, app, ctx) {
        Ok(v) => v,
        Err(err) => return vec![format!("{at}: {err}")],
    };
    for p in &e.fields {
        if form::schema_at(&v.schema, &form::parse_path(p)).is_none() {
            f.push(format!("{at}: `{step}` does not show `{p}`"));
        }
    }
    for p in &e.absent {
        if form::schema_at(&v.schema, &form::parse_path(p)).is_some() {
            f.push(format!("{at}: `{step}` shows `{p}`, expected it absent"));
        }
    }
    for (p, want_required) in e
        .required
        .iter()
        .map(|p| (p, true))
        .chain(e.optional.iter().map(|p| (p, false)))
    {
        let path = form::parse_path(p);
        let required = match path.split_last() {
            Some((last, parent)) => form::schema_at(&v.schema, parent)
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(last))),
            None => false,
        };
        if required != want_required {
            let what = if want_required {
                "required"
            } else {
                "optional"
            };
            f.push(format!("{at}: `{p}` of `{step}` is not {what}"));
        }
    }
    for (p, want) in &e.options {
        let got: Vec<Value> = form::schema_at(&v.schema, &form::parse_path(p))
            .and_then(|s| s.get("oneOf").or_else(|| s.get("enum")))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|c| c.get("const").cloned().unwrap_or_else(|| c.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let same_list = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| same(g, w));
        if !same_list {
            f.push(format!("{at}: `{p}` offers {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = &e.title
        && *want != v.step.title
    {
        f.push(format!(
            "{at}: the heading of `{step}` is `{}`, expected `{want}`",
            v.step.title
        ));
    }
    if let Some(want) = e.skipped
        && want != v.skipped
    {
        f.push(format!(
            "{at}: `{step}` skipped is {}, expected {want}",
            v.skipped
        ));
    }
    for (label, want, got) in [
        ("Previous on", &e.previous, &v.previous),
        ("the step after", &e.next, &v.next),
    ] {
        let got = got.as_ref().map_or("none", |p| p.id.as_str());
        if let Some(want) = want
            && want != got
        {
            f.push(format!(
                "{at}: {label} `{step}` is `{got}`, expected `{want}`"
            ));
        }
    }
    for (p, words) in &e.texts {
        let shown = dotted(&v.extras, p).or_else(|| dotted(&v.data, p));
        let text = shown.map(|t| match t {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        if !text.as_deref().is_some_and(|t| t.contains(words.as_str())) {
            f.push(format!(
                "{at}: text `{p}` is {text:?}, expected it to contain `{words}`"
            ));
        }
    }
    for (label, source, wanted) in [("data", &v.data, &e.data), ("extras", &v.extras, &e.extras)] {
        for (p, want) in wanted {
            let got = dotted(source, p);
            if !got.is_some_and(|g| same(g, want)) {
                f.push(format!("{at}: {label} `{p}` is {got:?}, expected {want}"));
            }
        }
    }
    f
}

fn dotted<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .try_fold(v, |v, seg| match seg.parse::<usize>() {
            Ok(i) if v.is_array() => v.get(i),
            _ => v.get(seg),
        })
}

/// Equality that lets a scenario write `1` for `1.0`, or `"2"` for a number where the data is text.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::String(x), Value::Number(y)) | (Value::Number(y), Value::String(x)) => {
            *x == y.to_string()
        }
        _ => a == b,
    }
}
