//! The in-memory caches (server/src/platform/cache.rs) never serve what PostgreSQL has replaced: changes made
//! by another instance, or behind the server's back, reach every instance's answers.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    Browser, adult, at_medical, consumer_census, in_open_enrollment, put, select_plan, spawn_app,
};

fn totals(body: &str) -> Vec<f64> {
    let v: Value = serde_json::from_str(body).expect("json");
    v["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .map(|p| p["rates"]["total"].as_f64().expect("total"))
        .collect()
}

#[tokio::test]
async fn a_save_on_one_instance_is_read_on_the_other() {
    let a = spawn_app().await;
    let b = a.another_instance().await;
    let on_a = a.browser("acme");
    let token = at_medical(&on_a, adult("1990-01-01")).await;
    let on_b = b.browser("acme");
    *on_b.cookie.lock().expect("cookie") = on_a.cookie.lock().expect("cookie").clone();

    // Both instances quote the same household (and now hold it in memory).
    let first_a = on_a.get("/api/plans/1/allPlans").await;
    let first_b = on_b.get("/api/plans/1/allPlans").await;
    assert_eq!(first_a.status, StatusCode::OK, "{}", first_a.body);
    assert_eq!(first_b.body, first_a.body);

    // The census is saved again on A with an older subscriber: B answers with the new premiums.
    let older = consumer_census(adult("1962-01-01"));
    let r = put(&on_a, &token, "/api/application/step/census", older).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_ne!(
        totals(&on_a.get("/api/plans/1/allPlans").await.body),
        totals(&first_a.body),
        "the instance that saved reads its own write at once"
    );
    // Another browser's view (on_b never saw this save's cookie): once A's announcement is out.
    a.settle().await;
    b.settle().await;
    let after_b = on_b.get("/api/plans/1/allPlans").await;
    assert_eq!(
        totals(&after_b.body),
        totals(&on_a.get("/api/plans/1/allPlans").await.body)
    );

    // A CSRF token issued on A is good on B: a selection saved through B.
    let plan_id =
        serde_json::from_str::<Value>(&after_b.body).expect("json")["plans"][0]["id"].clone();
    let r = select_plan(&on_b, &token, 1, json!(plan_id)).await;
    assert!(r.status.is_success(), "{}: {}", r.status, r.body);
}

/// The browser's cookies move with it from one instance to the other, as behind round-robin.
fn hand_over(from: &Browser<'_>, to: &Browser<'_>) {
    *to.cookie.lock().expect("cookie") = from.cookie.lock().expect("cookie").clone();
    *to.rev.lock().expect("rev") = from.rev.lock().expect("rev").clone();
}

#[tokio::test]
async fn a_browser_alternating_between_instances_reads_its_own_writes_at_once() {
    // A never announces its saves: B can only know of them from the browser's `ef_rev` cookie.
    let b_app = spawn_app().await;
    let a_app = b_app.an_unannounced_instance().await;
    let (on_a, on_b) = (a_app.browser("acme"), b_app.browser("acme"));

    // The session gets its application on A while B holds the session (without one) in memory.
    let token = on_a.start_session().await;
    hand_over(&on_a, &on_b);
    let r = on_b.get("/api/application/active").await;
    assert_eq!(r.json()["application"], Value::Null, "{}", r.body);
    in_open_enrollment(&on_a, &token).await;
    hand_over(&on_a, &on_b);
    let census = consumer_census(adult("1990-01-01"));
    let r = put(&on_b, &token, "/api/application/step/census", census).await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "B saves the census on A's application: {}",
        r.body
    );
    hand_over(&on_b, &on_a);
    let young = on_a.get("/api/plans/1/allPlans").await;
    assert_eq!(young.status, StatusCode::OK, "{}", young.body);
    hand_over(&on_a, &on_b);
    assert_eq!(
        totals(&on_b.get("/api/plans/1/allPlans").await.body),
        totals(&young.body)
    );

    // B now holds the application in memory; A saves an older subscriber and B answers with it.
    let older = consumer_census(adult("1962-01-01"));
    let r = put(&on_a, &token, "/api/application/step/census", older).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    hand_over(&on_a, &on_b);
    let old = on_b.get("/api/plans/1/allPlans").await;
    assert_ne!(
        totals(&old.body),
        totals(&young.body),
        "B served its stale copy"
    );

    // A selection made on A opens the dental step on B at once (it was refused before).
    let plan_id = serde_json::from_str::<Value>(&old.body).expect("json")["plans"][0]["id"].clone();
    let r = select_plan(&on_a, &token, 1, json!(plan_id)).await;
    assert!(r.status.is_success(), "{}: {}", r.status, r.body);
    hand_over(&on_a, &on_b);
    let dental = on_b.get("/api/plans/2/allPlans").await;
    assert_eq!(dental.status, StatusCode::OK, "{}", dental.body);

    // Restart Quote on A: B no longer serves the old application to this session.
    let r = on_a.post("/api/application/active/reset", &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    hand_over(&on_a, &on_b);
    let r = on_b.get("/api/application/active").await;
    assert_eq!(r.json()["application"], Value::Null, "{}", r.body);
}

#[tokio::test]
async fn a_session_ended_elsewhere_is_refused_here() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let _ = at_medical(&b, adult("1990-01-01")).await;
    assert_eq!(b.get("/api/plans/1/allPlans").await.status, StatusCode::OK);
    sqlx::query("DELETE FROM sessions")
        .execute(&app.pool)
        .await
        .expect("delete");
    app.settle().await;
    assert_eq!(
        b.get("/api/plans/1/allPlans").await.status,
        StatusCode::from_u16(419).expect("419")
    );
}

#[tokio::test]
async fn an_agents_changed_offer_changes_the_quote() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let _ = at_medical(&b, adult("1990-01-01")).await;
    let carriers = |body: &str| {
        let v: Value = serde_json::from_str(body).expect("json");
        let mut c: Vec<i64> = v["plans"]
            .as_array()
            .expect("plans")
            .iter()
            .map(|p| p["carrier"].as_i64().expect("carrier"))
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let before = carriers(&b.get("/api/plans/1/allPlans").await.body);
    assert!(before.contains(&3), "acme offers Priority: {before:?}");
    sqlx::query(
        "UPDATE agents SET offers = array_remove(offers, 'display_ph') WHERE id = \
         (SELECT agent_id FROM agent_subdomains WHERE subdomain = 'acme')",
    )
    .execute(&app.pool)
    .await
    .expect("update");
    app.settle().await;
    let after = carriers(&b.get("/api/plans/1/allPlans").await.body);
    assert!(
        !after.contains(&3),
        "Priority is no longer quoted: {after:?}"
    );
}
