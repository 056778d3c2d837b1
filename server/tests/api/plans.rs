use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, adult, at_medical, family, put, select_plan, spawn_app};

fn totals(list: &Value) -> Vec<f64> {
    list["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .map(|p| p["rates"]["total"].as_f64().expect("total"))
        .collect()
}

/// Expected cents for one member: the plan's age-21 rate in Washtenaw's area × age factor × tobacco.
fn expected_member(app: &TestApp, plan_id: i64, age: i64, smoker: bool) -> i64 {
    let bundle = app.rules.current();
    let cat = bundle.engine.catalog();
    let plan = cat.plan(plan_id).expect("plan");
    let area = cat.rating_area(161).expect("area");
    let base = plan.rates[&area] as f64 / 100.0;
    let factor = cat.curves[&plan.age_curve].factor(age).expect("factor") as f64 / 1000.0;
    let tobacco = if smoker && age >= 18 {
        plan.tobacco_factor as f64 / 1000.0
    } else {
        1.0
    };
    (base * factor * tobacco * 100.0).round() as i64
}

#[tokio::test]
async fn a_family_is_charged_for_the_adults_and_the_three_oldest_children() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, family()).await;
    let r = b.get("/api/plans/1/allPlans").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let list = r.json();
    let plans = list["plans"].as_array().expect("plans");
    assert!(plans.len() >= 10, "a dozen or more plans in Washtenaw");
    assert_eq!(list["household_size"], 7);
    let t = totals(&list);
    assert!(t.windows(2).all(|w| w[0] <= w[1]), "cheapest first: {t:?}");

    // Ages on 2025-01-01: 40, 38 (tobacco), children 8, 15, 5, 12, 10.
    for p in plans {
        let id = p["id"].as_i64().expect("id");
        let members = p["rates"]["members"].as_array().expect("members");
        assert_eq!(members.len(), 7);
        let charged: Vec<bool> = members
            .iter()
            .map(|m| m["charged"].as_bool().expect("charged"))
            .collect();
        assert_eq!(
            charged,
            vec![true, true, false, true, false, true, true],
            "plan {id}"
        );
        let expected = expected_member(&app, id, 40, false)
            + expected_member(&app, id, 38, true)
            + expected_member(&app, id, 15, false)
            + expected_member(&app, id, 12, false)
            + expected_member(&app, id, 10, false);
        let got = (p["rates"]["total"].as_f64().expect("total") * 100.0).round() as i64;
        assert_eq!(got, expected, "plan {id} total to the cent");
        assert_eq!(
            p["max_oop"], p["max_fam_oop"],
            "a household of 7 shows the family maximum"
        );
    }
}

