//! "Send to customer": the agent quotes and hands the application to the
//! customer, who opens the e-mailed link in their own browser, gives their details, signs as the
//! subscriber and purchases; the agent follows the hand-off on the dashboard and may withdraw or
//! resend it.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    ACME_USER, Browser, LAKESHORE_USER, Reply, TestApp, adult, consumer_census, put, save_step,
    spawn_app, token_in, wait_for_mails,
};
use crate::purchase::{choose_plans, continue_review, give_subscriber_information, signatures};

/// The acme agent quotes Ann Lee and chooses her plans; the agent's browser, CSRF token and the
/// application's id.
async fn agent_quote(app: &TestApp) -> (Browser<'_>, String, uuid::Uuid) {
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    let r = save_step(
        &agent,
        &csrf,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = put(
        &agent,
        &csrf,
        "/api/application/step/census",
        consumer_census(adult("1990-01-01")),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    choose_plans(&agent, &csrf).await;
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");
    (agent, csrf, id)
}

async fn hand_off(agent: &Browser<'_>, csrf: &str, id: uuid::Uuid, email: &str) -> Reply {
    agent
        .call(
            Method::POST,
            &format!("/api/dashboard/handoff/{id}"),
            csrf,
            &json!({ "email": email }),
        )
        .await
}

/// The token of the `n`th hand-off mail to ann@example.com.
async fn handoff_link(app: &TestApp, n: usize) -> String {
    let mails = wait_for_mails(&app.pool, "ann@example.com", n).await;
    let (subject, body) = &mails[n - 1];
    assert_eq!(subject, "Your health coverage application is ready for you");
    assert!(
        body.contains("Maria Alvarez of Acme Insurance Agency"),
        "{body}"
    );
    token_in(body)
}

async fn open_link(b: &Browser<'_>, link: &str) -> Reply {
    let csrf = b.start_session().await;
    b.call(
        Method::POST,
        "/api/application/resume",
        &csrf,
        &json!({ "token": link }),
    )
    .await
}

/// The row of the application in one of the agent's lists.
async fn row(agent: &Browser<'_>, list: &str, id: uuid::Uuid) -> Value {
    let page = agent
        .get(&format!("/api/dashboard/{list}?daysToShow=365"))
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    page.json()["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["application_id"] == id.to_string())
        .cloned()
        .unwrap_or_else(|| panic!("no row for {id} in {}", page.body))
}

#[tokio::test]
async fn the_customer_opens_the_agents_handoff_signs_as_subscriber_and_purchases() {
    let app = spawn_app().await;
    let (agent, csrf, id) = agent_quote(&app).await;
    let r = hand_off(&agent, &csrf, id, "ann@example.com").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["state"], "sent");
    assert_eq!(row(&agent, "quotes", id).await["handoff"]["state"], "sent");
    // The agent's browser lets go of the application: it is the customer's to finish.
    assert_eq!(
        agent.get("/api/application/active").await.json()["application"],
        Value::Null
    );
    let link = handoff_link(&app, 1).await;

    // The customer, in their own browser.
    let customer = app.browser("acme");
    let r = open_link(&customer, &link).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["from_agent"], "Maria Alvarez");
    assert_eq!(
        row(&agent, "quotes", id).await["handoff"]["state"],
        "opened"
    );
    let token = customer.start_session().await;
    continue_review(&customer, &token).await;
    give_subscriber_information(&customer, &token).await;
    sqlx::query("UPDATE applications SET data = data || '{\"last_step\": 10}'::jsonb")
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
    // The customer's view of Review and Purchase asks the subscriber's signature, not the agent's.
    let view = customer.get("/api/application/step/rap").await.json();
    assert!(
        view["schema"]["properties"]["subscriber_signature"].is_object(),
        "{view}"
    );
    assert!(
        view["schema"]["properties"]["agent_signature"].is_null(),
        "{view}"
    );
    let r = put(&customer, &token, "/api/application/step/rap", signatures()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    // The agent's Submissions show it submitted by the customer; the packet says who signed.
    assert_eq!(
        row(&agent, "enrollees", id).await["handoff"]["state"],
        "submitted"
    );
    let (packet,): (Vec<u8>,) =
        sqlx::query_as("SELECT packet FROM evidence_packets WHERE application_id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("packet");
    let p: Value = serde_json::from_slice(&packet).expect("json");
    assert_eq!(p["application"]["applied_by"], "consumer");
    assert_eq!(p["signatures"][0]["signed_as"], "Ann Lee");
    // Nothing the customer entered is shown back to the agent unmasked: More Info masks their
    // phone and street (the agent had entered the name, e-mail and ZIP), and the application no
    // longer opens in the agent's wizard.
    let info = agent.get(&format!("/api/dashboard/getAppInfo/{id}")).await;
    assert_eq!(info.status, StatusCode::OK, "{}", info.body);
    let info = info.json();
    assert_eq!(info["primary_name"], "Ann Lee");
    assert_eq!(info["email"], "ann@example.com");
    assert_eq!(info["residential_zip"], "48104");
    assert_eq!(info["primary_phone"], "******0199");
    assert_eq!(info["residential_street"], "*****n St");
    assert!(!info.to_string().contains("123456789"));
    let r = agent.enroll(&csrf, id).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("theirs to finish"), "{}", r.body);
    // Nor is the evidence packet, which holds what only the customer gave, downloaded by the agent;
    // its confirmation and fingerprints still show.
    for kind in ["evidencePdf", "evidenceJson"] {
        let r = agent.get(&format!("/api/dashboard/{kind}/{id}")).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{kind}: {}", r.body);
        assert!(r.body.contains("details only they gave"), "{}", r.body);
    }
    let status = agent.get(&format!("/api/dashboard/evidence/{id}")).await;
    assert_eq!(status.status, StatusCode::OK, "{}", status.body);
    assert!(status.json()["sha256"].is_string());
}

#[tokio::test]
async fn the_lists_and_exports_mask_what_the_customer_changed_after_opening_the_handoff() {
    let app = spawn_app().await;
    let (agent, csrf, id) = agent_quote(&app).await;
    assert_eq!(
        hand_off(&agent, &csrf, id, "ann@example.com").await.status,
        StatusCode::OK
    );
    let link = handoff_link(&app, 1).await;
    let customer = app.browser("acme");
    assert_eq!(open_link(&customer, &link).await.status, StatusCode::OK);
    // The customer corrects their last name and e-mail on About You.
    let token = customer.start_session().await;
    let mut census = consumer_census(adult("1990-01-01"));
    census["sub_last_name"] = json!("Lee-Park");
    census["email"] = json!("ann.park@example.com");
    let r = put(&customer, &token, "/api/application/step/census", census).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    app.settle().await;

    // The list shows what the agent entered, and masks what the customer gave since.
    let quote = row(&agent, "quotes", id).await;
    assert_eq!(quote["first_name"], "Ann");
    assert_eq!(quote["last_name"], "****Park");
    assert_eq!(quote["sub_email"], "****************.com");
    assert!(!quote.to_string().contains("Lee-Park") && !quote.to_string().contains("ann.park"));
    // So does the export.
    let (status, body) = agent
        .get_bytes("/api/dashboard/quotesExport?daysToShow=365")
        .await;
    assert_eq!(status, StatusCode::OK);
    let mut wb: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(body)).expect("an xlsx");
    let sheet = calamine::Reader::worksheet_range(&mut wb, "Sheet1")
        .or_else(|_| {
            let first = calamine::Reader::sheet_names(&wb)[0].clone();
            calamine::Reader::worksheet_range(&mut wb, &first)
        })
        .expect("the sheet");
    let cells: Vec<String> = sheet.cells().map(|(_, _, c)| c.to_string()).collect();
    assert!(cells.iter().any(|c| c.contains("****Park")), "{cells:?}");
    assert!(
        !cells
            .iter()
            .any(|c| c.contains("Lee-Park") || c.contains("ann.park")),
        "{cells:?}"
    );
}

#[tokio::test]
async fn a_withdrawn_or_resent_handoff_no_longer_opens_and_only_the_agents_own_quotes_go() {
    let app = spawn_app().await;
    let (agent, csrf, id) = agent_quote(&app).await;
    assert_eq!(
        hand_off(&agent, &csrf, id, "ann@example.com").await.status,
        StatusCode::OK
    );
    let first = handoff_link(&app, 1).await;
    assert_eq!(
        hand_off(&agent, &csrf, id, "ann@example.com").await.status,
        StatusCode::OK
    );
    let second = handoff_link(&app, 2).await;
    let r = open_link(&app.browser("acme"), &first).await;
    assert_eq!(r.status, StatusCode::GONE, "{}", r.body);
    assert!(r.body.contains("withdrawn or replaced"), "{}", r.body);

    let r = agent
        .call(
            Method::DELETE,
            &format!("/api/dashboard/handoff/{id}"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["state"], "revoked");
    let r = open_link(&app.browser("acme"), &second).await;
    assert_eq!(r.status, StatusCode::GONE, "{}", r.body);
    assert_eq!(
        agent
            .get(&format!("/api/dashboard/handoff/{id}"))
            .await
            .json()["state"],
        "revoked"
    );

    // Not an address; another agent's application; nothing quoted yet.
    let r = hand_off(&agent, &csrf, id, "nope").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let other = app.browser("lakeshore");
    let other_csrf = other.logged_in_as(LAKESHORE_USER).await;
    let r = hand_off(&other, &other_csrf, id, "ann@example.com").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let fresh = app.browser("acme");
    let fresh_csrf = fresh.logged_in_as(ACME_USER).await;
    let r = save_step(
        &fresh,
        &fresh_csrf,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (early,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications WHERE id <> $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .expect("the new application");
    let r = hand_off(&fresh, &fresh_csrf, early, "ann@example.com").await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}

/// The agent writes the hand-off e-mail in the customer's language.
#[tokio::test]
async fn the_agent_sends_the_handoff_in_the_customers_language() {
    let app = spawn_app().await;
    let (agent, csrf, id) = agent_quote(&app).await;
    let r = agent
        .call(
            Method::POST,
            &format!("/api/dashboard/handoff/{id}"),
            &csrf,
            &json!({ "email": "ann@example.com", "language": "es" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mails = wait_for_mails(&app.pool, "ann@example.com", 1).await;
    assert_eq!(
        mails[0].0,
        "Su solicitud de cobertura médica está lista para usted"
    );
    // A language the rules do not speak: English.
    let r = agent
        .call(
            Method::POST,
            &format!("/api/dashboard/handoff/{id}"),
            &csrf,
            &json!({ "email": "ann@example.com", "language": "fr" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mails = wait_for_mails(&app.pool, "ann@example.com", 2).await;
    assert_eq!(
        mails[1].0,
        "Your health coverage application is ready for you"
    );
}

#[tokio::test]
async fn sending_using_and_withdrawing_hand_offs_are_audited() {
    let app = spawn_app().await;
    let (agent, csrf, id) = agent_quote(&app).await;
    let r = hand_off(&agent, &csrf, id, "ann@example.com").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let link = handoff_link(&app, 1).await;
    let customer = app.browser("acme");
    let r = open_link(&customer, &link).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // A second link, withdrawn before it is used.
    let r = hand_off(&agent, &csrf, id, "ann@example.com").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = agent
        .call(
            Method::DELETE,
            &format!("/api/dashboard/handoff/{id}"),
            &csrf,
            &json!({}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.body);
    let rows: Vec<(String, Option<uuid::Uuid>)> = sqlx::query_as(
        "SELECT action, application_id FROM audit_log
         WHERE action IN ('handoff_sent', 'handoff_withdrawn', 'link_used') ORDER BY id",
    )
    .fetch_all(&app.pool)
    .await
    .expect("audit");
    assert_eq!(
        rows,
        [
            ("handoff_sent".to_string(), Some(id)),
            ("link_used".to_string(), None),
            ("handoff_sent".to_string(), Some(id)),
            ("handoff_withdrawn".to_string(), Some(id)),
        ]
    );
}
