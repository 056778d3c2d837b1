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

/// Behind our proxies (two hops) the client is the address the first proxy saw, whatever the client
/// wrote before it; and addresses of one IPv6 /64 network count as one.
#[tokio::test]
async fn behind_two_proxies_the_limit_keys_the_clients_ipv6_64_network() {
    let app = spawn_app_with(|c| {
        c.client_ip_header = Some("x-forwarded-for".into());
        c.trusted_proxy_hops = 2;
    })
    .await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let limit = enrollflow_server::accounts::RESETS_PER_ADDRESS_PER_HOUR;
    let forgot = |client: String| {
        let b = &b;
        let token = &token;
        async move {
            // What the client wrote first is spoofed; the second proxy appends the first's address.
            let header = format!("198.51.100.{}, {client}, 10.0.0.2", client.len());
            b.call_with_header(
                reqwest::Method::POST,
                "/api/forgot-password",
                token,
                &json!({ "email": "nobody@example.com" }),
                ("x-forwarded-for", &header),
            )
            .await
            .status
        }
    };
    // Every request from another address of the same /64 network: all count together.
    for n in 0..limit {
        assert_eq!(
            forgot(format!("2001:db8:1:2::{:x}", n + 1)).await,
            StatusCode::OK,
            "request {n}"
        );
    }
    assert_eq!(
        forgot("2001:db8:1:2:ffff::9".into()).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another /64 network, and an IPv4 client, are not held back.
    assert_eq!(forgot("2001:db8:1:3::1".into()).await, StatusCode::OK);
    assert_eq!(forgot("203.0.113.9".into()).await, StatusCode::OK);
}

/// New anonymous sessions and page views are limited per address (four times the address limit a
/// minute, half of it at once), and an application keeps a bounded number of page views.
#[tokio::test]
async fn new_sessions_and_page_views_are_bounded_per_address_and_per_application() {
    // 1 a minute: sessions and page views 4 a minute, a burst of 2.
    let app = spawn_app_with(|c| c.address_limit = 1).await;
    for _ in 0..2 {
        let r = app.browser("acme").get("/api/get-auth-state").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let r = app.browser("acme").get("/api/get-auth-state").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(sessions, 2, "the refused call started none");

    // Page views: an address's own bucket.
    let other = spawn_app_with(|c| c.address_limit = 1).await;
    let b = other.browser("acme");
    let token = b.start_session().await;
    let view = |route: &'static str| {
        let b = &b;
        let token = &token;
        async move {
            b.call(
                reqwest::Method::POST,
                "/api/events/pageView",
                token,
                &json!({ "route": route }),
            )
            .await
            .status
        }
    };
    assert_eq!(view("/census").await, StatusCode::NO_CONTENT);
    assert_eq!(view("/census").await, StatusCode::NO_CONTENT);
    assert_eq!(view("/census").await, StatusCode::TOO_MANY_REQUESTS);

    // An application keeps at most its bound of views, however many are sent.
    let unlimited = spawn_app_with(|c| c.address_limit = 0).await;
    let b = unlimited.browser("acme");
    let token = b.start_session().await;
    let r = save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&unlimited.pool)
        .await
        .expect("id");
    let bound = enrollflow_server::db::applications::PAGE_VIEWS_PER_APPLICATION;
    sqlx::query(
        "INSERT INTO page_views (application_id, route, viewed_at)
         SELECT $1, '/census', now() FROM generate_series(1, $2 - 1)",
    )
    .bind(id)
    .bind(bound)
    .execute(&unlimited.pool)
    .await
    .expect("views");
    for _ in 0..3 {
        let r = b
            .call(
                reqwest::Method::POST,
                "/api/events/pageView",
                &token,
                &json!({ "route": "/census" }),
            )
            .await;
        assert_eq!(r.status, StatusCode::NO_CONTENT);
    }
    let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM page_views WHERE application_id = $1")
        .bind(id)
        .fetch_one(&unlimited.pool)
        .await
        .expect("count");
    assert_eq!(kept, bound);
}
