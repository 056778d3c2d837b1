//! Accounts: login, throttling, logout, forgotten and reset passwords, invitations, password
//! changes, and the audit trail they leave.

use enrollflow_server::accounts::{self, Invitation};
use enrollflow_server::platform::clock::Clock;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::{
    ACME_USER, Browser, DEMO_PASSWORD, LAKESHORE_USER, MINUTE, Reply, TestApp, spawn_app, token_in,
    wait_for_mails, wait_for_mails_about,
};

const BAD_CREDENTIALS: &str = "These credentials do not match our records.";
const LINK_NO_LONGER_VALID: &str = "Sorry, the link you used is no longer valid.";

fn errors(r: &crate::helpers::Reply, key: &str) -> Value {
    r.json()["errors"][key].clone()
}

/// A browser holding an earlier cookie (the one a login replaced).
fn with_cookie<'a>(app: &'a TestApp, subdomain: &str, cookie: &str) -> Browser<'a> {
    let b = app.browser(subdomain);
    *b.cookie.lock().expect("lock") = Some(cookie.to_string());
    b
}

async fn sessions(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM sessions")
        .fetch_one(pool)
        .await
        .expect("count")
}

async fn audit_actions(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT action FROM audit_log ORDER BY id")
        .fetch_all(pool)
        .await
        .expect("audit")
}

/// The newest e-mail in the outbox: (to, subject, body with its link whole).
async fn last_mail(pool: &PgPool) -> (String, String, String) {
    let m = enrollflow_server::db::outbox::newest_to(pool, None, 1)
        .await
        .expect("outbox")
        .pop()
        .expect("a mail");
    let body = enrollflow_server::platform::mail::reveal(&crate::helpers::test_cipher(), &m)
        .expect("reveal");
    (m.to_address, m.subject, body)
}

async fn outbox_count(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM outbox")
        .fetch_one(pool)
        .await
        .expect("count")
}

async fn password_hash(pool: &PgPool, email: &str) -> Option<String> {
    sqlx::query_scalar("SELECT password_hash FROM users WHERE lower(email) = lower($1)")
        .bind(email)
        .fetch_one(pool)
        .await
        .expect("user")
}

#[tokio::test]
async fn login_replaces_the_session_id_and_csrf_token() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let old_csrf = b.start_session().await;
    let old_cookie = b.cookie();

    let r = b
        .call(
            Method::POST,
            "/api/login",
            &old_csrf,
            &json!({ "email": ACME_USER, "password": DEMO_PASSWORD }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["subdomain"], "acme");
    let new_csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    assert_ne!(new_csrf, old_csrf, "a new CSRF token");
    assert_ne!(b.cookie(), old_cookie, "a new session id");
    assert_eq!(sessions(&app.pool).await, 1, "the old session row is gone");

    // The old id no longer works; the new one is logged in.
    let old = with_cookie(&app, "acme", &old_cookie);
    assert_eq!(
        old.get("/api/application/active").await.status.as_u16(),
        419
    );
    let state = b.get("/api/get-auth-state").await.json();
    assert_eq!(state["is_authorized"], true);
    assert_eq!(state["is_admin"], false);
    assert_eq!(state["agent_subdomain"], "acme");
    assert_eq!(state["admin_subdomain"], Value::Null);
    assert_eq!(state["impersonating"], false);
    assert_eq!(state["user_name"], "Maria Alvarez");
    assert_eq!(state["csrf_token"], new_csrf.as_str());

    // The old CSRF token does not pass with the new session.
    let r = b
        .call(Method::POST, "/api/logout", &old_csrf, &json!({}))
        .await;
    assert_eq!(r.status.as_u16(), 419);
}

