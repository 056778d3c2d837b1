//! The `enrollflow` command: `serve`, `migrate`, `seed`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use enrollflow_server::clock::SystemClock;
use enrollflow_server::config::ServeArgs;
use enrollflow_server::startup::{AppState, serve};
use enrollflow_server::{db, seed, telemetry};

#[derive(Parser)]
#[command(
    name = "enrollflow",
    version,
    about = "Enrollflow quoting and enrollment service"
)]
struct Cli {
    /// PostgreSQL connection URL.
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    database_url: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server (runs pending migrations first).
    Serve(ServeArgs),
    /// Apply pending database migrations.
    Migrate,
    /// Load the demo agents (idempotent).
    Seed {
        /// The demo data file.
        #[arg(long, default_value = "demo/agents.json")]
        file: PathBuf,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    telemetry::init();
    match run(Cli::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("enrollflow: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let url = cli
        .database_url
        .ok_or_else(|| anyhow::anyhow!("DATABASE_URL is not set (or pass --database-url)"))?;
    let pool = db::connect(&url).await?;
    match cli.command {
        Command::Migrate => db::migrate(&pool).await,
        Command::Seed { file } => {
            db::migrate(&pool).await?;
            let n = seed::load_file(&pool, &file).await?;
            println!("seeded {n} demo agents from {}", file.display());
            Ok(())
        }
        Command::Serve(args) => {
            db::migrate(&pool).await?;
            let clock = Arc::new(SystemClock::from_env()?);
            serve(AppState::new(pool, clock, args)).await
        }
    }
}
