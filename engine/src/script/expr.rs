//! Evaluating a compiled expression within its time budget and slice, with Rhai's resolutions
//! kept, its answer as JSON; answers that cannot change are remembered (`ByContext`).

use std::cell::Cell;

use rhai::{AST, Dynamic, Engine, Scope};
use serde_json::Value;

use super::Expr;
use super::budget::{Budget, SLICE_OVER, SLICE_OVER_MESSAGE, slice_is_on, slice_over};
use super::diagnostics::runtime_diagnostic;
use super::record::to_json;
use super::resolutions::{eval_keeping, with_resolutions};
use crate::diagnostic::Diagnostic;

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
