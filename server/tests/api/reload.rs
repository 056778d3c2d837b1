use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{
    ADMIN_TOKEN, Browser, Reply, TestApp, adult, at_medical, catalog_plan, federal_factor,
    save_open_enrollment, spawn_app_with,
};

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
pub(crate) fn rules_copy() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = std::env::temp_dir().join(format!("enrollflow-rules-{}", uuid::Uuid::new_v4()));
    for d in ["rules", "forms", "templates"] {
        copy_dir(&repo.join(d), &root.join(d));
    }
    root
}

pub(crate) fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{file} lacks `{from}`");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

/// Adds a Spanish translation to a catalog of the copy (`forms/locales/es.yaml`,
/// `rules/locales/es.yaml`): an edited English text is served only with its translation.
pub(crate) fn translate(root: &Path, catalog: &str, english: &str, spanish: &str) {
    let path = root.join(catalog);
    let mut text = std::fs::read_to_string(&path).expect("read");
    text.push_str(&format!("\n{english:?}: {spanish:?}\n"));
    std::fs::write(&path, text).expect("write");
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

    // Without its Spanish, the new text is not served: the last good rules stay.
    edit(
        &root,
        "rules/scripts/enrollment.rhai",
        "\"Open Enrollment\"",
        "\"Annual Open Enrollment\"",
    );
    assert!(!app.rules.reload());
    assert!(
        app.rules.status().problems.iter().any(|p| p
            .message
            .contains("no es translation of `Annual Open Enrollment`")),
        "{:?}",
        app.rules.status().problems
    );
    assert_eq!(app.rules.status().serving_hash, before);
    translate(
        &root,
        "rules/locales/es.yaml",
        "Annual Open Enrollment",
        "Inscripción abierta anual",
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
    // The server's own clock, as analysts schedule against it.
    assert_eq!(status.json()["now"], "2024-11-20T10:00:00Z");
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
    // The edit's new text has its Spanish already (a translation of no text yet is harmless).
    translate(
        &root,
        "rules/locales/es.yaml",
        "The date of the event",
        "La fecha del evento",
    );
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

/// A copy of the rules with a loop at the start of `function` in `script`, served with a rule
/// budget of 400 ms. Each turn is slow (an array of 5,000 filled), so the time budget, not the
/// operations limit, is what stops it, whatever the machine's speed.
async fn runaway_in(script: &str, function: &str) -> TestApp {
    let root = rules_copy();
    edit(
        &root,
        script,
        function,
        &format!("{function}\n    loop {{ let a = []; a.pad(5000, 0); }}"),
    );
    spawn_app_with(|c| {
        c.root = root.clone();
        c.rule_budget_ms = 400;
    })
    .await
}

/// Runs `slow` (a request that meets a runaway rule) while another browser asks for the site three
/// times; checks that `slow` got the generic 500 within the budget, and answers how many of the
/// others were answered before it.
async fn runaway_reply(
    slow: impl std::future::Future<Output = Reply>,
    other: &Browser<'_>,
) -> usize {
    let slow_done = std::sync::atomic::AtomicBool::new(false);
    let started = Instant::now();
    let (slow, answered_meanwhile) = tokio::join!(
        async {
            let r = slow.await;
            slow_done.store(true, std::sync::atomic::Ordering::SeqCst);
            r
        },
        async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let mut meanwhile = 0;
            for _ in 0..3 {
                let r = other.get("/api/site").await;
                assert_eq!(r.status, StatusCode::OK);
                if !slow_done.load(std::sync::atomic::Ordering::SeqCst) {
                    meanwhile += 1;
                }
            }
            meanwhile
        }
    );
    assert_eq!(
        slow.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        slow.body
    );
    assert_eq!(
        slow.json()["error"],
        "Something went wrong!",
        "no rule internals in the answer"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "stopped by its budget"
    );
    answered_meanwhile
}

/// A rule that loops fails its request within the request's rule budget, and
/// the requests around it keep being answered meanwhile, even with a single async worker (the
/// rules run off it).
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_runaway_rule_fails_its_request_in_time_and_the_server_keeps_answering() {
    let app = runaway_in(
        "rules/scripts/enrollment.rhai",
        "fn enrollment_types(ctx, data) {",
    )
    .await;
    let b = app.browser("acme");
    b.start_session().await;
    let other = app.browser("acme");
    other.start_session().await;
    let answered_meanwhile =
        runaway_reply(b.get("/api/application/step/whyApplying"), &other).await;
    assert!(
        answered_meanwhile >= 1,
        "another request was answered while the rule ran"
    );
    // It was the request's budget that stopped it, and the metrics say so.
    let metrics = app.metrics().await;
    assert!(
        metrics.contains("enrollflow_rule_budget_exceeded_total"),
        "{metrics}"
    );
    // And the next request works as usual.
    assert_eq!(b.get("/api/site").await.status, StatusCode::OK);
}

/// The flow's summary is rule work too: a runaway summary expression fails its save within the
/// budget while the server (one worker) keeps answering others.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_runaway_summary_fails_its_save_in_time_and_the_server_keeps_answering() {
    let app = runaway_in("rules/scripts/summary.rhai", "fn subscriber(app, key) {").await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let other = app.browser("acme");
    other.start_session().await;
    let answered_meanwhile = runaway_reply(save_open_enrollment(&b, &token), &other).await;
    assert!(
        answered_meanwhile >= 1,
        "another request was answered while the summary ran"
    );
    // Nothing was saved: the session still has no application.
    let active = b.get("/api/application/active").await;
    assert_eq!(active.status, StatusCode::OK);
    assert!(active.json()["application"].is_null(), "{}", active.body);
}

