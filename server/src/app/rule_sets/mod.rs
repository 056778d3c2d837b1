//! The analysts' rule sets: a draft and what it is checked with (`draft`), its impact against
//! the set serving (`impact`), the suites' results and coverage of a set (`report`), proposing
//! it (`propose`), approving it, which publishes it (`publish`), and the other decisions:
//! rejecting or withdrawing a proposal, cancelling a scheduled set, rolling back to an earlier
//! one, and the history (`decide`). Each step is audited with the set's, the base's and the
//! diff's hashes.

pub mod decide;
pub mod draft;
pub mod impact;
pub mod propose;
pub mod publish;
pub mod report;

pub use crate::db::rule_proposals::Proposal;
pub use crate::db::rule_sets::{File, Publication};
pub use publish::Handles;

use crate::platform::error::ApiError;

/// Why a step on the rule sets was not taken (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum RuleSetError {
    /// No such proposal, publication or set.
    #[error("{0}")]
    NotFound(String),
    /// The caller may not take this step (the author, or no approve permission).
    #[error("{0}")]
    NotAllowed(String),
    /// The state moved on: decided already, or the set serving changed.
    #[error("{0}")]
    Conflict(String),
    /// What was sent is refused: its problems, under the request's field.
    #[error("{field}: {}", problems.join("; "))]
    Invalid {
        field: &'static str,
        problems: Vec<String>,
    },
    /// The threads that check drafts are busy, or an impact runs on this instance.
    #[error("{message}")]
    Busy { message: String, retry_after: u64 },
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(RuleSetError);

impl RuleSetError {
    /// The draft's problems, under `files`.
    pub fn files(problems: Vec<String>) -> Self {
        RuleSetError::Invalid {
            field: "files",
            problems,
        }
    }
}

/// The draft threads answer with the HTTP error of their refusal; the refusals they make are
/// "busy" ones, anything else failed.
impl From<ApiError> for RuleSetError {
    fn from(e: ApiError) -> Self {
        match e {
            ApiError::Busy {
                message,
                retry_after,
            } => RuleSetError::Busy {
                message,
                retry_after,
            },
            ApiError::Internal(e) => RuleSetError::Failed(e),
            other => RuleSetError::Failed(anyhow::anyhow!("{other}")),
        }
    }
}
