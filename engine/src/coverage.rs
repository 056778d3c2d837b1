//! Rule coverage: which parts of a rule set the scenario runs reached.
//!
//! A rule set loaded with [`crate::load_with_coverage`] carries a [`Probe`]: Rhai's debugger hook
//! sees every statement and expression evaluated, and the engine notes every transition, every
//! field a form shows or hides and every carrier a quote lists. [`Engine::coverage`] then compares
//! what was reached with what the rule set holds:
//!
//! - **statements**: every statement of `rules/scripts/*.rhai`, and every expression written in
//!   the YAML files (one each, at its line);
//! - **branches**: both ways of every `if` in the scripts (an `if` without `else` is taken the
//!   other way when it was reached more often than its body);
//! - **transitions**: every way a step can go, read from the flow (its `next` rule's step and
//!   dialog names, the script functions it calls included, or the next steps not skipped);
//! - **modals**: the dialogs a rule asks (dialogs the page opens by itself, such as the county's
//!   residency notice, are listed apart: browser tests reach those);
//! - **fields**: every field of every form shown, and every field with an `only_when` hidden;
//! - **carriers**: every carrier's plans of each kind and plan year listed by a quote.
//!
//! Positions: a script's statements are told apart from another's by compiling each script, in
//! coverage mode only, below a block of blank lines of its own (`region`), since Rhai reports the
//! caller's source for a module function; YAML expressions carry `file:line` as their source.
//!
//! The report is text, JSON or one HTML page; `rules/coverage.yaml` is the floor (`enrollflow
//! coverage`, in `make test-rules`; `engine/tests/coverage.rs`, `tools/scenarios/test_cli.py`).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::{Arc, Mutex, PoisonError};

use rhai::{AST, ASTNode, Expr as RExpr, Position, Stmt};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Engine;
use crate::catalog::PlanKind;

/// What a coverage run saw, and the statements of the scripts it compares against.
pub struct Probe {
    region: u16,
    scripts: Mutex<Vec<Script>>,
    expressions: Mutex<Vec<YamlExpr>>,
    hits: Mutex<Hits>,
}

struct Script {
    path: String,
    module: String,
    start: u16,
    text: String,
    ast: AST,
    statements: Vec<Node>,
    branches: Vec<Branch>,
}

struct YamlExpr {
    file: String,
    line: usize,
    source: String,
}

/// A place in a script: its position (region lines) and whether the debugger reports it as an
/// expression (a statement that is just an expression) or as a statement.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    line: u16,
    col: u16,
    expr: bool,
}

struct Node {
    key: Key,
}

struct Branch {
    at: Key,
    then_first: Option<Key>,
    else_first: Option<Key>,
}

#[derive(Default)]
struct Hits {
    stmts: HashMap<(u16, u16), u32>,
    exprs: HashMap<(u16, u16), u32>,
    sources: HashSet<String>,
    transitions: BTreeSet<(String, String)>,
    fields: BTreeSet<(String, String, bool)>,
    quoted: BTreeSet<(i32, u8, PlanKind)>,
}

/// Lines of the 16-bit positions Rhai keeps: each script gets `region` of them.
const LINES: u32 = u16::MAX as u32;

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

    fn hits(&self) -> std::sync::MutexGuard<'_, Hits> {
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

    /// The module function `name` of script module `module`, walked (for the flow's transitions).
    fn walk_function(&self, module: &str, name: &str, on: &mut dyn FnMut(&ASTNode)) {
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

/// How many of a kind of thing were reached.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct Tally {
    pub reached: usize,
    pub total: usize,
}

impl Tally {
    /// Percent reached (100 when there is nothing to reach).
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            100.0
        } else {
            self.reached as f64 * 100.0 / self.total as f64
        }
    }
    fn add(&mut self, reached: bool) {
        self.total += 1;
        if reached {
            self.reached += 1;
        }
    }
}

/// One thing that can be reached, where it is written, and whether a scenario reached it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Item {
    pub kind: String,
    pub what: String,
    pub file: String,
    pub line: usize,
    pub reached: bool,
}

/// A script line for the report: how many statements it holds, how many were reached, and the
/// branches not taken.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    pub text: String,
    pub statements: usize,
    pub reached: usize,
    pub missed_branches: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileLines {
    pub path: String,
    pub lines: Vec<Line>,
}

/// Totals by kind, in the order the summary line names them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Totals {
    pub statements: Tally,
    pub branches: Tally,
    pub transitions: Tally,
    pub modals: Tally,
    pub fields: Tally,
    pub carriers: Tally,
}

