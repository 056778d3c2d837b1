//! Enrollflow's rules engine: pure evaluation of the wizard's flows, forms and rules.
//!
//! Invariant: this crate does no IO. It receives already-read sources (`(path, text)` pairs) and an
//! explicit `today`; loading and watching files is the server's job. Flows, forms and Rhai rules
//! arrive with the rules-engine issue; today the crate holds the diagnostic type every loader shares.

use std::fmt;

/// One problem found while loading a rule set: where it is and what is wrong, in lowercase words
/// that name the rule (never a Rust type), user input in backticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_prints_as_file_line_column_message() {
        let d = Diagnostic {
            file: "rules/flows/enrollment.flow.yaml".into(),
            line: 12,
            column: 5,
            message: "unknown step `censsu`".into(),
        };
        assert_eq!(
            d.to_string(),
            "rules/flows/enrollment.flow.yaml:12:5: unknown step `censsu`"
        );
    }
}