#[tokio::test]
async fn login_is_case_insensitive_on_the_address() {
    let app = spawn_app().await;
    let r = app
        .browser("acme")
        .login(&ACME_USER.to_uppercase(), DEMO_PASSWORD)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_get_the_same_answer() {
    let app = spawn_app().await;
    let wrong = app
        .browser("acme")
        .login(ACME_USER, "not-the-password")
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(errors(&wrong, "login_password"), json!([BAD_CREDENTIALS]));
    let unknown = app
        .browser("acme")
        .login("nobody@example.com", "not-the-password")
        .await;
    assert_eq!(unknown.status, wrong.status);
    assert_eq!(unknown.body, wrong.body);

    let empty = app.browser("acme").login("", "").await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(errors(&empty, "login_email").is_array(), "{}", empty.body);
    assert!(
        errors(&empty, "login_password").is_array(),
        "{}",
        empty.body
    );
}

#[tokio::test]
async fn the_sixth_failed_login_is_refused_until_the_window_slides() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    for _ in 0..5 {
        let r = b.login(ACME_USER, "wrong-password-1").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    }
    // Even the right password is not checked now.
    let r = b.login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.json()["error"].is_string());
    // Another account from the same address is not locked by this one.
    assert_eq!(
        app.browser("lakeshore")
            .login(LAKESHORE_USER, DEMO_PASSWORD)
            .await
            .status,
        StatusCode::OK
    );

    // The window slides: five minutes later the real user gets in.
    app.clock.advance(4 * MINUTE);
    assert_eq!(
        b.login(ACME_USER, DEMO_PASSWORD).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
    app.clock
        .advance(MINUTE + std::time::Duration::from_secs(1));
    let r = b.login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // A success forgets the account's failures.
    for _ in 0..5 {
        assert_eq!(
            b.login(ACME_USER, "wrong-password-2").await.status,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
}

#[tokio::test]
async fn many_failures_from_one_address_are_refused_whatever_the_account() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    for n in 0..20 {
        let r = b
            .login(&format!("guess{n}@example.com"), "wrong-password")
            .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "attempt {n}");
    }
    let r = b.login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    app.clock
        .advance(5 * MINUTE + std::time::Duration::from_secs(1));
    assert_eq!(
        b.login(ACME_USER, DEMO_PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn logout_ends_the_session_and_clears_the_cookie() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    let cookie = b.cookie();
    let r = b
        .call(Method::POST, "/api/logout", &token, &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert!(r.header("set-cookie").contains("Max-Age=0"));
    assert_eq!(sessions(&app.pool).await, 0);
    let old = with_cookie(&app, "acme", &cookie);
    assert_eq!(
        old.get("/api/application/active").await.status.as_u16(),
        419
    );
    // The next auth-state call starts a visitor's session.
    let state = app.browser("acme").get("/api/get-auth-state").await.json();
    assert_eq!(state["is_authorized"], false);
    assert_eq!(audit_actions(&app.pool).await, ["login", "logout"]);
}

#[tokio::test]
async fn forgot_password_answers_the_same_and_mails_a_single_use_expiring_link() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let known = b.forgot_password(&token, ACME_USER).await;
    let unknown = b.forgot_password(&token, "nobody@example.com").await;
    assert_eq!(known.status, StatusCode::OK, "{}", known.body);
    assert_eq!((unknown.status, &unknown.body), (known.status, &known.body));
    assert!(known.json()["message"].is_string());

    // The mail is written after the answer: waited for.
    let (subject, body) = wait_for_mails(&app.pool, ACME_USER, 1).await.remove(0);
    assert_eq!(
        outbox_count(&app.pool).await,
        1,
        "mail only for the known one"
    );
    assert!(subject.contains("Reset"), "{subject}");
    // The link names no e-mail address: the token alone finds the account.
    let link = format!(
        "http://acme.localhost:{}/reset-password/token/",
        app.addr.port()
    );
    assert!(body.contains(&link), "{body}");
    assert!(!body.contains(&format!("/{ACME_USER}/")), "{body}");
    let reset_token = token_in(&body);
    assert_eq!(reset_token.len(), 64);
    // Neither the stored mail nor any table holds the token in clear.
    let anywhere: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM outbox o WHERE row_to_json(o)::text LIKE '%' || $1 || '%')
              + (SELECT count(*) FROM user_tokens t WHERE row_to_json(t)::text LIKE '%' || $1 || '%')",
    )
    .bind(&reset_token)
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(
        anywhere, 0,
        "the live token is nowhere in the database in clear"
    );
    let stored: i64 =
        sqlx::query_scalar("SELECT count(*) FROM user_tokens WHERE encode(token_hash, 'hex') = $1")
            .bind(&reset_token)
            .fetch_one(&app.pool)
            .await
            .expect("count");
    assert_eq!(stored, 0, "only the token's hash is stored");

    let reset = |email: &'static str, password: &'static str, t: String| {
        let b = &b;
        let token = token.clone();
        async move {
            b.call(
                Method::POST,
                "/api/reset-password",
                &token,
                &json!({ "email": email, "token": t, "password": password,
                         "password_confirmation": password }),
            )
            .await
        }
    };
    // The link is for this address only.
    let r = reset(LAKESHORE_USER, "a-new-secret-phrase", reset_token.clone()).await;
    assert_eq!(errors(&r, "token"), json!([LINK_NO_LONGER_VALID]));
    // A refused password does not use the link up.
    let r = reset(ACME_USER, "password123", reset_token.clone()).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(errors(&r, "password").is_array(), "{}", r.body);
    let r = reset(ACME_USER, "a-new-secret-phrase", reset_token.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["message"], "Your password has been reset.");
    // Used once: a second use is refused.
    let r = reset(ACME_USER, "another-secret-phrase", reset_token.clone()).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(errors(&r, "token"), json!([LINK_NO_LONGER_VALID]));

    assert_eq!(
        app.browser("acme")
            .login(ACME_USER, "a-new-secret-phrase")
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        app.browser("acme")
            .login(ACME_USER, DEMO_PASSWORD)
            .await
            .status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // A link expires after an hour.
    let r = b.forgot_password(&token, ACME_USER).await;
    assert_eq!(r.status, StatusCode::OK);
    let late_token =
        token_in(&wait_for_mails_about(&app.pool, ACME_USER, "Reset your", 2).await[1].1);
    app.clock.advance(61 * MINUTE);
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = b
        .call(
            Method::POST,
            "/api/reset-password",
            &token,
            &json!({ "email": ACME_USER, "token": late_token,
                     "password": "yet-another-phrase", "password_confirmation": "yet-another-phrase" }),
        )
        .await;
    assert_eq!(errors(&r, "token"), json!([LINK_NO_LONGER_VALID]));
}

#[tokio::test]
async fn a_reset_ends_every_session_of_the_account() {
    let app = spawn_app().await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    b.forgot_password(&token, ACME_USER).await;
    let reset_token = token_in(&wait_for_mails(&app.pool, ACME_USER, 1).await[0].1);
    let r = b
        .call(
            Method::POST,
            "/api/reset-password",
            &token,
            &json!({ "email": ACME_USER, "token": reset_token,
                     "password": "a-new-secret-phrase", "password_confirmation": "a-new-secret-phrase" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        agent.get("/api/application/active").await.status.as_u16(),
        419
    );
}

/// Invites Sam Rivera for the acme agent and returns the token from the invitation e-mail.
async fn invite_sam(app: &TestApp) -> String {
    accounts::invite(
        &app.pool,
        &crate::helpers::test_cipher(),
        "http://acme.localhost:8080",
        &Invitation {
            email: "sam.rivera@acme-insurance.example.com",
            first_name: "Sam",
            last_name: "Rivera",
            role: "agent",
            npn: Some(&"17439021".parse().expect("an NPN")),
        },
        app.clock.now(),
    )
    .await
    .expect("invite");
    let (to, _, body) = last_mail(&app.pool).await;
    assert_eq!(to, "sam.rivera@acme-insurance.example.com");
    assert!(
        body.contains("http://acme.localhost:8080/register/token/"),
        "{body}"
    );
    token_in(&body)
}

/// A reply's headers without those that differ between any two replies (the date, the request
/// id), sorted.
fn comparable_headers(r: &Reply) -> Vec<(String, String)> {
    let mut h: Vec<(String, String)> = r
        .headers
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "date" | "x-request-id"))
        .map(|(name, value)| {
            (
                name.to_string(),
                value.to_str().expect("ascii header").to_string(),
            )
        })
        .collect();
    h.sort();
    h
}

#[tokio::test]
async fn forgot_password_answers_every_address_identically_before_any_work_on_it() {
    let app = spawn_app().await;
    // An address with an account, one invited but not registered yet, and one without an
    // account (in two spellings).
    invite_sam(&app).await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let mut replies = Vec::new();
    for email in [
        ACME_USER,
        "sam.rivera@acme-insurance.example.com",
        "nobody@example.com",
        "Nobody.Else@Example.org",
    ] {
        let r = b.forgot_password(&token, email).await;
        replies.push((email, r));
    }
    let (_, known) = &replies[0];
    assert_eq!(known.status, StatusCode::OK, "{}", known.body);
    assert_eq!(
        known.json(),
        json!({ "message": enrollflow_server::http::accounts::FORGOT_MESSAGE })
    );
    for (email, r) in &replies[1..] {
        assert_eq!(r.status, known.status, "{email}");
        assert_eq!(r.body, known.body, "{email}");
        assert_eq!(comparable_headers(r), comparable_headers(known), "{email}");
    }

    // Only the account with a password gets a link (Sam has only the invitation).
    wait_for_mails(&app.pool, ACME_USER, 1).await;
    let to: Vec<String> = sqlx::query_scalar("SELECT to_address FROM outbox ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .expect("outbox");
    assert_eq!(to, ["sam.rivera@acme-insurance.example.com", ACME_USER]);
}

#[tokio::test]
async fn an_invitation_creates_the_account_once() {
    let app = spawn_app().await;
    let token = invite_sam(&app).await;
    let b = app.browser("acme");

    let r = b.get(&format!("/api/get-user/{token}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({ "firstName": "Sam", "lastName": "Rivera",
                "email": "sam.rivera@acme-insurance.example.com" })
    );
    let r = b.get(&format!("/api/get-user/{}", "ab".repeat(32))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json()["error"], LINK_NO_LONGER_VALID);

    // Sam cannot log in before registering.
    assert_eq!(
        app.browser("acme")
            .login("sam.rivera@acme-insurance.example.com", "")
            .await
            .status,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let csrf = b.start_session().await;
    let body = |tos: Value| {
        json!({ "token": token, "email": "Sam.Rivera@acme-insurance.example.com",
                "password": "sams-own-passphrase", "password_confirmation": "sams-own-passphrase",
                "tos_agree": tos,
                // Fields a user may not set are never read.
                "role": "admin", "agent_id": "00000000-0000-0000-0000-000000000000" })
    };
    let r = b
        .call(Method::POST, "/api/register", &csrf, &body(json!(false)))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(errors(&r, "tos_agree").is_array(), "{}", r.body);
    let r = b
        .call(
            Method::POST,
            "/api/register",
            &csrf,
            &json!({ "token": "nonsense", "email": "x@example.com", "password": "x",
                     "password_confirmation": "x", "tos_agree": true }),
        )
        .await;
    assert_eq!(errors(&r, "token"), json!([LINK_NO_LONGER_VALID]));

    let r = b
        .call(Method::POST, "/api/register", &csrf, &body(json!(true)))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["message"], "Thank you for creating your account.");
    let (role, npn, terms): (String, String, bool) = sqlx::query_as(
        "SELECT u.role, a.npn, u.terms_accepted_at IS NOT NULL FROM users u
         JOIN agents a ON a.id = u.agent_id WHERE u.email = 'sam.rivera@acme-insurance.example.com'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("user");
    assert_eq!(
        (role.as_str(), npn.as_str(), terms),
        ("agent", "17439021", true)
    );

    // The link is used up.
    assert_eq!(
        b.get(&format!("/api/get-user/{token}")).await.status,
        StatusCode::NOT_FOUND
    );
    let r = b
        .call(Method::POST, "/api/register", &csrf, &body(json!(true)))
        .await;
    assert_eq!(errors(&r, "token"), json!([LINK_NO_LONGER_VALID]));

    let r = app
        .browser("acme")
        .login(
            "sam.rivera@acme-insurance.example.com",
            "sams-own-passphrase",
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["subdomain"], "acme");
}

#[tokio::test]
async fn an_invitation_expires_after_a_week() {
    let app = spawn_app().await;
    let token = invite_sam(&app).await;
    app.clock.advance(7 * 24 * 60 * MINUTE + MINUTE);
    let r = app
        .browser("acme")
        .get(&format!("/api/get-user/{token}"))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

async fn change(b: &Browser<'_>, token: &str, current: &str, new: &str, again: &str) -> Value {
    let r = b
        .call(
            Method::PUT,
            "/api/user/password",
            token,
            &json!({ "current_password": current, "new_password": new,
                     "new_password_confirmation": again }),
        )
        .await;
    json!({ "status": r.status.as_u16(), "body": r.json() })
}

#[tokio::test]
async fn changing_the_password_checks_the_current_one_and_ends_other_sessions() {
    let app = spawn_app().await;
    let other = app.browser("acme");
    other.logged_in_as(ACME_USER).await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;

    let r = change(
        &b,
        &token,
        "wrong-current",
        "a-fresh-passphrase",
        "a-fresh-passphrase",
    )
    .await;
    assert_eq!(r["status"], 422);
    assert!(r["body"]["errors"]["current_password"].is_array(), "{r}");
    let r = change(
        &b,
        &token,
        DEMO_PASSWORD,
        "a-fresh-passphrase",
        "a-fresh-passphrasE",
    )
    .await;
    assert_eq!(r["status"], 422);
    assert!(
        r["body"]["errors"]["new_password_confirmation"].is_array(),
        "{r}"
    );
    let r = change(
        &b,
        &token,
        DEMO_PASSWORD,
        "a-fresh-passphrase",
        "a-fresh-passphrase",
    )
    .await;
    assert_eq!(r["status"], 200, "{r}");
    assert_eq!(r["body"]["message"], "Your password has been changed.");

    // This session goes on; the user's other sessions are ended.
    assert_eq!(
        b.get("/api/application/active").await.status,
        StatusCode::OK
    );
    assert_eq!(
        other.get("/api/application/active").await.status.as_u16(),
        419
    );
    assert_eq!(
        app.browser("acme")
            .login(ACME_USER, "a-fresh-passphrase")
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn common_and_short_passwords_are_refused() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    let r = change(&b, &token, DEMO_PASSWORD, "password123", "password123").await;
    assert_eq!(r["status"], 422);
    assert_eq!(
        r["body"]["errors"]["new_password"],
        json!(["This password is too common. Please choose another."])
    );
    let r = change(&b, &token, DEMO_PASSWORD, "P@ssw0rd", "P@ssw0rd").await;
    assert_eq!(r["status"], 422, "l33t spellings are common too");
    let r = change(&b, &token, DEMO_PASSWORD, "7chars!", "7chars!").await;
    assert_eq!(
        r["body"]["errors"]["new_password"],
        json!(["The password must be at least 8 characters."])
    );
    // No composition rules: eight lower-case letters that are not common are fine.
    let r = change(&b, &token, DEMO_PASSWORD, "zqxjvkwm", "zqxjvkwm").await;
    assert_eq!(r["status"], 200, "{r}");
}

#[tokio::test]
async fn stored_hashes_are_argon2id_with_the_required_parameters() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    let r = change(
        &b,
        &token,
        DEMO_PASSWORD,
        "a-fresh-passphrase",
        "a-fresh-passphrase",
    )
    .await;
    assert_eq!(r["status"], 200, "{r}");
    let hash = password_hash(&app.pool, ACME_USER).await.expect("a hash");
    assert!(
        hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{hash}"
    );
    assert!(!hash.contains("a-fresh-passphrase"));
}

#[tokio::test]
async fn changing_the_password_needs_a_logged_in_user() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = change(&b, &token, "x", "a-fresh-passphrase", "a-fresh-passphrase").await;
    assert_eq!(r["status"], 403);
    let r = app
        .browser("acme")
        .send(Method::PUT, "/api/user/password", &[], None)
        .await;
    assert_eq!(r.status.as_u16(), 419);
}

#[tokio::test]
async fn the_audit_trail_names_ids_and_addresses_never_addresses_or_passwords() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.login(ACME_USER, "wrong-password-1").await;
    let token = b.logged_in_as(ACME_USER).await;
    change(
        &b,
        &token,
        DEMO_PASSWORD,
        "a-fresh-passphrase",
        "a-fresh-passphrase",
    )
    .await;
    b.forgot_password(&token, ACME_USER).await;
    // The request is audited with its mail, after the answer: waited for.
    wait_for_mails_about(&app.pool, ACME_USER, "Reset your", 1).await;
    b.call(Method::POST, "/api/logout", &token, &json!({}))
        .await;

    assert_eq!(
        audit_actions(&app.pool).await,
        [
            "login_failed",
            "login",
            "password_change",
            "password_reset_requested",
            "logout"
        ]
    );
    let maria: uuid::Uuid = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(ACME_USER)
        .fetch_one(&app.pool)
        .await
        .expect("id");
    let rows: Vec<(Option<uuid::Uuid>, String)> =
        sqlx::query_as("SELECT subject_user_id, host(address) FROM audit_log ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .expect("rows");
    for (subject, address) in &rows {
        assert_eq!(*subject, Some(maria));
        assert_eq!(address, "127.0.0.1");
    }
    let everything: Vec<String> =
        sqlx::query_scalar("SELECT row_to_json(a)::text FROM audit_log a")
            .fetch_all(&app.pool)
            .await
            .expect("rows");
    for row in everything {
        assert!(!row.contains('@'), "{row}");
        for secret in [
            DEMO_PASSWORD,
            "wrong-password-1",
            "a-fresh-passphrase",
            "Maria",
        ] {
            assert!(!row.contains(secret), "{row}");
        }
    }
}

#[tokio::test]
async fn the_openapi_document_describes_the_account_and_admin_calls() {
    let app = spawn_app().await;
    let doc = app.browser("").get("/api/openapi.json").await.json();
    for (path, method) in [
        ("/api/login", "post"),
        ("/api/logout", "post"),
        ("/api/forgot-password", "post"),
        ("/api/reset-password", "post"),
        ("/api/get-user/{token}", "get"),
        ("/api/register", "post"),
        ("/api/user/password", "put"),
        ("/api/get-auth-state", "get"),
        ("/api/admin/getUsersByNPN/{npn}", "get"),
        ("/api/admin/fabricateAgent/{userId}", "post"),
        ("/api/unFabricateAgent", "post"),
        ("/api/admin/agentList", "get"),
        ("/api/agent_branding_number/{npn}", "get"),
        ("/api/admin/outbox", "get"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is documented"
        );
    }
    let fabricate = doc["paths"]["/api/admin/fabricateAgent/{userId}"]["post"].to_string();
    assert!(fabricate.contains("CSRF"), "{fabricate}");
}

#[tokio::test]
async fn the_owner_is_told_of_a_new_device_a_password_change_and_a_reset() {
    let app = spawn_app().await;
    let subjects = |mails: Vec<(String, String)>| -> Vec<String> {
        mails
            .into_iter()
            .map(|(s, _)| s.rsplit(": ").next().unwrap_or_default().to_string())
            .collect()
    };
    // The account's first browser is remembered without a mail.
    let first = app.browser("acme");
    first.logged_in_as(ACME_USER).await;
    assert!(
        first
            .device
            .lock()
            .expect("lock")
            .as_deref()
            .is_some_and(|c| c.starts_with("ef_device=")),
        "a device cookie"
    );
    // Another browser is new to the account: its owner is told, with the address.
    let second = app.browser("acme");
    second.logged_in_as(ACME_USER).await;
    let told = wait_for_mails_about(&app.pool, ACME_USER, "New sign-in", 1).await;
    assert!(told[0].1.contains("127.0.0.1"), "{}", told[0].1);
    // Signing in again from a known browser says nothing.
    first.logged_in_as(ACME_USER).await;
    let token = second.logged_in_as(ACME_USER).await;
    assert_eq!(
        subjects(wait_for_mails(&app.pool, ACME_USER, 0).await),
        ["New sign-in to your account"]
    );
    // A password change and a reset are told too.
    change(
        &second,
        &token,
        DEMO_PASSWORD,
        "a-fresh-passphrase",
        "a-fresh-passphrase",
    )
    .await;
    let token = second.start_session().await;
    second.forgot_password(&token, ACME_USER).await;
    let link = token_in(&wait_for_mails_about(&app.pool, ACME_USER, "Reset your", 1).await[0].1);
    let r = second
        .call(
            Method::POST,
            "/api/reset-password",
            &token,
            &json!({ "token": link, "password": "another-fresh-phrase",
                     "password_confirmation": "another-fresh-phrase" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let all = subjects(wait_for_mails(&app.pool, ACME_USER, 4).await);
    assert_eq!(
        all,
        [
            "New sign-in to your account",
            "Your password was changed",
            "Reset your Enrollflow password",
            "Your password was reset"
        ]
    );
}

#[tokio::test]
async fn a_password_from_a_breach_list_is_refused() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.logged_in_as(ACME_USER).await;
    // Not one dictionary word, but on the bundled list of breached passwords.
    let r = change(&b, &token, DEMO_PASSWORD, "troop4life", "troop4life").await;
    assert_eq!(r["status"], 422, "{r}");
    assert_eq!(
        r["body"]["errors"]["new_password"][0],
        enrollflow_server::accounts::password::BREACHED
    );
}
