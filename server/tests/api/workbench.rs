//! The rules workbench's reads: the preview of any step for a sample context
//! (which replaces the playground's API), the serving set's files, and the scenario results with
//! the coverage they reach; for analysts and admins only. An analyst reaches nothing else.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{ACME_USER, ADMIN_USER, spawn_app};

/// The demo analyst (demo/agents.json): the rules workbench only.
const ANALYST: &str = "analyst@enrollflow.example.com";

#[tokio::test]
async fn the_workbench_answers_analysts_and_admins_only() {
    let app = spawn_app().await;
    let visitor = app.browser("acme");
    let token = visitor.start_session().await;
    for path in [
        "/api/admin/rules/preview",
        "/api/admin/rules/files",
        "/api/admin/rules/report",
    ] {
        assert_eq!(visitor.get(path).await.status.as_u16(), 403, "{path}");
    }
    let r = visitor
        .call(
            Method::POST,
            "/api/admin/rules/preview",
            &token,
            &json!({ "step": "census" }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 403);
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    assert_eq!(
        agent.get("/api/admin/rules/preview").await.status.as_u16(),
        403
    );
    assert_eq!(
        agent.get("/api/admin/rules/sets").await.status.as_u16(),
        403
    );
    assert_eq!(
        agent.get("/api/get-auth-state").await.json()["works_on_rules"],
        false
    );
    assert_eq!(
        app.browser("acme")
            .get("/api/admin/rules/preview")
            .await
            .status
            .as_u16(),
        419
    );
}

#[tokio::test]
async fn an_analyst_proves_a_second_factor_and_reaches_the_rules_but_no_customer() {
    let app = spawn_app().await;
    let analyst = app.browser("demo");
    let first = analyst.login(ANALYST, crate::helpers::DEMO_PASSWORD).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(
        first.json()["second_factor"],
        "code",
        "an analyst proves a second factor"
    );
    analyst.logged_in_as(ANALYST).await;
    let state = analyst.get("/api/get-auth-state").await.json();
    assert_eq!(state["works_on_rules"], true);
    assert_eq!(state["is_admin"], false);
    assert_eq!(
        analyst.get("/api/admin/rules/status").await.status,
        StatusCode::OK
    );
    assert_eq!(
        analyst.get("/api/admin/rules/sets").await.status,
        StatusCode::OK
    );
    assert_eq!(
        analyst.get("/api/admin/rules/files").await.status,
        StatusCode::OK
    );
    // No agent's customers, no admin pages.
    for path in [
        "/api/dashboard/quotes?daysToShow=365",
        "/api/dashboard/enrollees?daysToShow=365",
        "/api/admin/audit",
        "/api/admin/agentList",
        "/api/admin/outbox",
    ] {
        let r = analyst.get(path).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{path}: {}", r.body);
    }
}

#[tokio::test]
async fn the_preview_shows_any_form_for_a_chosen_context_and_validates_answers() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let token = b.logged_in_as(ANALYST).await;
    let list = b.get("/api/admin/rules/preview").await.json();
    assert_eq!(list["steps"].as_array().map(Vec::len), Some(10));

    // Subscriber information for a Blue medical plan asks citizenship; for Priority it does not.
    let body = |carrier: i64| {
        json!({
            "step": "subInfo", "today": "2024-11-20", "applying": "consumer",
            "agent": { "offers": ["display_bcbsm", "display_ph"] },
            "app": { "medical_carrier_id": carrier, "census": { "sub_first_name": "Ann" } },
            "answers": { "sub_first_name": "A".repeat(31) }
        })
    };
    let r = b
        .call(Method::POST, "/api/admin/rules/preview", &token, &body(1))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let blue = r.json();
    assert!(blue["view"]["schema"]["properties"]["sub_us_citizen"].is_object());
    assert_eq!(blue["validation"]["outcome"], "invalid");
    assert!(blue["validation"]["errors"]["sub_first_name"].is_array());
    let priority = b
        .call(Method::POST, "/api/admin/rules/preview", &token, &body(3))
        .await
        .json();
    assert!(priority["view"]["schema"]["properties"]["sub_us_citizen"].is_null());

    let bad = b
        .call(
            Method::POST,
            "/api/admin/rules/preview",
            &token,
            &json!({ "step": "census", "today": "11/20/2024" }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let unknown = b
        .call(
            Method::POST,
            "/api/admin/rules/preview",
            &token,
            &json!({ "step": "nope" }),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(
        unknown.json()["error"]
            .as_str()
            .is_some_and(|e| e.contains("nope"))
    );
}

#[tokio::test]
async fn the_report_gives_the_scenarios_and_full_transition_coverage_of_the_serving_set() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    b.logged_in_as(ADMIN_USER).await;
    let files = b.get("/api/admin/rules/files").await.json();
    let paths: Vec<&str> = files
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert!(
        paths.contains(&"rules/flows/enrollment.flow.yaml"),
        "{paths:?}"
    );
    assert!(
        paths.iter().any(|p| p.starts_with("templates/")),
        "{paths:?}"
    );
    let r = b.get("/api/admin/rules/report").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let report = r.json();
    let scenarios = report["scenarios"].as_array().expect("scenarios");
    assert!(scenarios.len() > 200);
    assert!(scenarios.iter().all(|s| s["passed"] == true), "{report}");
    let t = &report["coverage"]["totals"]["transitions"];
    assert_eq!(t["reached"], t["total"], "{t}");
    assert_eq!(report["below_floor"], json!([]));
    assert_eq!(report["rules"], app.rules.current().engine.hash());
}

#[tokio::test]
async fn the_misc_menu_stays_off_by_default() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    assert_eq!(b.get("/api/site").await.json()["playground"], false);
}
