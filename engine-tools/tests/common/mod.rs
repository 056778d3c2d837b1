//! The repository's rule set and scenario suites, read as the tools read them (`set`).

use std::path::{Path, PathBuf};

use enrollflow_engine::{Engine, Source, load};
use enrollflow_engine_tools::set;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `rules/` and `forms/` of the repository.
pub fn sources() -> Vec<Source> {
    set::read_sources(&repo()).unwrap_or_else(|d| panic!("{d}"))
}

/// The scenario suites of `tests/scenarios`.
#[allow(dead_code)]
pub fn suites() -> Vec<Source> {
    set::read_folders(&repo(), &[set::SUITES]).unwrap_or_else(|d| panic!("{d}"))
}

/// The engine of these sources; a rule set with problems fails the test, listing them one a line.
#[allow(dead_code)]
pub fn engine(sources: &[Source]) -> Engine {
    load(sources).unwrap_or_else(|problems| {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        panic!("rule set problems:\n{}", list.join("\n"))
    })
}
