//! The agent's dashboard: its home and More Info (`home`), the Quoting and Submissions lists
//! (`lists`), their Excel exports (`export`), an application's replay as a scenario suite
//! (`scenario`) and a submission's evidence packet (`evidence`). Only the agent's own applications;
//! an admin acting as an agent is that agent.

pub mod evidence;
pub mod export;
pub mod home;
pub mod lists;
pub mod scenario;

/// The lists' filter, sort and rows, as `db/dashboard.rs` serves them.
pub use crate::db::dashboard::{Filter, List, ListRow, Slice, SortCol, StartedBy};
