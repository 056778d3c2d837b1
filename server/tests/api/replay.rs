//! "Save as scenario": an agent downloads one of their applications as a YAML
//! scenario that replays its steps with every personal detail made up; it passes when run, and
//! fails when a rule it went through changes.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{ACME_USER, LAKESHORE_USER, adult, at_medical, select_plan, spawn_app};
use crate::purchase::{continue_review, give_subscriber_information};
use enrollflow_engine_tools::scenario;

#[tokio::test]
async fn an_application_downloads_as_a_scenario_that_passes_and_names_no_one() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-07-23")).await;
    let list = b.get("/api/plans/1/allPlans").await;
    let plan = list.json()["plans"][0].clone();
    assert_eq!(
        select_plan(&b, &token, 1, plan["id"].clone()).await.status,
        StatusCode::OK
    );
    assert_eq!(
        select_plan(&b, &token, 2, Value::Null).await.status,
        StatusCode::OK
    );
    let r = select_plan(&b, &token, 3, Value::Null).await;
    assert_eq!(r.json()["next"]["id"], "review", "{}", r.body);
    continue_review(&b, &token).await;
    give_subscriber_information(&b, &token).await;
    let id: (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");

    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    let got = agent
        .get(&format!("/api/dashboard/scenario/{}", id.0))
        .await;
    assert_eq!(got.status, StatusCode::OK, "{}", got.body);
    let yaml = got.body.clone();
    // Nobody in it: not the names, the e-mail, the phone, the street, the SSN or the birth date
    // (Ann Arbor, the city, stays: it is where the plans are rated, not who applied).
    for personal in [
        ": Ann\n",
        "Lee",
        "ann@example.com",
        "7345550199",
        "1 Main St",
        "123456789",
        "1990-07-23",
    ] {
        assert!(!yaml.contains(personal), "`{personal}` in\n{yaml}");
    }
    // It replays every step the application went through, and passes against today's rules.
    let bundle = app.rules.current();
    let results = scenario::run_suite(&bundle.engine, "application-scenario.yaml", &yaml)
        .unwrap_or_else(|d| panic!("{d}\n{yaml}"));
    assert_eq!(results.len(), 1);
    assert!(results[0].passed(), "{:?}\n{yaml}", results[0].failures);
    for step in [
        "submit: whyApplying",
        "submit: census",
        "quote: medical",
        "select: medical",
        "select: dental",
        "select: vision",
        "continue: review",
        "submit: subInfo",
    ] {
        assert!(yaml.contains(step), "no `{step}` in\n{yaml}");
    }
    // The chosen plan at its premium is one of the expectations: a changed rate fails it.
    let total = plan["rates"]["total"].to_string();
    let at = yaml.find("premiums:").expect("a premium expected");
    let (head, tail) = yaml.split_at(at);
    assert!(
        tail.contains(&total),
        "the premium {total} is expected in\n{yaml}"
    );
    let changed = format!("{head}{}", tail.replacen(&total, "1.5", 1));
    let results = scenario::run_suite(&bundle.engine, "x.yaml", &changed).expect("a suite");
    assert!(!results[0].passed());

    // Another agent's application is not theirs to download.
    let other = app.browser("lakeshore");
    other.logged_in_as(LAKESHORE_USER).await;
    let refused = other
        .get(&format!("/api/dashboard/scenario/{}", id.0))
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.body);
}
