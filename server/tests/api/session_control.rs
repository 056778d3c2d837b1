//! Sessions a person controls: a request with the old cookie never undoes a login, an
//! absolute lifetime, "Signed-in devices", and accounts an admin disables.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{
    ACME_USER, ADMIN_USER, Browser, DEMO_PASSWORD, MINUTE, TestApp, spawn_app, spawn_app_with,
    user_id,
};

/// Another "tab" of the same browser still holding `cookie` (its request left before the browser
/// had the new one).
fn tab_with<'a>(app: &'a TestApp, subdomain: &str, cookie: String) -> Browser<'a> {
    let tab = app.browser(subdomain);
    *tab.cookie.lock().expect("lock") = Some(cookie);
    tab
}

fn sets_session_cookie(r: &crate::helpers::Reply) -> bool {
    r.headers
        .get_all("set-cookie")
        .iter()
        .any(|v| v.to_str().unwrap_or("").starts_with("ef_session"))
}

/// The requests a stale tab makes, answered after the new session exists: none touches the cookie
/// (neither clearing it nor starting another session), each says "replaced".
async fn assert_stale_cookie_is_left_alone(stale: &Browser<'_>) {
    for path in [
        "/api/application/active",
        "/api/get-auth-state",
        "/api/site",
    ] {
        let r = stale.get(path).await;
        assert!(!sets_session_cookie(&r), "{path}: {:?}", r.headers);
        if path != "/api/site" {
            assert_eq!(r.status.as_u16(), 419, "{path}: {}", r.body);
            assert_eq!(r.json()["session"], "replaced", "{path}");
        }
    }
    let r = stale.post("/api/events/pageView", "0").await;
    assert_eq!(r.status.as_u16(), 419);
    assert!(!sets_session_cookie(&r));
}

#[tokio::test]
async fn a_request_with_the_old_cookie_answered_after_the_login_leaves_the_new_session_alone() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.start_session().await;
    let before = b.cookie();
    let r = b.login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_ne!(b.cookie(), before);

    assert_stale_cookie_is_left_alone(&tab_with(&app, "acme", before.clone())).await;

    // The browser's session is still the logged-in one.
    let state = b.get("/api/get-auth-state").await;
    assert_eq!(state.header("set-cookie"), "");
    assert_eq!(state.json()["is_authorized"], true);

    // A browser that never got the new cookie (the login's answer lost) asks for a new session.
    let lost = tab_with(&app, "acme", before.clone());
    let r = lost.get("/api/get-auth-state?renew=true").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(sets_session_cookie(&r));
    assert_eq!(r.json()["is_authorized"], false);

    // A minute later the old cookie is simply unknown: a new visitor session, nothing cleared.
    app.clock
        .advance(MINUTE + std::time::Duration::from_secs(1));
    let late = tab_with(&app, "acme", before);
    let r = late.get("/api/application/active").await;
    assert_eq!(r.status.as_u16(), 419);
    assert_ne!(r.json()["session"], "replaced");
    assert!(!sets_session_cookie(&r));
    assert_eq!(late.start_session().await.len(), 64);
}

#[tokio::test]
async fn impersonating_switching_back_and_logging_out_leave_no_stale_answer_to_undo_them() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let csrf = b.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;

    let admin_cookie = b.cookie();
    let r = b
        .post(&format!("/api/admin/fabricateAgent/{maria}"), &csrf)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    assert_stale_cookie_is_left_alone(&tab_with(&app, "demo", admin_cookie)).await;
    assert_eq!(
        b.get("/api/get-auth-state").await.json()["impersonating"],
        true
    );

    let acting_cookie = b.cookie();
    let r = b.post("/api/unFabricateAgent", &csrf).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    assert_stale_cookie_is_left_alone(&tab_with(&app, "demo", acting_cookie)).await;
    assert_eq!(b.get("/api/get-auth-state").await.json()["is_admin"], true);

    let admin_cookie = b.cookie();
    let r = b.post("/api/logout", &csrf).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    b.start_session().await;
    assert_stale_cookie_is_left_alone(&tab_with(&app, "demo", admin_cookie)).await;
}

