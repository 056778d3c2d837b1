//! The operator's command line: `seed` refuses the published demo password outside a
//! demo, and `mail` prints the outbox whole (links included) to whoever has the database and the
//! data key, never to a web user.

use std::process::Command;

use base64::Engine as _;
use reqwest::StatusCode;

use crate::helpers::{ACME_USER, spawn_app, wait_for_mails};

pub(crate) fn database_url_of(pool: &sqlx::PgPool) -> String {
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let server = url.rsplit_once('/').map(|(s, _)| s).expect("a database");
    let name = pool
        .connect_options()
        .get_database()
        .expect("database name")
        .to_string();
    format!("{server}/{name}")
}

fn enrollflow() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_enrollflow"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("ENROLLFLOW_DEMO")
        .env_remove("ENROLLFLOW_DATA_KEY");
    c
}

#[tokio::test]
async fn seed_refuses_to_create_the_demo_password_outside_demo_mode() {
    let app = spawn_app().await;
    let url = database_url_of(&app.pool);
    let out = enrollflow()
        .args(["seed", "--file", "demo/agents.json"])
        .env("DATABASE_URL", &url)
        .output()
        .expect("run");
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--demo"), "{said}");
    let out = enrollflow()
        .args(["seed", "--demo", "--file", "demo/agents.json"])
        .env("DATABASE_URL", &url)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn the_operator_reads_the_whole_mail_with_the_data_key_and_nobody_else_does() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = b.forgot_password(&token, ACME_USER).await;
    assert_eq!(r.status, StatusCode::OK);
    let expected = &wait_for_mails(&app.pool, ACME_USER, 1).await[0].1;

    let key = base64::engine::general_purpose::STANDARD.encode(crate::helpers::TEST_KEY);
    let url = database_url_of(&app.pool);
    let out = enrollflow()
        .args(["mail", "--to", ACME_USER, "--json"])
        .env("DATABASE_URL", &url)
        .env("ENROLLFLOW_DATA_KEY", &key)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mails: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(mails[0]["to_address"], ACME_USER);
    assert_eq!(mails[0]["body"].as_str(), Some(expected.as_str()));
    assert!(expected.contains("/reset-password/token/"));

    // Without the key, or with another one, nothing is printed.
    let out = enrollflow()
        .args(["mail", "--to", ACME_USER])
        .env("DATABASE_URL", &url)
        .output()
        .expect("run");
    assert!(!out.status.success());
    let other = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
    let out = enrollflow()
        .args(["mail", "--to", ACME_USER])
        .env("DATABASE_URL", &url)
        .env("ENROLLFLOW_DATA_KEY", other)
        .output()
        .expect("run");
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("/token/"));
}

#[tokio::test]
async fn credentials_come_from_the_environment_or_files_never_from_flags() {
    // A flag would put the credential on the command line, where `ps` shows it: no such flags.
    for args in [
        vec!["--database-url", "postgres://x", "migrate"],
        vec!["serve", "--admin-token", "0123456789abcdef0123456789abcdef"],
        vec![
            "serve",
            "--smtp-url",
            "smtps://user:secret@mail.example:465",
        ],
    ] {
        let out = enrollflow()
            .args(&args)
            .env_remove("DATABASE_URL")
            .output()
            .expect("run");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(said.contains("unexpected argument"), "{args:?}: {said}");
    }
    // The database URL from a file (a mounted secret) works as the variable does.
    let app = spawn_app().await;
    let file = std::env::temp_dir().join(format!("enrollflow-db-{}", uuid::Uuid::new_v4()));
    std::fs::write(&file, format!("{}\n", database_url_of(&app.pool))).expect("write");
    let out = enrollflow()
        .arg("migrate")
        .env_remove("DATABASE_URL")
        .env("DATABASE_URL_FILE", &file)
        .output()
        .expect("run");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn config_prints_each_setting_with_its_source_and_hides_every_secret() {
    let out = enrollflow()
        .args(["config", "--listen", "127.0.0.1:9999"])
        .env("ENROLLFLOW_IDLE_MINUTES", "45")
        .env(
            "DATABASE_URL",
            "postgres://app:db-secret-1@db.internal:5432/enrollflow",
        )
        .env(
            "ENROLLFLOW_SMTP_URL",
            "smtps://mailer:smtp-secret-2@mail.example:465",
        )
        .env(
            "ENROLLFLOW_ADMIN_TOKEN",
            "operator-secret-3-operator-secret-3",
        )
        .env(
            "ENROLLFLOW_DATA_KEY",
            base64::engine::general_purpose::STANDARD.encode([7u8; 32]),
        )
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "ENROLLFLOW_LISTEN (--listen) = 127.0.0.1:9999   [command line]",
        "ENROLLFLOW_IDLE_MINUTES (--idle-minutes) = 45   [environment]",
        "ENROLLFLOW_SESSION_HOURS (--session-hours) = 12   [default]",
        "DATABASE_URL = postgres://app@db.internal:5432/enrollflow (password hidden)",
        "ENROLLFLOW_SMTP_URL = smtps://mailer@mail.example:465 (password hidden)",
        "ENROLLFLOW_ADMIN_TOKEN = set (35 characters, hidden)",
    ] {
        assert!(said.contains(line), "no {line:?} in\n{said}");
    }
    assert!(said.contains("ENROLLFLOW_DATA_KEY = key "), "{said}");
    // The knobs of demonstrations, tests and benchmarks say they are not production settings.
    assert!(
        said.contains(
            "ENROLLFLOW_BENCH_ROUTES (--bench-routes) = false   [default; not a production setting]"
        ),
        "{said}"
    );
    assert!(
        said.contains("# 14 production settings besides the secrets; 8 for demonstration"),
        "{said}"
    );
    for secret in [
        "db-secret-1",
        "smtp-secret-2",
        "operator-secret-3",
        "BwcHBwcH",
    ] {
        assert!(!said.contains(secret), "{secret} shown:\n{said}");
    }
}

