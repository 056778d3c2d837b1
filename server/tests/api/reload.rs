use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{ADMIN_TOKEN, spawn_app_with};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

/// A private copy of the repository's rules, forms and templates.
fn rules_copy() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = std::env::temp_dir().join(format!("enrollflow-rules-{}", uuid::Uuid::new_v4()));
    for d in ["rules", "forms", "templates"] {
        copy_dir(&repo.join(d), &root.join(d));
    }
    root
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} lacks `{from}`");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

fn type_titles(v: &serde_json::Value) -> Vec<String> {
    v["schema"]["properties"]["enrollment_type"]["oneOf"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| c["title"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn a_clean_edit_is_served_and_a_broken_one_keeps_the_last_good_rules() {
    let root = rules_copy();
    let app = spawn_app_with(|c| c.root = root.clone()).await;
    let b = app.browser("acme");
    b.start_session().await;
    let before = app.rules.status().serving_hash.clone();

    edit(
        &root,
        "rules/scripts/enrollment.rhai",
        "\"Open Enrollment\"",
        "\"Annual Open Enrollment\"",
    );
    assert!(app.rules.reload());
    let v = b.get("/api/application/step/whyApplying").await.json();
    assert_eq!(type_titles(&v)[0], "Annual Open Enrollment");
    assert_ne!(app.rules.status().serving_hash, before);

    edit(
        &root,
        "rules/scripts/census.rhai",
        "fn alone(input) {",
        "fn alone(input) {{ let = ;",
    );
    assert!(!app.rules.reload());
    let v = b.get("/api/application/step/whyApplying").await.json();
    assert_eq!(
        type_titles(&v)[0],
        "Annual Open Enrollment",
        "still serving the last good rules"
    );

    let status = b
        .send(
            reqwest::Method::GET,
            "/api/admin/rules/status",
            &[("authorization", format!("Bearer {ADMIN_TOKEN}"))],
            None,
        )
        .await;
    assert_eq!(status.status, StatusCode::OK);
    let problems = status.json()["problems"].clone();
    assert_eq!(problems[0]["file"], "rules/scripts/census.rhai");
    assert!(
        problems[0]["line"].as_u64().is_some_and(|l| l > 1),
        "{problems}"
    );
    assert!(
        b.get("/api/admin/rules/status").await.status == StatusCode::FORBIDDEN,
        "operators only"
    );
}

#[tokio::test]
async fn the_watcher_picks_up_a_saved_file_without_a_restart() {
    let root = rules_copy();
    let app = spawn_app_with(|c| c.root = root.clone()).await;
    let _watcher = enrollflow_server::rules::watch(app.rules.clone()).expect("watch");
    let before = app.rules.status().serving_hash.clone();
    // An editor's atomic save: write a temporary file, then rename it over the original.
    let file = root.join("rules/start_dates.yaml");
    let text = std::fs::read_to_string(&file)
        .expect("read")
        .replace("Date of event", "The date of the event");
    let tmp = root.join("rules/.start_dates.yaml.swp");
    std::fs::write(&tmp, text).expect("write");
    std::fs::rename(&tmp, &file).expect("rename");
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.rules.status().serving_hash == before {
        assert!(Instant::now() < deadline, "the edit was not picked up");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let tables = app.rules.current().engine.tables().clone();
    assert_eq!(
        tables["start_dates"]["options"][0]["title"],
        json!("The date of the event")
    );
}

#[tokio::test]
async fn a_runaway_rule_fails_its_request_in_time_and_the_server_keeps_answering() {
    let root = rules_copy();
    edit(
        &root,
        "rules/scripts/enrollment.rhai",
        "fn enrollment_types(ctx, data) {",
        "fn enrollment_types(ctx, data) {\n    let n = 0; loop { n += 1; }",
    );
    let app = spawn_app_with(|c| c.root = root.clone()).await;
    let b = app.browser("acme");
    b.start_session().await;
    let started = Instant::now();
    let (slow, other) = tokio::join!(b.get("/api/application/step/whyApplying"), async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        app.browser("acme").get("/api/site").await
    });
    assert_eq!(slow.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        slow.json()["error"],
        "Something went wrong!",
        "no rule internals in the answer"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "stopped by its budget"
    );
    assert_eq!(
        other.status,
        StatusCode::OK,
        "other requests are answered meanwhile"
    );
    // And the next request works as usual.
    assert_eq!(b.get("/api/site").await.status, StatusCode::OK);
}
