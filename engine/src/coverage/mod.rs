//! Rule coverage: which parts of a rule set the scenario runs reached.
//!
//! A rule set loaded with [`crate::load_with_coverage`] carries a [`Probe`]: Rhai's debugger hook
//! sees every statement and expression evaluated, and the engine notes every transition, every
//! field a form shows or hides and every carrier a quote lists. [`crate::Engine::coverage`] then
//! compares what was reached with what the rule set holds:
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
//! - **carriers**: every carrier's plans of each kind and plan year listed by a quote;
//! - **crosswalk**: every mapping of each plan year's crosswalk (a plan's successor, everywhere or
//!   in the counties listed, or its end) that a renewal looked up.
//!
//! Positions: a script's statements are told apart from another's by compiling each script, in
//! coverage mode only, below a block of blank lines of its own (`region`), since Rhai reports the
//! caller's source for a module function; YAML expressions carry `file:line` as their source.
//!
//! The report is text, JSON or one HTML page; `rules/coverage.yaml` is the floor (`enrollflow
//! coverage`, in `make test-rules`; `engine-tools/tests/coverage.rs`, `tools/scenarios/test_cli.py`).

mod measure;
mod probe;
mod report;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Mutex;

use rhai::AST;

use crate::catalog::PlanKind;

pub(crate) use probe::attach;
pub use report::{FileLines, Item, Line, Report, Tally, Totals};

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
    /// Crosswalk mappings looked up: the plan year renewed into and the mapping's line.
    renewals: BTreeSet<(i32, usize)>,
}

/// Lines of the 16-bit positions Rhai keeps: each script gets `region` of them.
const LINES: u32 = u16::MAX as u32;