/// `enrollflow config` with a configuration file, this process's environment cleared of the
/// settings the test gives.
fn config_with(file: &str, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let path = std::env::temp_dir().join(format!("enrollflow-{}.yaml", uuid::Uuid::new_v4()));
    std::fs::write(&path, file).expect("write the file");
    let mut c = enrollflow();
    c.arg("config").arg("--config").arg(&path).args(args);
    for name in [
        "ENROLLFLOW_LISTEN",
        "ENROLLFLOW_IDLE_MINUTES",
        "ENROLLFLOW_SESSION_HOURS",
        "ENROLLFLOW_HTTPS",
        "ENROLLFLOW_RETENTION_DAYS",
        "ENROLLFLOW_RETENTION_ACTION",
        "ENROLLFLOW_CONFIG",
        "ENROLLFLOW_ROOT",
        "ENROLLFLOW_BASE_DOMAINS",
        "ENROLLFLOW_ADDRESS_LIMIT",
    ] {
        c.env_remove(name);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("run");
    let _ = std::fs::remove_file(&path);
    out
}

#[test]
fn a_configuration_file_sets_the_production_settings_under_the_environment_and_the_flags() {
    let file = "listen: 127.0.0.1:7000\n\
                https: true\n\
                base_domains: [example.com, example.org]\n\
                sessions: { idle_minutes: 20, hours: 6 }\n\
                retention: { days: 90, action: delete }\n";
    let out = config_with(
        file,
        &["--listen", "127.0.0.1:9999"],
        &[("ENROLLFLOW_SESSION_HOURS", "8")],
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        // A flag wins over the file, the environment too; the rest is the file's.
        "ENROLLFLOW_LISTEN (--listen) = 127.0.0.1:9999   [command line] listen",
        "ENROLLFLOW_SESSION_HOURS (--session-hours) = 8   [environment] sessions.hours",
        "ENROLLFLOW_IDLE_MINUTES (--idle-minutes) = 20   [file] sessions.idle_minutes",
        "ENROLLFLOW_HTTPS (--https) = true   [file] https",
        "ENROLLFLOW_BASE_DOMAINS (--base-domains) = example.com,example.org   [file] base_domains",
        "ENROLLFLOW_RETENTION_DAYS (--retention-days) = 90   [file] retention.days",
        "ENROLLFLOW_RETENTION_ACTION (--retention-action) = delete   [file] retention.action",
        "ENROLLFLOW_ADDRESS_LIMIT (--address-limit) = 120   [default] address_limit",
    ] {
        assert!(said.contains(line), "no {line:?} in\n{said}");
    }

    // What is not a production setting is refused by name, and nothing runs.
    for (file, named) in [
        (
            "listn: 127.0.0.1:7000\n",
            "`listn` is not a production setting",
        ),
        (
            "bench_routes: true\n",
            "`bench_routes` is not a production setting",
        ),
        (
            "sessions: { idle: 5 }\n",
            "`sessions.idle` is not a setting",
        ),
        ("sessions: 5\n", "`sessions` is a group of values"),
        ("- listen\n", "a mapping of settings is expected"),
    ] {
        let out = config_with(file, &[], &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{file} was accepted");
        assert!(err.contains(named), "{file}: {err}");
    }

    // The documented example is a valid file of every setting.
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../deploy/enrollflow.yaml"
    ))
    .expect("deploy/enrollflow.yaml");
    let out = config_with(&example, &[], &[]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("ENROLLFLOW_ROOT (--root) = /srv/enrollflow   [file] root"),
        "{said}"
    );
}
