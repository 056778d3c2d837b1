//! The coverage report: what was reached of each kind, item by item and script line by line, and
//! the floor a rule set's coverage must reach.

use serde::{Deserialize, Serialize};

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
    pub(super) fn add(&mut self, reached: bool) {
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
    #[serde(default)]
    pub crosswalk: Tally,
}

impl Totals {
    pub fn by_name(&self) -> [(&'static str, Tally); 7] {
        [
            ("statements", self.statements),
            ("branches", self.branches),
            ("transitions", self.transitions),
            ("modals", self.modals),
            ("fields", self.fields),
            ("carriers", self.carriers),
            ("crosswalk", self.crosswalk),
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
