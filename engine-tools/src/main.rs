//! `enrollflow-rules`: the analysts' and testers' binary. It checks a rule set, runs the scenario
//! suites, measures their coverage, writes a language's catalogs and compares two sets over the
//! suites, with no database and no web server linked: it builds in a fraction of the server's
//! time. The server's `enrollflow` runs the same commands (`enrollflow_engine_tools::cli`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use enrollflow_engine_tools::cli;
use enrollflow_texts::HOST_TEXTS;

#[derive(Parser)]
#[command(name = "enrollflow-rules", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Rules(cli::RulesCommand),
    /// What the rules under AGAINST change against a base, over the scenario suites: each
    /// scenario whose result differs. (Stored applications and made-up households: the server's
    /// `enrollflow impact`, which reads the book from the database.)
    Impact {
        /// A folder, or a git revision of the repository in the current directory.
        #[arg(long)]
        base: String,
        /// The draft: a folder holding rules/, forms/ and templates/.
        #[arg(long, default_value = ".")]
        against: PathBuf,
        /// The scenario suites to run under both.
        #[arg(long, default_value = "tests/scenarios")]
        suites: PathBuf,
        /// Also write the report as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Exit 1 when anything changed (for CI).
        #[arg(long)]
        fail_on_change: bool,
    },
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Rules(command) => command.run(&HOST_TEXTS),
        Command::Impact {
            base,
            against,
            suites,
            json,
            fail_on_change,
        } => cli::impact(
            &base,
            &against,
            &suites,
            json.as_deref(),
            fail_on_change,
            &HOST_TEXTS,
        ),
    };
    outcome.unwrap_or_else(|e| {
        eprintln!("error: {e:#}");
        ExitCode::FAILURE
    })
}
