//! Compiling script files into modules and the YAML files' expressions into `Expr`s, with what
//! the expressions compiled during one load share (`Loading`) and what each reads (`Uses`).

use std::sync::Arc;

use rhai::{AST, Engine, Module, Scope};

use super::Expr;
use super::budget::Budget;
use super::diagnostics::{parse_diagnostic, runtime_diagnostic};
use crate::diagnostic::Diagnostic;

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