#[tokio::test]
async fn filters_and_the_price_range_shape_the_list() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, adult("1984-06-15")).await;
    let all = b.get("/api/plans/1/allPlans").await.json();
    let range = &all["price_range"];
    assert_eq!(range["step"], 10);
    let t = totals(&all);
    let up = |v: f64| ((v * 100.0).round() as i64 + 999) / 1000 * 10;
    assert_eq!(range["min"].as_i64(), Some(up(t[0])));
    assert_eq!(range["max"].as_i64(), Some(up(t[t.len() - 1])));
    assert_eq!(
        all["plans"][0]["max_oop"], all["plans"][0]["max_ind_oop"],
        "one member: individual maximum"
    );

    let blue_care = b.get("/api/plans/1/allPlans?filters=car_2").await.json();
    assert!(
        blue_care["plans"]
            .as_array()
            .is_some_and(|p| !p.is_empty() && p.iter().all(|p| p["carrier"] == 2))
    );
    let hsa = b.get("/api/plans/1/allPlans?filters=hsa").await.json();
    assert!(
        hsa["plans"]
            .as_array()
            .is_some_and(|p| !p.is_empty() && p.iter().all(|p| p["is_hsa"] == true))
    );
    let cheap = b
        .get(&format!("/api/plans/1/allPlans?filters=maxPrice:{}", t[1]))
        .await
        .json();
    assert_eq!(
        totals(&cheap).len(),
        t.iter().filter(|v| **v <= t[1]).count()
    );
    assert_eq!(
        cheap["price_range"], all["price_range"],
        "the slider range is the whole list's"
    );
    assert_eq!(
        b.get("/api/plans/1/allPlans?filters=bogus").await.status,
        StatusCode::BAD_REQUEST
    );

    let carriers = b.get("/api/plans/1/carriers").await.json();
    let ids: Vec<i64> = carriers
        .as_array()
        .expect("list")
        .iter()
        .map(|c| c["id"].as_i64().expect("id"))
        .collect();
    assert!(ids.contains(&1) && ids.contains(&3), "{ids:?}");
    let networks = b.get("/api/plans/1/networks").await.json();
    assert!(
        networks
            .as_array()
            .is_some_and(|n| n.iter().all(|c| c["name"].is_string()))
    );
    assert_eq!(
        b.get("/api/plans/1/attributes").await.json()[0]["id"],
        "hsa"
    );
    assert_eq!(
        b.get("/api/plans/1/nothing").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn choosing_plans_moves_through_dental_and_vision_to_review() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let all = b.get("/api/plans/1/allPlans").await.json();
    let pick = all["plans"][2]["id"].as_i64().expect("id");

    let r = put(
        &b,
        &token,
        "/api/plans/1",
        json!({ "selected_plan_id": pick, "add_hsa": false }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["next"]["id"], "dental");
    assert_eq!(
        r.json()["application"]["medicalCarrierId"],
        all["plans"][2]["carrier"]
    );
    let again = b.get("/api/plans/1/allPlans").await.json();
    assert_eq!(
        again["plans"][0]["id"], pick,
        "the selected plan comes first"
    );
    assert_eq!(again["plans"][0]["selected"], true);
    assert_eq!(
        b.get("/api/plans/1").await.json()["medical_product_id"],
        pick
    );

    let refused = select_plan(&b, &token, 2, json!(99999)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.json()["errors"]["selected_plan_id"].is_array());

    // A dental plan that includes vision goes straight to review.
    let dental = b
        .get("/api/plans/2/allPlans?filters=dental_and_vision")
        .await
        .json();
    let with_vision = dental["plans"][0]["id"]
        .as_i64()
        .expect("a dental plan with vision");
    let r = select_plan(&b, &token, 2, json!(with_vision)).await.json();
    assert_eq!(r["next"]["id"], "review");
    assert_eq!(r["application"]["skipVision"], true);
    let info = b.get("/api/plans/planInfo").await.json();
    assert_eq!(info["medicalPlan"]["id"], pick);
    assert_eq!(info["dentalPlan"]["id"], with_vision);
    // The snapshot names what the review cards show.
    for k in ["medicalPlan", "dentalPlan"] {
        assert!(info[k]["carrier_name"].is_string(), "{k}: {}", info[k]);
    }
    assert!(info["medicalPlan"]["metal_name"].is_string());
    let sum = info["medicalPlan"]["rate"].as_f64().expect("rate")
        + info["dentalPlan"]["rate"].as_f64().expect("rate");
    assert!((info["total"].as_f64().expect("total") - sum).abs() < 0.001);

    // Going on without dental leads to vision, and vision may be skipped since medical is chosen.
    let r = select_plan(&b, &token, 2, json!(null)).await.json();
    assert_eq!(r["next"]["id"], "vision");
    assert_eq!(r["application"]["skipDental"], true);
    let r = select_plan(&b, &token, 3, json!(null)).await.json();
    assert_eq!(r["next"]["id"], "review");
}

#[tokio::test]
async fn only_the_agents_carriers_are_quoted_and_an_empty_list_is_the_no_plans_state() {
    let app = spawn_app().await;
    let b = app.browser("lakeshore");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let list = b.get("/api/plans/1/allPlans").await.json();
    assert!(
        list["plans"]
            .as_array()
            .is_some_and(|p| !p.is_empty() && p.iter().all(|p| p["carrier"] == 3))
    );
    let pick = list["plans"][0]["id"].as_i64().expect("id");
    select_plan(&b, &token, 1, json!(pick)).await;
    let dental = b.get("/api/plans/2/allPlans").await.json();
    assert_eq!(
        dental["plans"],
        json!([]),
        "no dental carrier for a Priority-only agent"
    );
    assert!(dental["price_range"].is_null());
}

#[tokio::test]
async fn counties_are_listed_by_zip() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let saved = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await
    .json();
    let id = saved["application"]["applicationId"]
        .as_str()
        .expect("id")
        .to_string();
    let list = b
        .get(&format!("/api/application/{id}/countyList/48104"))
        .await
        .json();
    assert_eq!(list, json!([{ "id": 161, "description": "Washtenaw" }]));
    assert_eq!(
        b.get(&format!("/api/application/{id}/countyList/00000"))
            .await
            .json(),
        json!([])
    );
    assert_eq!(
        b.get(&format!("/api/application/{id}/countyList/481"))
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn plans_wait_for_about_you() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    // The medical page is not reached before About You is saved.
    assert_eq!(
        b.get("/api/plans/1/allPlans").await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_whole_list_is_sent_gzip_compressed_to_browsers_that_accept_it() {
    use std::io::Read as _;
    let app = spawn_app().await;
    let b = app.browser("acme");
    let _ = at_medical(&b, family()).await;
    let plain = b.get("/api/plans/1/allPlans").await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.body);
    assert_eq!(plain.header("content-encoding"), "");
    assert_eq!(plain.header("vary"), "accept-encoding");

    let client = reqwest::Client::new();
    let gzip = |accept: &'static str, path: &'static str| {
        let (b, client, addr) = (&b, &client, app.addr);
        async move {
            let url = format!("http://{addr}{path}");
            let cookie = b.cookie();
            client
                .get(url)
                .header("host", &b.host)
                .header("cookie", cookie)
                .header("accept-encoding", accept)
                .send()
                .await
                .expect("request")
        }
    };
    let r = gzip("br, gzip;q=0.8, deflate", "/api/plans/1/allPlans").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let bytes = r.bytes().await.expect("body");
    assert!(
        bytes.len() * 4 < plain.body.len(),
        "{} of {}",
        bytes.len(),
        plain.body.len()
    );
    let mut json = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut json)
        .expect("gzip");
    assert_eq!(json, plain.body, "the same answer, compressed");

    // Refused gzip, and filtered lists, come as they are.
    let r = gzip("gzip;q=0, identity", "/api/plans/1/allPlans").await;
    assert!(r.headers().get("content-encoding").is_none());
    assert_eq!(r.text().await.expect("body"), plain.body);
    let r = gzip("gzip", "/api/plans/1/allPlans?filters=m_2").await;
    assert!(r.headers().get("content-encoding").is_none());
    let filtered: Value = serde_json::from_str(&r.text().await.expect("body")).expect("json");
    assert!(
        filtered["plans"]
            .as_array()
            .expect("plans")
            .iter()
            .all(|p| p["metal"] == 2)
    );
}
