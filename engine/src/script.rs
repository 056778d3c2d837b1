//! The Rhai sandbox: one engine per rule set with every script registered as a module named after
//! its file (`rules/scripts/census.rhai` -> `census::`), plus the built-in `date::` helpers.
//!
//! Limits: operations, call depth, expression depth, string/array/map sizes, no `eval`, and a
//! wall-clock budget enforced from `on_progress`: per evaluation by default, or one budget for all
//! the evaluations of a request (`set_budget_source`: the server keeps one per request). A runaway
//! script fails its evaluation, and so its request, with a clear error.
//!
//! Also here:
//! - Rhai's string interner is off; each script is a module, and expressions are compiled once.
//! - `Record`, the JSON object rules see: a map behind an `Arc`, passed as a pointer and copied on
//!   write, with a getter for every field name of the rule files (`register_fields`); `to_dynamic`
//!   and `to_json` convert.
//! - `Uses` (which of `app`, `ctx` and `input` an expression names, read from its AST) and
//!   `eval_remembered`: an expression naming neither `app` nor `input` runs once per rule set or
//!   per context; the engine also keeps, for one request, the answer of each expression text that
//!   reads the application (`Vars::seen`), by a number each text is given while the rule set loads.
//!   Rules are pure, which is what makes this right: tests
//!   `answers_that_cannot_change_are_remembered`, `rules_cannot_change_the_data_they_are_given`,
//!   `records_read_like_maps`; the scenario suites run with the memory on, coverage without it.
//! - `Loading`: what the expressions compiled during one load share (the scripts' functions for
//!   `calls`, a coverage run's probe, those numbers).
//! - `eval_keeping`: Rhai's function resolutions kept per thread and rule set (`crate::calls` makes
//!   that safe).
//! - The crate's state outside an `Engine` is all here: the budget source (`set_budget_source`, a
//!   process-wide `OnceLock` the server fills) and thread-locals (the deadline and slice of
//!   `in_slice`, a draft thread's duty cycle, `Loading`, `eval_keeping`'s resolutions).

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rhai::{AST, Dynamic, Engine, EvalAltResult, Module, Scope};
use serde_json::{Map, Value};

use crate::dates;
use crate::diagnostic::Diagnostic;

/// Wall-clock budget of one evaluation.
pub const TIME_BUDGET: Duration = Duration::from_millis(250);
const MAX_OPERATIONS: u64 = 2_000_000;

