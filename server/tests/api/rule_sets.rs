//! Versioned rule sets: instances serving from the database switch to a
//! published set as soon as its notification arrives, a broken draft is refused whole, and a
//! rollback serves the earlier set again.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{ADMIN_USER, Browser, Reply, TestApp, spawn_app_with};

/// The repository's rule set as a draft's files, with `edit` applied to one file.
fn draft(file: &str, from: &str, to: &str) -> Vec<Value> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = enrollflow_server::rules::read_set(&root).expect("the repository's set");
    let mut found = false;
    let out = files
        .into_iter()
        .map(|f| {
            let text = if f.path == file {
                assert!(f.text.contains(from), "{file} lacks `{from}`");
                found = true;
                f.text.replacen(from, to, 1)
            } else {
                f.text
            };
            json!({ "path": f.path, "text": text })
        })
        .collect();
    assert!(found, "no {file} in the set");
    out
}

/// A draft's catalog with a Spanish translation added (an English text is served only with one).
fn with_spanish(mut files: Vec<Value>, catalog: &str, english: &str, spanish: &str) -> Vec<Value> {
    let file = files
        .iter_mut()
        .find(|f| f["path"] == catalog)
        .unwrap_or_else(|| panic!("no {catalog} in the set"));
    let text = format!(
        "{}\n{english:?}: {spanish:?}\n",
        file["text"].as_str().expect("text")
    );
    file["text"] = json!(text);
    files
}

/// `POST /api/admin/rules/{what}` as the workbench sends it.
pub(crate) async fn post(admin: &Browser<'_>, csrf: &str, what: &str, body: Value) -> Reply {
    admin
        .call(
            Method::POST,
            &format!("/api/admin/rules/{what}"),
            csrf,
            &body,
        )
        .await
}

/// The repository's set with a 2025 medical plan's area-4 (Washtenaw) age-21 rate at `rate` dollars.
fn area_four_rate(plan: i64, rate: &str) -> Vec<Value> {
    let file = "rules/catalog/2025/medical.yaml";
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(file),
    )
    .expect("medical.yaml");
    let at = text.find(&format!("id: {plan}")).expect("the plan");
    let line = text[at..]
        .lines()
        .find(|l| l.contains("rates:"))
        .expect("its rates");
    let four = line
        .split(" 4: ")
        .nth(1)
        .and_then(|r| r.split([',', '}']).next())
        .expect("area 4");
    draft(
        file,
        line,
        &line.replacen(&format!(" 4: {four}"), &format!(" 4: {rate}"), 1),
    )
}

/// The area-4 age-21 rate of 2025 plan 530 (Blue Cross Premier PPO Gold HSA) as an instance
/// serves it now.
fn rate_530(app: &TestApp) -> String {
    let bundle = app.rules.current();
    let plans = bundle
        .engine
        .catalog()
        .plans(2025, enrollflow_engine::catalog::PlanKind::Medical);
    let p = plans.iter().find(|p| p.id == 530).expect("plan 530");
    format!("{:?}", p.rates.get(&4))
}

