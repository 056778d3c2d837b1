//! "Save and finish later": a consumer's application e-mailed as a single-use
//! link that opens it in another browser, checked again under the rules in force; a link that no
//! longer works says why.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    ACME_USER, Browser, Reply, TestApp, adult, at_medical, in_open_enrollment, put, spawn_app,
    token_in, wait_for_mails,
};
use crate::purchase::{at_subscriber_information, signatures};

async fn save_for_later(b: &Browser<'_>, token: &str) -> Reply {
    b.call(
        Method::POST,
        "/api/application/saveForLater",
        token,
        &json!({}),
    )
    .await
}

async fn resume(b: &Browser<'_>, link_token: &str) -> Reply {
    let csrf = b.start_session().await;
    b.call(
        Method::POST,
        "/api/application/resume",
        &csrf,
        &json!({ "token": link_token }),
    )
    .await
}

/// Since the link was sent: the dental plan's premium is no longer the one shown when it was
/// chosen (it is stored as $1.00), and the vision plan chosen is no longer offered. Answers the
/// dental plan as it was stored before.
pub(crate) async fn plans_changed_since_the_link(app: &TestApp) -> Value {
    let (data,): (Value,) = sqlx::query_as("SELECT data FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("data");
    sqlx::query(
        "UPDATE applications SET data = jsonb_set(jsonb_set(data, '{dental_plan,rate}', '1.0'),
                                                  '{vision_plan,id}', '999999')",
    )
    .execute(&app.pool)
    .await
    .expect("change");
    app.settle().await;
    data["dental_plan"].clone()
}

/// Saves the browser's application for later (the `n`th time) and answers the e-mailed link's token.
pub(crate) async fn saved_link(app: &TestApp, b: &Browser<'_>, token: &str, n: usize) -> String {
    let r = save_for_later(b, token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    link_in_mail(app, n).await.0
}

/// The link of the newest resume mail to ann@example.com (the `n`th), as the recipient gets it.
async fn link_in_mail(app: &TestApp, n: usize) -> (String, String) {
    let mails = wait_for_mails(&app.pool, "ann@example.com", n).await;
    let (subject, body) = mails[n - 1].clone();
    assert_eq!(subject, "Finish your health coverage application");
    (token_in(&body), body)
}

#[tokio::test]
async fn a_saved_application_opens_once_in_another_browser_where_it_was_left() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_subscriber_information(&b).await;
    let r = save_for_later(&b, &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (link, body) = link_in_mail(&app, 1).await;
    assert_eq!(link.len(), 64, "{body}");
    assert!(
        body.contains("acme.localhost"),
        "the agent's own site: {body}"
    );
    // Nothing typed into the application is in the mail, not even the name: only the rules'
    // text, the link and the agent's own details.
    assert!(
        body.contains("Hello,") && !body.contains("Ann") && body.contains("(734) 555-0142"),
        "{body}"
    );
    // The admins' outbox shows neither the address nor the link.
    let (to, stored): (String, String) = sqlx::query_as("SELECT to_address, body FROM outbox")
        .fetch_one(&app.pool)
        .await
        .expect("row");
    assert!(!to.contains("ann@") && !stored.contains(&link));
    let (hash_kept,): (bool,) =
        sqlx::query_as("SELECT token_hash = sha256(convert_to($1, 'UTF8')) FROM application_links")
            .bind(&link)
            .fetch_one(&app.pool)
            .await
            .expect("link");
    assert!(hash_kept, "only the token's SHA-256 is kept");

    // Another browser: the application opens where it was left, with nothing changed.
    let other = app.browser("acme");
    let r = resume(&other, &link).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({ "route": "/subInfo", "changes": [], "from_agent": null })
    );
    let active = other.get("/api/application/active").await.json();
    assert!(
        active["application"]["applicationId"].is_string(),
        "{active}"
    );
    assert_eq!(
        other.get("/api/application/step/subInfo").await.status,
        StatusCode::OK
    );
    // The browser that asked for the link let go of the application: it no longer reads the
    // answers given after the link was used, nor any before.
    app.settle().await;
    assert_eq!(
        b.get("/api/application/active").await.json()["application"],
        Value::Null
    );
    for step in ["census", "subInfo"] {
        let r = b.get(&format!("/api/application/step/{step}")).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{step}: {}", r.body);
        assert!(!r.body.contains("ann@example.com"), "{}", r.body);
    }

    // Once only.
    let again = resume(&app.browser("acme"), &link).await;
    assert_eq!(again.status, StatusCode::GONE, "{}", again.body);
    assert!(
        again.json()["error"]
            .as_str()
            .expect("why")
            .contains("already been used")
    );
}

#[tokio::test]
async fn a_link_that_no_longer_works_says_why() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_subscriber_information(&b).await;
    let first = saved_link(&app, &b, &token, 1).await;
    let second = saved_link(&app, &b, &token, 2).await;
    let why = |r: &Reply| r.json()["error"].as_str().unwrap_or_default().to_string();

    // Replaced by the newer one.
    let r = resume(&app.browser("acme"), &first).await;
    assert_eq!(r.status, StatusCode::GONE);
    assert!(why(&r).contains("replaced by a newer one"), "{}", r.body);
    // Not a link at all.
    let r = resume(&app.browser("acme"), &"0".repeat(64)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(why(&r).contains("not valid"), "{}", r.body);
    // Another agent's site.
    let r = resume(&app.browser("lakeshore"), &second).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(why(&r).contains("another agent's site"), "{}", r.body);
    // Expired after 14 days.
    app.clock
        .advance(std::time::Duration::from_secs(14 * 24 * 3600 + 60));
    let r = resume(&app.browser("acme"), &second).await;
    assert_eq!(r.status, StatusCode::GONE);
    assert!(why(&r).contains("expired"), "{}", r.body);
}

