//! A draft rule set as an analyst sends it: every file (or a git revision of the server's
//! checkout), the scenario suites it changes, and how its impact is worked out (how many made-up
//! households, as of which day). Here it is read into the files and suites it is checked with,
//! and refused whole, with the reason, when it cannot be.

use std::path::Path;

use serde::Deserialize;
use time::Date;
use utoipa::ToSchema;

use super::{File, RuleSetError};
use crate::db::rule_sets;
use crate::rules;
use crate::rules::governance::{self, FileDiff};
use enrollflow_engine::Source;

/// A draft set: every file, its path relative to the repository root (`rules/…`, `forms/…`,
/// `templates/…`); or, instead of files, a git revision of the server's checkout (`rev`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct Draft {
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub files: Vec<File>,
    /// A git revision (a commit, tag or branch) of the folder the server serves from.
    #[serde(default)]
    pub rev: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
    /// How many made-up households an impact walks (1,000 unless given; at most 5,000).
    #[serde(default)]
    pub households: Option<usize>,
    /// The day the made-up households apply on (YYYY-MM-DD): "as of" a date, such as the first
    /// day of a set scheduled ahead; the server's today when absent.
    #[serde(default)]
    pub as_of: Option<String>,
    /// Scenario suites the draft changes or adds (`tests/scenarios/….yaml`): a change of premium
    /// comes with the expectations it changes. The others are the server's.
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub suites: Vec<File>,
}

/// The most files and bytes a draft may hold.
const MAX_FILES: usize = 2_000;
const MAX_BYTES: usize = 16 * 1024 * 1024;

impl Draft {
    /// The day the draft's made-up households apply on: its `as_of`, or `today`.
    pub fn day(&self, today: Date) -> Result<Date, RuleSetError> {
        match self
            .as_of
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            None => Ok(today),
            Some(d) => enrollflow_engine::dates::parse(d).ok_or_else(|| RuleSetError::Invalid {
                field: "as_of",
                problems: vec![format!("`{d}` is not a date (YYYY-MM-DD).")],
            }),
        }
    }

    /// The scenario suites the draft is checked with: the server's (under `root`), each replaced
    /// or joined by the draft's own; refused when one of the draft's is not a suite's path.
    pub fn suites(&self, root: &Path) -> Result<Vec<Source>, RuleSetError> {
        let mut suites = server_suites(root)?;
        for s in &self.suites {
            let plain = s.path.starts_with(&format!("{}/", rules::SUITES))
                && s.path.ends_with(".yaml")
                && crate::rules::protected::plain_path(&s.path);
            if !plain {
                return Err(RuleSetError::files(vec![format!(
                    "{}: a draft's suites are YAML files under {}/",
                    s.path,
                    rules::SUITES
                )]));
            }
            let source = Source::new(s.path.clone(), s.text.clone());
            match suites.iter_mut().find(|k| k.path == s.path) {
                Some(kept) => *kept = source,
                None => suites.push(source),
            }
        }
        Ok(suites)
    }

    /// The draft's files: the ones sent, or those of the git revision named (of the checkout at
    /// `root`).
    pub fn files(&self, root: &Path) -> Result<Vec<Source>, RuleSetError> {
        let Some(rev) = self.rev.as_deref().map(str::trim).filter(|r| !r.is_empty()) else {
            if let Some(p) = self.problem() {
                return Err(RuleSetError::files(vec![p]));
            }
            return Ok(rule_sets::sources(&self.files));
        };
        // A revision git reads as a name, never as an option.
        let plain = rev.len() <= 100
            && !rev.starts_with('-')
            && rev
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._/~^-".contains(c));
        if !plain {
            return Err(RuleSetError::files(vec![format!(
                "`{rev}` is not a git revision."
            )]));
        }
        crate::rules::impact::set_at_revision(root, rev)
            .map_err(|e| RuleSetError::files(vec![e.to_string()]))
    }

    /// What is wrong with the draft before it is read: no files, too many or too large, or a
    /// path outside the analysts' (`protected::not_analysts`, which every load checks again).
    fn problem(&self) -> Option<String> {
        let bytes: usize = self.files.iter().map(|f| f.text.len()).sum();
        match () {
            _ if self.files.is_empty() => Some("The draft has no files.".to_string()),
            _ if self.files.len() > MAX_FILES || bytes > MAX_BYTES => {
                Some("The draft is too large.".to_string())
            }
            _ => self.files.iter().find_map(|f| {
                crate::rules::protected::not_analysts(&f.path)
                    .map(|why| format!("{}: {why}", f.path))
            }),
        }
    }
}

/// The server's scenario suites, under `root`.
pub fn server_suites(root: &Path) -> Result<Vec<Source>, RuleSetError> {
    rules::read_folders(root, &[rules::SUITES])
        .map_err(|d| RuleSetError::Failed(anyhow::anyhow!("{d}")))
}

/// The diffs of the scenario suites a draft changes, against the server's.
pub fn suite_diffs(server: &[Source], theirs: &[File]) -> Vec<FileDiff> {
    let changed = rule_sets::sources(theirs);
    let before: Vec<Source> = server
        .iter()
        .filter(|s| changed.iter().any(|c| c.path == s.path))
        .cloned()
        .collect();
    governance::diff(&before, &changed)
}
