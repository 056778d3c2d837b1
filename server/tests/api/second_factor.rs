//! The second factor: TOTP codes from an authenticator app and single-use
//! recovery codes; required for admins, offered to agents, required of all agents at an admin's
//! word; impersonation needs a code within 15 minutes; wrong codes throttled like passwords.

use enrollflow_server::accounts::second_factor::code_at;
use enrollflow_server::platform::clock::Clock;
use enrollflow_server::seed::DEMO_TOTP_SECRET;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    ACME_USER, ADMIN_USER, Browser, DEMO_PASSWORD, LAKESHORE_USER, MINUTE, TestApp, next_code,
    spawn_app, user_id, wait_for_mails,
};

fn code_now(app: &TestApp, secret: &str) -> String {
    code_at(secret, app.clock.real_now()).expect("code")
}

async fn authorized(b: &Browser<'_>) -> bool {
    b.get("/api/get-auth-state").await.json()["is_authorized"] == true
}

/// The password step; returns the (unchanged) CSRF token and the step asked for.
async fn password_step(b: &Browser<'_>, email: &str) -> (String, Value) {
    let r = b.login(email, DEMO_PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let j = r.json();
    (
        j["csrf_token"].as_str().expect("csrf").to_string(),
        j["second_factor"].clone(),
    )
}

async fn send_code(b: &Browser<'_>, csrf: &str, body: Value) -> crate::helpers::Reply {
    b.call(Method::POST, "/api/login/second-factor", csrf, &body)
        .await
}

/// An agent sets up an authenticator app from the account menu; returns its secret, the new
/// session's CSRF token and the recovery codes.
async fn agent_with_app(app: &TestApp, email: &str) -> (String, String, Vec<String>) {
    let b = app.browser("acme");
    let csrf = b.logged_in_as(email).await;
    let setup = b
        .call(
            Method::POST,
            "/api/user/second-factor/setup",
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    let secret = setup.json()["secret"].as_str().expect("secret").to_string();
    assert!(
        setup.json()["qr_svg"]
            .as_str()
            .expect("svg")
            .contains("<svg")
    );
    let r = b
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &csrf,
            &json!({ "password": DEMO_PASSWORD, "code": code_now(app, &secret) }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let codes: Vec<String> =
        serde_json::from_value(r.json()["recovery_codes"].clone()).expect("codes");
    (secret, csrf, codes)
}

#[tokio::test]
async fn an_admin_logs_in_with_a_password_and_a_code_used_once() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    b.start_session().await;
    let anonymous = b.cookie();
    let (csrf, step) = password_step(&b, ADMIN_USER).await;
    assert_eq!(step, "code");
    // The right password alone logs nobody in: the same session, still anonymous.
    assert_eq!(b.cookie(), anonymous);
    assert!(!authorized(&b).await);
    assert_eq!(
        b.get("/api/admin/agentList").await.status,
        StatusCode::FORBIDDEN
    );

    let r = send_code(&b, &csrf, json!({ "code": "000000" })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.json()["errors"]["code"][0]
            .as_str()
            .expect("msg")
            .contains("not right")
    );
    let r = send_code(&b, &csrf, json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);

    let code = code_now(&app, DEMO_TOTP_SECRET);
    let r = send_code(&b, &csrf, json!({ "code": code })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_ne!(
        b.cookie(),
        anonymous,
        "a new session replaces the anonymous one"
    );
    assert!(authorized(&b).await);

    // The same code cannot log in again (a code seen over a shoulder or replayed is worthless).
    let other = app.browser("demo");
    let (csrf, _) = password_step(&other, ADMIN_USER).await;
    let r = send_code(&other, &csrf, json!({ "code": code })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(!authorized(&other).await);
    // Nor can one of an earlier step.
    let earlier = code_at(DEMO_TOTP_SECRET, app.clock.real_now() - 2 * MINUTE).expect("code");
    let r = send_code(&other, &csrf, json!({ "code": earlier })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn the_code_step_is_bound_to_the_session_and_to_five_minutes() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let (csrf, _) = password_step(&b, ADMIN_USER).await;
    // Another browser cannot finish someone else's password step.
    let stranger = app.browser("demo");
    let stranger_csrf = stranger.start_session().await;
    let r = send_code(
        &stranger,
        &stranger_csrf,
        json!({ "code": code_now(&app, DEMO_TOTP_SECRET) }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!authorized(&stranger).await);

    app.clock.advance(6 * MINUTE);
    let r = send_code(
        &b,
        &csrf,
        json!({ "code": next_code(&app, ADMIN_USER).await }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.json()["errors"]["code"][0]
            .as_str()
            .expect("msg")
            .contains("log in again")
    );
}

#[tokio::test]
async fn wrong_codes_are_throttled_like_passwords() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let (csrf, _) = password_step(&b, ADMIN_USER).await;
    for _ in 0..5 {
        let r = send_code(&b, &csrf, json!({ "code": "123456" })).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    // Past the limit even the right code waits.
    let r = send_code(
        &b,
        &csrf,
        json!({ "code": next_code(&app, ADMIN_USER).await }),
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    assert!(r.header("retry-after").parse::<u64>().expect("Retry-After") > 0);
    let failures: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'second_factor_failed' AND subject_user_id = $1",
    )
    .bind(user_id(&app.pool, ADMIN_USER).await)
    .fetch_one(&app.pool)
    .await
    .expect("audit");
    assert_eq!(failures, 5);
    // The fifth wrong code locked the factor for 15 minutes, and its owner was told.
    let told = wait_for_mails(&app.pool, ADMIN_USER, 1).await;
    let locked = told
        .iter()
        .find(|(subject, _)| subject.ends_with("Two-step verification locked"))
        .unwrap_or_else(|| panic!("{told:?}"));
    assert!(locked.1.contains("15 minutes"), "{}", locked.1);
    // Ten minutes on (past the password window), still locked.
    app.clock.advance(10 * MINUTE);
    let (csrf, _) = password_step(&b, ADMIN_USER).await;
    let r = send_code(
        &b,
        &csrf,
        json!({ "code": next_code(&app, ADMIN_USER).await }),
    )
    .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
    // At 16 minutes the right code works, and the count starts over.
    app.clock.advance(6 * MINUTE);
    let (csrf, _) = password_step(&b, ADMIN_USER).await;
    let r = send_code(
        &b,
        &csrf,
        json!({ "code": next_code(&app, ADMIN_USER).await }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let locked_row: (i32, i32) =
        sqlx::query_as("SELECT factor_failures, factor_lockouts FROM users WHERE email = $1")
            .bind(ADMIN_USER)
            .fetch_one(&app.pool)
            .await
            .expect("counts");
    assert_eq!(locked_row, (0, 0));
}

#[tokio::test]
async fn each_lock_of_the_factor_lasts_twice_the_one_before() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    for (round, minutes) in [(1, 15), (2, 30), (3, 60)] {
        let (csrf, _) = password_step(&b, ADMIN_USER).await;
        for _ in 0..5 {
            let r = send_code(&b, &csrf, json!({ "code": "123456" })).await;
            assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "round {round}");
        }
        let told = wait_for_mails(&app.pool, ADMIN_USER, round).await;
        assert!(
            told[round - 1].1.contains(&format!("{minutes} minutes")),
            "round {round}: {}",
            told[round - 1].1
        );
        // One minute before the lock ends the right code is refused; after it, it is let in
        // to be checked (and, here, the next round's wrong codes follow).
        app.clock.advance(time_minutes(minutes - 1));
        let (csrf, _) = password_step(&b, ADMIN_USER).await;
        let r = send_code(&b, &csrf, json!({ "code": "123456" })).await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "round {round}");
        app.clock.advance(time_minutes(2));
    }
}

fn time_minutes(n: u64) -> std::time::Duration {
    MINUTE * u32::try_from(n).expect("minutes")
}

#[tokio::test]
async fn an_agent_sets_up_an_app_and_a_recovery_code_works_once() {
    let app = spawn_app().await;
    let (secret, _, codes) = agent_with_app(&app, ACME_USER).await;
    assert_eq!(codes.len(), 10);
    // Stored as hashes and ciphertext only.
    let id = user_id(&app.pool, ACME_USER).await;
    let stored: String = sqlx::query_scalar("SELECT totp_secret FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .expect("secret");
    assert!(!stored.contains(&secret));
    let dump: String = sqlx::query_scalar(
        "SELECT string_agg(encode(code_hash, 'escape'), ',') FROM recovery_codes WHERE user_id = $1",
    )
    .bind(id)
    .fetch_one(&app.pool)
    .await
    .expect("codes");
    assert!(!dump.contains(&codes[0].replace('-', "")));

    // The next login asks for a code; a recovery code does instead, once.
    let b = app.browser("acme");
    let (csrf, step) = password_step(&b, ACME_USER).await;
    assert_eq!(step, "code");
    let typed = codes[3].to_lowercase();
    let r = send_code(&b, &csrf, json!({ "recovery_code": typed })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let status = b.get("/api/user/second-factor").await.json();
    assert_eq!(
        status,
        json!({ "enabled": true, "required": false, "recovery_codes_left": 9 })
    );

    let again = app.browser("acme");
    let (csrf, _) = password_step(&again, ACME_USER).await;
    let r = send_code(&again, &csrf, json!({ "recovery_code": codes[3] })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.json()["errors"]["recovery_code"].is_array());
    // The owner was told the factor went on and that a recovery code was used, with how many
    // are left.
    let told = crate::helpers::wait_for_mails_about(&app.pool, ACME_USER, "", 3).await;
    let said = |end: &str| {
        told.iter()
            .find(|(subject, _)| subject.ends_with(end))
            .map(|(_, body)| body.clone())
            .unwrap_or_else(|| panic!("no {end:?} in {told:?}"))
    };
    said("Two-step verification is on");
    assert!(said("A recovery code was used").contains("9 of your recovery codes are left"));
}

#[tokio::test]
async fn replacing_the_app_needs_a_code_from_the_current_one_not_the_password_alone() {
    let app = spawn_app().await;
    // Whoever holds a signed-in session and the password, but not the phone, cannot move the
    // factor to their own app.
    let b = app.browser("acme");
    let csrf2 = b.logged_in_as(ACME_USER).await;
    let codes = {
        let setup = b
            .call(
                Method::POST,
                "/api/user/second-factor/setup",
                &csrf2,
                &json!({}),
            )
            .await;
        let secret = setup.json()["secret"].as_str().expect("secret").to_string();
        let r = b
            .call(
                Method::PUT,
                "/api/user/second-factor",
                &csrf2,
                &json!({ "password": DEMO_PASSWORD, "code": code_now(&app, &secret) }),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        serde_json::from_value::<Vec<String>>(r.json()["recovery_codes"].clone()).expect("codes")
    };
    let setup = b
        .call(
            Method::POST,
            "/api/user/second-factor/setup",
            &csrf2,
            &json!({}),
        )
        .await;
    let theirs = setup.json()["secret"].as_str().expect("secret").to_string();
    let replace = |current: Option<&str>| {
        let mut body = json!({ "password": DEMO_PASSWORD, "code": code_now(&app, &theirs) });
        if let Some(c) = current {
            body["current_code"] = json!(c);
        }
        body
    };
    let r = b
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &csrf2,
            &replace(None),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["current_code"].is_array(), "{}", r.body);
    let r = b
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &csrf2,
            &replace(Some("000000")),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["current_code"].is_array(), "{}", r.body);
    // With a recovery code of the account, it is replaced, and the owner is told.
    let r = b
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &csrf2,
            &replace(Some(&codes[1])),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    crate::helpers::wait_for_mails_about(
        &app.pool,
        ACME_USER,
        "Your two-step verification app was replaced",
        1,
    )
    .await;
}

#[tokio::test]
async fn an_agent_may_turn_it_off_with_the_password_but_an_admin_may_not() {
    let app = spawn_app().await;

    let admin = app.browser("demo");
    let admin_csrf = admin.logged_in_as(ADMIN_USER).await;
    let r = admin
        .call(
            Method::DELETE,
            "/api/user/second-factor",
            &admin_csrf,
            &json!({ "password": DEMO_PASSWORD }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.json()["errors"]["password"][0]
            .as_str()
            .expect("msg")
            .contains("must keep")
    );

    let lake = app.browser("lakeshore");
    let lake_csrf = lake.logged_in_as(LAKESHORE_USER).await;
    let setup = lake
        .call(
            Method::POST,
            "/api/user/second-factor/setup",
            &lake_csrf,
            &json!({}),
        )
        .await;
    let secret = setup.json()["secret"].as_str().expect("secret").to_string();
    let r = lake
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &lake_csrf,
            &json!({ "password": "wrong-password-1", "code": code_now(&app, &secret) }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.json()["errors"]["password"].is_array());
    let r = lake
        .call(
            Method::PUT,
            "/api/user/second-factor",
            &lake_csrf,
            &json!({ "password": DEMO_PASSWORD, "code": code_now(&app, &secret) }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let recovery = r.json()["recovery_codes"][0]
        .as_str()
        .expect("a recovery code")
        .to_string();
    // The password alone does not turn it off: a stolen password is not enough.
    let r = lake
        .call(
            Method::DELETE,
            "/api/user/second-factor",
            &lake_csrf,
            &json!({ "password": DEMO_PASSWORD }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["current_code"].is_array(), "{}", r.body);
    let r = lake
        .call(
            Method::DELETE,
            "/api/user/second-factor",
            &lake_csrf,
            &json!({ "password": DEMO_PASSWORD, "current_code": recovery }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let told = crate::helpers::wait_for_mails(&app.pool, LAKESHORE_USER, 1).await;
    assert!(
        told.iter()
            .any(|(subject, _)| subject.ends_with("Two-step verification is off")),
        "{told:?}"
    );
    // Logging in is a password again.
    let again = app.browser("lakeshore");
    let r = again.login(LAKESHORE_USER, DEMO_PASSWORD).await;
    assert_eq!(r.json()["second_factor"], Value::Null);
    assert!(authorized(&again).await);
}

#[tokio::test]
async fn requiring_it_of_all_agents_signs_them_out_and_they_set_it_up_at_login() {
    let app = spawn_app().await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    assert!(authorized(&agent).await);

    let admin = app.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    assert_eq!(
        admin.get("/api/admin/security-settings").await.json(),
        json!({ "second_factor_required_for_agents": false })
    );
    // Agents cannot change it.
    let agent_csrf = agent.start_session().await;
    let r = agent
        .call(
            Method::PUT,
            "/api/admin/security-settings",
            &agent_csrf,
            &json!({ "second_factor_required_for_agents": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    let r = admin
        .call(
            Method::PUT,
            "/api/admin/security-settings",
            &csrf,
            &json!({ "second_factor_required_for_agents": true }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    app.settle().await;
    assert!(
        !authorized(&agent).await,
        "the agent's session without a second factor ended"
    );

    let b = app.browser("acme");
    let (csrf, step) = password_step(&b, ACME_USER).await;
    assert_eq!(step, "setup");
    assert!(!authorized(&b).await);
    let setup = b
        .call(
            Method::POST,
            "/api/login/second-factor/setup",
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.body);
    let secret = setup.json()["secret"].as_str().expect("secret").to_string();
    assert!(
        setup.json()["uri"]
            .as_str()
            .expect("uri")
            .starts_with("otpauth://totp/")
    );
    let r = send_code(&b, &csrf, json!({ "code": "000000" })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = send_code(&b, &csrf, json!({ "code": code_now(&app, &secret) })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        r.json()["recovery_codes"].as_array().expect("codes").len(),
        10
    );
    assert!(authorized(&b).await);
    // Required now: the agent cannot turn it off.
    let csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    let r = b
        .call(
            Method::DELETE,
            "/api/user/second-factor",
            &csrf,
            &json!({ "password": DEMO_PASSWORD }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn impersonating_needs_a_code_within_the_last_fifteen_minutes() {
    let app = spawn_app().await;
    let admin = app.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    let path = format!("/api/admin/fabricateAgent/{maria}");

    app.clock.advance(16 * MINUTE);
    admin.get("/api/get-auth-state").await;
    let r = admin.post(&path, &csrf).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(r.json()["second_factor"], "required");
    assert!(
        authorized(&admin).await,
        "the admin is still logged in as the admin"
    );

    let r = admin
        .call(
            Method::POST,
            "/api/user/second-factor/verify",
            &csrf,
            &json!({ "code": "111111" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let code = next_code(&app, ADMIN_USER).await;
    let r = admin
        .call(
            Method::POST,
            "/api/user/second-factor/verify",
            &csrf,
            &json!({ "code": code }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let r = admin.post(&path, &csrf).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let state = admin.get("/api/get-auth-state").await.json();
    assert_eq!(state["impersonating"], true);

    // While acting as the agent, the agent's factor is out of reach.
    let csrf = state["csrf_token"].as_str().expect("csrf").to_string();
    let r = admin
        .call(
            Method::POST,
            "/api/user/second-factor/setup",
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn an_admin_resets_a_lost_factor_and_the_user_sets_it_up_again() {
    let app = spawn_app().await;
    agent_with_app(&app, ACME_USER).await;
    let admin = app.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    let r = admin
        .call(
            Method::DELETE,
            &format!("/api/admin/users/{maria}/second-factor"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM recovery_codes WHERE user_id = $1")
        .bind(maria)
        .fetch_one(&app.pool)
        .await
        .expect("codes");
    assert_eq!(left, 0);
    // Not required of agents: a password logs Maria in again.
    let b = app.browser("acme");
    let r = b.login(ACME_USER, DEMO_PASSWORD).await;
    assert_eq!(r.json()["second_factor"], Value::Null);
    // An admin cannot reset their own.
    let me = user_id(&app.pool, ADMIN_USER).await;
    let r = admin
        .call(
            Method::DELETE,
            &format!("/api/admin/users/{me}/second-factor"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

/// Another admin like Ada (the same authenticator secret, a password), for the last-admins rule.
async fn another_admin(app: &TestApp, email: &str, first_name: &str) -> uuid::Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (id, email, first_name, last_name, role, password_hash, totp_secret,
                            created_at)
         SELECT gen_random_uuid(), $1, $2, 'Admin', 'admin', password_hash, totp_secret, created_at
         FROM users WHERE email = $3 RETURNING id",
    )
    .bind(email)
    .bind(first_name)
    .bind(ADMIN_USER)
    .fetch_one(&app.pool)
    .await
    .expect("another admin")
}

#[tokio::test]
async fn an_admins_powers_over_accounts_need_a_fresh_code_spare_the_last_two_admins_and_are_told() {
    let app = spawn_app().await;
    let admin = app.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    // Maria asked for a reset link before her account is disabled.
    let maria_browser = app.browser("acme");
    let t = maria_browser.start_session().await;
    let r = maria_browser.forgot_password(&t, ACME_USER).await;
    assert_eq!(r.status, StatusCode::OK);
    wait_for_mails(&app.pool, ACME_USER, 1).await;

    // A stolen admin session older than 15 minutes cannot use them.
    app.clock.advance(16 * MINUTE);
    let disable = |who: uuid::Uuid, disabled: bool| {
        let admin = &admin;
        let csrf = &csrf;
        async move {
            admin
                .call(
                    Method::PUT,
                    &format!("/api/admin/users/{who}/disabled"),
                    csrf,
                    &json!({ "disabled": disabled }),
                )
                .await
        }
    };
    let reset = |who: uuid::Uuid| {
        let admin = &admin;
        let csrf = &csrf;
        async move {
            admin
                .call(
                    Method::DELETE,
                    &format!("/api/admin/users/{who}/second-factor"),
                    csrf,
                    &json!({}),
                )
                .await
        }
    };
    let settings = admin
        .call(
            Method::PUT,
            "/api/admin/security-settings",
            &csrf,
            &json!({ "second_factor_required_for_agents": true }),
        )
        .await;
    for r in [disable(maria, true).await, reset(maria).await, settings] {
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
        assert_eq!(r.json()["second_factor"], "required");
    }
    let (disabled,): (bool,) =
        sqlx::query_as("SELECT disabled_at IS NOT NULL FROM users WHERE id = $1")
            .bind(maria)
            .fetch_one(&app.pool)
            .await
            .expect("user");
    assert!(!disabled);

    // With a code: Maria is disabled, her reset link voided, and she and every admin are told.
    let code = next_code(&app, ADMIN_USER).await;
    let r = admin
        .call(
            Method::POST,
            "/api/user/second-factor/verify",
            &csrf,
            &json!({ "code": code }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.body);
    let r = disable(maria, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (open_tokens,): (i64,) =
        sqlx::query_as("SELECT count(*) FROM user_tokens WHERE user_id = $1 AND used_at IS NULL")
            .bind(maria)
            .fetch_one(&app.pool)
            .await
            .expect("tokens");
    assert_eq!(open_tokens, 0, "a disabled account's links are void");
    let told = wait_for_mails(&app.pool, ACME_USER, 2).await;
    assert!(
        told[1].0.ends_with("your account was disabled"),
        "{:?}",
        told[1]
    );
    assert!(
        told[1].1.contains("Ada Admin, an administrator"),
        "{}",
        told[1].1
    );
    let admins = wait_for_mails(&app.pool, ADMIN_USER, 1).await;
    assert!(
        admins[0]
            .1
            .contains("Ada Admin disabled the account of Maria Alvarez"),
        "{}",
        admins[0].1
    );

    // The last two active admins with a second factor keep their accounts and factors.
    let bea = another_admin(&app, "bea@enrollflow.example.com", "Bea").await;
    for r in [disable(bea, true).await, reset(bea).await] {
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
        assert!(
            r.body.contains("At least two active administrators"),
            "{}",
            r.body
        );
    }
    // With a third, one of them may be disabled; Bea is told, and so are the other admins.
    another_admin(&app, "cy@enrollflow.example.com", "Cy").await;
    let r = disable(bea, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    wait_for_mails(&app.pool, "bea@enrollflow.example.com", 1).await;
    wait_for_mails(&app.pool, "cy@enrollflow.example.com", 1).await;
}
