//! The analysts' and testers' commands on a rule set in a folder: `check`, `texts`,
//! `scenarios`, `coverage`, and `impact` between two folders or git revisions over the scenario
//! suites. The analysts' binary (`enrollflow-rules`) and the server's `enrollflow` both run them;
//! each is given the host's texts (`enrollflow_texts::HOST_TEXTS`), which every language of a set
//! must translate.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use enrollflow_engine::i18n::HostTexts;
use enrollflow_engine::{Diagnostic, Engine, Source};

use crate::set;

/// The commands on a rule set in a folder, as both binaries take them.
#[derive(Debug, clap::Subcommand)]
pub enum RulesCommand {
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

    /// Run the scenario suites and report what of the rules they reach: Rhai statements and
    /// branches, flow transitions, dialogs, fields shown and hidden, carriers quoted; fails below
    /// the floor of rules/coverage.yaml.
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
}

impl RulesCommand {
    /// Runs the command, with the host's texts for the translation check.
    pub fn run(self, host: &[HostTexts]) -> anyhow::Result<ExitCode> {
        match self {
            RulesCommand::Check { dir } => Ok(check(&dir, host)),
            RulesCommand::Texts {
                language,
                dir,
                write,
            } => texts(&dir, &language, write, host),
            RulesCommand::Scenarios {
                paths,
                root,
                filter,
                junit,
            } => scenarios(&root, &paths, filter.as_deref(), junit.as_deref(), host),
            RulesCommand::Coverage {
                paths,
                root,
                html,
                json,
                all,
            } => coverage(&root, &paths, html.as_deref(), json.as_deref(), all, host),
        }
    }
}

/// Prints each problem on a line of its own (standard error).
pub fn print_problems(problems: &[Diagnostic]) {
    for p in problems {
        eprintln!("{p}");
    }
}

/// `check`: every problem of the rules, forms and templates under `dir` with file and line, or
/// what the set holds.
pub fn check(dir: &Path, host: &[HostTexts]) -> ExitCode {
    // Translations of no text are served harmlessly, but a check names them.
    let extras = set::read_sources(dir)
        .map(|sources| enrollflow_engine::i18n::extras(&sources, host))
        .unwrap_or_default();
    match set::load_bundle(dir, host) {
        Ok(_) if !extras.is_empty() => {
            print_problems(&extras);
            eprintln!("{} problem(s)", extras.len());
            ExitCode::FAILURE
        }
        Ok(bundle) => {
            println!(
                "ok: {} steps, {} forms, rules {}",
                bundle.engine.steps().count(),
                bundle.engine.form_names().count(),
                &bundle.engine.hash()[..12]
            );
            ExitCode::SUCCESS
        }
        Err(problems) => {
            print_problems(&problems);
            eprintln!("{} problem(s)", problems.len());
            ExitCode::FAILURE
        }
    }
}

/// `enrollflow texts`: a language's catalogs, printed or written.
pub fn texts(
    dir: &Path,
    language: &str,
    write: bool,
    host: &[HostTexts],
) -> anyhow::Result<ExitCode> {
    let sources = set::read_sources(dir).map_err(|d| anyhow::anyhow!("{d}"))?;
    for (path, text) in crate::texts::skeleton(&sources, language, host) {
        if write {
            let target = dir.join(&path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, text)?;
            println!("wrote {path}");
        } else {
            println!("# --- {path}\n{text}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The suites under `paths` (files, or folders of them), read, each named as given.
pub fn read_suites(paths: &[PathBuf]) -> anyhow::Result<Vec<Source>> {
    let mut files = Vec::new();
    for p in paths {
        suite_files(p, &mut files)?;
    }
    files
        .iter()
        .map(|f| {
            Ok(Source::new(
                f.display().to_string(),
                std::fs::read_to_string(f)?,
            ))
        })
        .collect()
}

fn suite_files(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)?
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            suite_files(&e, out)?;
        }
    } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
        out.push(path.to_path_buf());
    } else if !path.exists() {
        anyhow::bail!("no such suite: {}", path.display());
    }
    Ok(())
}

