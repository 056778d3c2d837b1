//! Problems found while loading a rule set, and errors while evaluating one.

use std::fmt;

/// One problem found while loading a rule set: where it is and what is wrong, in lowercase words
/// that name the rule (never a Rust type), user input in backticks.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }

    /// A problem with the whole file (no better position known).
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        Self::new(file, 1, 1, message)
    }
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

/// A failure while evaluating rules for a request: a script error, a time-budget overrun, or a
/// rule that returned something of the wrong shape. The request fails; the engine keeps serving.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("{0}")]
    Rule(Diagnostic),
    #[error("no step `{0}`")]
    UnknownStep(String),
    #[error("step `{0}` has no form")]
    NotAForm(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_prints_as_file_line_column_message() {
        let d = Diagnostic::new(
            "rules/flows/enrollment.flow.yaml",
            12,
            5,
            "unknown step `censsu`",
        );
        assert_eq!(
            d.to_string(),
            "rules/flows/enrollment.flow.yaml:12:5: unknown step `censsu`"
        );
    }
}
