//! No lost update: a save carries the revision its answers were given against
//! (`If-Match`, the view's `revision`); a save against a newer revision is refused with 409 and a
//! clear message, never written over it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{ACME_USER, Browser, Reply, adult, at_medical, select_plan, spawn_app};

async fn save_if_match(
    b: &Browser<'_>,
    token: &str,
    step: &str,
    body: Value,
    revision: i64,
) -> Reply {
    let headers = [
        ("x-csrf-token", token.to_string()),
        ("origin", b.origin()),
        ("content-type", "application/json".to_string()),
        ("if-match", format!("\"{revision}\"")),
    ];
    b.send(
        Method::PUT,
        &format!("/api/application/step/{step}"),
        &headers,
        Some(body.to_string().into_bytes()),
    )
    .await
}

#[tokio::test]
async fn a_consumer_and_an_agent_on_one_application_never_overwrite_each_other() {
    let app = spawn_app().await;
    let consumer = app.browser("acme");
    let token = at_medical(&consumer, adult("1990-01-01")).await;
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");

    // The consumer opens About You again: the view names the revision it shows.
    let view = consumer.get("/api/application/step/census").await.json();
    let seen = view["revision"].as_i64().expect("a revision");
    assert!(seen > 0, "{view}");
    let mine = view["data"].clone();

    // Meanwhile the agent opens the same application from the dashboard and saves a step.
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    let r = agent.enroll(&csrf, id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let agents_view = agent.get("/api/application/step/whyApplying").await.json();
    let r = save_if_match(
        &agent,
        &csrf,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
        agents_view["revision"].as_i64().expect("a revision"),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let newer = r.json()["revision"].as_i64().expect("the new revision");
    assert!(newer > seen);

    // The consumer's save, given against the older revision, is refused and writes nothing.
    let mut changed = mine.clone();
    changed["sub_first_name"] = json!("Annie");
    let r = save_if_match(&consumer, &token, "census", changed.clone(), seen).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .expect("why")
            .contains("changed in another window"),
        "{}",
        r.body
    );
    let (first, revision): (Option<String>, i64) =
        sqlx::query_as("SELECT data->'census'->>'sub_first_name', revision FROM applications")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert_eq!((first.as_deref(), revision), (Some("Ann"), newer));

    // Read again, the same answers save.
    let fresh = consumer.get("/api/application/step/census").await.json();
    assert_eq!(fresh["revision"].as_i64(), Some(newer));
    let r = save_if_match(&consumer, &token, "census", changed, newer).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["revision"].as_i64(), Some(newer + 1));

    // Not a revision: 400.
    let r = save_if_match(&consumer, &token, "census", mine, -1).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
}

/// A plan selection merges into the application as its request read it, and is written only over
/// that revision: an instance that holds an older copy (another instance's save not announced to it
/// yet) refuses the selection (409) rather than writing its old copy over the newer save.
#[tokio::test]
async fn a_selection_on_an_instance_with_an_older_copy_never_overwrites_a_newer_save() {
    let app = spawn_app().await;
    let other = app.an_unannounced_instance().await;
    let consumer = app.browser("acme");
    let token = at_medical(&consumer, adult("1990-01-01")).await;
    let plans = consumer.get("/api/plans/1/allPlans").await.json();
    let plan_id = plans["plans"][0]["id"].clone();
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");

    // The agent saves on the other instance, which does not announce it: this instance keeps its
    // older copy of the application in memory.
    let agent = other.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    let r = agent.enroll(&csrf, id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mut census = agent.get("/api/application/step/census").await.json()["data"].clone();
    census["sub_first_name"] = json!("Annabel");
    let r = crate::helpers::put(&agent, &csrf, "/api/application/step/census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    let r = select_plan(&consumer, &token, 1, plan_id).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let first: Option<String> =
        sqlx::query_scalar("SELECT data->'census'->>'sub_first_name' FROM applications")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert_eq!(
        first.as_deref(),
        Some("Annabel"),
        "the agent's save is kept"
    );
}