/// Waits until both instances serve `set` (bounded: a failure, not a timing measurement).
async fn until_serving(apps: &[&TestApp], set: &str) {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(10);
    while apps
        .iter()
        .any(|a| a.rules.status().serving_set.as_deref() != Some(set))
    {
        assert!(
            Instant::now() < deadline,
            "{set} was not served by every instance"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Reported, not asserted (`--nocapture` shows it): how long the switch took.
    eprintln!(
        "{} instance(s) serve {} after {:?}",
        apps.len(),
        &set[..12],
        started.elapsed()
    );
}

#[tokio::test]
async fn a_published_set_serves_on_every_instance_and_a_rollback_restores_the_earlier_one() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let b = a
        .another_instance_with(|c| c.rules_from_database = true)
        .await;
    // A new database starts with the folder's set, published once.
    let first = a.rules.status().serving_set.clone().expect("a set serves");
    until_serving(&[&a, &b], &first).await;
    let before = rate_530(&a);

    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let history = admin.get("/api/admin/rules/sets").await;
    assert_eq!(history.status, StatusCode::OK, "{}", history.body);
    let h = history.json();
    assert_eq!(h.as_array().map(Vec::len), Some(1), "{h}");
    assert_eq!(h[0]["hash"], first.as_str());
    assert_eq!(h[0]["author"], "first start");

    // An analyst's draft lowers plan 530's area-4 rate; publishing it switches both instances.
    let files = area_four_rate(530, "100.00");
    let published = crate::helpers::operator_publish(&a, &files, Some("plan 530 area 4 at $100"))
        .await
        .unwrap_or_else(|p| panic!("{p:?}"));
    let published = serde_json::to_value(&published).expect("json");
    let second = published["hash"].as_str().expect("hash").to_string();
    assert_ne!(second, first);
    assert_eq!(published["author"], "operator");
    assert_eq!(published["action"], "publish");
    // The instance that answered serves the set already; the other switches on the notification.
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(second.as_str())
    );
    until_serving(&[&a, &b], &second).await;
    assert_eq!(
        rate_530(&a),
        format!(
            "{:?}",
            Some(enrollflow_engine::money::Money::from_cents(10_000))
        )
    );
    assert_eq!(rate_530(&b), rate_530(&a));
    assert_ne!(rate_530(&a), before);
    assert_eq!(
        a.rules.current().engine.hash(),
        published["engine_hash"].as_str().expect("engine hash"),
        "applications saved now record the published set's engine hash"
    );

    // Rollback (by the start of the hash) serves the first set again everywhere.
    let r = post(&admin, &csrf, "rollback", json!({ "hash": &first[..12] })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["action"], "rollback");
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );
    until_serving(&[&a, &b], &first).await;
    assert_eq!(rate_530(&a), before);
    assert_eq!(rate_530(&b), before);
    let h = admin.get("/api/admin/rules/sets").await.json();
    let actions: Vec<&str> = h
        .as_array()
        .expect("list")
        .iter()
        .map(|p| p["action"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(actions, ["rollback", "publish", "publish"]);

    // No such set: 404, and nothing changes.
    let r = post(&admin, &csrf, "rollback", json!({ "hash": "abcdef0123" })).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
}

#[tokio::test]
async fn a_broken_draft_is_refused_with_file_and_line_and_nothing_changes() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let first = a.rules.status().serving_set.clone().expect("a set serves");
    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let files = draft(
        "rules/scripts/plans.rhai",
        "fn household(app) {",
        "fn household(app) { let = ;",
    );
    let r = post(
        &admin,
        &csrf,
        "proposals",
        json!({ "files": files, "note": "a broken rule" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let problems = r.json()["errors"]["files"].to_string();
    assert!(
        problems.contains("rules/scripts/plans.rhai:8"),
        "{problems}"
    );
    // A path outside the rule set is refused before anything is read.
    let r = post(
        &admin,
        &csrf,
        "proposals",
        json!({ "files": [{ "path": "rules/../server/src/main.rs", "text": "" }], "note": "x" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let h = admin.get("/api/admin/rules/sets").await.json();
    assert_eq!(h.as_array().map(Vec::len), Some(1), "{h}");
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );
}

#[tokio::test]
async fn only_admins_see_or_change_the_rule_sets() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let agent = a.browser("acme");
    let csrf = agent.logged_in_as(crate::helpers::ACME_USER).await;
    assert_eq!(
        agent.get("/api/admin/rules/sets").await.status,
        StatusCode::FORBIDDEN
    );
    let r = agent
        .call(
            Method::POST,
            "/api/admin/rules/rollback",
            &csrf,
            &json!({ "hash": "abcdef" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn an_application_replays_under_the_set_it_was_saved_with() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let saved_under = a.rules.current().engine.hash().to_string();
    let consumer = a.browser("acme");
    crate::helpers::at_medical(&consumer, crate::helpers::adult("1990-07-23")).await;
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&a.pool)
        .await
        .expect("the application");

    // A later set changes the census form's wording: its engine hash differs.
    let files = with_spanish(
        draft(
            "forms/census.form.yaml",
            "title: First tell us a little about yourself",
            "title: First, tell us a little about yourself",
        ),
        "forms/locales/es.yaml",
        "First, tell us a little about yourself",
        "Primero, cuéntenos un poco sobre usted",
    );
    let newer = crate::helpers::operator_publish(&a, &files, None)
        .await
        .unwrap_or_else(|p| panic!("{p:?}"))
        .hash;
    until_serving(&[&a], &newer).await;
    let now = a.rules.current().engine.hash().to_string();
    assert_ne!(now, saved_under);

    let agent = a.browser("acme");
    agent.logged_in_as(crate::helpers::ACME_USER).await;
    let today = agent.get(&format!("/api/dashboard/scenario/{id}")).await;
    assert_eq!(today.status, StatusCode::OK, "{}", today.body);
    assert_eq!(today.header("x-rules-hash"), now);
    let then = agent
        .get(&format!("/api/dashboard/scenario/{id}?rules=saved"))
        .await;
    assert_eq!(then.status, StatusCode::OK, "{}", then.body);
    assert_eq!(then.header("x-rules-hash"), saved_under);
    // It passes under the set it was saved with.
    let files = enrollflow_server::db::rule_sets::files_by_engine_hash(&a.pool, &saved_under)
        .await
        .expect("query")
        .expect("the first set is kept");
    let old =
        enrollflow_server::rules::bundle_of(&enrollflow_server::db::rule_sets::sources(&files))
            .unwrap_or_else(|p| panic!("{p:?}"));
    let results =
        enrollflow_engine_tools::scenario::run_suite(&old.engine, "replay.yaml", &then.body)
            .unwrap_or_else(|d| panic!("{d}\n{}", then.body));
    assert!(
        results.iter().all(|r| r.passed()),
        "{results:?}\n{}",
        then.body
    );
}

#[tokio::test]
async fn the_impact_of_a_draft_shows_made_up_households_whole_and_stored_applications_as_counts() {
    let a = spawn_app_with(|_| {}).await;
    let consumer = a.browser("acme");
    let token = crate::helpers::at_medical(&consumer, crate::helpers::adult("1984-06-15")).await;
    let r = crate::helpers::select_plan(&consumer, &token, 1, json!(521)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&a.pool)
        .await
        .expect("the application");

    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    // The same set: nothing changes.
    let same = draft("forms/census.form.yaml", "", "");
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": same, "households": 40 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let report = r.json();
    assert_eq!(report["applications_replayed"], 1);
    assert_eq!(report["households_made"], 40);
    assert!(
        report["scenarios_run"].as_u64().unwrap_or(0) > 200,
        "{report}"
    );
    assert_eq!(report["household_changes"], json!([]), "{report}");
    assert_eq!(report["application_counts"], json!([]), "{report}");
    assert_eq!(report["scenarios_changed"], json!([]), "{report}");

    // Plan 521's area-4 rate at $200. The made-up households are drawn from the book's county
    // (Washtenaw, area 4): their premiums for plan 521 are shown before and after. The one stored
    // application is counted, as "fewer than 5", with no value and no id.
    let files = area_four_rate(521, "200.00");
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": files, "households": 40 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let report = r.json();
    let groups = report["household_changes"].as_array().expect("households");
    let premium = groups
        .iter()
        .find(|g| g["what"] == "medical: plan 521 premium")
        .unwrap_or_else(|| panic!("no premium change in {report}"));
    let change = &premium["changes"][0];
    assert!(
        change["application"]
            .as_str()
            .is_some_and(|h| h.starts_with("household ")),
        "{report}"
    );
    assert_ne!(change["before"], change["after"]);
    let counts = report["application_counts"].as_array().expect("counts");
    let stored = counts
        .iter()
        .find(|c| c["what"] == "medical: plan 521 premium changes")
        .unwrap_or_else(|| panic!("no count of the premium change in {report}"));
    assert_eq!(stored["shown"], "fewer than 5", "{report}");
    assert_eq!(stored["applications"], Value::Null, "{report}");
    assert_eq!(report["applications_changed"], "fewer than 5", "{report}");
    assert!(
        report["scenarios_changed"]
            .as_array()
            .is_some_and(|s| s.iter().any(|c| c["at"]
                .as_str()
                .is_some_and(|at| at.contains("quoting.yaml")))),
        "{report}"
    );
    // Nothing of the stored application leaves: not its id, birth date or e-mail, nor its
    // premium under either set (a 40-year-old at $200.00 x 1.278 = $255.60).
    let body = report.to_string();
    for secret in [id.to_string().as_str(), "1984-06-15", "ann@example.com"] {
        assert!(!body.contains(secret), "{secret} in {body}");
    }
    let stored_values: Vec<&Value> = counts.iter().collect();
    assert!(
        !format!("{stored_values:?}").contains('$'),
        "{stored_values:?}"
    );
}

#[tokio::test]
async fn a_git_revision_is_a_draft_too_and_a_bad_one_is_refused() {
    let a = spawn_app_with(|_| {}).await;
    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "rev": "HEAD", "households": 20 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.json()["scenarios_run"].as_u64().unwrap_or(0) > 200,
        "{}",
        r.body
    );
    for (rev, says) in [
        ("--output=elsewhere", "is not a git revision"),
        ("no-such-revision-here", "no-such-revision-here"),
    ] {
        let r = post(&admin, &csrf, "impact", json!({ "rev": rev })).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{rev}: {}",
            r.body
        );
        assert!(
            r.json()["errors"]["files"].to_string().contains(says),
            "{}",
            r.body
        );
    }
}

/// The total a consumer's browser is quoted for a medical plan now.
async fn quoted_total(consumer: &Browser<'_>, plan: i64) -> Value {
    let r = consumer.get("/api/plans/1/allPlans").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = r.json();
    list["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .find(|p| p["id"] == plan)
        .unwrap_or_else(|| panic!("plan {plan} is not quoted: {list}"))["rates"]["total"]
        .clone()
}

#[tokio::test]
async fn a_consumer_already_quoted_is_quoted_the_published_premium() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let consumer = a.browser("acme");
    crate::helpers::at_medical(&consumer, crate::helpers::adult("1990-07-23")).await;
    let before = quoted_total(&consumer, 530).await;

    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    // As the workbench does: the impact first (the draft evaluated beside the serving set).
    let files = area_four_rate(530, "100.00");
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": &files, "households": 50 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let published = crate::helpers::operator_publish(&a, &files, None)
        .await
        .unwrap_or_else(|p| panic!("{p:?}"));
    let after = quoted_total(&consumer, 530).await;
    assert_ne!(
        after, before,
        "the quote kept the premium of the set before"
    );

    let first = published.hash;
    let sets = admin.get("/api/admin/rules/sets").await.json();
    let earlier = sets[1]["hash"].as_str().expect("the first set").to_string();
    assert_ne!(earlier, first);
    let r = post(&admin, &csrf, "rollback", json!({ "hash": earlier })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(quoted_total(&consumer, 530).await, before);
}

#[tokio::test]
async fn a_watched_folder_replaces_a_workbench_set_only_when_it_is_edited() {
    let root = crate::reload::rules_copy();
    // The edit below changes a text: its Spanish is there first.
    crate::reload::translate(
        &root,
        "rules/locales/es.yaml",
        "The date of the event",
        "La fecha del evento",
    );
    let a = spawn_app_with(|c| {
        c.root = root.clone();
        c.rules_from_database = true;
    })
    .await;
    let _watcher = enrollflow_server::rules::watch_and_publish(
        a.rules.clone(),
        a.pool.clone(),
        a.clock.clone(),
    )
    .expect("watch");
    let admin = a.browser("demo");
    admin.logged_in_as(ADMIN_USER).await;
    crate::helpers::operator_publish(&a, &area_four_rate(530, "100.00"), None)
        .await
        .unwrap_or_else(|p| panic!("{p:?}"));

    // Reading the folder (as loading and the workbench do) is not an edit of it.
    let files = enrollflow_server::rules::read_set(&root).expect("read");
    assert!(files.iter().any(|f| f.path.starts_with("templates/")));
    // An edit is: published as the folder's set, after the workbench's.
    crate::reload::edit(
        &root,
        "rules/start_dates.yaml",
        "Date of event",
        "The date of the event",
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let authors = loop {
        let h = admin.get("/api/admin/rules/sets").await.json();
        let authors: Vec<String> = h
            .as_array()
            .expect("list")
            .iter()
            .map(|p| p["author"].as_str().unwrap_or_default().to_string())
            .collect();
        if authors.first().map(String::as_str) == Some("folder watch") {
            break authors;
        }
        assert!(
            Instant::now() < deadline,
            "the edit was not published: {authors:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(authors, ["folder watch", "operator", "first start"]);
}
