//! The audit of personal-data access: More Info, Enroll, exports, PDFs, an
//! admin's changes while acting as an agent and refused authorizations are rows naming actor,
//! subject, application, call and request id; admins read them, filtered.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::helpers::{
    ACME_USER, ADMIN_USER, LAKESHORE_USER, TestApp, adult, at_medical, spawn_app, user_id,
};

async fn agent_of(app: &TestApp, email: &str) -> Uuid {
    sqlx::query_scalar("SELECT agent_id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .expect("the user's agent")
}

/// A quote of the agent's, as the dashboard lists it.
async fn a_quote(app: &TestApp, agent: Uuid) -> Uuid {
    let id = Uuid::new_v4();
    let data = json!({ "census": { "sub_first_name": "Ann", "sub_last_name": "Archer",
                                   "email": "ann@example.com", "residential_zip": "48104" } });
    sqlx::query(
        "INSERT INTO applications (id, agent_id, data, created_at, updated_at, last_step, summary)
         VALUES ($1, $2, $3, now(), now(), 4, $4)",
    )
    .bind(id)
    .bind(agent)
    .bind(&data)
    .bind(app.summary_of(&data))
    .execute(&app.pool)
    .await
    .expect("insert");
    app.settle().await;
    id
}

type AuditColumns = (
    Option<Uuid>,
    Option<Uuid>,
    Option<Uuid>,
    Option<String>,
    Option<String>,
);

/// The audit rows of one action, oldest first.
async fn rows(app: &TestApp, action: &str) -> Vec<Value> {
    let list: Vec<AuditColumns> = sqlx::query_as(
        "SELECT actor_user_id, subject_user_id, application_id, detail, request_id
             FROM audit_log WHERE action = $1 ORDER BY id",
    )
    .bind(action)
    .fetch_all(&app.pool)
    .await
    .expect("audit rows");
    list.into_iter()
        .map(|(actor, subject, application, detail, request_id)| {
            json!({ "actor": actor, "subject": subject, "application": application,
                    "detail": detail, "request_id": request_id })
        })
        .collect()
}

#[tokio::test]
async fn more_info_enroll_and_exports_are_audited_with_the_request_id() {
    let app = spawn_app().await;
    let quote = a_quote(&app, agent_of(&app, ACME_USER).await).await;
    let theirs = a_quote(&app, agent_of(&app, LAKESHORE_USER).await).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    let a = app.browser("acme");
    let token = a.logged_in_as(ACME_USER).await;

    let r = a.get(&format!("/api/dashboard/getAppInfo/{quote}")).await;
    assert_eq!(r.status, StatusCode::OK);
    let viewed = rows(&app, "application_viewed").await;
    assert_eq!(viewed.len(), 1);
    assert_eq!(viewed[0]["actor"], json!(maria));
    assert_eq!(viewed[0]["subject"], json!(maria));
    assert_eq!(viewed[0]["application"], json!(quote));
    assert_eq!(viewed[0]["detail"], "GET /api/dashboard/getAppInfo/{id}");
    assert_eq!(viewed[0]["request_id"], r.header("x-request-id"));

    // Another agent's application: refused (404, so its existence is not told), and recorded.
    let r = a.get(&format!("/api/dashboard/getAppInfo/{theirs}")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let refused = rows(&app, "access_refused").await;
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["application"], json!(theirs));
    assert_eq!(refused[0]["actor"], json!(maria));

    let r = a
        .call(
            Method::POST,
            &format!("/api/dashboard/enroll/{quote}"),
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        rows(&app, "application_opened").await[0]["application"],
        json!(quote)
    );

    for list in ["quotesExport", "enrolleesExport"] {
        let r = a.get(&format!("/api/dashboard/{list}")).await;
        assert_eq!(r.status, StatusCode::OK, "{list}");
    }
    let exported = rows(&app, "exported").await;
    assert_eq!(exported.len(), 2);
    assert_eq!(exported[1]["detail"], "GET /api/dashboard/enrolleesExport");

    // Nothing from the request is stored: no address, name or query text.
    let dump: String = sqlx::query_scalar(
        "SELECT string_agg(coalesce(detail, '') || coalesce(request_id, ''), ' ') FROM audit_log",
    )
    .fetch_one(&app.pool)
    .await
    .expect("dump");
    assert!(!dump.contains("ann@") && !dump.contains("Archer"), "{dump}");
}

#[tokio::test]
async fn a_pdf_names_the_sessions_application_and_a_refusal_names_the_call() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, adult("1985-03-01")).await;
    let r = b.get("/api/printPdf/1/false").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let made = rows(&app, "pdf_made").await;
    assert_eq!(made.len(), 1);
    assert!(made[0]["application"].is_string(), "{made:?}");
    assert_eq!(made[0]["actor"], Value::Null, "a consumer has no account");

    // An agent at an admin's call: 403, recorded with the call's template.
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    assert_eq!(
        a.get("/api/admin/agentList").await.status,
        StatusCode::FORBIDDEN
    );
    let refused = rows(&app, "access_refused").await;
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["detail"], "GET /api/admin/agentList");
    assert_eq!(
        refused[0]["actor"],
        json!(user_id(&app.pool, ACME_USER).await)
    );
}