/// The age-21 rate of a plan in a rating area, from its `rates: { area: dollars, … }` line.
fn area_rate(rates: &str, area: u32) -> f64 {
    let key = format!(" {area}: ");
    let at = rates.find(&key).expect("the area's rate") + key.len();
    rates[at..]
        .split([',', ' ', '}'])
        .next()
        .and_then(|r| r.parse().ok())
        .expect("a rate")
}

#[tokio::test]
async fn an_edited_catalog_changes_the_quoted_list_without_a_restart() {
    let root = rules_copy();
    let app = spawn_app_with(|c| c.root = root.clone()).await;
    let _watcher = enrollflow_server::rules::watch(app.rules.clone()).expect("watch");
    let b = app.browser("acme");
    at_medical(&b, adult("1984-06-15")).await;
    let file = "rules/catalog/2025/medical.yaml";
    let list = b.get("/api/plans/1/allPlans").await.json();
    let plans = list["plans"].as_array().expect("plans").clone();
    let gold = plans
        .iter()
        .position(|p| p["id"] == 530)
        .expect("plan 530 quoted");
    assert_eq!(plans[gold]["name"], "Blue Cross Premier PPO Gold HSA");
    assert!(gold > 0, "not the cheapest before the edit");

    // Washtenaw is in rating area 4 (counties.yaml); the subscriber is 40 on January 1, 2025.
    let yaml = catalog_plan(&root, file, 530);
    let old_rate = area_rate(&yaml["rates"], 4);
    let factor = federal_factor(&root, 40);
    let cents = |rate: f64| (rate * factor * 100.0).round() as i64;
    let total = |p: &serde_json::Value| {
        (p["rates"]["total"].as_f64().expect("total") * 100.0).round() as i64
    };
    assert_eq!(
        total(&plans[gold]),
        cents(old_rate),
        "before: from the catalog"
    );

    // An analyst renames the plan and lowers its area-4 rate to $100.00; the editor saves
    // atomically (a temporary file renamed over the original).
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    let rates_before = format!("3: 392.15, 4: {old_rate:.2},");
    assert!(text.contains(&rates_before), "{rates_before}");
    let edited = text
        .replacen(
            "name: \"Blue Cross Premier PPO Gold HSA\"",
            "name: \"Blue Cross Premier PPO Gold HSA 4000\"",
            1,
        )
        .replacen(&rates_before, "3: 392.15, 4: 100.00,", 1);
    let tmp = root.join("rules/catalog/2025/.medical.yaml.swp");
    std::fs::write(&tmp, edited).expect("write");
    std::fs::rename(&tmp, &path).expect("rename");
    assert_eq!(
        area_rate(&catalog_plan(&root, file, 530)["rates"], 4),
        100.0
    );

    let deadline = Instant::now() + Duration::from_secs(10);
    let after = loop {
        let list = b.get("/api/plans/1/allPlans").await.json();
        if list["plans"][0]["id"] == 530 {
            break list;
        }
        assert!(
            Instant::now() < deadline,
            "the edit was not quoted:\n{list}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let first = &after["plans"][0];
    assert_eq!(first["name"], "Blue Cross Premier PPO Gold HSA 4000");
    // $100.00 × 1.278 (age 40) = $127.80, now the cheapest plan.
    assert_eq!(total(first), cents(100.0));
    assert_eq!(total(first), 12780);
    assert_eq!(
        after["plans"].as_array().map(Vec::len),
        Some(plans.len()),
        "the same plans"
    );
    assert_eq!(
        after["price_range"]["min"], 130,
        "the slider starts at $127.80 rounded up to the step of 10"
    );

    // A rate of zero does not pass the catalog's checks: the last good catalog keeps serving.
    edit(&root, file, "3: 392.15, 4: 100.00,", "3: 392.15, 4: 0,");
    assert!(!app.rules.reload());
    let problems = &app.rules.status().problems;
    assert!(
        problems
            .iter()
            .any(|p| p.file == file && p.message.contains("530")),
        "{problems:?}"
    );
    let still = b.get("/api/plans/1/allPlans").await.json();
    assert_eq!(still["plans"][0]["id"], 530);
    assert_eq!(total(&still["plans"][0]), 12780);
}