impl Totals {
    pub fn by_name(&self) -> [(&'static str, Tally); 6] {
        [
            ("statements", self.statements),
            ("branches", self.branches),
            ("transitions", self.transitions),
            ("modals", self.modals),
            ("fields", self.fields),
            ("carriers", self.carriers),
        ]
    }

    /// "statements 412/430 (95.8%), branches …".
    pub fn summary(&self) -> String {
        self.by_name()
            .iter()
            .map(|(n, t)| {
                format!(
                    "{n} {}/{} ({:.1}%)",
                    t.reached,
                    t.total,
                    (t.percent() * 10.0).floor() / 10.0
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The coverage of a rule set by the scenario runs made with it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Report {
    pub totals: Totals,
    /// Everything that can be reached, reached or not (statements only where not reached).
    pub items: Vec<Item>,
    /// The scripts, line by line.
    pub files: Vec<FileLines>,
    /// Dialogs the page opens by itself (not by a rule): reached by browser tests.
    pub page_modals: Vec<Item>,
}

/// The least coverage accepted (`rules/coverage.yaml`), in percent by kind.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Floor {
    pub statements: Option<f64>,
    pub branches: Option<f64>,
    pub transitions: Option<f64>,
    pub modals: Option<f64>,
    pub fields: Option<f64>,
    pub carriers: Option<f64>,
}

impl Floor {
    /// Reads `rules/coverage.yaml`.
    pub fn parse(text: &str) -> Result<Self, crate::Diagnostic> {
        crate::yaml::parse(crate::COVERAGE_FLOOR, text)
    }

    /// The kinds below the floor: "statements 93.2% < 95%".
    pub fn shortfalls(&self, totals: &Totals) -> Vec<String> {
        let floors = [
            self.statements,
            self.branches,
            self.transitions,
            self.modals,
            self.fields,
            self.carriers,
        ];
        totals
            .by_name()
            .iter()
            .zip(floors)
            .filter_map(|((name, t), floor)| {
                let floor = floor?;
                (t.percent() + 1e-9 < floor)
                    .then(|| format!("{name} {:.1}% is below the floor of {floor}%", t.percent()))
            })
            .collect()
    }
}

impl Engine {
    /// What the scenario runs made with this rule set reached; `None` unless it was loaded with
    /// [`crate::load_with_coverage`].
    pub fn coverage(&self) -> Option<Report> {
        let probe = self.probe.as_ref()?;
        let hits = probe.hits();
        let mut report = Report::default();
        let count = |k: &Key| {
            let map = if k.expr { &hits.exprs } else { &hits.stmts };
            map.get(&(k.line, k.col)).copied().unwrap_or(0)
        };

        // Script statements and branches.
        let scripts = probe.scripts.lock().unwrap_or_else(PoisonError::into_inner);
        for s in scripts.iter() {
            let text_lines: Vec<&str> = s.text.lines().collect();
            let mut lines: Vec<Line> = text_lines
                .iter()
                .map(|t| Line {
                    text: (*t).to_string(),
                    statements: 0,
                    reached: 0,
                    missed_branches: Vec::new(),
                })
                .collect();
            let line_of = |k: &Key| usize::from(k.line.saturating_sub(s.start));
            for n in &s.statements {
                let reached = count(&n.key) > 0;
                report.totals.statements.add(reached);
                let l = line_of(&n.key);
                if let Some(line) = l.checked_sub(1).and_then(|i| lines.get_mut(i)) {
                    line.statements += 1;
                    line.reached += usize::from(reached);
                }
                if !reached {
                    report.items.push(Item {
                        kind: "statement".into(),
                        what: text_lines
                            .get(l.saturating_sub(1))
                            .map(|t| t.trim().to_string())
                            .unwrap_or_default(),
                        file: s.path.clone(),
                        line: l,
                        reached,
                    });
                }
            }
            for b in &s.branches {
                let at = count(&b.at);
                let then_n = b.then_first.as_ref().map(&count);
                let else_n = b.else_first.as_ref().map(&count);
                let then_taken = match (then_n, else_n) {
                    (Some(n), _) => n > 0,
                    (None, Some(e)) => at > e,
                    (None, None) => at > 0,
                };
                let else_taken = match (else_n, then_n) {
                    (Some(n), _) => n > 0,
                    (None, Some(t)) => at > t,
                    (None, None) => at > 0,
                };
                let l = line_of(&b.at);
                for (way, taken) in [("true", then_taken), ("false", else_taken)] {
                    report.totals.branches.add(taken);
                    if !taken {
                        let what = format!("`if` never {way}");
                        if let Some(line) = l.checked_sub(1).and_then(|i| lines.get_mut(i)) {
                            line.missed_branches.push(what.clone());
                        }
                        report.items.push(Item {
                            kind: "branch".into(),
                            what,
                            file: s.path.clone(),
                            line: l,
                            reached: false,
                        });
                    }
                }
            }
            report.files.push(FileLines {
                path: s.path.clone(),
                lines,
            });
        }
        drop(scripts);

        // Expressions in the YAML files.
        for e in probe
            .expressions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
        {
            let reached = hits.sources.contains(&format!("{}:{}", e.file, e.line));
            report.totals.statements.add(reached);
            if !reached {
                report.items.push(Item {
                    kind: "expression".into(),
                    what: e.source.clone(),
                    file: e.file.clone(),
                    line: e.line,
                    reached,
                });
            }
        }

        // Transitions and the dialogs rules ask.
        let mut asked = BTreeSet::new();
        for (from, to, file, line) in self.transitions(probe) {
            let reached = hits.transitions.contains(&(from.clone(), to.clone()));
            report.totals.transitions.add(reached);
            if let Some(m) = to.strip_prefix("modal:") {
                asked.insert(m.to_string());
            }
            report.items.push(Item {
                kind: "transition".into(),
                what: format!("{from} → {}", to.replace("modal:", "dialog ")),
                file,
                line,
                reached,
            });
        }
        for (name, form) in &self.forms {
            let Value::Object(modals) = &*form.modals else {
                continue;
            };
            let (file, text) = self.form_source(name);
            for id in modals.keys() {
                let item = Item {
                    kind: "modal".into(),
                    what: format!("{name}: {id}"),
                    line: line_of_key(text, "modals:", id),
                    file: file.clone(),
                    reached: hits
                        .transitions
                        .iter()
                        .any(|(_, to)| to.strip_prefix("modal:") == Some(id)),
                };
                if asked.contains(id) {
                    report.totals.modals.add(item.reached);
                    report.items.push(item);
                } else {
                    report.page_modals.push(item);
                }
            }
        }

        // Fields shown and hidden.
        for (name, form) in &self.forms {
            let (file, text) = self.form_source(name);
            let conditional: BTreeSet<String> = form
                .only_when
                .iter()
                .map(|(p, _)| crate::form::path_string(p))
                .collect();
            let mut paths = Vec::new();
            field_paths(&form.schema, &mut Vec::new(), &mut paths);
            for p in paths {
                let shown_path = crate::form::path_string(&p);
                let last = p
                    .iter()
                    .rev()
                    .find(|s| *s != "*")
                    .cloned()
                    .unwrap_or_default();
                let line = line_of_key(text, "schema:", &last);
                let mut ways = vec![true];
                if conditional.contains(&shown_path) {
                    ways.push(false);
                }
                for shown in ways {
                    let reached = hits
                        .fields
                        .contains(&(name.clone(), shown_path.clone(), shown));
                    report.totals.fields.add(reached);
                    report.items.push(Item {
                        kind: "field".into(),
                        what: format!(
                            "{name}: {shown_path} {}",
                            if shown { "shown" } else { "hidden" }
                        ),
                        file: file.clone(),
                        line,
                        reached,
                    });
                }
            }
        }

        // Carriers' plans quoted, by plan year and kind.
        let carriers_text = probe_text(&self.sources, "rules/catalog/carriers.yaml");
        for (year, kinds) in &self.catalog.plans {
            for (kind, plans) in kinds {
                let ids: BTreeSet<u8> = plans.iter().map(|p| p.carrier).collect();
                for c in ids {
                    let reached = hits.quoted.contains(&(*year, c, *kind));
                    report.totals.carriers.add(reached);
                    report.items.push(Item {
                        kind: "carrier".into(),
                        what: format!(
                            "{year} {} plans of {}",
                            kind.key(),
                            self.catalog
                                .carriers
                                .iter()
                                .find(|x| x.id == c)
                                .map_or("an unknown carrier", |x| x.name.as_str())
                        ),
                        file: "rules/catalog/carriers.yaml".into(),
                        line: line_of_key(carriers_text, "carriers:", &format!("id: {c}")),
                        reached,
                    });
                }
            }
        }
        Some(report)
    }

    fn form_source(&self, name: &str) -> (String, &str) {
        let file = format!("forms/{name}.form.yaml");
        let text = probe_text(&self.sources, &file);
        (file, text)
    }

    /// Every way a step can go: `(from, to, file, line)`, `to` a step id or `modal:<id>`.
    fn transitions(&self, probe: &Probe) -> Vec<(String, String, String, usize)> {
        let flow = self
            .sources
            .iter()
            .find(|(p, _)| p.starts_with("rules/flows/"))
            .map(|(p, t)| (p.clone(), t.as_str()))
            .unwrap_or_default();
        let step_ids: Vec<&str> = self.steps.iter().map(|s| s.info.id.as_str()).collect();
        // The step at `i` and, while it may be skipped, the steps after it.
        let reach = |mut i: usize| {
            let mut out = Vec::new();
            while let Some(s) = self.steps.get(i) {
                out.push(s.info.id.clone());
                if s.skip_when.is_none() {
                    break;
                }
                i += 1;
            }
            out
        };
        let mut out = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let line = line_of_key(flow.1, "steps:", &format!("id: {}", step.info.id));
            let mut targets: BTreeSet<String> = BTreeSet::new();
            match &step.next {
                Some(e) => {
                    let modals: Vec<String> = step
                        .form
                        .as_ref()
                        .and_then(|f| self.forms.get(f))
                        .and_then(|f| f.modals.as_object())
                        .map(|m| m.keys().cloned().collect())
                        .unwrap_or_default();
                    for name in named_strings(probe, e.ast()) {
                        if let Some(j) = step_ids.iter().position(|s| *s == name) {
                            targets.extend(reach(j));
                        } else if modals.contains(&name) {
                            targets.insert(format!("modal:{name}"));
                        }
                    }
                }
                None if i + 1 < self.steps.len() => targets.extend(reach(i + 1)),
                None => {
                    targets.insert(step.info.id.clone());
                }
            }
            for t in targets {
                out.push((step.info.id.clone(), t, flow.0.clone(), line));
            }
        }
        out
    }
}

/// Every string literal an expression holds, and those of the script functions it calls.
fn named_strings(probe: &Probe, ast: &AST) -> BTreeSet<String> {
    let mut strings = BTreeSet::new();
    let mut calls: Vec<(String, String)> = Vec::new();
    let note = |n: &ASTNode, module: &str, strings: &mut BTreeSet<String>, calls: &mut Vec<_>| {
        let call = |f: &rhai::FnCallExpr, calls: &mut Vec<(String, String)>| {
            let m = if f.namespace.is_empty() {
                module.to_string()
            } else {
                f.namespace.root().to_string()
            };
            calls.push((m, f.name.to_string()));
        };
        match n {
            ASTNode::Expr(RExpr::StringConstant(s, _)) => {
                strings.insert(s.to_string());
            }
            ASTNode::Expr(RExpr::DynamicConstant(d, _)) => collect_strings(d, strings),
            ASTNode::Expr(RExpr::FnCall(f, _)) | ASTNode::Stmt(Stmt::FnCall(f, _)) => {
                call(f, calls)
            }
            _ => {}
        }
    };
    ast.walk(&mut |p: &[ASTNode]| {
        if let Some(n) = p.last() {
            note(n, "", &mut strings, &mut calls);
        }
        true
    });
    let mut done = HashSet::new();
    while let Some((module, name)) = calls.pop() {
        if module.is_empty() || !done.insert((module.clone(), name.clone())) {
            continue;
        }
        let mut found = Vec::new();
        probe.walk_function(&module, &name, &mut |n| {
            note(n, &module, &mut strings, &mut found);
        });
        calls.extend(found);
    }
    strings
}

fn collect_strings(d: &rhai::Dynamic, out: &mut BTreeSet<String>) {
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        out.insert(s.to_string());
    } else if let Some(m) = d.read_lock::<rhai::Map>() {
        for v in m.values() {
            collect_strings(v, out);
        }
    } else if let Some(a) = d.read_lock::<rhai::Array>() {
        for v in a.iter() {
            collect_strings(v, out);
        }
    }
}

/// Every field path of a form's schema (`*` for an array's items), parents before children.
fn field_paths(schema: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
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

fn probe_text<'a>(sources: &'a [(String, String)], path: &str) -> &'a str {
    sources
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, t)| t.as_str())
        .unwrap_or("")
}

