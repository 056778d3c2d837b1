//! Renewals: the agents' worklist of their customers' next plan year (statuses, order, filters,
//! who sees what, re-working under a new rule set), "Send renewal options" and the link's
//! hand-over to the customer, who chooses a plan and re-enrolls with last year's answers.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    ACME_NPN, ACME_USER, LAKESHORE_USER, TestApp, spawn_app, test_cipher, token_in, wait_for_mails,
};

use enrollflow_server::demo_data as generator;

/// The statuses in the worklist's order, riskiest first.
const ORDER: [&str; 6] = [
    "carrier_change",
    "no_successor",
    "plan_change",
    "member_aging_off",
    "premium_change",
    "same_plan",
];

async fn load_demo(app: &TestApp) {
    use enrollflow_server::platform::clock::Clock;
    let bundle = app.rules.current();
    let rules = generator::Rules {
        engine: &bundle.engine,
    };
    let opts = generator::Options::new(600, app.clock.today());
    generator::load(&app.pool, &rules, &opts)
        .await
        .expect("demo data loads");
}

async fn agent_of(app: &TestApp, id: &str) -> uuid::Uuid {
    let id: uuid::Uuid = id.parse().expect("a uuid");
    sqlx::query_scalar("SELECT agent_id FROM applications WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .expect("the application")
}

async fn acme_agent(app: &TestApp) -> uuid::Uuid {
    sqlx::query_scalar("SELECT id FROM agents WHERE npn = $1")
        .bind(ACME_NPN)
        .fetch_one(&app.pool)
        .await
        .expect("acme")
}

fn rows(page: &Value) -> Vec<Value> {
    page["rows"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn the_worklist_lists_each_customer_by_risk_then_change_and_only_the_agents_own() {
    let app = spawn_app().await;
    load_demo(&app).await;
    let acme = app.browser("acme");
    acme.logged_in_as(ACME_USER).await;
    let r = acme.get("/api/dashboard/renewals").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let page = r.json();
    assert_eq!(page["plan_year"], 2025);
    let total = page["total"].as_i64().expect("total");
    assert!(total > 5, "{}", r.body);
    // Every submission of acme's taking effect in 2024 has its renewal.
    let submitted_2024: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM applications WHERE agent_id = $1 AND submission_time IS NOT NULL
           AND effective_date BETWEEN '2024-01-01' AND '2024-12-31'
           AND (data ? 'medical_plan' OR data ? 'dental_plan' OR data ? 'vision_plan')",
    )
    .bind(acme_agent(&app).await)
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert!(
        total <= submitted_2024 && total > 0,
        "{total} of {submitted_2024}"
    );

    // Riskiest first, then the largest change; each row the agent's own.
    let mut all = Vec::new();
    let pages = page["pages"].as_i64().expect("pages");
    for p in 1..=pages {
        all.extend(rows(
            &acme
                .get(&format!("/api/dashboard/renewals?page={p}"))
                .await
                .json(),
        ));
    }
    assert_eq!(all.len() as i64, total);
    let key = |r: &Value| {
        let risk = ORDER
            .iter()
            .position(|s| r["status"] == *s)
            .unwrap_or_else(|| panic!("unknown status in {r}"));
        (
            risk,
            -(r["change_percent"].as_f64().unwrap_or(0.0).abs() * 10.0) as i64,
        )
    };
    for pair in all.windows(2) {
        assert!(
            key(&pair[0]) <= key(&pair[1]),
            "{} before {}",
            pair[0],
            pair[1]
        );
    }
    let acme_id = acme_agent(&app).await;
    for r in &all {
        assert_eq!(agent_of(&app, r["id"].as_str().expect("id")).await, acme_id);
        assert_eq!(r["follow"], "to_do");
    }
    // The demo's book has renewals of several kinds: the crosswalk's changes and the new rates.
    let statuses: std::collections::BTreeSet<&str> =
        all.iter().filter_map(|r| r["status"].as_str()).collect();
    assert!(statuses.contains("premium_change"), "{statuses:?}");
    assert!(statuses.len() >= 2, "{statuses:?}");

    // Another agent sees none of it.
    let lakeshore = app.browser("lakeshore");
    lakeshore.logged_in_as(LAKESHORE_USER).await;
    let theirs = rows(&lakeshore.get("/api/dashboard/renewals").await.json());
    let acme_ids: Vec<&Value> = all.iter().map(|r| &r["id"]).collect();
    assert!(theirs.iter().all(|r| !acme_ids.contains(&&r["id"])));
    let one = all[0]["id"].as_str().expect("id");
    let r = lakeshore
        .get(&format!("/api/dashboard/renewals/{one}"))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    let token = lakeshore.start_session().await;
    let r = lakeshore
        .call(
            Method::POST,
            &format!("/api/dashboard/renewals/{one}/send"),
            &token,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);
    // Logged out, nothing.
    let r = app.browser("acme").get("/api/dashboard/renewals").await;
    assert_ne!(r.status, StatusCode::OK);

    // Filters: premium increases only.
    let up = rows(
        &acme
            .get("/api/dashboard/renewals?status=premium_change&change=up")
            .await
            .json(),
    );
    assert!(!up.is_empty());
    for r in &up {
        assert_eq!(r["status"], "premium_change");
        assert!(
            r["next_premium"].as_f64() > r["current_premium"].as_f64(),
            "{r}"
        );
        assert!(r["change_percent"].as_f64().expect("change") >= 5.0, "{r}");
    }
    // Search by a customer's last name.
    let last = all[3]["last_name"].as_str().expect("a name");
    let found = rows(
        &acme
            .get(&format!("/api/dashboard/renewals?q={last}"))
            .await
            .json(),
    );
    assert!(
        !found.is_empty()
            && found.iter().all(|r| r["last_name"] == last
                || r["first_name"].as_str().unwrap_or_default().contains(last))
    );

    // The side by side: this year, the renewal or none, the alternatives, each member's premium.
    let d = acme
        .get(&format!(
            "/api/dashboard/renewals/{}",
            all[0]["id"].as_str().expect("id")
        ))
        .await;
    assert_eq!(d.status, StatusCode::OK, "{}", d.body);
    let d = d.json();
    let plans = d["renewal"]["plans"].as_array().expect("plans");
    assert!(!plans.is_empty());
    for p in plans {
        let members = p["current"]["members"].as_array().expect("members");
        assert!(!members.is_empty());
        let sum: f64 = members.iter().filter_map(|m| m["premium"].as_f64()).sum();
        assert!((sum - p["current"]["premium"].as_f64().expect("premium")).abs() < 0.005);
        assert!(p["alternatives"].as_array().expect("alternatives").len() <= 2);
    }

    // The export holds the same rows.
    let (status, bytes) = acme.get_bytes("/api/dashboard/renewalsExport").await;
    assert_eq!(status, StatusCode::OK);
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("Renewals.xlsx");
    std::fs::write(&path, &bytes).expect("written");
    use calamine::Reader;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).expect("a workbook");
    let sheet = book.worksheet_range("Renewals 2025").expect("the sheet");
    assert_eq!(sheet.height() as i64, total + 1);
}

#[tokio::test]
async fn a_renewal_worked_out_under_another_rule_set_is_worked_out_again() {
    let app = spawn_app().await;
    load_demo(&app).await;
    let acme = app.browser("acme");
    acme.logged_in_as(ACME_USER).await;
    let first = rows(&acme.get("/api/dashboard/renewals").await.json());
    let id: uuid::Uuid = first[0]["id"].as_str().expect("id").parse().expect("uuid");
    let hash = app.rules.current().engine.hash().to_string();
    let stored: String =
        sqlx::query_scalar("SELECT engine_hash FROM renewals WHERE application_id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("stored");
    assert_eq!(stored, hash);
    // As if it had been worked out under an older set that called it the same plan.
    sqlx::query("UPDATE renewals SET engine_hash = 'older', status = 'same_plan', risk = 6 WHERE application_id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("updated");
    let again = acme
        .get(&format!("/api/dashboard/renewals/{id}"))
        .await
        .json();
    assert_eq!(again["status"], first[0]["status"]);
    let stored: String =
        sqlx::query_scalar("SELECT engine_hash FROM renewals WHERE application_id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("stored");
    assert_eq!(stored, hash);
}

#[tokio::test]
async fn renewal_options_go_to_the_customer_who_chooses_and_re_enrolls_with_last_years_answers() {
    let app = spawn_app().await;
    load_demo(&app).await;
    let acme = app.browser("acme");
    let csrf = acme.logged_in_as(ACME_USER).await;
    let list = rows(
        &acme
            .get("/api/dashboard/renewals?status=premium_change")
            .await
            .json(),
    );
    // A customer covered alone with a medical plan.
    let mut found = None;
    for r in &list {
        let id = r["id"].as_str().expect("id").to_string();
        let d = acme
            .get(&format!("/api/dashboard/renewals/{id}"))
            .await
            .json();
        let plans = d["renewal"]["plans"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let alone = plans.iter().all(|p| {
            p["current"]["members"]
                .as_array()
                .is_some_and(|m| m.len() == 1)
        });
        if alone && plans.iter().any(|p| p["kind"] == "medical") {
            found = Some((id, d));
            break;
        }
    }
    let (id, detail) = found.expect("a customer covered alone");
    // Last year's SSN, sealed to last year's application as a purchase stores it (the demo's
    // answers hold none).
    let old_id: uuid::Uuid = id.parse().expect("uuid");
    let cipher = test_cipher();
    let sealed = cipher
        .encrypt_bound("123456789", &format!("{old_id}:subInfo:sub_ssn"))
        .expect("sealed");
    sqlx::query(
        "UPDATE applications SET data = jsonb_set(data, '{subInfo,sub_ssn}', to_jsonb($2::text))
         WHERE id = $1",
    )
    .bind(old_id)
    .bind(&sealed)
    .execute(&app.pool)
    .await
    .expect("stored");
    // Last year's care needs: the expected use, a doctor and a drug, as the plan page stores them.
    let care = serde_json::json!({
        "uses": ["high"],
        "doctors": [{ "npi": "1234567893", "name": "Martin Van Nostrand", "specialty": "Dermatology", "city": "New York", "kind": "individual" }],
        "drugs": [{ "rxnorm_id": "209459", "name": "Acetaminophen 500 MG Oral Tablet" }]
    });
    sqlx::query("UPDATE applications SET data = jsonb_set(data, '{care}', $2) WHERE id = $1")
        .bind(old_id)
        .bind(&care)
        .execute(&app.pool)
        .await
        .expect("stored");
    let email = detail["email"].as_str().expect("an address").to_string();
    let r = acme
        .call(
            Method::POST,
            &format!("/api/dashboard/renewals/{id}/send"),
            &csrf,
            &json!({ "language": "es" }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let follow = |v: Value| v["follow"].as_str().unwrap_or_default().to_string();
    assert_eq!(
        follow(
            acme.get(&format!("/api/dashboard/renewals/{id}"))
                .await
                .json()
        ),
        "sent"
    );
    let mails = wait_for_mails(&app.pool, &email, 1).await;
    let (subject, body) = &mails[0];
    assert!(
        subject.contains("opciones de renovación") && subject.contains("2025"),
        "{subject}"
    );
    assert!(body.contains("/resume/token/"), "{body}");
    let link = token_in(body);

    // Not on another agent's site.
    let elsewhere = app.browser("lakeshore");
    let t = elsewhere.start_session().await;
    let r = elsewhere
        .call(
            Method::POST,
            "/api/application/resume",
            &t,
            &json!({ "token": link }),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.body);

    // The customer opens it: the renewal page, the application theirs.
    let customer = app.browser("acme");
    let token = customer.start_session().await;
    let r = customer
        .call(
            Method::POST,
            "/api/application/resume",
            &token,
            &json!({ "token": link }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["route"], "/renewal");
    assert_eq!(r.json()["from_agent"], "Maria Alvarez");
    assert_eq!(
        follow(
            acme.get(&format!("/api/dashboard/renewals/{id}"))
                .await
                .json()
        ),
        "opened"
    );
    // The link works once.
    let again = app.browser("acme");
    let t = again.start_session().await;
    let r = again
        .call(
            Method::POST,
            "/api/application/resume",
            &t,
            &json!({ "token": link }),
        )
        .await;
    assert_eq!(r.status, StatusCode::GONE, "{}", r.body);

    let offer = customer.get("/api/renewal").await;
    assert_eq!(offer.status, StatusCode::OK, "{}", offer.body);
    let offer = offer.json();
    assert_eq!(offer["renewal"], detail["renewal"]);
    let medical = offer["renewal"]["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .find(|p| p["kind"] == "medical")
        .expect("medical")
        .clone();
    // A plan the renewal does not show is refused.
    let r = customer
        .call(
            Method::POST,
            "/api/renewal/choose",
            &token,
            &json!({ "medical": 101 }),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    // The customer chooses the first alternative.
    let chosen = medical["alternatives"][0]["plan_id"]
        .as_i64()
        .expect("an alternative");
    let r = customer
        .call(
            Method::POST,
            "/api/renewal/choose",
            &token,
            &json!({ "medical": chosen }),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let route = r.json()["route"].as_str().expect("route").to_string();
    // Nothing asked twice that has not changed: Subscriber Information is complete.
    assert!(
        ["/other", "/pcp", "/rap"].contains(&route.as_str()),
        "{route}"
    );

    // The new application: the customer's, open enrollment for 2025, last year's household, the
    // chosen plan.
    let (new_data, effective): (Value, Option<time::Date>) = sqlx::query_as(
        "SELECT n.data, n.effective_date FROM renewals r JOIN applications n ON n.id = r.reenrolled_application_id
         WHERE r.application_id = $1::uuid",
    )
    .bind(&id)
    .fetch_one(&app.pool)
    .await
    .expect("the new application");
    let (old_data,): (Value,) = sqlx::query_as("SELECT data FROM applications WHERE id = $1::uuid")
        .bind(&id)
        .fetch_one(&app.pool)
        .await
        .expect("the old");
    assert_eq!(new_data["whyApplying"]["enrollment_type"], "oe");
    assert_eq!(effective, Some(time::macros::date!(2025 - 01 - 01)));
    assert_eq!(
        new_data["census"]["sub_birth_date"],
        old_data["census"]["sub_birth_date"]
    );
    assert_eq!(new_data["medical_plan"]["id"], chosen);
    // The household's doctors, drugs and expected use come along.
    assert_eq!(new_data["care"], care);
    // Subscriber Information as last year; the SSN sealed again, to the new application only.
    assert_eq!(
        new_data["subInfo"]["residential_street"],
        old_data["subInfo"]["residential_street"]
    );
    assert!(new_data["subInfo"]["residential_street"].is_string());
    let new_id: uuid::Uuid = sqlx::query_scalar(
        "SELECT reenrolled_application_id FROM renewals WHERE application_id = $1",
    )
    .bind(old_id)
    .fetch_one(&app.pool)
    .await
    .expect("the new id");
    let resealed = new_data["subInfo"]["sub_ssn"].as_str().expect("an SSN");
    assert_ne!(resealed, sealed);
    assert_eq!(
        cipher
            .decrypt_bound(resealed, &format!("{new_id}:subInfo:sub_ssn"))
            .expect("opens for the new application"),
        "123456789"
    );
    assert!(
        cipher
            .decrypt_bound(resealed, &format!("{old_id}:subInfo:sub_ssn"))
            .is_err()
    );
    assert!(
        new_data.get("rap").is_none(),
        "never signed for the customer"
    );
    assert_eq!(
        follow(
            acme.get(&format!("/api/dashboard/renewals/{id}"))
                .await
                .json()
        ),
        "opened"
    );
    // Once the new application is submitted, the row says re-enrolled; the home card counts it.
    sqlx::query("UPDATE applications SET submission_time = now() WHERE id = (SELECT reenrolled_application_id FROM renewals WHERE application_id = $1::uuid)")
        .bind(&id)
        .execute(&app.pool)
        .await
        .expect("submitted");
    assert_eq!(
        follow(
            acme.get(&format!("/api/dashboard/renewals/{id}"))
                .await
                .json()
        ),
        "reenrolled"
    );
    let counts = acme.get("/api/dashboard/renewalCounts").await.json();
    assert_eq!(counts["done"], 1);
    assert_eq!(counts["plan_year"], 2025);
    // 2024-11-20 to 2025-01-15, both days counted.
    assert_eq!(counts["days_left"], 57);
    let total = acme.get("/api/dashboard/renewals").await.json()["total"]
        .as_i64()
        .expect("total");
    assert_eq!(
        counts["to_do"].as_i64().expect("to do") + counts["sent"].as_i64().expect("sent") + 1,
        total
    );
    // A re-enrolled customer is sent nothing more.
    let r = acme
        .call(
            Method::POST,
            &format!("/api/dashboard/renewals/{id}/send"),
            &csrf,
            &json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
}
