//! Noting what a coverage run reaches: each script's statements and branches as it compiles,
//! then every node Rhai's debugger evaluates, every transition, field shown or hidden, carrier
//! quoted and crosswalk mapping looked up.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use rhai::{AST, ASTNode, Expr as RExpr, Position, Stmt};
use serde_json::Value;

use super::{Branch, Hits, Key, LINES, Node, Probe, Script, YamlExpr};
use crate::catalog::PlanKind;

impl crate::script::ExpressionWatch for Probe {
    fn add_expression(&self, file: &str, line: usize, source: &str) {
        self.expressions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(YamlExpr {
                file: file.to_string(),
                line,
                source: source.to_string(),
            });
    }
}

impl Probe {
    /// A probe for a rule set with `scripts` script files.
    pub(crate) fn new(scripts: usize) -> Arc<Self> {
        let region = (LINES / (scripts as u32 + 1)).min(u32::from(u16::MAX)) as u16;
        Arc::new(Probe {
            region,
            scripts: Mutex::default(),
            expressions: Mutex::default(),
            hits: Mutex::default(),
        })
    }

    pub(super) fn hits(&self) -> std::sync::MutexGuard<'_, Hits> {
        self.hits.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The first line of script `index`'s region (its text is compiled below that many newlines).
    pub(crate) fn start_of(&self, index: usize) -> u16 {
        self.region.saturating_mul(index as u16 + 1)
    }

    /// Whether a script of `lines` lines fits its region.
    pub(crate) fn fits(&self, lines: usize) -> bool {
        lines + 1 < usize::from(self.region)
    }

    /// Notes a compiled script and the statements and branches it holds.
    pub(crate) fn add_script(&self, path: &str, module: &str, start: u16, text: &str, ast: &AST) {
        let mut statements = Vec::new();
        let mut branches = Vec::new();
        ast.walk(&mut |path: &[ASTNode]| {
            if let Some(ASTNode::Stmt(s)) = path.last() {
                if let Some(key) = stmt_key(s) {
                    statements.push(Node { key });
                }
                if let Stmt::If(flow, pos) = s {
                    branches.push(Branch {
                        at: key_of(*pos, false),
                        then_first: first_key(flow.body.statements()),
                        else_first: first_key(flow.branch.statements()),
                    });
                }
            }
            true
        });
        // A statement may be walked twice (an expression statement and its expression).
        let mut seen = HashSet::new();
        statements.retain(|n| seen.insert(n.key));
        self.scripts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Script {
                path: path.to_string(),
                module: module.to_string(),
                start,
                text: text.to_string(),
                ast: ast.clone(),
                statements,
                branches,
            });
    }

    /// Called by Rhai's debugger at every statement and expression evaluated.
    pub(crate) fn step(&self, node: ASTNode, source: Option<&str>, pos: Position) {
        let (Some(line), Some(col)) = (pos.line(), pos.position()) else {
            return;
        };
        let (line, col) = (line as u16, col as u16);
        let mut hits = self.hits();
        if line >= self.region {
            let map = if node.is_stmt() {
                &mut hits.stmts
            } else {
                &mut hits.exprs
            };
            *map.entry((line, col)).or_default() += 1;
        } else if let Some(src) = source
            && !hits.sources.contains(src)
        {
            hits.sources.insert(src.to_string());
        }
    }

    pub(crate) fn transition(&self, from: &str, to: &str, modal: Option<&str>) {
        let to = match modal {
            Some(m) => format!("modal:{m}"),
            None => to.to_string(),
        };
        self.hits().transitions.insert((from.to_string(), to));
    }

    /// A form resolved for a step: every field shown but those dropped (and their children).
    pub(crate) fn form_resolved(&self, form: &str, schema: &Value, dropped: &[Vec<String>]) {
        let mut paths = Vec::new();
        field_paths(schema, &mut Vec::new(), &mut paths);
        let mut hits = self.hits();
        for p in paths {
            let shown = !dropped.iter().any(|d| p.starts_with(d));
            let key = (form.to_string(), crate::form::path_string(&p), shown);
            if !hits.fields.contains(&key) {
                hits.fields.insert(key);
            }
        }
    }

    pub(crate) fn quoted(&self, year: i32, carrier: u8, kind: PlanKind) {
        self.hits().quoted.insert((year, carrier, kind));
    }

    /// A renewal into `plan_year` looked up the crosswalk's mapping written on `line`.
    pub(crate) fn renewed(&self, plan_year: i32, line: usize) {
        self.hits().renewals.insert((plan_year, line));
    }

    /// The module function `name` of script module `module`, walked (for the flow's transitions).
    pub(super) fn walk_function(&self, module: &str, name: &str, on: &mut dyn FnMut(&ASTNode)) {
        let scripts = self.scripts.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(s) = scripts.iter().find(|s| s.module == module) else {
            return;
        };
        let only = s
            .ast
            .clone_functions_only_filtered(|_, _, _, n, _| n == name);
        only.walk(&mut |p: &[ASTNode]| {
            if let Some(n) = p.last() {
                on(n);
            }
            true
        });
    }
}

fn key_of(pos: Position, expr: bool) -> Key {
    Key {
        line: pos.line().unwrap_or(0) as u16,
        col: pos.position().unwrap_or(0) as u16,
        expr,
    }
}

/// The place the debugger reports a statement at; none for blocks and no-ops (containers).
fn stmt_key(s: &Stmt) -> Option<Key> {
    match s {
        Stmt::Noop(..) | Stmt::Block(..) => None,
        Stmt::Expr(e) => match &**e {
            RExpr::Stmt(_) => None,
            e => Some(key_of(e.position(), true)),
        },
        s => Some(key_of(s.position(), false)),
    }
}

fn first_key(stmts: &[Stmt]) -> Option<Key> {
    let first = stmts.first()?;
    match first {
        Stmt::Block(b) => first_key(b.statements()),
        Stmt::Expr(e) => match &**e {
            RExpr::Stmt(b) => first_key(b.statements()),
            _ => stmt_key(first),
        },
        _ => stmt_key(first),
    }
}

/// Every field path of a form's schema (`*` for an array's items), parents before children.
pub(super) fn field_paths(schema: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (k, v) in props {
        prefix.push(k.clone());
        out.push(prefix.clone());
        if v.get("properties").is_some() {
            field_paths(v, prefix, out);
        } else if let Some(items) = v.get("items") {
            prefix.push("*".into());
            field_paths(items, prefix, out);
            prefix.pop();
        }
        prefix.pop();
    }
}

/// Registers the probe as the Rhai engine's debugger: every node evaluated is noted, and
/// evaluation always steps into the next one.
pub(crate) fn attach(rhai: &mut rhai::Engine, probe: Arc<Probe>) {
    // Rhai marks the debugger interface volatile (it may change between versions), not deprecated.
    #[allow(deprecated)]
    rhai.register_debugger(
        |_, d| d,
        move |_, _, node, source, pos| {
            probe.step(node, source, pos);
            Ok(rhai::debugger::DebuggerCommand::StepInto)
        },
    );
}
