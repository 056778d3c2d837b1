//! The Rhai sandbox: one engine per rule set with every script registered as a module named after
//! its file (`rules/scripts/census.rhai` -> `census::`), plus the built-in `date::` helpers.
//!
//! Limits: operations, call depth, expression depth, string/array/map sizes, no `eval`, and a
//! wall-clock budget per evaluation enforced from `on_progress`. A runaway script fails that one
//! evaluation with a clear error.

use std::cell::Cell;
use std::time::{Duration, Instant};

use rhai::{AST, Dynamic, Engine, EvalAltResult, Module, Scope};
use serde_json::Value;

use crate::dates;
use crate::diagnostic::Diagnostic;

/// Wall-clock budget of one evaluation.
pub const TIME_BUDGET: Duration = Duration::from_millis(250);
const MAX_OPERATIONS: u64 = 2_000_000;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
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
        .set_strict_variables(false)
        .set_fail_on_invalid_map_property(false);
    engine.disable_symbol("eval");
    engine.on_progress(|ops| {
        if ops % 512 != 0 {
            return None;
        }
        let late = DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() > t));
        late.then(|| Dynamic::from("time budget exceeded"))
    });
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.register_static_module("date", dates::module().into());
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
    if let Some(probe) = crate::coverage::Probe::current() {
        ast.set_source(format!("{file}:{line}"));
        probe.add_expression(file, line, text);
    }
    Ok(Expr {
        ast,
        source: text.to_string(),
        file: file.to_string(),
        line,
    })
}

/// A compiled Rhai expression and where it was written.
#[derive(Debug, Clone)]
pub struct Expr {
    ast: AST,
    pub source: String,
    pub file: String,
    pub line: usize,
}

impl Expr {
    /// The compiled expression (coverage reads the names it holds).
    pub(crate) fn ast(&self) -> &AST {
        &self.ast
    }

    /// Evaluates with the given variables in scope; the result as JSON.
    pub fn eval(&self, engine: &Engine, vars: &[(&str, &Dynamic)]) -> Result<Value, Diagnostic> {
        let d = self.eval_dynamic(engine, vars)?;
        rhai::serde::from_dynamic::<Value>(&d).map_err(|e| {
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
        for (name, value) in vars {
            scope.push_constant_dynamic(*name, (*value).clone());
        }
        let _guard = Budget::start();
        engine
            .eval_ast_with_scope::<Dynamic>(&mut scope, &self.ast)
            .map_err(|e| {
                let mut d = runtime_diagnostic(&self.file, self.line.saturating_sub(1), &e);
                d.message = format!("`{}`: {}", self.source, d.message);
                d
            })
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

/// Sets this thread's deadline for the evaluation in progress; clears it when dropped.
struct Budget;

impl Budget {
    fn start() -> Self {
        DEADLINE.with(|d| d.set(Some(Instant::now() + TIME_BUDGET)));
        Budget
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(None));
    }
}

/// JSON to a Rhai value (maps, arrays, strings, integers, floats, booleans, unit for null),
/// read-only and shared: passing it to rule functions copies a pointer, not the data, and no rule
/// can change it for the next one (a write makes the writer's own copy).
pub fn to_dynamic(v: &Value) -> Dynamic {
    rhai::serde::to_dynamic(v)
        .unwrap_or(Dynamic::UNIT)
        .into_read_only()
        .into_shared()
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
        EvalAltResult::ErrorTerminated(..) => {
            format!(
                "rule stopped: it ran past its time budget of {} ms",
                TIME_BUDGET.as_millis()
            )
        }
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
            "fn bump(d) { d.cal.x = 99; d.cal.x } fn read(d) { d.cal.x }",
        );
        let data = to_dynamic(&serde_json::json!({"cal": {"x": 1}}));
        let run = |src: &str| {
            compile_expression(&e, "f.yaml", 1, src)
                .expect("compiles")
                .eval(&e, &[("data", &data)])
        };
        assert_eq!(
            run("m::bump(data)").expect("a local copy"),
            serde_json::json!(99)
        );
        assert_eq!(run("m::read(data)").expect("runs"), serde_json::json!(1));
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
