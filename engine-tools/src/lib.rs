//! The rules engine's tools, beside its core (`enrollflow-engine`): what analysts and testers run
//! against a rule set, and what the server's workbench and impact reuse. Nothing here is on a
//! consumer's path; the core never calls it.
//!
//! - [`set`]: a rule set as files (read from a folder, checked whole into a [`set::Bundle`]);
//!   [`protected`]: what no set may weaken, checked at every load.
//! - [`scenario`]: the YAML scenario suites testers write.
//! - [`coverage`]: the coverage report as HTML, and the floor of `rules/coverage.yaml` (the
//!   measuring is the core's, which alone sees its scripts and forms as they run).
//! - [`replay`] walks an application's steps; [`impact`] compares what two sets make of the same
//!   applications.
//! - [`texts`]: a language's catalogs as they should be.
//! - [`cli`]: the commands `check`, `texts`, `scenarios`, `coverage` and `impact`, shared by the
//!   analysts' binary (`enrollflow-rules`, `src/main.rs`: no database, no web server) and the
//!   server's `enrollflow`.

pub mod cli;
pub mod coverage;
pub mod impact;
pub mod protected;
pub mod replay;
pub mod scenario;
pub mod set;
pub mod texts;
