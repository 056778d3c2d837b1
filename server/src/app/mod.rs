//! The use cases: what a person does with Enrollflow, one module each, grouped by area. A use case
//! takes the narrow handles it needs (never the whole `AppState`) and the caller's context as
//! values, and answers its own error enum; `http/` extracts a request into those values, calls the
//! use case and maps its answer to a status. Tested without HTTP (`server/tests/api/use_cases.rs`).
//!
//! - `admin`: finding agents and their users, acting as an agent, reading the outbox.
//! - `accounts`: logging in, registering, passwords, sessions and devices, disabling accounts.
//! - `audit`: recording what people did, and the admins' search of it.
//! - `applying`: opening and storing an application, saving a step, quotes, the purchase, resume
//!   and hand-off links, enrolling from the dashboard.
//! - `dashboard`: the agent's lists, their Excel exports and an application's replay.
//! - `messages`: agent messages, read and dismissed by agents, written by admins.
//! - `operations`: readiness, the gauges' counts and the load test's database baselines.
//! - `printing`: the plan pages' printable sheets.
//! - `renewals`: each customer's next plan year worked out by the rules, the agent's worklist,
//!   renewal links and the customer's re-enrollment.
//! - `sites`: an agent's branded site and its logo.
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
pub mod admin;
pub mod applying;
pub mod audit;
pub mod dashboard;
pub mod messages;
pub mod operations;
pub mod printing;
pub mod renewals;
pub mod rule_sets;
pub mod sites;