thread_local! {
    /// The deadline of the evaluation running on this thread.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// While work runs in a slice of a thread it must give back (`in_slice`): the slice's end.
    static SLICE_END: Cell<Option<Instant>> = const { Cell::new(None) };
    /// An evaluation of the work in progress stopped at the slice's end.
    static SLICE_OVER: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` in a slice of this thread: an evaluation of it that would run past `slice` stops
/// there (and any evaluation it starts later stops at once), and the answer is `None`, so that
/// the host runs the work again where it may take its whole budget. Rules are pure, so a second
/// run gives what the first would have. The server runs rule work so on its async workers, and
/// only work that needs longer leaves them (`evaluation.rs`). The time a stopped run took is
/// spent from the request's budget like any other.
pub fn in_slice<R>(slice: Duration, work: impl FnOnce() -> R) -> Option<R> {
    /// Gives back the slice this one is inside of, if any, when it ends (a panic included).
    struct Slice {
        outer: (Option<Instant>, bool),
    }
    impl Drop for Slice {
        fn drop(&mut self) {
            SLICE_END.with(|e| e.set(self.outer.0));
            SLICE_OVER.with(|o| o.set(self.outer.1));
        }
    }
    let outer = (
        SLICE_END.with(|e| e.replace(Some(Instant::now() + slice))),
        SLICE_OVER.with(|o| o.replace(false)),
    );
    let slice = Slice { outer };
    let r = work();
    let over = SLICE_OVER.with(Cell::get);
    drop(slice);
    if over { None } else { Some(r) }
}

fn slice_is_on() -> bool {
    SLICE_END.with(Cell::get).is_some()
}

/// Whether the slice this thread runs in is over; notes it for `in_slice`.
fn slice_over(now: Instant) -> bool {
    let over = SLICE_END.with(|e| e.get().is_some_and(|t| now > t));
    if over {
        SLICE_OVER.with(|o| o.set(true));
    }
    over
}

const SLICE_OVER_MESSAGE: &str = "rule stopped: its work moves off the async worker";

/// Where a request's rule budget is kept, for a host that gives each request one budget for all
/// its evaluations (the server: `evaluation.rs`) instead of `TIME_BUDGET` for each.
pub struct BudgetSource {
    /// The time left to the work in progress on this thread, if it has a budget of its own.
    pub left: fn() -> Option<Duration>,
    /// Records time spent by an evaluation that ran within that budget.
    pub spend: fn(Duration),
}

static SOURCE: std::sync::OnceLock<BudgetSource> = std::sync::OnceLock::new();

/// Installs the host's budget source (once per process; later calls are refused: false).
pub fn set_budget_source(source: BudgetSource) -> bool {
    SOURCE.set(source).is_ok()
}

fn shared_budget_left() -> Option<Duration> {
    SOURCE.get().and_then(|s| (s.left)())
}

/// Whether `e` is an evaluation stopped by its time budget.
pub fn out_of_time(e: &Diagnostic) -> bool {
    e.message.contains(OUT_OF_TIME)
}

const OUT_OF_TIME: &str = "rule stopped: it ran past its time budget";

thread_local! {
    /// This thread's duty cycle, if it has one: work at most `run`, then rest `rest` (since when).
    static THROTTLE: std::cell::Cell<Option<(Duration, Duration, Instant)>> =
        const { std::cell::Cell::new(None) };
}

/// Gives this thread's rule work a duty cycle (`Some((run, rest))`: at most `run` of work, then
/// `rest` asleep), or takes it away. Work nobody is waiting on (an analyst's draft) then leaves the
/// machine's cores to the requests people wait for, whatever the operating system's scheduler
/// makes of thread priorities.
pub fn throttle(run_rest: Option<(Duration, Duration)>) {
    THROTTLE.with(|t| t.set(run_rest.map(|(run, rest)| (run, rest, Instant::now()))));
}

/// This thread's duty cycle, to give to the threads it starts.
pub fn throttled() -> Option<(Duration, Duration)> {
    THROTTLE.with(|t| t.get().map(|(run, rest, _)| (run, rest)))
}

/// Rests when this thread's duty cycle says so (checked with the time budget).
fn rest_if_due(now: Instant) {
    THROTTLE.with(|t| {
        if let Some((run, rest, since)) = t.get()
            && now.duration_since(since) >= run
        {
            std::thread::sleep(rest);
            t.set(Some((run, rest, Instant::now())));
        }
    });
}

/// Builds the sandboxed engine (without the rule set's modules).
pub fn sandbox() -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(48)
        .set_max_expr_depths(64, 48)
        .set_max_string_size(64 * 1024)
        .set_max_array_size(10_000)
        .set_max_map_size(10_000)
        .set_max_variables(1_000)
        .set_max_functions(2_000)
        .set_max_modules(100)
        // No shared interner: it is a lock every request takes, and it would keep the text of
        // answers (names, addresses) in memory after the request.
        .set_max_strings_interned(0)
        .set_strict_variables(false)
        .set_fail_on_invalid_map_property(false);
    engine.disable_symbol("eval");
    // No file is ever read as a module: a rule set's scripts reach each other by name
    // (`subscriber::check`), and `import` finds only the set's own scripts (`load` installs them).
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.on_progress(|ops| {
        // Every 64 operations within a slice (a slice is short, and one operation may be a long
        // built-in call), every 512 otherwise.
        if ops % 64 != 0 || (ops % 512 != 0 && !slice_is_on()) {
            return None;
        }
        let now = Instant::now();
        rest_if_due(now);
        if slice_over(now) {
            return Some(Dynamic::from(SLICE_OVER_MESSAGE));
        }
        let late = DEADLINE.with(|d| d.get().is_some_and(|t| now > t));
        late.then(|| Dynamic::from("time budget exceeded"))
    });
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.register_static_module("date", dates::module().into());
    register_record(&mut engine);
    engine
}

/// Compiles a script file into a module; problems become diagnostics.
pub fn compile_module(engine: &Engine, path: &str, text: &str) -> Result<Module, Diagnostic> {
    compile_module_at(engine, path, text, 0).map(|(m, _)| m)
}

/// Compiles a script file below `start` blank lines (coverage mode: each script's positions in a
/// region of their own); the module and its AST.
pub(crate) fn compile_module_at(
    engine: &Engine,
    path: &str,
    text: &str,
    start: u16,
) -> Result<(Module, AST), Diagnostic> {
    let offset = usize::from(start);
    let compiled = if offset == 0 {
        engine.compile(text)
    } else {
        engine.compile(format!("{}{text}", "\n".repeat(offset)))
    };
    let ast = compiled.map_err(|e| {
        let mut d = parse_diagnostic(path, 0, &e);
        d.line = d.line.saturating_sub(offset).max(1);
        d
    })?;
    let _guard = Budget::start();
    let module = Module::eval_ast_as_new(Scope::new(), &ast, engine)
        .map_err(|e| runtime_diagnostic(path, 0, &e))?;
    Ok((module, ast))
}

/// Compiles an expression written inside a YAML file at `line` (1-based).
pub fn compile_expression(
    engine: &Engine,
    file: &str,
    line: usize,
    text: &str,
) -> Result<Expr, Diagnostic> {
    let mut ast = engine
        .compile_expression(text)
        .map_err(|e| parse_diagnostic(file, line.saturating_sub(1), &e))?;
    let text_id = LOADING.with(|l| match l.borrow_mut().as_mut() {
        Some(loading) => {
            crate::calls::check_expression(&ast, &loading.defined, file, line)?;
            if let Some(probe) = &loading.probe {
                ast.set_source(format!("{file}:{line}"));
                probe.add_expression(file, line, text);
            }
            Ok(*loading
                .texts
                .entry(text.to_string())
                .or_insert_with(new_text_id))
        }
        None => Ok::<_, Diagnostic>(new_text_id()),
    })?;
    let uses = Uses::of(&ast);
    Ok(Expr {
        ast,
        text_id,
        source: text.to_string(),
        file: file.to_string(),
        line,
        uses,
        memo: Arc::default(),
    })
}

/// What watches the expressions of a rule set as it loads (a coverage run's probe registers each
/// one, to report the ones never evaluated). The script core names no tool: the tool implements
/// this.
pub trait ExpressionWatch: Send + Sync {
    /// An expression of a YAML file, at its 1-based line.
    fn add_expression(&self, file: &str, line: usize, text: &str);
}

/// What the expressions compiled while a rule set loads share: the scripts' functions (an
/// unqualified call of one is refused, `calls`), a coverage run's probe (each expression registers
/// with it) and a number per text, the same for the same text
/// within the rule set (a request remembers the answers of expressions that read the
/// application by it: forms repeat a condition on several fields, and a number is cheaper to look
/// up than the text).
struct LoadState {
    defined: crate::calls::Defined,
    probe: Option<Arc<dyn ExpressionWatch>>,
    texts: std::collections::HashMap<String, u64>,
}

thread_local! {
    static LOADING: std::cell::RefCell<Option<LoadState>> = const { std::cell::RefCell::new(None) };
}

/// While alive, the expressions compiled on this thread belong to one rule set being loaded.
pub(crate) struct Loading;

impl Loading {
    pub(crate) fn start(
        defined: crate::calls::Defined,
        probe: Option<Arc<dyn ExpressionWatch>>,
    ) -> Self {
        let state = LoadState {
            defined,
            probe,
            texts: Default::default(),
        };
        LOADING.with(|l| *l.borrow_mut() = Some(state));
        Loading
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        LOADING.with(|l| *l.borrow_mut() = None);
    }
}

/// A text number never given before (numbers are unique in the process, so rule sets never share
/// one).
fn new_text_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Which of the varying variables (`app`, `ctx`, `input`) an expression names, closures
/// included. Rule functions see only what they are given, and `data` is the same for the whole
/// rule set, so an expression that names none of them has one answer per rule set, and one that
/// names only `ctx` one answer per context.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Uses {
    pub app: bool,
    pub ctx: bool,
    pub input: bool,
}

impl Uses {
    fn of(ast: &AST) -> Self {
        let mut uses = Uses::default();
        ast.walk(&mut |path: &[rhai::ASTNode]| {
            if let Some(rhai::ASTNode::Expr(rhai::Expr::Variable(v, ..))) = path.last() {
                match v.1.as_str() {
                    "app" => uses.app = true,
                    "ctx" => uses.ctx = true,
                    "input" => uses.input = true,
                    _ => {}
                }
            }
            true
        });
        uses
    }
}

/// The answers of an expression that does not read the application or the answers: one for the
/// rule set, or one per context (a few: the agents' flags, the day, consumer or agent).
#[derive(Debug, Default)]
struct Memo {
    constant: std::sync::OnceLock<Value>,
    by_context: ByContext<Value>,
}

/// Values kept per context (a digest of `ctx`), a few at a time: the oldest is forgotten first.
#[derive(Debug)]
pub(crate) struct ByContext<T>(std::sync::Mutex<Vec<(u64, T)>>);

impl<T> Default for ByContext<T> {
    fn default() -> Self {
        ByContext(std::sync::Mutex::new(Vec::new()))
    }
}

impl<T: Clone> ByContext<T> {
    pub(crate) fn get(&self, context: u64) -> Option<T> {
        let m = self.0.lock().ok()?;
        m.iter()
            .find(|(k, _)| *k == context)
            .map(|(_, v)| v.clone())
    }

    pub(crate) fn keep(&self, context: u64, value: &T) {
        if let Ok(mut m) = self.0.lock() {
            if m.len() >= MEMO_CONTEXTS {
                drop(m.remove(0));
            }
            m.push((context, value.clone()));
        }
    }
}

/// Contexts remembered per expression; the oldest is forgotten first.
const MEMO_CONTEXTS: usize = 64;

/// A compiled Rhai expression and where it was written.
#[derive(Debug, Clone)]
pub struct Expr {
    ast: AST,
    /// The same for every expression of the same text in the rule set ([`LoadState`]).
    pub(crate) text_id: u64,
    pub source: String,
    pub file: String,
    pub line: usize,
    pub uses: Uses,
    memo: Arc<Memo>,
}

impl Expr {
    /// Like [`Expr::eval`], remembering the answer when it cannot change: for the rule set when
    /// the expression names neither `app`, `ctx` nor `input`, for the context `context` (a digest
    /// of `ctx`) when it names only `ctx`. Only answers are remembered, never errors.
    pub fn eval_remembered(
        &self,
        engine: &Engine,
        vars: &[(&str, &Dynamic)],
        context: u64,
    ) -> Result<Value, Diagnostic> {
        if self.uses.app || self.uses.input {
            return self.eval(engine, vars);
        }
        if !self.uses.ctx {
            if let Some(v) = self.memo.constant.get() {
                return Ok(v.clone());
            }
            let v = self.eval(engine, vars)?;
            return Ok(self.memo.constant.get_or_init(|| v).clone());
        }
        if let Some(v) = self.memo.by_context.get(context) {
            return Ok(v);
        }
        let v = self.eval(engine, vars)?;
        self.memo.by_context.keep(context, &v);
        Ok(v)
    }

    /// The compiled expression (coverage reads the names it holds).
    pub(crate) fn ast(&self) -> &AST {
        &self.ast
    }

    /// Evaluates with the given variables in scope; the result as JSON.
    pub fn eval(&self, engine: &Engine, vars: &[(&str, &Dynamic)]) -> Result<Value, Diagnostic> {
        let d = self.eval_dynamic(engine, vars)?;
        to_json(&d).map_err(|e| {
            Diagnostic::new(
                &self.file,
                self.line,
                1,
                format!("`{}` gave {e}", self.source),
            )
        })
    }

    pub fn eval_dynamic(
        &self,
        engine: &Engine,
        vars: &[(&str, &Dynamic)],
    ) -> Result<Dynamic, Diagnostic> {
        let mut scope = Scope::new();
        // Plain variables, not constants: Rhai writes a value read through a record's getter back
        // after a method call on it, and a record's write is copy on write, so the caller's value
        // never changes.
        for (name, value) in vars {
            scope.push_dynamic(*name, (*value).clone());
        }
        let guard = Budget::start();
        // An evaluation too short to reach `on_progress` still ends a slice that is over.
        if slice_over(guard.started) {
            return Err(Diagnostic::new(
                &self.file,
                self.line,
                1,
                SLICE_OVER_MESSAGE,
            ));
        }
        let result = match engine.default_tag().as_int() {
            Ok(id) => with_resolutions(id, |caches| {
                eval_keeping(engine, caches, &mut scope, &self.ast)
            }),
            Err(_) => engine.eval_ast_with_scope::<Dynamic>(&mut scope, &self.ast),
        }
        .map_err(|e| {
            let mut d = runtime_diagnostic(&self.file, self.line.saturating_sub(1), &e);
            d.message = format!("`{}`: {}", self.source, d.message);
            d
        });
        // A rule may catch the error that stopped it (`try` around a callback): an answer made
        // after the slice was over is never given, so that nothing keeps it.
        if slice_is_on() && SLICE_OVER.with(Cell::get) {
            return Err(Diagnostic::new(
                &self.file,
                self.line,
                1,
                SLICE_OVER_MESSAGE,
            ));
        }
        result
    }

    pub fn eval_bool(
        &self,
        engine: &Engine,
        vars: &[(&str, &Dynamic)],
    ) -> Result<bool, Diagnostic> {
        let d = self.eval_dynamic(engine, vars)?;
        d.as_bool().map_err(|t| {
            Diagnostic::new(
                &self.file,
                self.line,
                1,
                format!("`{}` must be true or false, not {t}", self.source),
            )
        })
    }
}

/// Marks a complete rule set's Rhai engine (every script and function registered): its
/// evaluations keep what Rhai resolved, on each thread, for the next (see [`eval_keeping`]).
pub(crate) fn keep_resolutions(engine: &mut Engine) {
    static NEXT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1);
    engine.set_default_tag(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
}

thread_local! {
    /// What Rhai resolved in this thread's evaluations, and the rule set's engine it is for.
    static RESOLUTIONS: std::cell::RefCell<Option<(i64, rhai::Caches)>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `eval` with this thread's resolutions for engine `id` (new ones for another engine, or
/// while another evaluation on this thread holds them), and keeps them after.
fn with_resolutions<R>(id: i64, eval: impl FnOnce(&mut rhai::Caches) -> R) -> R {
    let mut caches = match RESOLUTIONS.with(|r| r.borrow_mut().take()) {
        Some((kept, caches)) if kept == id => caches,
        _ => rhai::Caches::new(),
    };
    let result = eval(&mut caches);
    RESOLUTIONS.with(|r| *r.borrow_mut() = Some((id, caches)));
    result
}

/// Evaluates `ast` as `Engine::eval_ast_with_scope` does, but with `caches`: the functions Rhai
/// resolved for earlier evaluations of the same rule set. Rhai starts each evaluation with none
/// and caches a function from its second call, so the first calls of every getter, operator and
/// script function in each evaluation searched every module: a seventh of the summary's
/// instructions (callgrind). Safe because a rule set loads only when every unqualified call
/// reaches the same function wherever it is written (`calls`): then what a call resolved to is
/// the same in every evaluation of the rule set. An expression has no `import` (expressions
/// cannot hold one), so only its own functions (closures) and source are set up.
#[allow(deprecated)] // Rhai's one evaluation that takes the caches (`internals`).
fn eval_keeping(
    engine: &Engine,
    caches: &mut rhai::Caches,
    scope: &mut Scope,
    ast: &AST,
) -> Result<Dynamic, Box<EvalAltResult>> {
    let mut global = engine.new_global_runtime_state();
    global.source = ast.source().map(Into::into);
    global.lib.push(ast.shared_lib().clone());
    engine.eval_statements_raw(&mut global, caches, scope, ast.statements())
}

/// Sets this thread's deadline for the evaluation in progress (what is left of the request's
/// budget, or `TIME_BUDGET`); clears it when dropped, and spends the time from the request's.
struct Budget {
    started: Instant,
    shared: bool,
}

impl Budget {
    fn start() -> Self {
        let started = Instant::now();
        let left = shared_budget_left();
        DEADLINE.with(|d| d.set(Some(started + left.unwrap_or(TIME_BUDGET))));
        Budget {
            started,
            shared: left.is_some(),
        }
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
        if self.shared
            && let Some(source) = SOURCE.get()
        {
            (source.spend)(self.started.elapsed());
        }
    }
}

/// A JSON object handed to rules (the application, the context, the answers, the data tables):
/// a map behind a shared pointer. Rhai passes arguments by value and copies a map it passes, node
/// by node; a `Record` is copied by bumping a reference count, so handing the application or the
/// data tables to a rule function costs nothing, whatever their size.
///
/// In a rule it reads like a map (`r.field`, `r["field"]`, `type_of(r) == "map"`, `keys`,
/// `values`, `len`, `contains`, `in`, a missing field is `()`), and a write makes the writer's
/// own copy of that one level (copy on write), so no rule can change what the next one sees.
///
/// A record made once for the whole rule set (the data tables) also keeps its JSON, so a rule
/// that returns a table's rows as they are costs a copy of that JSON, not a conversion.
///
/// The fields are one slice sorted by name, made in one allocation (a JSON object's fields come
/// sorted): converting an application is a good part of a step's cost, and a tree of maps took
/// several allocations an object.
#[derive(Clone, Debug)]
pub struct Record(Arc<[(rhai::Identifier, Dynamic)]>, Option<Arc<Value>>);

impl Record {
    fn new(mut fields: Vec<(rhai::Identifier, Dynamic)>, json: Option<Arc<Value>>) -> Self {
        if !fields.is_sorted_by(|a, b| a.0 < b.0) {
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            fields.dedup_by(|a, b| a.0 == b.0);
        }
        Record(fields.into(), json)
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    fn get(&self, key: &str) -> Dynamic {
        self.position(key)
            .map_or(Dynamic::UNIT, |i| self.0[i].1.clone())
    }

    fn set(&mut self, key: &str, value: Dynamic) {
        self.1 = None;
        let mut fields = self.0.to_vec();
        match self.position(key) {
            Ok(i) => fields[i].1 = value,
            Err(i) => fields.insert(i, (key.into(), value)),
        }
        self.0 = fields.into();
    }
}

fn register_record(engine: &mut Engine) {
    // The functions that read take the record by value (a pointer copy): Rhai then knows they do
    // not write, and allows them on constants.
    engine
        .register_type_with_name::<Record>("map")
        .register_indexer_get(|r: &mut Record, key: &str| r.get(key))
        .register_indexer_set(|r: &mut Record, key: &str, value: Dynamic| r.set(key, value))
        .register_fn("len", |r: Record| {
            i64::try_from(r.0.len()).unwrap_or(i64::MAX)
        })
        .register_fn("is_empty", |r: Record| r.0.is_empty())
        .register_fn("contains", |r: Record, key: &str| r.position(key).is_ok())
        .register_fn("get", |r: Record, key: &str| r.get(key))
        .register_fn("keys", |r: Record| {
            r.0.iter()
                .map(|(k, _)| Dynamic::from(rhai::ImmutableString::from(k.as_str())))
                .collect::<rhai::Array>()
        })
        .register_fn("values", |r: Record| {
            r.0.iter().map(|(_, v)| v.clone()).collect::<rhai::Array>()
        });
}

/// Registers a getter for every field name written after a dot in `texts` (the rule set's
/// scripts and forms): `r.name` then calls it directly. Without one, Rhai looks for a getter,
/// formats an error, and falls back to the indexer: the same answer at several times the cost, so
/// a name this scan misses still reads right.
pub fn register_fields<'a>(engine: &mut Engine, texts: impl Iterator<Item = &'a str>) {
    let mut names = std::collections::BTreeSet::new();
    for text in texts {
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices('.') {
            let rest = &text[i + 1..];
            let len = rest
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let starts_well = rest
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
            let after_dot = i == 0 || bytes[i - 1] != b'.';
            if len > 0 && starts_well && after_dot {
                names.insert(rest[..len].to_string());
            }
        }
    }
    for name in names {
        let key: rhai::ImmutableString = name.as_str().into();
        let field = key.clone();
        engine.register_get(&name, move |r: &mut Record| r.get(&key));
        engine.register_set(&name, move |r: &mut Record, value: Dynamic| {
            r.set(&field, value);
        });
    }
}

/// `record` (a [`Record`], or nothing) with `fields` set: the record's own fields are shared, not
/// copied or converted again.
pub fn with_fields<'a>(
    record: &Dynamic,
    fields: impl IntoIterator<Item = (&'a str, Dynamic)>,
) -> Dynamic {
    let mut r = record
        .read_lock::<Record>()
        .map_or_else(|| Record::new(Vec::new(), None), |r| r.clone());
    for (k, v) in fields {
        r.set(k, v);
    }
    Dynamic::from(r)
}

/// JSON to a Rhai value: objects become [`Record`]s, arrays arrays, null `()`.
pub fn to_dynamic(v: &Value) -> Dynamic {
    convert(v, false)
}

/// [`to_dynamic`] for a value kept for the whole rule set: each record also keeps its JSON.
pub fn to_lasting_dynamic(v: &Value) -> Dynamic {
    convert(v, true)
}

fn convert(v: &Value, keep_json: bool) -> Dynamic {
    match v {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::String(s) => Dynamic::from(rhai::ImmutableString::from(s.as_str())),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Dynamic::from_int(i),
            None => Dynamic::from_float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::Array(a) => Dynamic::from_array(a.iter().map(|v| convert(v, keep_json)).collect()),
        Value::Object(m) => Dynamic::from(Record::new(
            m.iter()
                .map(|(k, v)| (k.as_str().into(), convert(v, keep_json)))
                .collect(),
            keep_json.then(|| Arc::new(v.clone())),
        )),
    }
}

/// A rule's result as JSON; the error names a value JSON cannot hold.
pub fn to_json(d: &Dynamic) -> Result<Value, String> {
    if d.is_shared() {
        return to_json(&d.flatten_clone());
    }
    if d.is_unit() {
        return Ok(Value::Null);
    }
    if let Ok(b) = d.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = d.as_int() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = d.as_float() {
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("the number {f}"));
    }
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        // Copied, not formatted (`to_string` goes through `Display`).
        return Ok(Value::String(s.as_str().to_owned()));
    }
    if let Ok(c) = d.as_char() {
        return Ok(Value::String(c.to_string()));
    }
    if let Some(r) = d.read_lock::<Record>() {
        return match &r.1 {
            Some(json) => Ok(Value::clone(json)),
            None => fields_to_json(r.0.iter().map(|(k, v)| (k, v))),
        };
    }
    if let Some(m) = d.read_lock::<rhai::Map>() {
        return fields_to_json(m.iter());
    }
    if let Some(a) = d.read_lock::<rhai::Array>() {
        return a
            .iter()
            .map(to_json)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    Err(format!("a value of type {}", d.type_name()))
}

fn fields_to_json<'a>(
    fields: impl Iterator<Item = (&'a rhai::Identifier, &'a Dynamic)>,
) -> Result<Value, String> {
    fields
        .map(|(k, v)| to_json(v).map(|v| (k.as_str().to_owned(), v)))
        .collect::<Result<Map<String, Value>, _>>()
        .map(Value::Object)
}

fn parse_diagnostic(file: &str, line_offset: usize, e: &rhai::ParseError) -> Diagnostic {
    let pos = e.position();
    Diagnostic::new(
        file,
        line_offset + pos.line().unwrap_or(1),
        pos.position().unwrap_or(1),
        format!("syntax error: {}", lowercase_first(&e.0.to_string())),
    )
}

fn runtime_diagnostic(file: &str, line_offset: usize, e: &EvalAltResult) -> Diagnostic {
    let pos = e.position();
    let message = match e.unwrap_inner() {
        EvalAltResult::ErrorTerminated(..) if slice_is_on() && SLICE_OVER.with(Cell::get) => {
            SLICE_OVER_MESSAGE.to_string()
        }
        EvalAltResult::ErrorTerminated(..) => match shared_budget_left() {
            Some(_) => format!("{OUT_OF_TIME} (the request's)"),
            None => format!("{OUT_OF_TIME} of {} ms", TIME_BUDGET.as_millis()),
        },
        EvalAltResult::ErrorTooManyOperations(..) => {
            "rule stopped: it ran too many operations (an endless loop?)".to_string()
        }
        EvalAltResult::ErrorStackOverflow(..) => {
            "rule stopped: calls nest too deeply (endless recursion?)".to_string()
        }
        EvalAltResult::ErrorDataTooLarge(what, ..) => {
            format!("rule stopped: {} grew too large", what.to_lowercase())
        }
        inner => lowercase_first(&inner.to_string()),
    };
    Diagnostic::new(
        file,
        line_offset + pos.line().unwrap_or(1),
        pos.position().unwrap_or(1),
        message,
    )
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine_with(path: &str, text: &str) -> Engine {
        let mut e = sandbox();
        let m = compile_module(&e, path, text).expect("module compiles");
        e.register_static_module("m", m.into());
        e
    }

    #[test]
    fn an_endless_loop_stops_within_the_budget() {
        let e = engine_with("m.rhai", "fn spin() { let x = 0; loop { x += 1; } }");
        let expr = compile_expression(&e, "f.yaml", 3, "m::spin()").expect("compiles");
        let started = Instant::now();
        let err = expr.eval(&e, &[]).expect_err("must stop");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(err.message.contains("rule stopped"), "{}", err.message);
        assert_eq!(err.file, "f.yaml");
    }

    #[test]
    fn work_in_a_slice_ends_with_it_and_says_so_and_work_within_it_keeps_its_answer() {
        let e = engine_with(
            "m.rhai",
            "fn spin() { let x = 0; loop { x += 1; } }\nfn caught() { let r = 7; try { [1].map(|x| spin()); } catch { r = 8; } r }",
        );
        let spin = compile_expression(&e, "f.yaml", 3, "m::spin()").expect("compiles");
        let sum = compile_expression(&e, "f.yaml", 4, "1 + 2").expect("compiles");
        // A loop stops at the slice's end, long before its budget or its operations run out.
        let stopped = in_slice(Duration::from_millis(1), || spin.eval(&e, &[]));
        assert!(stopped.is_none(), "{stopped:?}");
        // An evaluation begun after the slice's end stops before it starts.
        let late = in_slice(Duration::from_millis(1), || {
            std::thread::sleep(Duration::from_millis(5));
            sum.eval(&e, &[])
        });
        assert!(late.is_none(), "{late:?}");
        // Work within its slice keeps its answer, and nothing of a slice outlives it.
        let quick = in_slice(Duration::from_secs(60), || sum.eval(&e, &[]));
        assert_eq!(quick.map(|r| r.ok()), Some(Some(serde_json::json!(3))));
        assert_eq!(sum.eval(&e, &[]).ok(), Some(serde_json::json!(3)));
        // A rule that catches the stop gives no answer either, and none is remembered.
        let caught = compile_expression(&e, "f.yaml", 5, "m::caught()").expect("compiles");
        let stopped = in_slice(Duration::from_millis(1), || {
            caught.eval_remembered(&e, &[], 0)
        });
        assert!(stopped.is_none(), "{stopped:?}");
        assert!(caught.memo.constant.get().is_none());
        // A slice inside a slice ends alone: the outer one goes on as it was.
        let nested = in_slice(Duration::from_secs(60), || {
            let inner = in_slice(Duration::from_millis(1), || spin.eval(&e, &[]));
            assert!(inner.is_none());
            sum.eval(&e, &[])
        });
        assert_eq!(nested.map(|r| r.ok()), Some(Some(serde_json::json!(3))));
        // Outside a slice a loop runs until its own limits stop it.
        let err = spin.eval(&e, &[]).expect_err("must stop");
        assert!(err.message.contains("rule stopped"), "{}", err.message);
        assert!(!err.message.contains(SLICE_OVER_MESSAGE), "{}", err.message);
    }

    thread_local! {
        /// The test's request budget: what is left, and what was spent.
        static TEST_BUDGET: Cell<Option<Duration>> = const { Cell::new(None) };
        static TEST_SPENT: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    }

    #[test]
    fn evaluations_draw_on_the_hosts_budget_and_stop_when_it_is_spent() {
        set_budget_source(BudgetSource {
            left: || TEST_BUDGET.with(Cell::get),
            spend: |d| TEST_SPENT.with(|s| s.set(s.get() + d)),
        });
        let e = engine_with(
            "m.rhai",
            "fn count(n) { let x = 0; while x < n { x += 1; } x }",
        );
        let expr = compile_expression(&e, "f.yaml", 2, "m::count(5000)").expect("compiles");
        // No budget of the host's on this thread: the evaluation's own.
        assert_eq!(expr.eval(&e, &[]).expect("ample"), Value::from(5000));
        assert_eq!(TEST_SPENT.with(Cell::get), Duration::ZERO);
        // A request's budget: its evaluations spend from it.
        TEST_BUDGET.with(|b| b.set(Some(Duration::from_secs(60))));
        assert!(expr.eval(&e, &[]).is_ok());
        assert!(
            TEST_SPENT.with(Cell::get) > Duration::ZERO,
            "time spent is recorded"
        );
        // Spent: the same evaluation is stopped, and says whose budget ran out.
        TEST_BUDGET.with(|b| b.set(Some(Duration::ZERO)));
        let err = expr.eval(&e, &[]).expect_err("stopped");
        assert!(out_of_time(&err), "{}", err.message);
        assert!(err.message.contains("the request's"), "{}", err.message);
        TEST_BUDGET.with(|b| b.set(None));
        assert!(expr.eval(&e, &[]).is_ok());
    }

    #[test]
    fn deep_recursion_stops_with_a_clear_error() {
        let e = engine_with("m.rhai", "fn down(n) { down(n + 1) }");
        let expr = compile_expression(&e, "f.yaml", 1, "m::down(0)").expect("compiles");
        let err = expr.eval(&e, &[]).expect_err("must stop");
        assert!(err.message.contains("nest too deeply"), "{}", err.message);
    }

    #[test]
    fn eval_is_not_available() {
        let e = sandbox();
        let err = compile_expression(&e, "f.yaml", 7, r#"eval("1 + 1")"#).expect_err("refused");
        assert_eq!(err.line, 7);
        assert!(err.message.starts_with("syntax error"), "{}", err.message);
    }

    #[test]
    fn huge_strings_are_refused() {
        let e = engine_with("m.rhai", r#"fn grow() { let s = "x"; loop { s += s; } }"#);
        let expr = compile_expression(&e, "f.yaml", 1, "m::grow()").expect("compiles");
        let err = expr.eval(&e, &[]).expect_err("must stop");
        assert!(err.message.contains("too large"), "{}", err.message);
    }

    #[test]
    fn a_syntax_error_in_a_script_names_its_line() {
        let e = sandbox();
        let err = compile_module(&e, "rules/scripts/x.rhai", "fn a() {\n  let = 1;\n}")
            .expect_err("bad script");
        assert_eq!(err.file, "rules/scripts/x.rhai");
        assert_eq!(err.line, 2);
    }

    #[test]
    fn rules_cannot_change_the_data_they_are_given() {
        let e = engine_with(
            "m.rhai",
            "fn bump(d) { d.cal.x = 99; d.cal.x } \
             fn alias(d) { let c = d.cal; c.x = 98; c.x } \
             fn grow(d) { let l = d.list; l.push(4); l.len() } \
             fn swap(d) { d.list[0] = 7; d.list[0] } \
             fn top(d) { d.cal = 1; d.cal } \
             fn copy(d) { let c = #{ x: d.cal.x }; c.x = 5; c.x } \
             fn read(d) { [d.cal.x, d.list.len(), d.list[0]] }",
        );
        let data = to_dynamic(&serde_json::json!({"cal": {"x": 1}, "list": [1, 2, 3]}));
        let run = |src: &str| {
            compile_expression(&e, "f.yaml", 1, src)
                .expect("compiles")
                .eval(&e, &[("data", &data)])
        };
        // A write is made on the rule's own copy (a record is copied on write); it never
        // reaches the data the next rule is given.
        for (write, own) in [
            ("m::bump(data)", serde_json::json!(99)),
            ("m::alias(data)", serde_json::json!(98)),
            ("m::grow(data)", serde_json::json!(4)),
            ("m::swap(data)", serde_json::json!(7)),
            ("m::top(data)", serde_json::json!(1)),
        ] {
            assert_eq!(run(write).expect("a local copy"), own, "{write}");
            assert_eq!(
                run("m::read(data)").expect("runs"),
                serde_json::json!([1, 3, 1]),
                "after {write}"
            );
        }
        assert_eq!(
            run("m::copy(data)").expect("a new map"),
            serde_json::json!(5)
        );
        assert_eq!(
            run("m::read(data)").expect("runs"),
            serde_json::json!([1, 3, 1])
        );
    }

    #[test]
    fn records_read_like_maps() {
        let e = sandbox();
        let data = to_dynamic(&serde_json::json!({
            "cal": {"x": 1, "y": "two"}, "list": [{"id": 1}, {"id": 2}], "n": 1.5, "none": null
        }));
        let run = |src: &str| {
            compile_expression(&e, "f.yaml", 1, src)
                .expect("compiles")
                .eval(&e, &[("data", &data)])
                .unwrap_or_else(|d| panic!("{src}: {}", d.message))
        };
        let cases = [
            ("type_of(data.cal)", serde_json::json!("map")),
            ("data.cal.y", serde_json::json!("two")),
            ("data[\"cal\"][\"x\"]", serde_json::json!(1)),
            ("data.cal.missing == ()", serde_json::json!(true)),
            ("data.none == ()", serde_json::json!(true)),
            ("data.cal == ()", serde_json::json!(false)),
            ("data.cal != ()", serde_json::json!(true)),
            ("data.cal.keys()", serde_json::json!(["x", "y"])),
            ("data.cal.len()", serde_json::json!(2)),
            ("\"x\" in data.cal", serde_json::json!(true)),
            ("data.cal.contains(\"z\")", serde_json::json!(false)),
            ("data.list.map(|v| v.id * 10)", serde_json::json!([10, 20])),
            (
                "data.list.filter(|v| v.id > 1)",
                serde_json::json!([{"id": 2}]),
            ),
            ("data.n", serde_json::json!(1.5)),
            ("data.cal", serde_json::json!({"x": 1, "y": "two"})),
            (
                "#{ a: data.cal, b: [data.list[0]] }",
                serde_json::json!({"a": {"x": 1, "y": "two"}, "b": [{"id": 1}]}),
            ),
        ];
        for (src, want) in cases {
            assert_eq!(run(src), want, "{src}");
        }
    }

    #[test]
    fn answers_that_cannot_change_are_remembered() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let calls = Arc::new(AtomicUsize::new(0));
        let mut e = sandbox();
        let counter = calls.clone();
        e.register_fn("count", move || {
            counter.fetch_add(1, Ordering::SeqCst);
            1_i64
        });
        let data = to_dynamic(&serde_json::json!({"x": 10}));
        let ctx_a = to_dynamic(&serde_json::json!({"n": 100}));
        let ctx_b = to_dynamic(&serde_json::json!({"n": 200}));
        let app = to_dynamic(&serde_json::json!({"n": 1000}));
        let compile = |src: &str| compile_expression(&e, "f.yaml", 1, src).expect("compiles");
        let ran = || calls.swap(0, Ordering::SeqCst);

        let constant = compile("count() + data.x");
        assert_eq!(constant.uses, Uses::default());
        for _ in 0..3 {
            let v = constant.eval_remembered(&e, &[("data", &data)], 1);
            assert_eq!(v.expect("runs"), serde_json::json!(11));
        }
        assert_eq!(ran(), 1, "once per rule set");

        let by_context = compile("count() + ctx.n + data.x");
        for (ctx, key, want) in [(&ctx_a, 1, 111), (&ctx_b, 2, 211), (&ctx_a, 1, 111)] {
            let v = by_context.eval_remembered(&e, &[("ctx", ctx), ("data", &data)], key);
            assert_eq!(v.expect("runs"), serde_json::json!(want));
        }
        assert_eq!(ran(), 2, "once per context");

        let per_application = compile("count() + app.n");
        for _ in 0..3 {
            let v = per_application.eval_remembered(&e, &[("app", &app)], 1);
            assert_eq!(v.expect("runs"), serde_json::json!(1001));
        }
        assert_eq!(
            ran(),
            3,
            "an expression over the application runs every time"
        );

        // A closure's body counts: this one reads the answers.
        let closure = compile("[1, 2].map(|v| v + input.x)");
        assert!(closure.uses.input && !closure.uses.app && !closure.uses.ctx);
        // An error is never remembered.
        let failing = compile("data.x.no_such_method()");
        assert!(failing.eval_remembered(&e, &[("data", &data)], 1).is_err());
        assert!(failing.eval_remembered(&e, &[("data", &data)], 1).is_err());
    }

    #[test]
    fn scripts_see_variables_and_return_json() {
        let e = engine_with("m.rhai", "fn kids(app) { app.census.dependents.len() }");
        let expr = compile_expression(&e, "f.yaml", 1, "#{ n: m::kids(app), t: ctx.today }")
            .expect("compiles");
        let app = to_dynamic(&serde_json::json!({"census": {"dependents": [1, 2, 3]}}));
        let ctx = to_dynamic(&serde_json::json!({"today": "2024-11-20"}));
        let v = expr
            .eval(&e, &[("app", &app), ("ctx", &ctx)])
            .expect("runs");
        assert_eq!(v, serde_json::json!({"n": 3, "t": "2024-11-20"}));
    }
}
