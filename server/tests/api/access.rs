//! The access matrix (issue 6 item 7): with agent A's session, every route that names an
//! application by id answers 403 or 404 for agent B's application and leaks none of its data;
//! admin-only routes refuse agents.

use reqwest::StatusCode;
use serde_json::json;
use uuid::Uuid;

use crate::helpers::{ACME_USER, adult, put, spawn_app};

#[tokio::test]
async fn agent_a_cannot_reach_agent_bs_application_by_id() {
    let app = spawn_app().await;
    // Agent B's customer (lakeshore's site) with a census that names her.
    let customer = app.browser("lakeshore");
    let token = customer.start_session().await;
    let r = put(
        &customer,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mut census = adult("1979-05-05");
    census["sub_first_name"] = json!("Zelda");
    census["medicare_eligible"] = json!(0);
    census["wants_subsidy"] = json!(0);
    let r = put(&customer, &token, "/api/application/step/census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let b_id: Uuid = sqlx::query_scalar("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("application");

    // Agent A, logged in on A's own site and on B's site.
    for site in ["acme", "lakeshore"] {
        let a = app.browser(site);
        a.logged_in_as(ACME_USER).await;
        for path in [
            format!("/api/application/{b_id}/step"),
            format!("/api/application/{b_id}/step/census/validStep"),
            format!("/api/application/{b_id}/step/rap/validStep"),
            format!("/api/application/{b_id}/countyList/48104"),
        ] {
            let r = a.get(&path).await;
            assert!(
                r.status == StatusCode::FORBIDDEN || r.status == StatusCode::NOT_FOUND,
                "{site} {path}: {} {}",
                r.status,
                r.body
            );
            assert!(!r.body.contains("Zelda"), "{path} leaked the census");
        }
        // The session-bound calls see only the session's own (empty) application.
        for path in [
            "/api/application/step/census",
            "/api/plans/1/allPlans",
            "/api/plans/planInfo",
        ] {
            let r = a.get(path).await;
            assert!(
                !r.body.contains("Zelda"),
                "{site} {path} leaked the census: {}",
                r.body
            );
        }
        let active = a.get("/api/application/active").await.json();
        assert!(active["application"].is_null(), "{active}");
        // The dashboard's calls by id: B's application is not found for A.
        let r = a.get(&format!("/api/dashboard/getAppInfo/{b_id}")).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{site}: {}", r.body);
        assert!(!r.body.contains("Zelda"));
        let t = a.start_session().await;
        let r = a
            .call(
                reqwest::Method::POST,
                &format!("/api/dashboard/enroll/{b_id}"),
                &t,
                &json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{site}: {}", r.body);
        let active = a.get("/api/application/active").await.json();
        assert!(
            active["application"].is_null(),
            "enroll adopted B's: {active}"
        );
    }

    // Admin-only routes refuse the agent.
    let a = app.browser("acme");
    let token = a.logged_in_as(ACME_USER).await;
    for path in [
        "/api/admin/getUsersByNPN/17439021",
        "/api/admin/agentList",
        "/api/admin/outbox",
        "/api/admin/messageList",
    ] {
        assert_eq!(a.get(path).await.status, StatusCode::FORBIDDEN, "{path}");
    }
    let users: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM users")
        .fetch_all(&app.pool)
        .await
        .expect("users");
    let r = a
        .get_with_token(&format!("/api/admin/fabricateAgent/{}", users[0]), &token)
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = a
        .call(
            reqwest::Method::PUT,
            "/api/admin/manageMessage",
            &token,
            &json!({ "title": "t", "publish_date": "2024-11-20", "content": "c" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = a
        .call(
            reqwest::Method::POST,
            &format!("/api/admin/manageMessage/{}", Uuid::new_v4()),
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
}