/// `scenarios`: the suites under `paths` against the rules under `root`; ends with "N passed, M
/// failed".
pub fn scenarios(
    root: &Path,
    paths: &[PathBuf],
    filter: Option<&str>,
    junit: Option<&Path>,
    host: &[HostTexts],
) -> anyhow::Result<ExitCode> {
    let bundle = match set::load_bundle(root, host) {
        Ok(b) => b,
        Err(problems) => {
            print_problems(&problems);
            println!("0 passed, 1 failed");
            return Ok(ExitCode::FAILURE);
        }
    };
    let failed = run_suites(&bundle.engine, paths, filter, junit)?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Runs the suites under `paths` against `engine`, printing each failure and "N passed, M
/// failed"; the number failed.
pub fn run_suites(
    engine: &Engine,
    paths: &[PathBuf],
    filter: Option<&str>,
    junit: Option<&Path>,
) -> anyhow::Result<usize> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("enrollflow scenarios");
    let wanted = filter.map(str::to_lowercase);
    let keep = |name: &str| {
        wanted
            .as_deref()
            .is_none_or(|w| name.to_lowercase().contains(w))
    };
    let (mut passed, mut failed) = (0usize, 0usize);
    let files = read_suites(paths)?;
    let texts: Vec<(&str, &str)> = files
        .iter()
        .map(|f| (f.path.as_str(), f.text.as_str()))
        .collect();
    let outcomes = crate::scenario::run_suites(engine, &texts, keep);
    for (f, outcome) in files.iter().zip(outcomes) {
        let shown = f.path.clone();
        let mut suite = TestSuite::new(shown.clone());
        match outcome {
            Err(d) => {
                println!("FAIL {d}");
                failed += 1;
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
                status.set_message(d.to_string());
                suite.add_test_case(TestCase::new(shown.clone(), status));
            }
            Ok(results) => {
                for r in results {
                    let status = if r.passed() {
                        passed += 1;
                        TestCaseStatus::success()
                    } else {
                        failed += 1;
                        println!("FAIL {shown}:{}: {}", r.line, r.name);
                        for failure in &r.failures {
                            println!("     {failure}");
                        }
                        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                        status.set_message(r.failures.first().cloned().unwrap_or_default());
                        status.set_description(r.failures.join("\n"));
                        status
                    };
                    let mut case = TestCase::new(r.name.clone(), status);
                    case.set_classname(format!("{shown}:{}", r.line));
                    suite.add_test_case(case);
                }
            }
        }
        report.add_test_suite(suite);
    }
    if let Some(path) = junit {
        std::fs::write(path, report.to_string()?)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed)
}

/// `enrollflow coverage`: the suites run against the rules loaded for coverage; what they did not
/// reach (file:line), the summary line, the reports asked for, and the floor of
/// `rules/coverage.yaml` enforced.
pub fn coverage(
    root: &Path,
    paths: &[PathBuf],
    html: Option<&Path>,
    json: Option<&Path>,
    all: bool,
    host: &[HostTexts],
) -> anyhow::Result<ExitCode> {
    let sources = set::read_sources(root).map_err(|d| anyhow::anyhow!("{d}"))?;
    let engine = match set::load_engine(&sources, true, host) {
        Ok(e) => e,
        Err(problems) => {
            print_problems(&problems);
            anyhow::bail!("the rules under {} have problems", root.display());
        }
    };
    let failed = run_suites(&engine, paths, None, None)?;
    let report = engine
        .coverage()
        .ok_or_else(|| anyhow::anyhow!("the rules were not loaded for coverage"))?;
    for i in report.items.iter().filter(|i| all || !i.reached) {
        let mark = if i.reached { "reached" } else { "not reached" };
        println!("{}:{}: {mark}: {} {}", i.file, i.line, i.kind, i.what);
    }
    println!("coverage: {}", report.totals.summary());
    if let Some(path) = html {
        std::fs::write(
            path,
            crate::coverage::html(&report, "Enrollflow rule coverage"),
        )
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    let floor_file = root.join(enrollflow_engine::COVERAGE_FLOOR);
    let mut short = Vec::new();
    if floor_file.exists() {
        let text = std::fs::read_to_string(&floor_file)?;
        let floor = crate::coverage::Floor::parse(&text).map_err(|d| anyhow::anyhow!("{d}"))?;
        short = floor.shortfalls(&report.totals);
        for s in &short {
            println!("FAIL {}: {s}", enrollflow_engine::COVERAGE_FLOOR);
        }
    }
    Ok(if failed == 0 && short.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `impact` without a database: the scenario suites under `suites` run under a base (a folder,
/// or a git revision of the repository in the current directory) and under the draft in
/// `against`; each scenario whose result differs is listed. Stored applications and made-up
/// households are the server's (`enrollflow impact`), which reads the book from the database.
pub fn impact(
    base: &str,
    against: &Path,
    suites: &Path,
    json: Option<&Path>,
    fail_on_change: bool,
    host: &[HostTexts],
) -> anyhow::Result<ExitCode> {
    let base_files = if Path::new(base).is_dir() {
        set::read_set(Path::new(base)).map_err(|d| anyhow::anyhow!("{d}"))?
    } else {
        set::set_at_revision(Path::new("."), base)?
    };
    let loaded = |what: &str, r: Result<set::Bundle, Vec<Diagnostic>>| {
        r.map_err(|problems| {
            print_problems(&problems);
            anyhow::anyhow!("the {what} rules have problems")
        })
    };
    let base = loaded("base", set::bundle_of(&base_files, host))?;
    let draft = loaded(
        "draft",
        set::read_set(against)
            .map_err(|d| vec![d])
            .and_then(|f| set::bundle_of(&f, host)),
    )?;
    let suites = read_suites(&[suites.to_path_buf()])?;
    let (run, changed) =
        crate::impact::compare_suites(&base.engine, &draft.engine, &suites, &|| true);
    let report = crate::impact::Report::of_suites(&base.engine, &draft.engine, run, changed);
    print!("{}", report.table());
    if let Some(path) = json {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    }
    Ok(if fail_on_change && !report.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
