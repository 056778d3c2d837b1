//! Per-address limits: new applications, PDFs and exports from one address
//! past the limit answer 429 with `Retry-After` before any work; other calls are untouched.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{ACME_USER, adult, at_medical, save_step, spawn_app_with};

#[tokio::test]
async fn one_address_past_its_limit_waits_and_is_told_how_long() {
    // 4 a minute: a burst of 2.
    let app = spawn_app_with(|c| c.address_limit = 4).await;

    // New applications: two browsers start one each, a third waits.
    for _ in 0..2 {
        let b = app.browser("acme");
        let token = b.start_session().await;
        let r = save_step(
            &b,
            &token,
            "whyApplying",
            json!({ "enrollment_type": "oe" }),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.header("retry-after").parse::<u64>().expect("Retry-After") >= 1);
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(count, 2, "the refused one created nothing");

    // PDFs: their own bucket.
    let later = spawn_app_with(|c| c.address_limit = 4).await;
    let b = later.browser("acme");
    at_medical(&b, adult("1985-03-01")).await;
    for _ in 0..2 {
        assert_eq!(b.get("/api/printPdf/1/false").await.status, StatusCode::OK);
    }
    let r = b.get("/api/printPdf/1/false").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(!r.header("retry-after").is_empty());
    // The step pages still answer.
    assert_eq!(
        b.get("/api/application/active").await.status,
        StatusCode::OK
    );

    // Exports too.
    let a = later.browser("acme");
    a.logged_in_as(ACME_USER).await;
    for _ in 0..2 {
        assert_eq!(
            a.get("/api/dashboard/quotesExport").await.status,
            StatusCode::OK
        );
    }
    assert_eq!(
        a.get("/api/dashboard/enrolleesExport").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}