#[tokio::test]
async fn a_session_ends_twelve_hours_after_it_began_however_busy() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.logged_in_as(ACME_USER).await;
    // Busy all day: a call every 20 minutes for 11 h 40 min.
    for _ in 0..35 {
        app.clock.advance(20 * MINUTE);
        let r = b.get("/api/get-auth-state").await;
        assert_eq!(r.json()["is_authorized"], true);
    }
    app.clock
        .advance(20 * MINUTE + std::time::Duration::from_secs(1));
    let r = b.get("/api/application/active").await;
    assert_eq!(r.status.as_u16(), 419, "{}", r.body);
    assert!(r.header("set-cookie").contains("Max-Age=0"));
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions WHERE user_id IS NOT NULL")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(left, 0);
}

#[tokio::test]
async fn the_absolute_lifetime_is_configurable() {
    let app = spawn_app_with(|c| c.session_hours = 1).await;
    let b = app.browser("acme");
    b.start_session().await;
    app.clock.advance(25 * MINUTE);
    assert_eq!(b.get("/api/site").await.status, StatusCode::OK);
    app.clock.advance(25 * MINUTE);
    assert_eq!(b.get("/api/site").await.status, StatusCode::OK);
    app.clock.advance(11 * MINUTE);
    assert_eq!(b.get("/api/application/active").await.status.as_u16(), 419);
}

