//! The dashboard shell and home: the left navigation, the countdowns from
//! `rules/calendar.yaml` on the test clock's today (2024-11-20), the year-to-date figures, the
//! More Info modal and Enroll.

use reqwest::{Method, StatusCode};
use serde_json::json;
use time::macros::datetime;
use uuid::Uuid;

use crate::helpers::{ACME_USER, ADMIN_USER, LAKESHORE_USER, TestApp, spawn_app};

async fn agent_of(app: &TestApp, email: &str) -> Uuid {
    sqlx::query_scalar("SELECT agent_id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .expect("the user's agent")
}

/// A submitted (or, without a time, quoted) application with a medical plan of a carrier.
async fn insert(
    app: &TestApp,
    agent: Uuid,
    submitted: Option<time::OffsetDateTime>,
    carrier: Option<i16>,
    last_step: i16,
) -> Uuid {
    let id = Uuid::new_v4();
    let data = json!({
        "census": { "sub_first_name": "Ann", "sub_last_name": "Archer", "email": "ann@example.com",
                    "residential_zip": "48104" },
        "subInfo": { "primary_phone": "7345550100", "residential_street": "1 Main St",
                     "residential_city": "Ann Arbor", "residential_state": "MI",
                     "billing_provided": true, "billing_street": "PO Box 9",
                     "billing_city": "Detroit", "billing_state": "MI", "billing_zip": "48201" },
    });
    sqlx::query(
        "INSERT INTO applications (id, agent_id, data, created_at, updated_at, submission_time,
             medical_carrier_id, last_step, summary)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(agent)
    .bind(&data)
    .bind(datetime!(2024-11-01 12:00 UTC))
    .bind(submitted)
    .bind(carrier)
    .bind(last_step)
    .bind(app.summary_of(&data))
    .execute(&app.pool)
    .await
    .expect("insert");
    id
}

#[tokio::test]
async fn countdowns_follow_the_calendar_and_the_medicare_flag() {
    let app = spawn_app().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    // 2024-11-20 is inside the 2025 open enrollment (to 2025-01-15, the last day counting).
    let ind = a.get("/api/dashboard/countdownIndividual").await;
    assert_eq!(ind.status, StatusCode::OK, "{}", ind.body);
    assert_eq!(
        ind.json(),
        json!({ "days": 57, "message": "days left in Open Enrollment for 2025 coverage" })
    );
    // Acme shows Medicare: its annual period ends 2024-12-07.
    let med = a.get("/api/dashboard/countdownMedicare").await.json();
    assert_eq!(med["days"], 18, "{med}");
    // Lakeshore does not.
    let l = app.browser("lakeshore");
    l.logged_in_as(LAKESHORE_USER).await;
    let med = l.get("/api/dashboard/countdownMedicare").await.json();
    assert!(med["days"].is_null(), "{med}");
    // A visitor without a login has none of it.
    let v = app.browser("acme");
    v.start_session().await;
    assert_eq!(
        v.get("/api/dashboard/countdownIndividual").await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn year_to_date_figures_count_this_years_submissions_by_month_and_carrier() {
    let app = spawn_app().await;
    let (acme, lake) = (
        agent_of(&app, ACME_USER).await,
        agent_of(&app, LAKESHORE_USER).await,
    );
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let empty = a.get("/api/dashboard/carrierShare").await.json();
    assert_eq!(
        empty,
        json!({ "carrierCounts": {}, "carrierNames": {}, "carrierColors": {} })
    );

    for (when, carrier) in [
        (datetime!(2024-01-10 12:00 UTC), Some(1)),
        (datetime!(2024-03-02 12:00 UTC), Some(3)),
        (datetime!(2024-03-28 12:00 UTC), Some(3)),
        (datetime!(2024-11-19 12:00 UTC), None),
        // Last year's and another agent's do not count.
        (datetime!(2023-12-31 12:00 UTC), Some(1)),
    ] {
        insert(&app, acme, Some(when), carrier, 10).await;
    }
    insert(
        &app,
        lake,
        Some(datetime!(2024-03-03 12:00 UTC)),
        Some(3),
        10,
    )
    .await;
    insert(&app, acme, None, Some(1), 4).await;
    app.settle().await;

    let ytd = a.get("/api/dashboard/enrollmentsYtd").await;
    assert_eq!(ytd.status, StatusCode::OK, "{}", ytd.body);
    let ytd = ytd.json();
    let months = ytd.as_object().expect("map");
    assert_eq!(months.len(), 11, "January to November: {ytd}");
    assert_eq!(ytd["2024-01"], 1);
    assert_eq!(ytd["2024-02"], 0);
    assert_eq!(ytd["2024-03"], 2);
    assert_eq!(ytd["2024-11"], 1);

    let share = a.get("/api/dashboard/carrierShare").await.json();
    assert_eq!(share["carrierCounts"], json!({ "1": 1, "3": 2 }));
    assert_eq!(share["carrierNames"]["3"], "Priority Health");
    assert_eq!(share["carrierColors"]["1"], "#0b5394");
}

#[tokio::test]
async fn the_shell_more_info_and_enroll_resume_the_agents_application() {
    let app = spawn_app().await;
    let (acme, lake) = (
        agent_of(&app, ACME_USER).await,
        agent_of(&app, LAKESHORE_USER).await,
    );
    let quote = insert(&app, acme, None, None, 4).await;
    let submitted = insert(
        &app,
        acme,
        Some(datetime!(2024-11-02 12:00 UTC)),
        Some(1),
        10,
    )
    .await;
    let theirs = insert(&app, lake, None, None, 4).await;
    app.settle().await;

    let a = app.browser("acme");
    let token = a.logged_in_as(ACME_USER).await;
    let shell = a.get("/api/dashboard/shell").await;
    assert_eq!(shell.status, StatusCode::OK, "{}", shell.body);
    let shell = shell.json();
    assert_eq!(shell["agent_full_name"], "Maria Alvarez");
    assert_eq!(shell["display_medicare"], true);
    assert!(shell["medicare_url"].is_string(), "{shell}");
    assert_eq!(shell["marketplace_links"].as_array().map(Vec::len), Some(2));
    assert_eq!(shell["subdomains"], json!(["acme", "acmeins"]));
    assert!(shell["account_manager"]["email"].is_string(), "{shell}");
    assert_eq!(shell["has_application"], false);

    let info = a.get(&format!("/api/dashboard/getAppInfo/{quote}")).await;
    assert_eq!(info.status, StatusCode::OK, "{}", info.body);
    let info = info.json();
    assert_eq!(info["primary_name"], "Ann Archer");
    assert_eq!(info["primary_phone"], "7345550100");
    assert_eq!(info["residential_zip"], "48104");
    assert_eq!(info["billing_city"], "Detroit");
    assert_eq!(
        a.get(&format!("/api/dashboard/getAppInfo/{theirs}"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // Enroll: the quote becomes the session's, at the step it reached (the flow's fourth).
    let r = a
        .call(
            Method::POST,
            &format!("/api/dashboard/enroll/{quote}"),
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let route = r.json()["route"].as_str().expect("route").to_string();
    let step4 = app
        .rules
        .current()
        .engine
        .steps()
        .find(|s| s.number == 4)
        .map(|s| s.route.clone())
        .expect("a fourth step");
    assert_eq!(route, step4);
    let active = a.get("/api/application/active").await.json();
    assert_eq!(
        active["application"]["applicationId"],
        json!(quote),
        "{active}"
    );
    assert_eq!(
        a.get("/api/dashboard/shell").await.json()["has_application"],
        true
    );

    // A submitted one resumes at Review and Purchase.
    let r = a
        .call(
            Method::POST,
            &format!("/api/dashboard/enroll/{submitted}"),
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.json()["route"], "/rap", "{}", r.body);
    assert_eq!(
        a.get("/api/dashboard/shell").await.json()["has_application"],
        false
    );

    // Admins (not acting as an agent) have no dashboard of their own.
    let admin = app.browser("acme");
    admin.logged_in_as(ADMIN_USER).await;
    assert_eq!(
        admin.get("/api/dashboard/shell").await.status,
        StatusCode::FORBIDDEN
    );
}
