//! What Rhai resolved in an evaluation (functions, getters, operators), kept per thread for the
//! next evaluation of the same rule set.

use rhai::{AST, Dynamic, Engine, EvalAltResult, Scope};

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
pub(super) fn with_resolutions<R>(id: i64, eval: impl FnOnce(&mut rhai::Caches) -> R) -> R {
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
pub(super) fn eval_keeping(
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
