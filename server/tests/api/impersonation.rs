//! Admins: finding an agent's users by NPN, acting as one and switching back; and who else may
//! call the admin-only endpoints (nobody).

use enrollflow_server::db::agents::{NewAgent, upsert};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{
    ACME_NPN, ACME_USER, ADMIN_USER, DEMO_PASSWORD, LAKESHORE_USER, spawn_app, user_id,
};

#[tokio::test]
async fn an_admin_acts_as_an_agent_user_and_switches_back() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let admin_csrf = b.logged_in_as(ADMIN_USER).await;
    let state = b.get("/api/get-auth-state").await.json();
    assert_eq!(state["is_admin"], true);
    assert_eq!(state["agent_subdomain"], "demo");

    let r = b.get(&format!("/api/admin/getUsersByNPN/{ACME_NPN}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = r.json();
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["first_name"], "Maria");
    assert_eq!(list[0]["last_name"], "Alvarez");
    assert_eq!(list[0]["email"], ACME_USER);
    let maria = list[0]["id"].as_str().expect("id").to_string();

    // It changes state, so it is a POST under the CSRF guard: a GET (a link, an image) does
    // nothing, and a POST without the session's token is refused.
    let path = format!("/api/admin/fabricateAgent/{maria}");
    assert_eq!(
        b.get_with_token(&path, &admin_csrf).await.status.as_u16(),
        405
    );
    assert_eq!(
        b.post(&path, "0".repeat(64).as_str()).await.status.as_u16(),
        419
    );

    let admin_cookie = b.cookie();
    let r = b.post(&path, &admin_csrf).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["subdomain"], "acme");
    let agent_csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    assert_ne!(agent_csrf, admin_csrf);
    let impersonating_cookie = b.cookie();
    assert_ne!(
        impersonating_cookie, admin_cookie,
        "the session id is replaced"
    );
    let old = app.browser("demo");
    *old.cookie.lock().expect("lock") = Some(admin_cookie);
    assert_eq!(
        old.get("/api/application/active").await.status.as_u16(),
        419
    );

    // Branding follows the agent; the admin's own site is where switching back returns.
    let state = b.get("/api/get-auth-state").await.json();
    assert_eq!(state["is_authorized"], true);
    assert_eq!(state["is_admin"], false);
    assert_eq!(state["impersonating"], true);
    assert_eq!(state["agent_subdomain"], "acme");
    assert_eq!(state["admin_subdomain"], "demo");
    assert_eq!(state["user_name"], "Maria Alvarez");
    assert_eq!(
        b.get(&format!("/api/agent_branding_number/{ACME_NPN}"))
            .await
            .status,
        StatusCode::OK
    );
    // While acting as the agent, the session is the agent's: no admin calls.
    assert_eq!(
        b.get(&format!("/api/admin/getUsersByNPN/{ACME_NPN}"))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // Change Password stays in the menu while impersonating (spec part 1, 2.3): it is the admin's
    // own password, checked against the admin's current one; the agent's is never touched.
    let hash_of = |email: &'static str| {
        let pool = app.pool.clone();
        async move {
            sqlx::query_scalar::<_, String>("SELECT password_hash FROM users WHERE email = $1")
                .bind(email)
                .fetch_one(&pool)
                .await
                .expect("hash")
        }
    };
    let (maria_before, admin_before) = (hash_of(ACME_USER).await, hash_of(ADMIN_USER).await);
    let change = |current: &'static str| {
        json!({ "current_password": current, "new_password": "a-fresh-passphrase",
                "new_password_confirmation": "a-fresh-passphrase" })
    };
    let r = b
        .call(
            reqwest::Method::PUT,
            "/api/user/password",
            &agent_csrf,
            &change("not-the-admins"),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert_eq!(
        r.json()["errors"]["current_password"][0],
        "The current password is incorrect."
    );
    let r = b
        .call(
            reqwest::Method::PUT,
            "/api/user/password",
            &agent_csrf,
            &change(DEMO_PASSWORD),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        hash_of(ACME_USER).await,
        maria_before,
        "the agent's password is untouched"
    );
    assert_ne!(
        hash_of(ADMIN_USER).await,
        admin_before,
        "the admin's own password changed"
    );

    assert_eq!(
        b.get_with_token("/api/unFabricateAgent", &agent_csrf)
            .await
            .status
            .as_u16(),
        405
    );
    assert_eq!(
        b.post("/api/unFabricateAgent", "0").await.status.as_u16(),
        419
    );
    let r = b.post("/api/unFabricateAgent", &agent_csrf).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["subdomain"], "demo");
    assert_ne!(b.cookie(), impersonating_cookie, "replaced again");
    *old.cookie.lock().expect("lock") = Some(impersonating_cookie);
    assert_eq!(
        old.get("/api/application/active").await.status.as_u16(),
        419
    );
    let state = b.get("/api/get-auth-state").await.json();
    assert_eq!(state["is_admin"], true);
    assert_eq!(state["impersonating"], false);
    assert_eq!(state["admin_subdomain"], Value::Null);
    assert_eq!(state["user_name"], "Ada Admin");

    let admin = user_id(&app.pool, ADMIN_USER).await;
    let maria: Uuid = maria.parse().expect("uuid");
    let rows: Vec<(String, Option<Uuid>, Option<Uuid>)> = sqlx::query_as(
        "SELECT action, actor_user_id, subject_user_id FROM audit_log
         WHERE action IN ('impersonate', 'impersonate_end') ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .expect("audit");
    assert_eq!(
        rows,
        [
            ("impersonate".to_string(), Some(admin), Some(maria)),
            ("impersonate_end".to_string(), Some(admin), Some(maria)),
        ]
    );
}