/// The 1-based line where `key` is written (`key:` or `- key`) after the line holding `after`;
/// 1 when it is not found.
fn line_of_key(text: &str, after: &str, key: &str) -> usize {
    let mut started = after.is_empty();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start().trim_start_matches("- ");
        if !started {
            started = t.starts_with(after);
            continue;
        }
        if t == key || t.starts_with(&format!("{key}:")) || t.starts_with(&format!("{key} ")) {
            return i + 1;
        }
    }
    1
}

impl Report {
    /// The report as one HTML page: the totals, what was not reached with file:line, and every
    /// script line marked reached (green), not reached (red) or holding a branch not taken.
    pub fn html(&self, title: &str) -> String {
        let mut h = String::new();
        let _ = write!(
            h,
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{t}</title><style>\
             body{{font:15px/1.45 system-ui,sans-serif;margin:1rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}}\
             table{{border-collapse:collapse}}td,th{{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ddd}}\
             pre{{margin:0;font:13px/1.35 ui-monospace,monospace}}\
             .src td{{border:0;padding:0 .5rem;vertical-align:top}}.n{{color:#666;text-align:right}}\
             .hit{{background:#e7f4e4}}.miss{{background:#f9dede}}.part{{background:#fff1c2}}\
             .no{{color:#b50909}}.yes{{color:#2e7d32}}details{{margin:.6rem 0}}summary{{cursor:pointer;font-weight:600}}\
             </style></head><body><h1>{t}</h1><table><tr><th>Kind</th><th>Reached</th><th>Total</th><th>%</th></tr>",
            t = esc(title)
        );
        for (name, t) in self.totals.by_name() {
            let _ = write!(
                h,
                "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{:.1}</td></tr>",
                t.reached,
                t.total,
                (t.percent() * 10.0).floor() / 10.0
            );
        }
        h.push_str("</table>");
        let kinds = [
            ("transition", "Transitions"),
            ("modal", "Dialogs asked by rules"),
            ("field", "Fields shown and hidden"),
            ("carrier", "Carriers quoted"),
        ];
        let missed: Vec<&Item> = self
            .items
            .iter()
            .filter(|i| {
                !i.reached && matches!(i.kind.as_str(), "statement" | "expression" | "branch")
            })
            .collect();
        let _ = write!(
            h,
            "<h2>Statements, expressions and branches not reached ({})</h2><ul>",
            missed.len()
        );
        for i in missed {
            let _ = write!(
                h,
                "<li><code>{}:{}</code> {}: <code>{}</code></li>",
                esc(&i.file),
                i.line,
                esc(&i.kind),
                esc(&i.what)
            );
        }
        h.push_str("</ul>");
        for (kind, heading) in kinds {
            let items: Vec<&Item> = self.items.iter().filter(|i| i.kind == kind).collect();
            let _ = write!(h, "<h2>{heading}</h2><table>");
            for i in items {
                let _ = write!(
                    h,
                    "<tr><td class=\"{}\">{}</td><td>{}</td><td><code>{}:{}</code></td></tr>",
                    if i.reached { "yes" } else { "no" },
                    if i.reached { "reached" } else { "not reached" },
                    esc(&i.what),
                    esc(&i.file),
                    i.line
                );
            }
            h.push_str("</table>");
        }
        if !self.page_modals.is_empty() {
            h.push_str("<h2>Dialogs the page opens (reached by browser tests)</h2><ul>");
            for i in &self.page_modals {
                let _ = write!(
                    h,
                    "<li>{} <code>{}:{}</code></li>",
                    esc(&i.what),
                    esc(&i.file),
                    i.line
                );
            }
            h.push_str("</ul>");
        }
        h.push_str("<h2>Scripts</h2>");
        for f in &self.files {
            let (n, r) = f
                .lines
                .iter()
                .fold((0, 0), |(n, r), l| (n + l.statements, r + l.reached));
            let _ = write!(
                h,
                "<details><summary>{} — {r}/{n} statements</summary><table class=\"src\">",
                esc(&f.path)
            );
            for (i, l) in f.lines.iter().enumerate() {
                let class = if l.statements == 0 {
                    ""
                } else if l.reached == 0 {
                    "miss"
                } else if l.reached < l.statements || !l.missed_branches.is_empty() {
                    "part"
                } else {
                    "hit"
                };
                let note = if l.missed_branches.is_empty() {
                    String::new()
                } else {
                    format!("  ← {}", l.missed_branches.join(", "))
                };
                let _ = write!(
                    h,
                    "<tr class=\"{class}\"><td class=\"n\">{}</td><td><pre>{}{}</pre></td></tr>",
                    i + 1,
                    esc(&l.text),
                    esc(&note)
                );
            }
            h.push_str("</table></details>");
        }
        h.push_str("</body></html>\n");
        h
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
