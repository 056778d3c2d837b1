//! `GET /api/start`: a page load's first answer (the auth state, the active application and the
//! flow) is what the three routes answer one by one, and it starts the session as
//! `GET /api/get-auth-state` does.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{ACME_USER, Browser, in_open_enrollment, spawn_app};

/// `/api/start` and, right after, the three answers it stands for.
async fn start_and_parts(b: &Browser<'_>) -> (Value, Value, Value, Reply3) {
    let start = b.get("/api/start").await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    let auth = b.get("/api/get-auth-state").await;
    assert_eq!(auth.status, StatusCode::OK, "{}", auth.body);
    let active = b.get("/api/application/active").await;
    assert_eq!(active.status, StatusCode::OK, "{}", active.body);
    let flow = b.get("/api/flow").await;
    (
        start.json(),
        auth.json(),
        active.json(),
        (flow.status, flow.body),
    )
}

type Reply3 = (StatusCode, String);

#[tokio::test]
async fn a_first_visit_gets_its_session_application_and_flow_in_one_answer() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let first = b.get("/api/start").await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert!(
        first.header("set-cookie").starts_with("ef_session="),
        "a session is started: {:?}",
        first.header("set-cookie")
    );
    assert_eq!(first.header("cache-control"), "no-store");
    let start = first.json();
    assert_eq!(start["auth"]["is_authorized"], false);
    assert_eq!(start["application"], Value::Null);
    assert_eq!(start["flow"]["steps"][0]["id"], "whyApplying");

    // The same session as the routes it stands for, each part as they answer it.
    let (again, auth, active, (flow_status, flow)) = start_and_parts(&b).await;
    assert_eq!(again["auth"], auth);
    assert_eq!(again["auth"]["csrf_token"], start["auth"]["csrf_token"]);
    assert_eq!(again["application"], active["application"]);
    assert_eq!(flow_status, StatusCode::OK);
    assert_eq!(
        again["flow"],
        serde_json::from_str::<Value>(&flow).expect("json")
    );

    // With an application under way: its number and last step.
    in_open_enrollment(&b, auth["csrf_token"].as_str().expect("token")).await;
    let (now, _, active, (_, flow)) = start_and_parts(&b).await;
    assert!(now["application"]["applicationId"].is_string(), "{now}");
    assert_eq!(now["application"], active["application"]);
    assert_eq!(
        now["flow"],
        serde_json::from_str::<Value>(&flow).expect("json")
    );
}

#[tokio::test]
async fn an_agent_is_signed_in_and_an_address_of_no_agent_has_no_flow() {
    let app = spawn_app().await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    let start = agent.get("/api/start").await.json();
    assert_eq!(start["auth"]["is_authorized"], true);
    assert_eq!(start["auth"]["agent_subdomain"], "acme");
    assert_eq!(start["auth"], agent.get("/api/get-auth-state").await.json());

    let nobody = app.browser("nosuch");
    let r = nobody.get("/api/start").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (start, _, _, (flow_status, _)) = start_and_parts(&nobody).await;
    assert_eq!(flow_status, StatusCode::NOT_FOUND);
    assert_eq!(start["flow"], Value::Null);
    assert_eq!(start["application"], json!(null));
}
