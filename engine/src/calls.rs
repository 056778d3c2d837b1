//! Calls a rule set may not make: an unqualified call that Rhai could send to another script's
//! function.
//!
//! Rhai remembers, for the rest of an evaluation, which function an unqualified call `f(x)`
//! reached, by the name and the number of arguments only, whichever script the call is written
//! in. So when two scripts each define `f` with one parameter and each call it as `f(x)`, the
//! second script to call it within one evaluation runs the first script's `f`, silently (with `a`
//! calling its `f` three times and `b` its own twice, `a::a(0) + b::b(0)` gave 5, not 7: the
//! comment above the engine test `two_scripts_calling_their_own_function_of_one_name_…`). And a call `g(x)` of a function that only another script defines works
//! when that script called `g` earlier in the same evaluation, and fails otherwise. Both are
//! refused when the rule set loads, with the way out: rename, or call with the script's name
//! (`subscriber::has_spouse(app)`), which Rhai resolves in that script every time.
//!
//! With these refused, an unqualified call reaches the same function wherever it is written, so
//! the engine may keep what Rhai resolved from one evaluation to the next (`script::eval_keeping`).
//!
//! Checked by `engine/src/tests.rs`:
//! `two_scripts_calling_their_own_function_of_one_name_unqualified_are_refused`,
//! `another_scripts_function_must_be_called_with_its_scripts_name`,
//! `an_edited_script_runs_its_new_functions_on_the_same_thread_as_the_old_rule_set`.

use std::collections::BTreeMap;

use rhai::{AST, ASTNode, Expr as RExpr, Stmt};

use crate::diagnostic::Diagnostic;

/// A function of the rule set's scripts: its name and number of parameters.
type Signature = (String, usize);

/// The scripts of the rule set being loaded (path, module name, compiled script).
pub(crate) struct Script<'a> {
    pub path: &'a str,
    pub module: String,
    pub ast: AST,
    /// Blank lines compiled above the script (a coverage run's regions), taken off its lines.
    pub start: usize,
}

/// Which scripts define each function, for the expressions compiled while a rule set loads.
#[derive(Default)]
pub(crate) struct Defined(BTreeMap<Signature, Vec<String>>);

/// Every unqualified call an AST makes: name, number of arguments, line.
fn unqualified_calls(ast: &AST) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let call =
            match path.last() {
                Some(
                    ASTNode::Expr(RExpr::FnCall(f, pos)) | ASTNode::Stmt(Stmt::FnCall(f, pos)),
                ) if f.namespace.is_empty() => Some((f.name.to_string(), f.args.len(), *pos)),
                // `x.f(y)` is `f(x, y)`.
                Some(ASTNode::Expr(RExpr::MethodCall(f, pos))) => {
                    Some((f.name.to_string(), f.args.len() + 1, *pos))
                }
                _ => None,
            };
        if let Some((name, args, pos)) = call {
            out.push((name, args, pos.line().unwrap_or(1)));
        }
        true
    });
    out
}

fn call_text(module: &str, name: &str) -> String {
    format!("`{module}::{name}(…)`")
}

/// Checks the scripts' unqualified calls; returns the functions each script defines, for
/// [`check_expression`], and the problems found.
pub(crate) fn check_scripts(scripts: &[Script]) -> (Defined, Vec<Diagnostic>) {
    let mut defined: BTreeMap<Signature, Vec<String>> = BTreeMap::new();
    for s in scripts {
        for f in s.ast.iter_functions() {
            let modules = defined
                .entry((f.name.to_string(), f.params.len()))
                .or_default();
            if !modules.contains(&s.module) {
                modules.push(s.module.clone());
            }
        }
    }
    let mut problems = Vec::new();
    // Per function defined in several scripts: the scripts that call it unqualified, and where.
    let mut callers: BTreeMap<&Signature, BTreeMap<&str, (&str, usize)>> = BTreeMap::new();
    for s in scripts {
        for (name, args, line) in unqualified_calls(&s.ast) {
            let line = line.saturating_sub(s.start).max(1);
            let Some((sig, modules)) = defined.get_key_value(&(name.clone(), args)) else {
                continue;
            };
            if !modules.contains(&s.module) {
                problems.push(Diagnostic::new(
                    s.path,
                    line,
                    1,
                    format!(
                        "`{name}` with {args} argument(s) is not a function of this script but of \
                         {}: call it with its script's name, as {}",
                        modules.join(", "),
                        call_text(&modules[0], &name)
                    ),
                ));
            } else if modules.len() > 1 {
                callers
                    .entry(sig)
                    .or_default()
                    .entry(s.module.as_str())
                    .or_insert((s.path, line));
            }
        }
    }
    for ((name, args), by) in callers.into_iter().filter(|(_, by)| by.len() > 1) {
        let scripts: Vec<&str> = by.keys().copied().collect();
        for (module, (path, line)) in &by {
            problems.push(Diagnostic::new(
                path,
                *line,
                1,
                format!(
                    "`{name}` with {args} argument(s) is defined and called without a script name \
                     in several scripts ({}): within one evaluation Rhai would run the first one \
                     it found for every such call. Rename one of them, or call it as {}",
                    scripts.join(", "),
                    call_text(module, name)
                ),
            ));
        }
    }
    (Defined(defined), problems)
}

/// An expression of a form or a flow: it has no script of its own, so an unqualified call of a
/// script's function could only reach it by Rhai's memory of another call.
pub(crate) fn check_expression(
    ast: &AST,
    defined: &Defined,
    file: &str,
    line: usize,
) -> Result<(), Diagnostic> {
    for (name, args, _) in unqualified_calls(ast) {
        if let Some(modules) = defined.0.get(&(name.clone(), args)) {
            return Err(Diagnostic::new(
                file,
                line,
                1,
                format!(
                    "`{name}` is a function of {}: call it with its script's name, as {}",
                    modules.join(", "),
                    call_text(&modules[0], &name)
                ),
            ));
        }
    }
    Ok(())
}