#[tokio::test]
async fn a_submitted_application_has_nothing_left_to_finish() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_subscriber_information(&b).await;
    let link = saved_link(&app, &b, &token, 1).await;
    sqlx::query("UPDATE applications SET data = data || '{\"last_step\": 10}'::jsonb")
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
    let r = put(&b, &token, "/api/application/step/rap", signatures()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let r = resume(&app.browser("acme"), &link).await;
    assert_eq!(r.status, StatusCode::GONE);
    assert!(r.body.contains("already been submitted"), "{}", r.body);
    // And a submitted application is not saved for later either.
    let r = save_for_later(&b, &token).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}

#[tokio::test]
async fn save_for_later_is_a_consumers_once_the_plans_are_reached_to_the_address_it_holds() {
    let app = spawn_app().await;
    // Before the plans: nothing worth a link yet.
    let b = app.browser("acme");
    let token = b.start_session().await;
    in_open_enrollment(&b, &token).await;
    let r = save_for_later(&b, &token).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("offered from"), "{}", r.body);
    // No application at all.
    let fresh = app.browser("acme");
    let t = fresh.start_session().await;
    assert_eq!(
        save_for_later(&fresh, &t).await.status,
        StatusCode::FORBIDDEN
    );

    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    // The link goes to the address the application holds, whatever the request says.
    assert_eq!(
        b.get("/api/application/saveForLater").await.json(),
        json!({ "email": "ann@example.com" })
    );
    let r = b
        .call(
            Method::POST,
            "/api/application/saveForLater",
            &token,
            &json!({ "email": "mallory@example.com" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["email"], "ann@example.com");
    wait_for_mails(&app.pool, "ann@example.com", 1).await;
    let (to_mallory,): (i64,) = sqlx::query_as("SELECT count(*) FROM outbox")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(to_mallory, 1, "one mail, to the application's address");
    for _ in 0..4 {
        assert_eq!(save_for_later(&b, &token).await.status, StatusCode::OK);
    }
    let r = save_for_later(&b, &token).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);

    // An agent applying for a customer keeps the application on the dashboard.
    let agent = app.browser("acme");
    let csrf = agent.logged_in_as(ACME_USER).await;
    in_open_enrollment(&agent, &csrf).await;
    let r = save_for_later(&agent, &csrf).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}

#[tokio::test]
async fn one_address_is_sent_a_limited_number_of_links_a_day_whatever_the_applications() {
    let app = spawn_app().await;
    // Three applications naming the same address: five links each is each one's own limit, and
    // ten a day is the address's, so the third application's first link is refused.
    let mut sent = 0;
    for round in 0..3 {
        let b = app.browser("acme");
        let token = at_medical(&b, adult("1990-01-01")).await;
        let tries = if round < 2 { 5 } else { 1 };
        for _ in 0..tries {
            let r = save_for_later(&b, &token).await;
            if sent < 10 {
                assert_eq!(r.status, StatusCode::OK, "link {}: {}", sent + 1, r.body);
                sent += 1;
            } else {
                assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.body);
            }
        }
    }
    assert_eq!(sent, 10);
    // A day later the address may be sent a link again.
    app.clock
        .advance(std::time::Duration::from_secs(24 * 3600 + 60));
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    assert_eq!(save_for_later(&b, &token).await.status, StatusCode::OK);
    // What is kept of the recipient is a keyed digest, not the address.
    let (kept,): (i64,) = sqlx::query_as(
        "SELECT count(*) FROM application_links
         WHERE recipient_digest IS NOT NULL AND position(convert_to('ann@', 'UTF8') in recipient_digest) = 0",
    )
    .fetch_one(&app.pool)
    .await
    .expect("links");
    assert_eq!(kept, 11);
}

#[tokio::test]
async fn a_resumed_application_says_what_changed_before_it_goes_on() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_subscriber_information(&b).await;
    let link = saved_link(&app, &b, &token, 1).await;
    let dental = plans_changed_since_the_link(&app).await;
    let name = dental["name"].as_str().expect("a dental plan").to_string();

    let r = resume(&app.browser("acme"), &link).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let changes: Vec<String> = serde_json::from_value(r.json()["changes"].clone()).expect("list");
    let premium = format!("${:.2}", dental["rate"].as_f64().expect("rate"));
    assert!(
        changes.iter().any(|c| c.contains(&name)
            && c.contains(&format!("is now {premium}"))
            && c.contains("(it was $1.00)")),
        "{changes:?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c.contains("no longer offered") && c.contains("vision plan")),
        "{changes:?}"
    );
    // It goes on at the first step that needs another look: the vision plans.
    assert_eq!(r.json()["route"], "/vision");
}
