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
    /// Check the rules, forms and templates under DIR; print every problem with file and line.
    Check {
        /// The folder holding rules/, forms/ and templates/.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// A language's catalogs (forms/locales/<code>.yaml, rules/locales/<code>.yaml) as they should
    /// be: every text a consumer may see, with its translation or "" where there is none yet.
    /// Prints them; with --write, writes them (a new language starts here).
    Texts {
        /// The language code, e.g. `es`.
        #[arg(long)]
        language: String,
        /// The folder holding rules/ and forms/.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// Write the catalogs instead of printing them.
        #[arg(long)]
        write: bool,
    },
    /// Run YAML scenario suites against the rules; ends with "N passed, M failed".
    Scenarios {
        /// Suite files or folders of suites.
        #[arg(default_value = "tests/scenarios")]
        paths: Vec<PathBuf>,
        /// The folder holding rules/ and forms/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Only the scenarios whose name contains this text (any case).
        #[arg(long)]
        filter: Option<String>,
        /// Also write the results as JUnit XML to this file (for CI test reports).
        #[arg(long)]
        junit: Option<PathBuf>,
    },
    /// Run the scenario suites and report what of the rules they reach; fails below the floor of
    /// rules/coverage.yaml.
    Coverage {
        /// Suite files or folders of suites.
        #[arg(default_value = "tests/scenarios")]
        paths: Vec<PathBuf>,
        /// The folder holding rules/ and forms/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Also write the report as one HTML page.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Also write the report as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// List what was reached too, not only what was not.
        #[arg(long)]
        all: bool,
    },
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
        Command::Check { dir } => Ok(cli::check(&dir, &HOST_TEXTS)),
        Command::Texts {
            language,
            dir,
            write,
        } => cli::texts(&dir, &language, write, &HOST_TEXTS),
        Command::Scenarios {
            paths,
            root,
            filter,
            junit,
        } => cli::scenarios(
            &root,
            &paths,
            filter.as_deref(),
            junit.as_deref(),
            &HOST_TEXTS,
        ),
        Command::Coverage {
            paths,
            root,
            html,
            json,
            all,
        } => cli::coverage(
            &root,
            &paths,
            html.as_deref(),
            json.as_deref(),
            all,
            &HOST_TEXTS,
        ),
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
