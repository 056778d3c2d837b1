use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with};

#[tokio::test]
async fn the_playground_is_off_by_default() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    assert_eq!(b.get("/api/playground").await.status, StatusCode::NOT_FOUND);
    assert_eq!(b.get("/api/site").await.json()["playground"], false);
}

#[tokio::test]
async fn the_playground_answers_only_a_logged_in_admin() {
    let app = spawn_app_with(|c| c.playground = true).await;
    let visitor = app.browser("acme");
    let token = visitor.start_session().await;
    assert_eq!(visitor.get("/api/playground").await.status.as_u16(), 403);
    let r = visitor
        .call(
            Method::POST,
            "/api/playground",
            &token,
            &json!({ "step": "census" }),
        )
        .await;
    assert_eq!(r.status.as_u16(), 403);
    let agent = app.browser("acme");
    agent.logged_in_as(crate::helpers::ACME_USER).await;
    assert_eq!(agent.get("/api/playground").await.status.as_u16(), 403);
    assert_eq!(
        app.browser("acme")
            .get("/api/playground")
            .await
            .status
            .as_u16(),
        419
    );
}

#[tokio::test]
async fn the_playground_shows_any_form_for_a_chosen_context_and_validates_answers() {
    let app = spawn_app_with(|c| c.playground = true).await;
    let b = app.browser("demo");
    let token = b.logged_in_as(crate::helpers::ADMIN_USER).await;
    assert_eq!(b.get("/api/site").await.json()["playground"], true);
    let list = b.get("/api/playground").await.json();
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
        .call(Method::POST, "/api/playground", &token, &body(1))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let blue = r.json();
    assert!(blue["view"]["schema"]["properties"]["sub_us_citizen"].is_object());
    assert_eq!(blue["validation"]["outcome"], "invalid");
    assert!(blue["validation"]["errors"]["sub_first_name"].is_array());
    let priority = b
        .call(Method::POST, "/api/playground", &token, &body(3))
        .await
        .json();
    assert!(priority["view"]["schema"]["properties"]["sub_us_citizen"].is_null());

    let bad = b
        .call(
            Method::POST,
            "/api/playground",
            &token,
            &json!({ "step": "census", "today": "11/20/2024" }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let unknown = b
        .call(
            Method::POST,
            "/api/playground",
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
