//! The use cases: what a person does with Enrollflow, one module each, grouped by area. A use case
//! takes the narrow handles it needs (never the whole `AppState`) and the caller's context as
//! values, and answers its own error enum; `http/` extracts a request into those values, calls the
//! use case and maps its answer to a status. Tested without HTTP (`server/tests/api/use_cases.rs`).
//!
//! - `accounts`: what a sign-in leaves behind.
//! - `applying`: opening and storing an application, saving a step, quotes, the purchase, resume
//!   and hand-off links, enrolling from the dashboard.
//! - `messages`: agent messages, read and dismissed by agents, written by admins.
//! - `printing`: the plan pages' printable sheets.
//! - `rule_sets`: publishing an approved rule set.

/// Makes database errors the `Failed` variant of each use case error enum named (its
/// `Failed(anyhow::Error)` keeps the database error, which `http/` answers 503 when the database is
/// out of reach).
macro_rules! database_errors_fail {
    ($($error:ty),+ $(,)?) => {
        $(
            impl From<crate::db::Error> for $error {
                fn from(e: crate::db::Error) -> Self {
                    Self::Failed(e.into())
                }
            }
        )+
    };
}
pub(crate) use database_errors_fail;

pub mod accounts;
pub mod applying;
pub mod messages;
pub mod printing;
pub mod rule_sets;
