use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Browser, adult, save_step, spawn_app};

fn option_ids(view: &Value, field: &str) -> Vec<Value> {
    view["schema"]["properties"][field]["oneOf"]
        .as_array()
        .map(|a| a.iter().map(|c| c["const"].clone()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn why_applying_opens_without_an_application_and_offers_the_agents_types() {
    let app = spawn_app().await;
    let acme = app.browser("acme");
    acme.start_session().await;
    let r = acme.get("/api/application/step/whyApplying").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["step"]["number"], 1);
    assert_eq!(v["step"]["title"], "Why Are You Applying?");
    assert_eq!(
        option_ids(&v, "enrollment_type"),
        vec![json!("oe"), json!("qle"), json!("vision"), json!("dental")]
    );
    assert_eq!(v["extras"]["oep"]["effective_date"], "2025-01-01");

    let priority_only = app.browser("lakeshore");
    priority_only.start_session().await;
    let v = priority_only
        .get("/api/application/step/whyApplying")
        .await
        .json();
    assert_eq!(
        option_ids(&v, "enrollment_type"),
        vec![json!("oe"), json!("qle")]
    );
}

#[tokio::test]
async fn later_steps_need_an_application() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.start_session().await;
    assert_eq!(
        b.get("/api/application/step/census").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        b.get("/api/application/step/nope").await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn an_unknown_site_cannot_start_an_application() {
    let app = spawn_app().await;
    let b = app.browser("nosuch");
    b.start_session().await;
    assert_eq!(
        b.get("/api/application/step/whyApplying").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn saving_why_applying_creates_the_application_and_goes_to_census() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let saved = r.json();
    assert_eq!(saved["next"]["id"], "census");
    assert_eq!(saved["next"]["route"], "/census");
    assert!(saved["modal"].is_null());
    assert_eq!(saved["application"]["lastStep"], 2);
    assert_eq!(saved["application"]["effectiveDate"], "2025-01-01");
    assert_eq!(saved["application"]["enrollmentPeriodTypeId"], 1);

    let active = b.get("/api/application/active").await.json();
    assert_eq!(
        active["application"]["applicationId"],
        saved["application"]["applicationId"]
    );
    let (hash, reason): (Option<String>, Value) =
        sqlx::query_as("SELECT rules_hash, data->'enrollment_reason_id' FROM applications")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert_eq!(hash.as_deref(), Some(app.rules.current().engine.hash()));
    assert_eq!(reason, json!(1));

    // The saved answers come back in the view.
    let v = b.get("/api/application/step/whyApplying").await.json();
    assert_eq!(v["data"]["enrollment_type"], "oe");
}

#[tokio::test]
async fn invalid_answers_are_refused_with_the_errors_map() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "qle" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let errors = r.json()["errors"].clone();
    for key in [
        "enrollment_reason_id",
        "qle_event_date",
        "start_date_option_id",
    ] {
        assert!(errors[key].is_array(), "{key} in {errors}");
    }
    assert_eq!(
        b.get("/api/application/active").await.json()["application"],
        Value::Null,
        "nothing saved"
    );

    save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    let mut census = adult("1985-03-02");
    census["sub_first_name"] = json!("A".repeat(31));
    census["dependents"] = json!([{ "gender": "M" }]);
    let r = save_step(&b, &token, "census", census).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let errors = r.json()["errors"].clone();
    assert_eq!(
        errors["sub_first_name"][0],
        "The First Name may not be greater than 30 characters."
    );
    assert_eq!(
        errors["dependent1_birth_date"][0],
        "The Birth Date field is required."
    );
}

#[tokio::test]
async fn the_census_continue_flow_asks_its_questions_then_goes_to_medical() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;

    let r = save_step(&b, &token, "census", adult("1985-03-02"))
        .await
        .json();
    assert_eq!(r["modal"], "medicare");
    assert_eq!(r["next"]["id"], "census");

    let mut answers = adult("1985-03-02");
    answers["medicare_eligible"] = json!(0);
    let r = save_step(&b, &token, "census", answers.clone())
        .await
        .json();
    assert_eq!(r["modal"], "subsidy");

    answers["wants_subsidy"] = json!(0);
    let r = save_step(&b, &token, "census", answers).await.json();
    assert!(r["modal"].is_null());
    assert_eq!(r["next"]["id"], "medical");
    assert_eq!(r["application"]["lastStep"], 3);
    assert_eq!(r["application"]["skipMedical"], false);

    let id = r["application"]["applicationId"]
        .as_str()
        .expect("id")
        .to_string();
    let valid = |step: &str| format!("/api/application/{id}/step/{step}/validStep");
    assert_eq!(b.get(&valid("census")).await.json()["valid"], true);
    assert_eq!(b.get(&valid("medical")).await.json()["valid"], true);
    assert_eq!(b.get(&valid("dental")).await.json()["valid"], false);
    let last = b.get(&format!("/api/application/{id}/step")).await.json();
    assert_eq!(last["last_step"], 3);
    assert_eq!(last["route"], "/medical");
}

#[tokio::test]
async fn a_child_alone_is_stopped_on_census() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    save_step(
        &b,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    let mut child = adult("1985-03-02");
    child["sub_birth_date"] = json!("2010-06-01");
    let r = save_step(&b, &token, "census", child).await.json();
    assert_eq!(r["modal"], "child_only");
    assert_eq!(r["next"]["id"], "census");
    assert_eq!(r["application"]["lastStep"], 2);
}

#[tokio::test]
async fn another_sessions_application_is_forbidden() {
    let app = spawn_app().await;
    let owner = app.browser("acme");
    let token = owner.start_session().await;
    let saved = save_step(
        &owner,
        &token,
        "whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await
    .json();
    let id = saved["application"]["applicationId"]
        .as_str()
        .expect("id")
        .to_string();
    let other = app.browser("acme");
    other.start_session().await;
    let r = other
        .get(&format!("/api/application/{id}/step/census/validStep"))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        other
            .get(&format!("/api/application/{id}/step"))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn preview_recomputes_start_dates_for_unsaved_answers() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let body = json!({ "enrollment_type": "qle", "enrollment_reason_id": 7, "qle_event_date": "2024-11-10" });
    let r = b
        .call(
            Method::POST,
            "/api/application/step/whyApplying/preview",
            &token,
            &body,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // Reason 7 (lost job-based coverage), event in the past: 2 and 3.
    assert_eq!(
        option_ids(&r.json(), "start_date_option_id"),
        vec![json!(2), json!(3)]
    );
    assert_eq!(
        b.get("/api/application/active").await.json()["application"],
        Value::Null,
        "a preview saves nothing"
    );
    // Answers that are not an object are refused as a save refuses them, never a server error.
    for body in [json!(null), json!([]), json!(1), json!("x"), json!(true)] {
        let r = b
            .call(
                Method::POST,
                "/api/application/step/whyApplying/preview",
                &token,
                &body,
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.body);
    }
}

/// An application of this browser moved on to Subscriber Information with a Blue medical plan.
pub(crate) async fn at_subscriber_info(
    app: &crate::helpers::TestApp,
    b: &Browser<'_>,
    token: &str,
) {
    let r = save_step(b, token, "whyApplying", json!({ "enrollment_type": "oe" })).await;
    assert_eq!(r.status, StatusCode::OK);
    sqlx::query("UPDATE applications SET data = data || $1::jsonb")
        .bind(json!({
            "last_step": 7, "medical_carrier_id": 1, "medical_network_type_id": 1,
            "census": adult("1985-03-02"),
        }))
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
}

pub(crate) fn subscriber(ssn: &str) -> Value {
    json!({
        "sub_first_name": "Ann", "sub_last_name": "Lee", "sub_ssn": ssn, "sub_us_citizen": 1,
        "email": "ann@example.com", "primary_phone": "7345550199", "primary_phone_type_id": 4,
        "residential_street": "1 Main St", "residential_city": "Ann Arbor", "residential_state": "MI"
    })
}

#[tokio::test]
async fn ssns_are_encrypted_at_rest_and_shown_masked() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    at_subscriber_info(&app, &b, &token).await;

    let r = save_step(&b, &token, "subInfo", subscriber("123456789")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        !r.body.contains("123456789"),
        "the answer never echoes the SSN"
    );
    let stored: String = sqlx::query_scalar("SELECT data::text FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("row");
    assert!(
        !stored.contains("123456789"),
        "no plaintext SSN in the database"
    );
    assert!(stored.contains("enc:v2:"));

    let view = b.get("/api/application/step/subInfo").await;
    assert!(!view.body.contains("123456789"));
    assert_eq!(view.json()["data"]["sub_ssn"], "*****6789");

    // Sending the mask back keeps the stored number; a new number replaces it.
    let r = save_step(&b, &token, "subInfo", subscriber("*****6789")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        b.get("/api/application/step/subInfo").await.json()["data"]["sub_ssn"],
        "*****6789"
    );
    let r = save_step(&b, &token, "subInfo", subscriber("*****1111")).await;
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a mask that matches nothing is not a number"
    );
    assert!(r.json()["errors"]["sub_ssn"].is_array());
    save_step(&b, &token, "subInfo", subscriber("987654321")).await;
    assert_eq!(
        b.get("/api/application/step/subInfo").await.json()["data"]["sub_ssn"],
        "*****4321"
    );
}

/// Spec part 1, 2.1 to 2.3, from the flow file: what the browser routes, lists and guards with.
#[tokio::test]
async fn the_flow_gives_the_wizards_steps_for_the_sessions_application() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.start_session().await;
    let flow = b.get("/api/flow").await;
    assert_eq!(flow.status, StatusCode::OK, "{}", flow.body);
    let flow = flow.json();
    let steps = flow["steps"].as_array().cloned().unwrap_or_default();
    let column = |k: &str| steps.iter().map(|s| s[k].clone()).collect::<Vec<_>>();
    assert_eq!(
        column("route"),
        [
            "/whyapplying",
            "/census",
            "/medical",
            "/dental",
            "/vision",
            "/review",
            "/subInfo",
            "/other",
            "/pcp",
            "/rap"
        ]
        .map(|r| json!(r))
    );
    assert_eq!(
        column("nav"),
        [
            "Get Started",
            "Basic Info",
            "Medical",
            "Dental",
            "Vision",
            "Review Selections",
            "Subscriber Info",
            "Other Questions",
            "PCP Selection",
            "Review and Purchase"
        ]
        .map(|r| json!(r))
    );
    assert_eq!(steps[0]["section"], Value::Null);
    assert_eq!(steps[1]["section"], "Select & Quote Plans");
    assert_eq!(steps[9]["section"], "Apply for Coverage");
    assert_eq!(steps[2]["kind"], "plans");
    assert_eq!(steps[2]["params"]["plan_type"], 1);
    assert_eq!(flow["submitted_step"], "rap");
    // Before an application only the first step opens; PCP is listed only for an HMO plan.
    assert_eq!(
        column("valid"),
        [
            true, false, false, false, false, false, false, false, false, false
        ]
        .map(|v| json!(v))
    );
    assert_eq!(steps[8]["listed"], false);

    // At the medical plans the application has reached three steps: they open, the rest do not.
    let token = crate::helpers::at_medical(&b, adult("1984-06-15")).await;
    let flow = b.get("/api/flow").await.json();
    assert_eq!(flow["last_step"], 3);
    let valid: Vec<Value> = flow["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["valid"] == true)
        .map(|s| s["id"].clone())
        .collect();
    assert_eq!(
        valid,
        [json!("whyApplying"), json!("census"), json!("medical")]
    );
    // A medical plan chosen: the dental plans are reached and open; vision is not.
    let plans = b.get("/api/plans/1/allPlans").await.json();
    let id = plans["plans"][0]["id"].clone();
    let r = crate::helpers::select_plan(&b, &token, 1, id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let flow = b.get("/api/flow").await.json();
    assert_eq!(flow["last_step"], 4);
    let (dental, vision) = (&flow["steps"][3], &flow["steps"][4]);
    assert_eq!(
        (dental["reached"].clone(), dental["valid"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(
        (vision["reached"].clone(), vision["valid"].clone()),
        (json!(false), json!(false))
    );
}