#[tokio::test]
async fn logging_out_while_impersonating_names_the_admin() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let csrf = b.logged_in_as(ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    let r = b
        .post(&format!("/api/admin/fabricateAgent/{maria}"), &csrf)
        .await;
    let csrf = r.json()["csrf_token"].as_str().expect("csrf").to_string();
    let r = b
        .call(reqwest::Method::POST, "/api/logout", &csrf, &json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    let admin = user_id(&app.pool, ADMIN_USER).await;
    let row: (Option<Uuid>, Option<Uuid>) = sqlx::query_as(
        "SELECT actor_user_id, subject_user_id FROM audit_log WHERE action = 'logout'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("logout row");
    assert_eq!(row, (Some(admin), Some(maria)));
}

#[tokio::test]
async fn the_npn_search_answers_agent_not_found_or_the_users() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    b.logged_in_as(ADMIN_USER).await;
    let r = b.get("/api/admin/getUsersByNPN/12345").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json()["error"], "Agent not found");
    let r = b.get("/api/admin/getUsersByNPN/12345678901").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "at most 10 characters");
    // Text that cannot be an NPN names no agent (and never reaches a query).
    let r = b.get("/api/admin/getUsersByNPN/12ab").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json()["error"], "Agent not found");

    upsert(
        &app.pool,
        &NewAgent {
            npn: &"55555".parse().expect("an NPN"),
            agent_name: "No Users",
            agency_name: "Empty Agency",
            address_lines: &[],
            email: "empty@example.com",
            phone_number: "5555550100",
            fax_number: None,
            website_url: None,
            offers: &["display_bcbsm".to_string()],
            display_medicare: false,
            marketplace_certified: false,
            logo: None,
            subdomains: &["empty".to_string()],
        },
    )
    .await
    .expect("agent");
    let r = b.get("/api/admin/getUsersByNPN/55555").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json(), json!([]));

    // The demo agent's list has its agent user, not the admin whose site it is.
    let r = b.get("/api/admin/getUsersByNPN/99999999").await;
    let list = r.json();
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list[0]["email"], "demo@enrollflow.example.com");

    let list = b.get("/api/admin/agentList").await;
    assert_eq!(list.status, StatusCode::OK);
    assert_eq!(list.json().as_array().map(Vec::len), Some(5));
}

#[tokio::test]
async fn an_admin_cannot_act_as_another_admin_or_nobody() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let csrf = b.logged_in_as(ADMIN_USER).await;
    let admin = user_id(&app.pool, ADMIN_USER).await;
    for id in [
        admin.to_string(),
        Uuid::new_v4().to_string(),
        "nonsense".into(),
    ] {
        let r = b
            .post(&format!("/api/admin/fabricateAgent/{id}"), &csrf)
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{id}");
    }
}

#[tokio::test]
async fn agents_and_visitors_get_403_from_admin_calls() {
    let app = spawn_app().await;
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    let lakeshore = user_id(&app.pool, LAKESHORE_USER).await;
    let visitor = app.browser("acme");
    let visitor_csrf = visitor.start_session().await;
    let admin_only = [
        format!("/api/admin/getUsersByNPN/{ACME_NPN}"),
        "/api/admin/agentList".to_string(),
        "/api/admin/outbox".to_string(),
        "/api/admin/rules/status".to_string(),
        "/api/agent_branding_number/18820457".to_string(),
    ];
    for path in [
        format!("/api/admin/fabricateAgent/{lakeshore}"),
        "/api/unFabricateAgent".to_string(),
    ] {
        let r = agent.post(&path, &csrf).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "agent: {path}: {}", r.body);
        let r = visitor.post(&path, &visitor_csrf).await;
        assert_eq!(
            r.status,
            StatusCode::FORBIDDEN,
            "visitor: {path}: {}",
            r.body
        );
    }
    for path in &admin_only {
        let r = agent.get_with_token(path, &csrf).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "agent: {path}: {}", r.body);
        let r = visitor.get_with_token(path, &visitor_csrf).await;
        assert_eq!(
            r.status,
            StatusCode::FORBIDDEN,
            "visitor: {path}: {}",
            r.body
        );
    }
    // An agent's session stayed the agent's (no impersonation happened).
    let state = agent.get("/api/get-auth-state").await.json();
    assert_eq!(state["user_name"], "Maria Alvarez");
    assert_eq!(state["impersonating"], false);
    // An agent may read their own branding by NPN.
    assert_eq!(
        agent
            .get(&format!("/api/agent_branding_number/{ACME_NPN}"))
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_outbox_shows_the_newest_mail_first() {
    let app = spawn_app().await;
    let b = app.browser("demo");
    let csrf = b.logged_in_as(ADMIN_USER).await;
    for email in [ACME_USER, LAKESHORE_USER] {
        let r = b.forgot_password(&csrf, email).await;
        assert_eq!(r.status, StatusCode::OK);
        // The mail is written after the answer.
        crate::helpers::wait_for_mails(&app.pool, email, 1).await;
        app.clock.advance(std::time::Duration::from_secs(1));
    }
    let r = b.get("/api/admin/outbox").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = r.json();
    assert_eq!(list[0]["to_address"], LAKESHORE_USER);
    assert_eq!(list[1]["to_address"], ACME_USER);
    // The admin sees the mail, never its link's token: asking a reset for another
    // account and reading it here takes over nothing.
    let shown = list[0]["body"].as_str().expect("body");
    assert!(shown.contains("/reset-password/token/[hidden"), "{shown}");
    let whole = &crate::helpers::wait_for_mails(&app.pool, LAKESHORE_USER, 1).await[0].1;
    let token = crate::helpers::token_in(whole);
    assert_eq!(token.len(), 64);
    assert!(!r.body.contains(&token));
    assert_eq!(list[0]["sent_at"], Value::Null);
}