#[tokio::test]
async fn signed_in_devices_lists_the_persons_sessions_and_signs_out_one_or_all_others() {
    let app = spawn_app().await;
    let laptop = app.browser("acme");
    let csrf = laptop.logged_in_as(ACME_USER).await;
    let phone = app.browser("acme");
    phone.logged_in_as(ACME_USER).await;
    let tablet = app.browser("acme");
    tablet.logged_in_as(ACME_USER).await;
    // Someone else's session is never listed.
    app.browser("demo").logged_in_as(ADMIN_USER).await;

    let r = laptop.get("/api/user/sessions").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = r.json();
    let list = list.as_array().expect("list");
    assert_eq!(list.len(), 3, "{list:?}");
    assert_eq!(list.iter().filter(|d| d["current"] == true).count(), 1);
    for d in list {
        assert!(d["created_at"].is_string() && d["last_seen_at"].is_string());
        assert!(d["browser"].is_string());
        assert_eq!(d["id"].as_str().map(str::len), Some(64));
        // The id is not the cookie's token.
        assert!(!laptop.cookie().contains(d["id"].as_str().unwrap_or("")));
    }

    // Sign out one other device: it is logged out at once.
    let other = list
        .iter()
        .find(|d| d["current"] == false)
        .expect("another")["id"]
        .as_str()
        .expect("id")
        .to_string();
    let r = laptop
        .call(
            reqwest::Method::DELETE,
            &format!("/api/user/sessions/{other}"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let alive = count_authorized(&[&phone, &tablet]).await;
    assert_eq!(alive, 1, "exactly one of the two others was signed out");
    // Not someone else's session, not nonsense.
    let r = laptop
        .call(
            reqwest::Method::DELETE,
            &format!("/api/user/sessions/{}", "ab".repeat(32)),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // Sign out every other device: only this one is left.
    let r = laptop
        .call(
            reqwest::Method::DELETE,
            "/api/user/sessions",
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    assert_eq!(count_authorized(&[&phone, &tablet]).await, 0);
    let list = laptop.get("/api/user/sessions").await.json();
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(
        laptop.get("/api/get-auth-state").await.json()["is_authorized"],
        true
    );

    // Signing out the current one from the list is a logout.
    let me = list[0]["id"].as_str().expect("id").to_string();
    let r = laptop
        .call(
            reqwest::Method::DELETE,
            &format!("/api/user/sessions/{me}"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert!(r.header("set-cookie").contains("Max-Age=0"));
}

async fn count_authorized(browsers: &[&Browser<'_>]) -> usize {
    let mut n = 0;
    for b in browsers {
        let r = b.get("/api/get-auth-state").await;
        if r.status == StatusCode::OK && r.json()["is_authorized"] == true {
            n += 1;
        }
    }
    n
}

#[tokio::test]
async fn an_admin_disables_an_account_and_its_sessions_end_at_once_on_every_instance() {
    let app = spawn_app().await;
    let other_instance = app.another_instance().await;
    let admin = app.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    // Maria works through the other instance, which has her session cached.
    let agent = other_instance.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    assert_eq!(
        agent.get("/api/dashboard/quotes").await.status,
        StatusCode::OK
    );

    let r = admin
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{maria}/disabled"),
            &csrf,
            &json!({ "disabled": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["disabled"], true);
    other_instance.settle().await;

    let r = agent.get("/api/dashboard/quotes").await;
    assert!(
        matches!(r.status.as_u16(), 403 | 419),
        "{}: {}",
        r.status,
        r.body
    );
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions WHERE user_id = $1")
        .bind(maria)
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(sessions, 0);
    // She cannot log in again (told so only after the right password), nor get a reset link.
    let r = app.browser("acme").login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status.as_u16(), 422);
    assert!(r.body.contains("disabled"), "{}", r.body);
    let r = app
        .browser("acme")
        .login(ACME_USER, "wrong-password-1")
        .await;
    assert!(!r.body.contains("disabled"), "{}", r.body);

    // An admin cannot disable themselves; enabling restores the login.
    let me = user_id(&app.pool, ADMIN_USER).await;
    let r = admin
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{me}/disabled"),
            &csrf,
            &json!({ "disabled": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = admin
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{maria}/disabled"),
            &csrf,
            &json!({ "disabled": false }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let r = app.browser("acme").login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let actions: Vec<String> = sqlx::query_scalar(
        "SELECT action FROM audit_log WHERE subject_user_id = $1 AND action LIKE 'account_%' ORDER BY id",
    )
    .bind(maria)
    .fetch_all(&app.pool)
    .await
    .expect("audit");
    assert_eq!(actions, ["account_disabled", "account_enabled"]);
}

#[tokio::test]
async fn agents_cannot_disable_accounts() {
    let app = spawn_app().await;
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    let admin = user_id(&app.pool, ADMIN_USER).await;
    let r = agent
        .call(
            reqwest::Method::PUT,
            &format!("/api/admin/users/{admin}/disabled"),
            &csrf,
            &json!({ "disabled": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_parallel_burst_of_wrong_passwords_is_counted_one_by_one() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let csrf = b.start_session().await;
    let wrong = json!({ "email": ACME_USER, "password": "not-the-password" });
    let tries = (0..50).map(|_| b.call(reqwest::Method::POST, "/api/login", &csrf, &wrong));
    let answers = futures_util::future::join_all(tries).await;
    let checked = answers.iter().filter(|r| r.status.as_u16() == 422).count();
    let refused: Vec<_> = answers
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert_eq!(
        checked, 5,
        "only the account's limit reaches the password check"
    );
    assert_eq!(refused.len(), 45);
    for r in refused {
        let wait: u64 = r
            .header("retry-after")
            .parse()
            .expect("Retry-After seconds");
        assert!(wait > 0);
    }
    let recorded: i64 = sqlx::query_scalar("SELECT count(*) FROM login_failures")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(recorded, 50, "every attempt of the burst is recorded");
    // The real user can still reset the password (the lockout never blocks that).
    let r = b.forgot_password(&csrf, ACME_USER).await;
    assert_eq!(r.status, StatusCode::OK);
    crate::helpers::wait_for_mails(&app.pool, ACME_USER, 1).await;
}
