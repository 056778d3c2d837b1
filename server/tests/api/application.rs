use reqwest::StatusCode;
use uuid::Uuid;

use crate::helpers::{TestApp, spawn_app};

async fn bind_new_application(app: &TestApp) -> Uuid {
    let agent: Uuid =
        sqlx::query_scalar("SELECT agent_id FROM agent_subdomains WHERE subdomain = 'acme'")
            .fetch_one(&app.pool)
            .await
            .expect("agent");
    let id = enrollflow_server::db::applications::create(
        &app.pool,
        agent,
        time::OffsetDateTime::now_utc(),
        None,
        None,
    )
    .await
    .expect("application");
    sqlx::query("UPDATE applications SET last_step = 4, skip_medical = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("update");
    // The only session in this fresh database is the browser's.
    sqlx::query("UPDATE sessions SET application_id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("bind");
    app.settle().await;
    id
}

#[tokio::test]
async fn a_new_visitor_has_no_active_application() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.start_session().await;
    let r = b.get("/api/application/active").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json()["application"].is_null());
}

#[tokio::test]
async fn the_sessions_application_is_returned_and_reset_lets_go_of_it() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let csrf = b.start_session().await;
    let id = bind_new_application(&app).await;

    let a = b.get("/api/application/active").await.json();
    assert_eq!(a["application"]["applicationId"], id.to_string());
    assert_eq!(a["application"]["lastStep"], 4);
    assert_eq!(a["application"]["skipMedical"], true);
    assert_eq!(a["application"]["skipDental"], false);
    assert!(a["application"]["submissionTime"].is_null());

    // A GET never changes state: the spec's `?reset=true` is refused, the application kept.
    let r = b.get("/api/application/active?reset=true").await;
    assert_eq!(r.status.as_u16(), 405, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .is_some_and(|e| e.contains("POST"))
    );
    assert_eq!(
        b.get("/api/application/active").await.json()["application"]["applicationId"],
        id.to_string()
    );
    // Without the session's CSRF token the POST is refused (no other site restarts a quote).
    assert_eq!(
        b.post("/api/application/active/reset", "0")
            .await
            .status
            .as_u16(),
        419
    );
    let r = b.post("/api/application/active/reset", &csrf).await.json();
    assert!(r["application"].is_null());
    assert!(b.get("/api/application/active").await.json()["application"].is_null());
    // Restarting does not delete the application: agents still see it on their dashboard.
    let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM applications WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(kept, 1);
}

#[tokio::test]
async fn another_browser_does_not_see_the_application() {
    let app = spawn_app().await;
    let owner = app.browser("acme");
    owner.start_session().await;
    bind_new_application(&app).await;
    let other = app.browser("acme");
    other.start_session().await;
    assert!(other.get("/api/application/active").await.json()["application"].is_null());
}

#[tokio::test]
async fn the_timeout_call_ends_the_session() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let csrf = b.start_session().await;
    // A GET (a link or an image on another page) cannot log anyone out, nor a POST without the
    // session's CSRF token.
    assert_eq!(b.get("/api/application/timeout").await.status.as_u16(), 405);
    assert_eq!(
        b.post("/api/application/timeout", "0")
            .await
            .status
            .as_u16(),
        419
    );
    let r = b.post("/api/application/timeout", &csrf).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert!(r.header("set-cookie").contains("Max-Age=0"));
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(left, 0);
    assert_eq!(b.get("/api/application/active").await.status.as_u16(), 419);
}
