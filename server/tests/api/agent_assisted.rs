//! The agent-assisted application (spec part 1, 6): a logged-in agent applying on
//! their own site applies as the agent; the application is agent-started and names the user.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{ACME_USER, LAKESHORE_USER, adult, put, spawn_app};

#[tokio::test]
async fn an_agent_on_their_own_site_starts_an_agent_application() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    let r = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (agent_started, user): (bool, Option<String>) = sqlx::query_as(
        "SELECT a.agent_started, u.email FROM applications a \
         LEFT JOIN users u ON u.id = a.started_by_user_id",
    )
    .fetch_one(&app.pool)
    .await
    .expect("application");
    assert_eq!((agent_started, user.as_deref()), (true, Some(ACME_USER)));

    // The terms-of-use notice is for consumers; the agent's view says so through its extras.
    let view = b.get("/api/application/step/whyApplying").await.json();
    assert_eq!(view["extras"]["show_terms_notice"], false, "{view}");

    // The census asks an agent the subsidy question only because acme is marketplace certified.
    let mut census = adult("1990-01-01");
    census["medicare_eligible"] = json!(0);
    let r = put(&b, &token, "/api/application/step/census", census).await;
    // Saved (no Medicare question for agents), then the subsidy question of a certified agent.
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let body: Value = r.json();
    assert_eq!(body["modal"], "subsidy", "{body}");
}

#[tokio::test]
async fn a_consumer_and_another_agents_user_apply_as_consumers() {
    let app = spawn_app().await;
    // Lakeshore's user on acme's site is not acme's agent.
    let b = app.browser("acme");
    let token = b.logged_in_as(LAKESHORE_USER).await;
    let r = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let c = app.browser("acme");
    let token = c.start_session().await;
    let r = put(
        &c,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let started: Vec<bool> = sqlx::query_scalar("SELECT agent_started FROM applications")
        .fetch_all(&app.pool)
        .await
        .expect("applications");
    assert_eq!(started, [false, false]);
    let view = c.get("/api/application/step/whyApplying").await.json();
    assert_eq!(view["extras"]["show_terms_notice"], true, "{view}");
}

#[tokio::test]
async fn an_agent_applying_for_a_customer_lists_their_doctors_and_drugs_and_sees_the_estimates() {
    let app = spawn_app().await;
    let issuers = enrollflow_server::coverage::gather(&[std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/coverage/cms-sample"
    ))])
    .expect("the samples");
    enrollflow_server::coverage::import(&app.pool, &issuers, time::OffsetDateTime::now_utc())
        .await
        .expect("loaded");
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    let mut census = adult("1990-01-01");
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    let r = put(&b, &token, "/api/application/step/census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // The same plan page as the consumer's: each medical plan's yearly estimate.
    let list = b.get("/api/plans/1/allPlans").await.json();
    let plans = list["plans"].as_array().expect("plans");
    assert!(!plans.is_empty());
    assert!(plans.iter().all(|p| p["yearly_cost"]["total"].is_number()));
    // The customer's doctor and drug, listed by the agent, checked against each plan.
    let r = put(
        &b,
        &token,
        "/api/care",
        json!({ "uses": ["low"], "doctors": ["1234567893"], "drugs": ["248656"] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let care = b.get("/api/care").await.json();
    assert_eq!(care["uses"], json!(["low"]));
    assert_eq!(care["doctors"][0]["name"], "Martin Van Nostrand");
    let cov = b.get("/api/plans/1/coverage").await;
    assert_eq!(cov.status, StatusCode::OK, "{}", cov.body);
    assert_eq!(
        cov.json()["plans"].as_array().map(Vec::len),
        Some(plans.len())
    );
    // Low use costs less than the medium of a moment ago.
    let low = b.get("/api/plans/1/allPlans").await.json();
    let total = |l: &Value, id: &Value| {
        l["plans"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["id"] == *id))
            .and_then(|p| p["yearly_cost"]["total"].as_f64())
            .expect("a total")
    };
    let id = &plans[0]["id"];
    assert!(total(&low, id) < total(&list, id));
}