#[tokio::test]
async fn an_admins_changes_as_an_agent_name_the_admin_and_admins_read_the_log() {
    let app = spawn_app().await;
    let admin_id = user_id(&app.pool, ADMIN_USER).await;
    let maria = user_id(&app.pool, ACME_USER).await;
    let b = app.browser("acme");
    let csrf = b.logged_in_as(ADMIN_USER).await;
    let r = b
        .post(&format!("/api/admin/fabricateAgent/{maria}"), &csrf)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    at_medical(&b, adult("1985-03-01")).await;
    let changes = rows(&app, "impersonated_action").await;
    assert!(changes.len() >= 2, "{changes:?}");
    assert!(
        changes
            .iter()
            .all(|c| c["actor"] == json!(admin_id) && c["subject"] == json!(maria))
    );
    assert!(
        changes
            .iter()
            .any(|c| c["detail"] == "PUT /api/application/step/{step}"),
        "{changes:?}"
    );
    let token = b.get("/api/get-auth-state").await.json()["csrf_token"]
        .as_str()
        .expect("csrf")
        .to_string();
    let r = b.post("/api/unFabricateAgent", &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // The admin reads the log, filtered by action and by person.
    let page = b.get("/api/admin/audit?action=impersonated_action").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let page = page.json();
    let listed = page["rows"].as_array().expect("rows");
    assert_eq!(listed.len(), changes.len());
    assert_eq!(listed[0]["actor_name"], "Ada Admin");
    assert_eq!(listed[0]["subject_name"], "Maria Alvarez");
    assert!(page["actions"].as_array().expect("actions").len() > 20);
    let mine = b
        .get(&format!(
            "/api/admin/audit?person={}",
            ACME_USER.to_uppercase()
        ))
        .await
        .json();
    assert!(
        mine["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|r| { r["actor_id"] == json!(maria) || r["subject_id"] == json!(maria) })
    );
    let nobody = b
        .get("/api/admin/audit?person=nobody@example.com")
        .await
        .json();
    assert_eq!(nobody["rows"], json!([]));
    assert_eq!(
        b.get("/api/admin/audit?action=nonsense").await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        b.get("/api/admin/audit?from=yesterday").await.status,
        StatusCode::BAD_REQUEST
    );

    // Agents cannot read it.
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    assert_eq!(
        a.get("/api/admin/audit").await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn searches_scenarios_outbox_and_audit_reads_and_refused_forgeries_are_audited() {
    let app = spawn_app().await;
    let agent_id = agent_of(&app, ACME_USER).await;
    let id = a_quote(&app, agent_id).await;
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    // A list loaded is not a search; a list searched is, without the words searched.
    assert_eq!(
        agent
            .get("/api/dashboard/quotes?daysToShow=365")
            .await
            .status,
        StatusCode::OK
    );
    let r = agent
        .get("/api/dashboard/quotes?daysToShow=365&searchName=Archer")
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = agent.get(&format!("/api/dashboard/scenario/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // A forged cross-site call and a call without the session's CSRF token.
    let r = agent
        .send(
            Method::POST,
            "/api/logout",
            &[
                ("origin", "https://evil.example".to_string()),
                ("x-csrf-token", csrf.clone()),
            ],
            Some(b"{}".to_vec()),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = agent
        .send(
            Method::POST,
            "/api/logout",
            &[("origin", agent.origin()), ("x-csrf-token", "0".repeat(64))],
            Some(b"{}".to_vec()),
        )
        .await;
    assert_eq!(r.status.as_u16(), 419);
    let admin = app.browser("demo");
    admin.logged_in_as(ADMIN_USER).await;
    assert_eq!(admin.get("/api/admin/outbox").await.status, StatusCode::OK);
    assert_eq!(admin.get("/api/admin/audit").await.status, StatusCode::OK);

    let rows: Vec<(String, Option<Uuid>, Option<String>)> = sqlx::query_as(
        "SELECT action, application_id, detail FROM audit_log
         WHERE action IN ('list_searched', 'scenario_downloaded', 'request_refused',
                          'outbox_read', 'audit_read')
         ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .expect("audit");
    let actions: Vec<&str> = rows.iter().map(|(a, _, _)| a.as_str()).collect();
    assert_eq!(
        actions,
        [
            "list_searched",
            "scenario_downloaded",
            "request_refused",
            "request_refused",
            "outbox_read",
            "audit_read"
        ]
    );
    assert_eq!(rows[1].1, Some(id));
    assert_eq!(
        rows[2].2.as_deref(),
        Some("POST /api/logout: foreign origin")
    );
    assert_eq!(
        rows[3].2.as_deref(),
        Some("POST /api/logout: wrong CSRF token")
    );
    let everything: Vec<String> =
        sqlx::query_scalar("SELECT row_to_json(a)::text FROM audit_log a")
            .fetch_all(&app.pool)
            .await
            .expect("rows");
    assert!(everything.iter().all(|r| !r.contains("Archer")));
}

#[tokio::test]
async fn a_read_whose_audit_row_cannot_be_written_is_not_answered() {
    let app = spawn_app().await;
    let agent_id = agent_of(&app, ACME_USER).await;
    let id = a_quote(&app, agent_id).await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    // The audit log refuses every new row (a full disk, a broken table): done by the schema's
    // owner (the same options without the server's role).
    let owner = sqlx::PgPool::connect_with((*app.pool.connect_options()).clone())
        .await
        .expect("the owner's connection");
    sqlx::query(
        "ALTER TABLE audit_log ADD CONSTRAINT nothing_more CHECK (action = 'never') NOT VALID",
    )
    .execute(&owner)
    .await
    .expect("constraint");
    let r = agent.get(&format!("/api/dashboard/getAppInfo/{id}")).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert!(!r.body.contains("Archer"), "{}", r.body);
    let r = agent
        .get("/api/dashboard/quotesExport?daysToShow=365")
        .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
}
