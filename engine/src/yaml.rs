//! Reading analysts' YAML with positions for diagnostics.

use serde::de::DeserializeOwned;
use serde_saphyr::Spanned;

use crate::diagnostic::Diagnostic;

pub fn parse<T: DeserializeOwned>(path: &str, text: &str) -> Result<T, Diagnostic> {
    serde_saphyr::from_str::<T>(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line() as usize, l.column() as usize))
            .unwrap_or((1, 1));
        let message = e.to_string();
        let first = message.lines().next().unwrap_or("invalid yaml").trim();
        // The message may repeat the position: "error: line 5 column 17: …".
        let first = first.trim_start_matches("error: ");
        let first = match first.split_once(": ") {
            Some((pos, rest)) if pos.starts_with("line ") => rest,
            _ => first,
        };
        Diagnostic::new(path, line.max(1), column.max(1), format!("yaml: {first}"))
    })
}

/// The 1-based line a spanned value was written on.
pub fn line_of<T>(s: &Spanned<T>) -> usize {
    (s.referenced.line() as usize).max(1)
}
