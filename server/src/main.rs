//! The `enrollflow` command: `serve`, `migrate`, `seed`, `seed-demo-data`, `invite`, `mail`,
//! `check`, `scenarios`, `coverage`, `impact`, `publish`, `rollback`, `rule-sets`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use enrollflow_engine_tools::cli;
use enrollflow_server::http::state::AppState;
use enrollflow_server::npn::Npn;
use enrollflow_server::platform::clock::{Clock, SystemClock};
use enrollflow_server::platform::config::ServeArgs;
use enrollflow_server::platform::telemetry;
use enrollflow_server::platform::texts::HOST_TEXTS;
use enrollflow_server::rules::{self, Rules};
use enrollflow_server::security::crypto::Cipher;
use enrollflow_server::startup::serve;
use enrollflow_server::{accounts, db, demo_data, seed};

#[derive(Parser)]
#[command(
    name = "enrollflow",
    version,
    about = "Enrollflow quoting and enrollment service"
)]
struct Cli {
    /// PostgreSQL connection URL (serve, migrate, seed): from `DATABASE_URL` or the file
    /// `DATABASE_URL_FILE`, never a flag (it may hold a password, and `ps` shows command lines).
    #[arg(skip)]
    database_url: Option<String>,

    #[command(subcommand)]
    command: Command,
}

