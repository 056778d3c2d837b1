//! Review Selections' Continue and the purchase (spec part 2, sections 2 and 4): a purchase is
//! atomic and happens once; a submitted application opens only Review and Purchase.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Browser, adult, at_medical, put, spawn_app};

/// Picks the cheapest plan of each kind (vision skipped when the dental plan includes it).
pub(crate) async fn choose_plans(b: &Browser<'_>, token: &str) -> Value {
    let mut next = json!(null);
    for t in 1..=3 {
        if next["id"] == "review" {
            break;
        }
        let list = b.get(&format!("/api/plans/{t}/allPlans")).await;
        assert_eq!(list.status, StatusCode::OK, "{t}: {}", list.body);
        let id = list.json()["plans"][0]["id"].clone();
        let r = put(
            b,
            token,
            &format!("/api/plans/{t}"),
            json!({ "selected_plan_id": id }),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{t}: {}", r.body);
        next = r.json()["next"].clone();
    }
    assert_eq!(next["id"], "review", "{next}");
    next
}

/// A consumer on acme at Subscriber Information (Ann Lee, born 1990-01-01; the cheapest plans
/// chosen, Review Selections continued); the CSRF token.
pub(crate) async fn at_subscriber_information(b: &Browser<'_>) -> String {
    let token = at_medical(b, adult("1990-01-01")).await;
    choose_plans(b, &token).await;
    continue_review(b, &token).await;
    token
}

/// Review Selections' Continue (on to Subscriber Information).
pub(crate) async fn continue_review(b: &Browser<'_>, token: &str) {
    let r = b
        .call(
            Method::POST,
            "/api/application/step/review/continue",
            token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

/// Subscriber Information for Ann Lee (SSN 123-45-6789, ann@example.com), saved.
pub(crate) async fn give_subscriber_information(b: &Browser<'_>, token: &str) {
    let r = crate::helpers::save_step(
        b,
        token,
        "subInfo",
        json!({
            "sub_first_name": "Ann", "sub_last_name": "Lee", "sub_ssn": "123456789", "sub_us_citizen": 1,
            "email": "ann@example.com", "primary_phone": "7345550199", "primary_phone_type_id": 4,
            "residential_street": "1 Main St", "residential_city": "Ann Arbor", "residential_state": "MI"
        }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
}

#[tokio::test]
async fn review_selections_continues_to_subscriber_information() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    // Not before the plans are chosen: the review step is not reached yet.
    let early = b
        .call(
            Method::POST,
            "/api/application/step/review/continue",
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(early.status, StatusCode::FORBIDDEN, "{}", early.body);
    choose_plans(&b, &token).await;
    assert_eq!(
        b.get("/api/application/step/subInfo").await.status,
        StatusCode::FORBIDDEN,
        "Subscriber Information is not reached by choosing plans"
    );
    let r = b
        .call(
            Method::POST,
            "/api/application/step/review/continue",
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["next"]["id"], "subInfo");
    assert_eq!(r.json()["application"]["lastStep"], 7);
    assert_eq!(
        b.get("/api/application/step/subInfo").await.status,
        StatusCode::OK
    );
    // A form step or a plan page is not continued this way.
    for step in ["census", "medical"] {
        let r = b
            .call(
                Method::POST,
                &format!("/api/application/step/{step}/continue"),
                &token,
                &json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{step}: {}", r.body);
    }
}

/// Moves the application on to Review and Purchase (step 10) directly: subscriber information and
/// the other questions are the step tests' business.
pub(crate) async fn on_to_review_and_purchase(app: &crate::helpers::TestApp) {
    sqlx::query("UPDATE applications SET data = data || '{\"last_step\": 10}'::jsonb")
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
}

pub(crate) fn signatures() -> Value {
    json!({
        "agree_tc": true, "who_is_applying": 1, "agree_subscriber_applying": true,
        "subscriber_signature": "Ann Lee", "subscriber_signature_confirm": "Ann Lee",
        "subscriber_signature_date": "2024-11-20"
    })
}

#[tokio::test]
async fn a_double_click_on_purchase_submits_once_and_then_only_review_and_purchase_opens() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    choose_plans(&b, &token).await;
    on_to_review_and_purchase(&app).await;

    let (first, second) = tokio::join!(
        put(&b, &token, "/api/application/step/rap", signatures()),
        put(&b, &token, "/api/application/step/rap", signatures()),
    );
    let mut statuses = [first.status.as_u16(), second.status.as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", first.body, second.body);
    let ok = if first.status == StatusCode::OK {
        &first
    } else {
        &second
    };
    assert!(
        ok.json()["application"]["submissionTime"].is_string(),
        "{}",
        ok.body
    );

    let (count, submitted): (i64, bool) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE submission_time IS NOT NULL), \
                bool_and(coalesce((data->>'submitted')::boolean, false)) FROM applications",
    )
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!((count, submitted), (1, true));

    // Submitted: only Review and Purchase opens, and nothing changes it any more.
    assert_eq!(
        b.get("/api/application/step/rap").await.status,
        StatusCode::OK
    );
    assert_eq!(
        b.get("/api/application/step/census").await.status,
        StatusCode::FORBIDDEN
    );
    let again = put(&b, &token, "/api/application/step/rap", signatures()).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(
        again.json()["error"],
        "This application has already been submitted."
    );
}

/// Spec part 2, 8: "Purchase: submit_error text is shown in a red alert at the top and blocks the
/// success modal"; 7: "PUT rap ... purchase; response may carry submit_error". A purchase whose
/// coverage would already have started is refused that way, and nothing is submitted.
#[tokio::test]
async fn a_refused_purchase_answers_submit_error_and_submits_nothing() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    choose_plans(&b, &token).await;
    // The application was left for weeks: its coverage was to start on November 1, 2024, and on
    // November 20 it cannot be bought any more.
    sqlx::query(
        "UPDATE applications SET data = data || '{\"last_step\": 10, \"effective_date\": \"2024-11-01\"}'::jsonb",
    )
    .execute(&app.pool)
    .await
    .expect("advance");
    app.settle().await;
    let late = signatures();
    let r = put(&b, &token, "/api/application/step/rap", late).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let body = r.json();
    assert!(
        body["submit_error"]
            .as_str()
            .is_some_and(|m| m.contains("11/01/2024 has passed")),
        "{body}"
    );
    assert!(body.get("errors").is_none(), "no field errors: {body}");
    let submitted: i64 =
        sqlx::query_scalar("SELECT count(*) FROM applications WHERE submission_time IS NOT NULL")
            .fetch_one(&app.pool)
            .await
            .expect("count");
    assert_eq!(submitted, 0);
    // The purchase of a submitted application is refused with the same key.
    sqlx::query("UPDATE applications SET data = data || '{\"submitted\": true}'::jsonb, submission_time = now()")
        .execute(&app.pool)
        .await
        .expect("submit");
    app.settle().await;
    let again = put(&b, &token, "/api/application/step/rap", signatures()).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(
        again.json()["submit_error"],
        "This application has already been submitted."
    );
}