/// What `enrollflow audit` does.
#[derive(Debug, clap::Subcommand)]
enum AuditCommand {
    /// Check that no row of the audit log was changed or removed.
    Verify,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server (runs pending migrations first).
    #[command(args_override_self = true)]
    Serve(Box<ServeArgs>),
    /// Apply pending database migrations.
    Migrate,
    /// The draft worker `serve` starts: impacts of drafts, one JSON line in and one out.
    #[command(hide = true)]
    DraftWorker,
    /// Back up the database (pg_dump's custom format) and every object of the document store (the
    /// folder, or the bucket of ENROLLFLOW_DOCUMENT_STORE) into a new folder only its owner may
    /// read, with a manifest of every table's row count and a checksum of the applications; every
    /// file sealed (AES-256-GCM) under ENROLLFLOW_BACKUP_KEY(_FILE), a key kept apart from the
    /// data key.
    Backup {
        /// The folder to write (created; must be empty). Default: backups/<UTC time>.
        #[arg(long)]
        to: Option<PathBuf>,
        /// The local document store (when ENROLLFLOW_DOCUMENT_STORE names no bucket).
        #[arg(
            long,
            env = "ENROLLFLOW_DOCUMENTS_DIR",
            default_value = "var/documents"
        )]
        documents_dir: PathBuf,
    },
    /// Re-encrypt every stored secret (SSNs, private mail, authenticator secrets) under the current
    /// data key, in batches, while the service runs; resumes where a stopped run was. Keys come
    /// from the environment or files: the new one in ENROLLFLOW_DATA_KEY(_FILE), the one being
    /// replaced in ENROLLFLOW_OLD_DATA_KEYS(_FILE). Remove the old key when it says it is done.
    RotateKey {
        /// Applications per batch.
        #[arg(long, default_value_t = 500)]
        batch: i64,
        /// The folder holding rules/ and forms/ (which answers are sensitive).
        #[arg(long, env = "ENROLLFLOW_ROOT", default_value = ".")]
        root: PathBuf,
        /// The local document store (its files are re-encrypted too).
        #[arg(
            long,
            env = "ENROLLFLOW_DOCUMENTS_DIR",
            default_value = "var/documents"
        )]
        documents_dir: PathBuf,
    },
    /// Restore a backup folder into an empty database (DATABASE_URL) and document store, opening
    /// it with ENROLLFLOW_BACKUP_KEY(_FILE) (a changed or cut file is refused), then check every
    /// table's row count, the applications' checksum and the documents against its manifest.
    Restore {
        /// The folder `enrollflow backup` wrote.
        #[arg(long)]
        from: PathBuf,
        /// The local document store to fill (when ENROLLFLOW_DOCUMENT_STORE names no bucket).
        #[arg(
            long,
            env = "ENROLLFLOW_DOCUMENTS_DIR",
            default_value = "var/documents"
        )]
        documents_dir: PathBuf,
    },
    /// Print the effective configuration `serve` would run with, from these flags, the
    /// environment, the configuration file and the defaults, each setting with where it came
    /// from; secrets masked.
    #[command(args_override_self = true)]
    Config(Box<ServeArgs>),
    /// Print the OpenAPI document of the HTTP API (the web app's types are generated from it).
    Openapi,
    /// Load the demo agents and their users (idempotent). The users get the published demo
    /// password, so it refuses to run without `--demo`.
    Seed {
        /// The demo data file.
        #[arg(long, default_value = "demo/agents.json")]
        file: PathBuf,
        /// Confirms this is a demo or test database (its users' password is public).
        #[arg(long, env = "ENROLLFLOW_DEMO", default_value_t = false)]
        demo: bool,
    },
    /// Print the current code of the demo admins' published authenticator secret (demo only:
    /// the secret is in the README; a real account's secret never leaves the server).
    DemoCode,
    /// Print the newest e-mails of the outbox whole, their links included (the operator's way to
    /// read a demo's mail without SMTP; it needs the database and the data key, which no web user
    /// has). Admins see the same mails with their links hidden.
    Mail {
        /// Only mails to this address.
        #[arg(long)]
        to: Option<String>,
        /// How many (newest first).
        #[arg(long, default_value_t = 10)]
        last: i64,
        /// One JSON array instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Tell whether FILE, an evidence packet's JSON or PDF downloaded from Submissions, is the
    /// one made at the purchase (exit 0) and which key signed it, or was changed or is unknown
    /// (exit 1; for a changed JSON, which parts differ where the database is at hand). A signed
    /// file is checked offline, against the keys of --keys or the configured evidence keys
    /// (ENROLLFLOW_EVIDENCE_KEY(_FILE), ENROLLFLOW_EVIDENCE_PUBLIC_KEYS(_FILE), or the data key's
    /// derived key); one made before evidence was signed, against the database.
    VerifyPacket {
        /// The downloaded `evidence-….json` or `evidence-….pdf`.
        file: std::path::PathBuf,
        /// The trusted public keys: the JSON of `/.well-known/enrollflow-evidence-keys.json`.
        #[arg(long)]
        keys: Option<PathBuf>,
    },
    /// Make a new evidence signing key: prints the secret line for ENROLLFLOW_EVIDENCE_KEY (keep it
    /// outside the database, as the data key) and the public line to add to
    /// ENROLLFLOW_EVIDENCE_PUBLIC_KEYS when the key is retired, so its packets still verify.
    EvidenceKey {
        /// The key's id, written into every packet it signs (letters, digits, '.', '_', '-').
        #[arg(long)]
        id: String,
    },
    /// Load demo quotes and submissions for the demo agents, spread over the 12 months before
    /// today (ENROLLFLOW_TODAY), and three agent messages (idempotent: an agent that already has
    /// demo applications gets none). Run `seed` first.
    SeedDemoData {
        /// Applications in all, shared equally by the agents.
        #[arg(long, default_value_t = 4000)]
        applications: usize,
        /// Only the agent with this NPN (repeatable); all agents by default.
        #[arg(long = "agent")]
        agents: Vec<Npn>,
        /// The share of the applications that are submitted (0 to 1).
        #[arg(long, default_value_t = 0.38)]
        submitted_share: f64,
        /// The random generator's seed.
        #[arg(long, default_value_t = 2024)]
        seed: u64,
        /// Walk at most this many applications per agent through the rules and make the rest
        /// as copies of them by other people (other names, e-mail addresses and times of day):
        /// how `make bench-dashboard` loads 1,000,000 in minutes. All are walked by default.
        #[arg(long)]
        distinct: Option<usize>,
        /// The folder holding rules/ (the plan catalog and the calendar).
        #[arg(long, env = "ENROLLFLOW_ROOT", default_value = ".")]
        root: PathBuf,
    },
    /// Load the issuers' provider and formulary files in the CMS format (cms-data-index.json,
    /// plans.json, providers.json, drugs.json): which plans cover a doctor or a drug. Each input is
    /// a folder (one index per issuer, in it or its subfolders), an index, or an issuer's files
    /// one by one. Every file is checked before anything is written: a malformed one refuses the
    /// import with its line. An issuer whose files are unchanged is skipped.
    ImportCoverage {
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Invite a user: creates the account without a password and e-mails (to the outbox) a link
    /// to create it, valid for 7 days.
    Invite {
        /// The user's e-mail address.
        #[arg(long)]
        email: String,
        #[arg(long)]
        first_name: String,
        #[arg(long)]
        last_name: String,
        /// The agent's NPN (required for agents; for an admin, the agent whose site is theirs).
        #[arg(long)]
        npn: Option<Npn>,
        /// `agent`, `admin` or `analyst` (the rules workbench only).
        #[arg(long, default_value = "agent")]
        role: String,
        /// Where the link in the e-mail points (the agent's site).
        #[arg(long, default_value = "http://localhost:8080")]
        base_url: String,
    },
    // `check`, `texts`, `scenarios`, `coverage`: the analysts' and testers' commands on a rule
    // set in a folder, as `enrollflow-rules` takes them.
    #[command(flatten)]
    Rules(cli::RulesCommand),
    /// Publish the rules, forms and templates under ROOT as the set every instance serving from
    /// the database switches to (checked first: a set with problems is refused).
    Publish {
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Who publishes (kept with the set).
        #[arg(long)]
        author: String,
        /// What changed.
        #[arg(long)]
        note: Option<String>,
    },
    /// Serve an earlier published set again (its hash, or the start of it).
    Rollback {
        hash: String,
        #[arg(long)]
        author: String,
    },
    /// What the rules under AGAINST change against a base: every scenario suite and the most
    /// recent stored applications (with DATABASE_URL) run under both; every difference listed,
    /// grouped by what changed.
    Impact {
        /// `published` (the set serving from the database), a folder, or a git revision of the
        /// repository in the current directory.
        #[arg(long)]
        base: String,
        /// The draft: a folder holding rules/, forms/ and templates/.
        #[arg(long, default_value = ".")]
        against: PathBuf,
        /// The scenario suites to run under both.
        #[arg(long, default_value = "tests/scenarios")]
        suites: PathBuf,
        /// How many of the most recently saved applications to replay (0: none).
        #[arg(long, default_value_t = 200)]
        applications: i64,
        /// How many made-up households to walk (drawn to match the stored book's mix).
        #[arg(long, default_value_t = 1000)]
        households: usize,
        /// Also write the report as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Exit 1 when anything changed (for CI).
        #[arg(long)]
        fail_on_change: bool,
    },
    /// The audit log: `enrollflow audit verify` walks its chain and names the first row changed or
    /// missing (exit 1), or says how many rows hold.
    Audit {
        #[command(subcommand)]
        what: AuditCommand,
    },
    /// The published rule sets, newest first.
    RuleSets {
        #[arg(long, default_value_t = 20)]
        last: i64,
    },
}

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    // A configuration file's settings come before the flags given (which win over them).
    let args = {
        use clap::Args as _;
        let serve = ServeArgs::augment_args(clap::Command::new("serve"));
        match enrollflow_server::platform::config::with_config_file(
            std::env::args_os().collect(),
            &serve,
        ) {
            Ok(args) => args,
            Err(e) => {
                eprintln!("enrollflow: {e:#}");
                return ExitCode::FAILURE;
            }
        }
    };
    let cli = Cli::parse_from(args);
    if matches!(
        cli.command,
        Command::Serve(_)
            | Command::Migrate
            | Command::Seed { .. }
            | Command::SeedDemoData { .. }
            | Command::Invite { .. }
    ) {
        telemetry::init();
    }
    let mut cli = cli;
    match enrollflow_server::security::crypto::env_or_file("DATABASE_URL") {
        Ok(url) => cli.database_url = url.map(|u| u.trim().to_string()),
        Err(e) => {
            eprintln!("enrollflow: {e:#}");
            return ExitCode::FAILURE;
        }
    }
    match run(cli).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("enrollflow: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The settings `enrollflow config` prints: every flag of `serve` with its environment variable,
/// value and source (read again from this process's arguments after `config`), then the secrets
/// `serve` reads from the environment or files, masked.
fn effective_config() -> anyhow::Result<String> {
    use clap::Args as _;
    use clap::parser::ValueSource;
    use std::fmt::Write as _;
    let given: Vec<std::ffi::OsString> =
        std::env::args_os().skip_while(|a| a != "config").collect();
    let cmd = ServeArgs::augment_args(clap::Command::new("config")).args_override_self(true);
    // As `serve` reads them: the program's name, the subcommand, the file's settings, the flags.
    let named: Vec<std::ffi::OsString> = std::iter::once("enrollflow".into())
        .chain(given.iter().cloned())
        .collect();
    let args: Vec<std::ffi::OsString> =
        enrollflow_server::platform::config::with_config_file(named, &cmd)?
            .into_iter()
            .skip(1)
            .collect();
    let from_file: Vec<String> = args[1..1 + args.len() - given.len()]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let on_command_line = |long: &str| {
        given.iter().any(|a| {
            let a = a.to_string_lossy();
            a == format!("--{long}") || a.starts_with(&format!("--{long}="))
        })
    };
    let matches = cmd.clone().try_get_matches_from(args)?;
    let mut out = String::from("# enrollflow serve would run with (secrets masked):\n");
    let knobs = cmd
        .get_arguments()
        .filter(|a| {
            a.get_help_heading() == Some(enrollflow_server::platform::config::NOT_PRODUCTION)
        })
        .count();
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if id == "help" {
            continue;
        }
        let long = arg.get_long().unwrap_or(id);
        let in_file = from_file
            .iter()
            .any(|a| *a == format!("--{long}") || a.starts_with(&format!("--{long}=")));
        let name = match (arg.get_env(), arg.get_long()) {
            (Some(env), Some(long)) => format!("{} (--{long})", env.to_string_lossy()),
            (None, Some(long)) => format!("--{long}"),
            _ => id.to_string(),
        };
        let value = matches
            .get_raw(id)
            .map(|v| {
                v.map(|o| o.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_else(|| "(unset)".into());
        let source = match matches.value_source(id) {
            Some(ValueSource::CommandLine) if in_file && !on_command_line(long) => "file",
            Some(ValueSource::CommandLine) => "command line",
            Some(ValueSource::EnvVariable) => "environment",
            Some(ValueSource::DefaultValue) => "default",
            _ => "unset",
        };
        let knob =
            arg.get_help_heading() == Some(enrollflow_server::platform::config::NOT_PRODUCTION);
        match enrollflow_server::platform::config::setting_of(id) {
            _ if knob => writeln!(
                out,
                "{name} = {value}   [{source}; not a production setting]"
            )?,
            Some((setting, "")) => writeln!(out, "{name} = {value}   [{source}] {setting}")?,
            Some((setting, key)) => writeln!(out, "{name} = {value}   [{source}] {setting}.{key}")?,
            None => writeln!(out, "{name} = {value}   [{source}]")?,
        }
    }
    let env = |name: &str| enrollflow_server::security::crypto::env_or_file(name);
    let masked_url = |url: Option<String>| match url {
        Some(u) => {
            let (plain, password) =
                enrollflow_server::maintenance::backup::without_password(u.trim());
            match password {
                Some(_) => format!("{} (password hidden)", plain),
                None => plain,
            }
        }
        None => "(unset)".into(),
    };
    writeln!(out, "DATABASE_URL = {}", masked_url(env("DATABASE_URL")?))?;
    writeln!(
        out,
        "ENROLLFLOW_SMTP_URL = {}",
        masked_url(env("ENROLLFLOW_SMTP_URL")?)
    )?;
    let is_set = |v: Option<String>| match v {
        Some(v) => format!("set ({} characters, hidden)", v.trim().chars().count()),
        None => "(unset)".into(),
    };
    writeln!(
        out,
        "ENROLLFLOW_ADMIN_TOKEN = {}",
        is_set(env("ENROLLFLOW_ADMIN_TOKEN")?)
    )?;
    writeln!(
        out,
        "ENROLLFLOW_BACKUP_KEY = {}",
        is_set(env("ENROLLFLOW_BACKUP_KEY")?)
    )?;
    let cipher = enrollflow_server::security::crypto::keys_from_env()?;
    writeln!(
        out,
        "ENROLLFLOW_DATA_KEY = {}",
        cipher.as_ref().map_or_else(
            || "(unset)".to_string(),
            |c| format!("key {} (hidden)", c.key_id())
        )
    )?;
    let evidence = enrollflow_server::documents::signing::EvidenceKeys::from_env(cipher.as_ref())?;
    writeln!(
        out,
        "ENROLLFLOW_EVIDENCE_KEY = {}",
        evidence
            .as_ref()
            .and_then(|k| k.signing_key_id())
            .map_or_else(
                || "(unset)".to_string(),
                |id| format!("signs with key {id} (hidden)")
            )
    )?;
    writeln!(
        out,
        "# {} production settings besides the secrets; {knobs} for demonstration, tests and \
         benchmarks",
        enrollflow_server::platform::config::SETTINGS.len()
    )?;
    Ok(out)
}

/// The document store the server uses: the bucket `ENROLLFLOW_DOCUMENT_STORE` names, or the folder.
fn document_store(
    documents_dir: &std::path::Path,
) -> anyhow::Result<enrollflow_server::documents::ObjectStore> {
    let bucket = std::env::var("ENROLLFLOW_DOCUMENT_STORE").ok();
    enrollflow_server::documents::ObjectStore::from_config(documents_dir, bucket.as_deref())
}

/// The data keys (`ENROLLFLOW_DATA_KEY` or `ENROLLFLOW_DATA_KEY_FILE`, and the older keys of a
/// rotation): from the environment or files only, never a flag.
fn data_keys() -> anyhow::Result<Cipher> {
    enrollflow_server::security::crypto::keys_from_env()?.ok_or_else(|| {
        anyhow::anyhow!(
            "ENROLLFLOW_DATA_KEY (or ENROLLFLOW_DATA_KEY_FILE) is not set: give 32 random bytes \
             in base64 (head -c32 /dev/urandom | base64); `make demo` makes one"
        )
    })
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let url = || {
        cli.database_url
            .clone()
            .ok_or_else(|| anyhow::anyhow!("DATABASE_URL (or DATABASE_URL_FILE) is not set"))
    };
    match cli.command {
        Command::Rules(command) => command.run(&HOST_TEXTS),
        Command::Publish { root, author, note } => {
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            let files = rules::read_set(&root).map_err(|d| anyhow::anyhow!("{d}"))?;
            let now = SystemClock::from_env()?.now();
            match rules::publish(&pool, &files, &author, note.as_deref(), now).await? {
                Ok(p) => {
                    enrollflow_server::rules::governance::audit_operator(
                        &pool,
                        db::audit::Action::RulesPublished,
                        &format!("operator publish {} by {author}", p.hash),
                        now,
                    )
                    .await?;
                    println!("published {} (rules {})", p.hash, p.engine_hash);
                    Ok(ExitCode::SUCCESS)
                }
                Err(problems) => {
                    cli::print_problems(&problems);
                    println!("not published: {} problem(s)", problems.len());
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::Impact {
            base,
            against,
            suites,
            applications,
            households,
            json,
            fail_on_change,
        } => {
            let pool = match &cli.database_url {
                Some(u) if !u.trim().is_empty() => Some(db::connect(u).await?),
                _ => None,
            };
            let base_files = if base == "published" {
                let pool = pool.as_ref().ok_or_else(|| {
                    anyhow::anyhow!("--base published reads the database: set DATABASE_URL")
                })?;
                let (_, files) = db::rule_sets::serving(pool, SystemClock::from_env()?.now())
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("no rule set is published yet"))?;
                db::rule_sets::sources(&files)
            } else if Path::new(&base).is_dir() {
                rules::read_set(Path::new(&base)).map_err(|d| anyhow::anyhow!("{d}"))?
            } else {
                enrollflow_server::rules::impact::set_at_revision(Path::new("."), &base)?
            };
            let loaded =
                |what: &str, r: Result<rules::Bundle, Vec<enrollflow_engine::Diagnostic>>| {
                    r.map_err(|problems| {
                        cli::print_problems(&problems);
                        anyhow::anyhow!("the {what} rules have problems")
                    })
                };
            let base_bundle = loaded("base", rules::bundle_of(&base_files))?;
            let draft = loaded(
                "draft",
                rules::read_set(&against)
                    .map_err(|d| vec![d])
                    .and_then(|f| rules::bundle_of(&f)),
            )?;
            let suites = cli::read_suites(&[suites])?;
            let apps = match (&pool, applications) {
                (Some(pool), n) if n > 0 => {
                    enrollflow_server::rules::impact::recent_applications(pool, n).await?
                }
                (None, n) if n > 0 => {
                    eprintln!("no DATABASE_URL: no stored applications replayed");
                    Vec::new()
                }
                _ => Vec::new(),
            };
            let mix = match &pool {
                Some(pool) => {
                    enrollflow_server::rules::impact::book_mix(pool, base_bundle.engine.catalog())
                        .await?
                }
                None => enrollflow_server::demo_data::Mix::default(),
            };
            let inputs = enrollflow_server::rules::impact::Inputs {
                suites: &suites,
                stored: &apps,
                mix: &mix,
                households,
                today: SystemClock::from_env()?.today(),
            };
            let report = enrollflow_server::rules::impact::compare(
                &base_bundle,
                &draft.engine,
                &inputs,
                &enrollflow_server::rules::budget::Budget::new(std::time::Duration::from_secs(
                    3600,
                )),
            )
            .map_err(|e| anyhow::anyhow!(e))?;
            print!("{}", report.table());
            if let Some(path) = json {
                std::fs::write(&path, serde_json::to_string_pretty(&report)?)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            }
            Ok(if fail_on_change && !report.is_empty() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Rollback { hash, author } => {
            let pool = db::connect(&url()?).await?;
            let now = SystemClock::from_env()?.now();
            match db::rule_sets::rollback(&pool, &hash, &author, now).await? {
                Some(p) => {
                    enrollflow_server::rules::governance::audit_operator(
                        &pool,
                        db::audit::Action::RulesRolledBack,
                        &format!("operator rollback to {} by {author}", p.hash),
                        now,
                    )
                    .await?;
                    println!("serving {} again (rules {})", p.hash, p.engine_hash);
                    Ok(ExitCode::SUCCESS)
                }
                None => {
                    println!("no single published set starts with {hash}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::Audit {
            what: AuditCommand::Verify,
        } => {
            let pool = db::connect(&url()?).await?;
            match db::audit::verify(&pool).await? {
                db::audit::Verdict::Intact { rows } => {
                    println!("the audit log holds: {rows} row(s), each chained to the one before");
                    Ok(ExitCode::SUCCESS)
                }
                db::audit::Verdict::Broken { id, why } => {
                    match id {
                        Some(id) => println!("BROKEN at row {id}: {why}"),
                        None => println!("BROKEN: {why}"),
                    }
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::RuleSets { last } => {
            let pool = db::connect(&url()?).await?;
            for p in db::rule_sets::history(&pool, last).await? {
                println!(
                    "{}  {:8}  {}  {}  {}",
                    p.published_at,
                    p.action,
                    &p.hash[..12.min(p.hash.len())],
                    p.author,
                    p.note.unwrap_or_default()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate => {
            db::migrate(&db::connect(&url()?).await?).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::RotateKey {
            batch,
            root,
            documents_dir,
        } => {
            let cipher = data_keys()?;
            let bundle = bundle_or_bail(&root)?;
            let pool = db::connect(&url()?).await?;
            eprintln!("rotating to data key {}", cipher.key_id());
            let done = enrollflow_server::security::keys::rotate(
                &pool,
                &cipher,
                &bundle.engine,
                &enrollflow_server::documents::ObjectStore::from_config(
                    &documents_dir,
                    std::env::var("ENROLLFLOW_DOCUMENT_STORE").ok().as_deref(),
                )?,
                enrollflow_server::security::keys::Options {
                    batch,
                    stop_after: None,
                },
                |p| {
                    eprintln!(
                        "applications: {} of {} looked at, {} re-encrypted",
                        p.done, p.total, p.rotated
                    )
                },
            )
            .await?;
            if done.resumed_at > 0 {
                eprintln!(
                    "(resumed after {} applications done earlier)",
                    done.resumed_at
                );
            }
            println!(
                "done: every stored secret is under key {} ({} applications, {} messages, {} \
                 users, {} documents re-encrypted); the old key may be removed",
                cipher.key_id(),
                done.applications,
                done.outbox,
                done.users,
                done.documents
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Backup { to, documents_dir } => {
            let url = url()?;
            // The operator's tool: the login's own role, which reads every table.
            let pool = db::connect_as_owner(&url).await?;
            let to = to.unwrap_or_else(enrollflow_server::maintenance::backup::default_folder);
            let key = enrollflow_server::security::sealed::BackupKey::from_env()?;
            let store = document_store(&documents_dir)?;
            let f = enrollflow_server::maintenance::backup::backup(&pool, &url, &store, &to, &key)
                .await?;
            println!(
                "backed up {} tables ({} applications) and {} documents to {}",
                f.tables.len(),
                f.tables.get("applications").copied().unwrap_or(0),
                f.documents,
                to.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Restore {
            from,
            documents_dir,
        } => {
            let url = url()?;
            let pool = db::connect_as_owner(&url).await?;
            let key = enrollflow_server::security::sealed::BackupKey::from_env()?;
            let store = document_store(&documents_dir)?;
            let f =
                enrollflow_server::maintenance::backup::restore(&pool, &url, &store, &from, &key)
                    .await?;
            println!(
                "restored {} tables ({} applications) and {} documents; row counts and the \
                 applications' checksum match the backup",
                f.tables.len(),
                f.tables.get("applications").copied().unwrap_or(0),
                f.documents
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Config(_) => {
            print!("{}", effective_config()?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Openapi => {
            println!("{}", enrollflow_server::http::openapi_document()?);
            Ok(ExitCode::SUCCESS)
        }
        Command::DemoCode => {
            println!(
                "{}",
                enrollflow_server::accounts::second_factor::code_at(
                    seed::DEMO_TOTP_SECRET,
                    time::OffsetDateTime::now_utc()
                )?
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::ImportCoverage { inputs } => {
            let started = std::time::Instant::now();
            let issuers = enrollflow_server::coverage::gather(&inputs)?;
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            let now = {
                use enrollflow_server::platform::clock::Clock;
                SystemClock::from_env()?.now()
            };
            let done = enrollflow_server::coverage::import(&pool, &issuers, now).await?;
            for d in &done {
                match d {
                    enrollflow_server::coverage::Imported::Loaded {
                        issuer_id,
                        plans,
                        providers,
                        drugs,
                    } => println!(
                        "issuer {issuer_id}: loaded {plans} plans, {providers} providers, {drugs} drugs"
                    ),
                    enrollflow_server::coverage::Imported::Unchanged { issuer_id } => {
                        println!("issuer {issuer_id}: unchanged since its last import")
                    }
                }
            }
            println!(
                "import-coverage: {} issuers in {:.1} s",
                done.len(),
                started.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Seed { file, demo } => {
            anyhow::ensure!(
                demo,
                "`seed` gives its users the published demo password: run it only on a demo or test \
                 database, with --demo (ENROLLFLOW_DEMO=true). Invite real users with `invite`."
            );
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            // With the data key, demo admins get the published demo authenticator secret;
            // without it they set up their own at their first login.
            let cipher = enrollflow_server::security::crypto::keys_from_env()?;
            let n = seed::load_file(&pool, &file, cipher.as_ref()).await?;
            println!(
                "seeded {} demo agents ({} new users) from {}",
                n.agents,
                n.users_created,
                file.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::SeedDemoData {
            applications,
            agents,
            submitted_share,
            seed,
            distinct,
            root,
        } => {
            let bundle = bundle_or_bail(&root)?;
            let today = {
                use enrollflow_server::platform::clock::Clock;
                SystemClock::from_env()?.today()
            };
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            let started = std::time::Instant::now();
            let opts = demo_data::Options {
                agents,
                submitted_share,
                seed,
                distinct: distinct.unwrap_or(usize::MAX),
                ..demo_data::Options::new(applications, today)
            };
            let rules = demo_data::Rules {
                engine: &bundle.engine,
            };
            let n = demo_data::load(&pool, &rules, &opts).await?;
            println!(
                "seeded {} demo applications ({} submitted; {} agents already had theirs) and {} \
                 messages in {:.1} s (today {today})",
                n.applications,
                n.submitted,
                n.agents_skipped,
                n.messages,
                started.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Mail { to, last, json } => {
            let cipher = data_keys()?;
            let pool = db::connect(&url()?).await?;
            let to = to.as_deref().map(|a| {
                (
                    a,
                    enrollflow_server::platform::mail::recipient_digest(&cipher, a),
                )
            });
            let rows = db::outbox::newest_to(&pool, to, last.clamp(1, 1000)).await?;
            let mut mails = Vec::with_capacity(rows.len());
            for m in &rows {
                let body = enrollflow_server::platform::mail::reveal(&cipher, m)?;
                let to_address = enrollflow_server::platform::mail::recipient(&cipher, m)?;
                mails.push(serde_json::json!({
                    "to_address": to_address,
                    "subject": m.subject,
                    "body": body,
                    "created_at": m.created_at.to_string(),
                    "sent": m.sent_at.is_some(),
                }));
            }
            if json {
                println!("{}", serde_json::Value::Array(mails));
            } else if mails.is_empty() {
                println!("no mail");
            } else {
                for m in &mails {
                    println!(
                        "To: {}\nSubject: {}\nDate: {}\n\n{}\n----",
                        m["to_address"].as_str().unwrap_or(""),
                        m["subject"].as_str().unwrap_or(""),
                        m["created_at"].as_str().unwrap_or(""),
                        m["body"].as_str().unwrap_or("(sent: the text is not kept)")
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::VerifyPacket { file, keys } => {
            use enrollflow_server::documents::evidence::{Verdict, confirmation, verify};
            use enrollflow_server::documents::signing::EvidenceKeys;
            let bytes = std::fs::read(&file)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
            let keys = match keys {
                Some(path) => EvidenceKeys::from_jwks(
                    &std::fs::read(&path)
                        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?,
                )?,
                None => {
                    let cipher = enrollflow_server::security::crypto::keys_from_env()?;
                    EvidenceKeys::from_env(cipher.as_ref())?.ok_or_else(|| {
                        anyhow::anyhow!(
                            "no trusted evidence keys: give --keys (the JSON of \
                             /.well-known/enrollflow-evidence-keys.json) or the service's keys"
                        )
                    })?
                }
            };
            let pool = match &cli.database_url {
                Some(u) => Some(db::connect(u).await?),
                None => None,
            };
            let named = |id: Option<uuid::Uuid>| match id {
                Some(id) => format!(" of application {id} (confirmation {})", confirmation(id)),
                None => String::new(),
            };
            let (ok, said) = match verify(&keys, pool.as_ref(), &bytes).await? {
                Verdict::Signed {
                    key_id,
                    application_id,
                } => (
                    true,
                    format!(
                        "intact: {} is the evidence{} as signed with key {key_id}",
                        file.display(),
                        named(application_id)
                    ),
                ),
                Verdict::Intact { application_id } => (
                    true,
                    format!(
                        "intact: {} is byte for byte the evidence packet stored at the purchase{} \
                         (made before evidence was signed)",
                        file.display(),
                        named(Some(application_id))
                    ),
                ),
                Verdict::Altered {
                    key_id,
                    application_id,
                    differs,
                } => (
                    false,
                    format!(
                        "ALTERED: {}{} is not what {}{}",
                        file.display(),
                        named(application_id),
                        match key_id {
                            Some(k) => format!("key {k} signed"),
                            None => "was stored at the purchase".into(),
                        },
                        if differs.is_empty() {
                            String::new()
                        } else {
                            format!("; it differs in: {}", differs.join(", "))
                        }
                    ),
                ),
                Verdict::UnknownKey { key_id } => (
                    false,
                    format!(
                        "UNKNOWN KEY: {} is signed with key {key_id}, which is not among the \
                         trusted evidence keys",
                        file.display()
                    ),
                ),
                Verdict::Unknown => (
                    false,
                    format!(
                        "UNKNOWN: {} matches no stored evidence packet or packet PDF (changed, or \
                         not from this service)",
                        file.display()
                    ),
                ),
            };
            println!("{said}");
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::EvidenceKey { id } => {
            let (secret, public) = enrollflow_server::documents::signing::new_key(&id)?;
            println!("ENROLLFLOW_EVIDENCE_KEY={secret}");
            println!("# when it is retired, add to ENROLLFLOW_EVIDENCE_PUBLIC_KEYS: {public}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Invite {
            email,
            first_name,
            last_name,
            npn,
            role,
            base_url,
        } => {
            let cipher = data_keys()?;
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            let id = accounts::invite(
                &pool,
                &cipher,
                base_url.trim_end_matches('/'),
                &accounts::Invitation {
                    email: &email,
                    first_name: &first_name,
                    last_name: &last_name,
                    role: &role,
                    npn: npn.as_ref(),
                },
                time::OffsetDateTime::now_utc(),
            )
            .await?;
            println!(
                "invited user {id}: the invitation e-mail is in the outbox (read it with \
                 `enrollflow mail --to {email}`)"
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::DraftWorker => {
            enrollflow_server::rules::draft_worker::serve()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(mut args) => {
            args.draft_worker = std::env::current_exe().ok();
            args.read_secrets()?;
            let cipher = data_keys()?;
            args.evidence_keys =
                enrollflow_server::documents::signing::EvidenceKeys::from_env(Some(&cipher))?;
            let rules = match Rules::load(&args.root) {
                Ok(r) => Arc::new(r),
                Err(problems) => {
                    cli::print_problems(&problems);
                    anyhow::bail!("the rules under {} have problems", args.root.display());
                }
            };
            let pool = db::connect(&url()?).await?;
            db::migrate(&pool).await?;
            let clock = Arc::new(SystemClock::from_env()?);
            if let Some(shift) = &clock.shift {
                tracing::warn!(
                    file = %shift.file().display(),
                    "the clock is moved by the seconds in this file: for tests and demonstrations, never production"
                );
            }
            if args.rules_from_database {
                // Watching the folder (local development): its files as they are now go first.
                if !args.no_watch {
                    rules::publish_folder(&rules, &pool, &args.root, None, clock.now()).await?;
                }
                rules::serve_published(&rules, &pool, &args.root, clock.now()).await?;
            }
            let cipher = enrollflow_server::security::keys::serving_cipher(&pool, cipher).await?;
            serve(AppState::new(pool, clock, *args, rules, cipher)?).await?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The rules, forms and templates under `root`, or their problems printed and an error.
fn bundle_or_bail(root: &Path) -> anyhow::Result<rules::Bundle> {
    rules::load_bundle(root).map_err(|problems| {
        cli::print_problems(&problems);
        anyhow::anyhow!(
            "the rules, forms or templates under {} have problems",
            root.display()
        )
    })
}
