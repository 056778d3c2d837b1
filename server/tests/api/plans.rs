use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    TestApp, adult, at_medical, catalog_plans, family, put, select_plan, spawn_app, spawn_app_with,
};

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
    let base = plan.rates[&area].dollars();
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

    // An HMO's or EPO's out-of-network deductible of $0 is no coverage, a PPO's deductible is one.
    for plan in all["plans"].as_array().expect("plans") {
        let network = plan["network_name"].as_str().unwrap_or_default();
        let zero = plan["ded_out_ind"].as_f64() == Some(0.0);
        assert_eq!(
            plan["out_of_network_not_covered"],
            network != "PPO" && zero,
            "{network} plan {}",
            plan["id"]
        );
    }
    assert!(
        all["plans"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["out_of_network_not_covered"] == true)),
        "an HMO is quoted"
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
        "the price filter does not move the slider's own ends"
    );
    // Spec part 1, 4.4: "The price slider range resets whenever the plan list changes, to the
    // lowest and highest total rounded up to a step": a carrier filter narrows it to that list.
    let bt = totals(&blue_care);
    assert_eq!(blue_care["price_range"]["min"].as_i64(), Some(up(bt[0])));
    assert_eq!(
        blue_care["price_range"]["max"].as_i64(),
        Some(up(bt[bt.len() - 1]))
    );
    assert_ne!(
        blue_care["price_range"], all["price_range"],
        "one carrier's plans span a narrower range than all"
    );
    let blue_cheap = b
        .get(&format!(
            "/api/plans/1/allPlans?filters=car_2,maxPrice:{}",
            bt[0]
        ))
        .await
        .json();
    assert_eq!(blue_cheap["price_range"], blue_care["price_range"]);
    let none = b.get("/api/plans/1/allPlans?filters=car_4").await.json();
    if totals(&none).is_empty() {
        assert!(none["price_range"].is_null(), "{}", none["price_range"]);
    }
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
    // What Review shows of the coverage: the start date, and each chosen plan as quoted today,
    // the member covered at their age on that date, the deductibles and out-of-pocket maximum.
    let start =
        b.get("/api/application/active").await.json()["application"]["effectiveDate"].clone();
    assert_eq!(info["effectiveDate"], start);
    let details = info["details"].as_array().expect("details");
    assert_eq!(details.len(), 2, "{}", info["details"]);
    let medical = &details[0];
    assert_eq!(medical["id"], pick);
    assert_eq!(medical["plan_type"], 1);
    let members = medical["rates"]["members"].as_array().expect("members");
    assert_eq!(members.len(), 1);
    assert_eq!(members[0]["member"], "Subscriber");
    assert_eq!(
        members[0]["age"], 40,
        "born 1984-06-15, covered from {start}"
    );
    assert_eq!(medical["ded_ind"], all["plans"][2]["ded_ind"]);
    assert_eq!(medical["max_oop"], all["plans"][2]["max_oop"]);
    assert_eq!(details[1]["id"], with_vision);

    // Going on without dental leads to vision, and vision may be skipped since medical is chosen.
    let r = select_plan(&b, &token, 2, json!(null)).await.json();
    assert_eq!(r["next"]["id"], "vision");
    assert_eq!(r["application"]["skipDental"], true);
    let r = select_plan(&b, &token, 3, json!(null)).await.json();
    assert_eq!(r["next"]["id"], "review");

    // Spec part 1, 2.7-2.10: "Continue without ... Coverage" exists on dental and vision only:
    // the medical page cannot be left without a plan.
    let refused = select_plan(&b, &token, 1, json!(null)).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert_eq!(
        refused.json()["errors"]["selected_plan_id"][0],
        "Please choose a medical plan."
    );
    assert_eq!(
        b.get("/api/application/step/medical").await.json()["extras"]["can_continue_without"],
        false
    );
}

/// Spec part 2, Other Questions: the link "I want to select a dental plan instead" goes to the
/// dental route; after "Continue without Dental Coverage" the skipped dental step is opened again.
#[tokio::test]
async fn a_skipped_dental_step_is_reopened_for_the_dental_plan_instead_link() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let all = b.get("/api/plans/1/allPlans").await.json();
    select_plan(&b, &token, 1, all["plans"][0]["id"].clone()).await;
    let r = select_plan(&b, &token, 2, json!(null)).await.json();
    assert_eq!(r["application"]["skipDental"], true);
    let vision = b.get("/api/plans/3/allPlans").await.json();
    select_plan(&b, &token, 3, vision["plans"][0]["id"].clone()).await;
    assert_eq!(
        b.get("/api/application/step/dental").await.status,
        StatusCode::FORBIDDEN,
        "a skipped step does not open"
    );
    let reopen = |step: &'static str| {
        let b = &b;
        let token = &token;
        async move {
            b.call(
                reqwest::Method::POST,
                &format!("/api/application/step/{step}/reopen"),
                token,
                &json!({}),
            )
            .await
        }
    };
    let r = reopen("dental").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["step"]["route"], "/dental");
    assert_eq!(r.json()["application"]["skipDental"], false);
    assert_eq!(
        b.get("/api/application/step/dental").await.status,
        StatusCode::OK
    );
    // Open already: answered as it is. A step without a reopen rule is refused.
    assert_eq!(reopen("dental").await.status, StatusCode::OK);
    assert_eq!(reopen("pcp").await.status, StatusCode::FORBIDDEN);
    assert_eq!(reopen("nosuch").await.status, StatusCode::NOT_FOUND);
    // Choosing the dental plan then goes on as the flow says.
    let dental = b
        .get("/api/plans/2/allPlans?filters=dental_only")
        .await
        .json();
    let r = select_plan(&b, &token, 2, dental["plans"][0]["id"].clone())
        .await
        .json();
    assert_eq!(r["application"]["skipDental"], false);
    assert_eq!(r["next"]["id"], "vision");

    // Review's "Add vision coverage": vision skipped by "Continue without Vision Coverage" opens
    // again, and a vision plan can then be chosen.
    let r = select_plan(&b, &token, 3, json!(null)).await.json();
    assert_eq!(r["application"]["skipVision"], true);
    assert_eq!(r["next"]["id"], "review");
    let info = b.get("/api/plans/planInfo").await.json();
    assert!(info["visionPlan"].is_null(), "{info}");
    let r = reopen("vision").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["step"]["route"], "/vision");
    assert_eq!(r.json()["application"]["skipVision"], false);
    let r = select_plan(&b, &token, 3, vision["plans"][0]["id"].clone())
        .await
        .json();
    assert_eq!(r["next"]["id"], "review");
    assert_eq!(
        b.get("/api/plans/planInfo").await.json()["visionPlan"]["id"],
        vision["plans"][0]["id"]
    );
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

    // Spec part 1, 7: billingStateZip/{state}/{zip}: a billing address may be outside Michigan.
    let billing =
        |state: &str, zip: &str| format!("/api/application/{id}/billingStateZip/{state}/{zip}");
    assert_eq!(
        b.get(&billing("MI", "48104")).await.json(),
        json!([{ "id": 161, "description": "Washtenaw" }])
    );
    let ohio = b.get(&billing("OH", "43604")).await;
    assert_eq!(ohio.status, StatusCode::OK, "{}", ohio.body);
    assert_eq!(
        ohio.json(),
        json!([]),
        "no county is chosen outside Michigan"
    );
    assert_eq!(b.get(&billing("DC", "20500")).await.status, StatusCode::OK);
    let wrong = b.get(&billing("OH", "48104")).await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        wrong.json()["errors"]["billing_zip"][0],
        "48104 is not a ZIP code of OH."
    );
    assert_eq!(
        b.get(&billing("ZZ", "48104")).await.status,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        b.get(&billing("MI", "481")).await.status,
        StatusCode::BAD_REQUEST
    );
    let other = app.browser("acme");
    other.start_session().await;
    assert_eq!(
        other.get(&billing("MI", "48104")).await.status,
        StatusCode::FORBIDDEN,
        "another session's application"
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

    // Refused gzip comes as it is; a filtered list (written per request) is compressed per
    // request, like every JSON answer over 1 kB.
    let r = gzip("gzip;q=0, identity", "/api/plans/1/allPlans").await;
    assert!(r.headers().get("content-encoding").is_none());
    assert_eq!(r.text().await.expect("body"), plain.body);
    let r = gzip("gzip", "/api/plans/1/allPlans?filters=m_2").await;
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let bytes = r.bytes().await.expect("body");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("gzip");
    let filtered: Value = serde_json::from_str(&text).expect("json");
    assert!(
        filtered["plans"]
            .as_array()
            .expect("plans")
            .iter()
            .all(|p| p["metal"] == 2)
    );
}

fn ids(list: &Value) -> Vec<i64> {
    list["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .map(|p| p["id"].as_i64().expect("id"))
        .collect()
}

/// A 40-year-old living in Ironwood (ZIP 49938), Gogebic County (53), in the western Upper
/// Peninsula.
fn in_gogebic() -> Value {
    let mut census = adult("1984-06-15");
    census["residential_zip"] = json!("49938");
    census["residential_county_id"] = json!(53);
    census
}

#[tokio::test]
async fn a_county_where_the_agents_carriers_sell_no_plans_gets_the_no_plans_state() {
    let app = spawn_app().await;
    // rules/catalog/2025/medical.yaml: Priority Health's plans (545-555) list neither Gogebic nor
    // the other western Upper Peninsula counties, so the lakeshore agent (Priority only) has none
    // to quote there.
    let b = app.browser("lakeshore");
    let token = at_medical(&b, in_gogebic()).await;
    let r = b.get("/api/plans/1/allPlans").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({ "plans": [], "price_range": null, "household_size": 1, "selected_plan_id": null }),
        "the no-plans state: an empty list and no slider"
    );
    let r = b.get("/api/plans/1/allPlans?filters=car_3").await;
    assert_eq!(r.json()["plans"], json!([]));
    for list in ["carriers", "metals", "networks"] {
        let r = b.get(&format!("/api/plans/1/{list}")).await;
        assert_eq!(r.status, StatusCode::OK, "{list}: {}", r.body);
        assert_eq!(r.json(), json!([]), "no {list} to filter by");
    }
    // A Priority plan sold elsewhere (546: MyPriority Bronze 8700 HMO) is not offered here.
    let refused = select_plan(&b, &token, 1, json!(546)).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );

    // The county is not empty for everyone: of the acme agent's carriers only Blue Cross (1)
    // sells there, every metal but catastrophic (under 30 only) and platinum (plan 532 is
    // southeast Michigan's): plans 521-531.
    let acme = app.browser("acme");
    at_medical(&acme, in_gogebic()).await;
    let list = acme.get("/api/plans/1/allPlans").await.json();
    let mut got = ids(&list);
    got.sort_unstable();
    assert_eq!(got, (521..=531).collect::<Vec<_>>());
    assert!(list["price_range"].is_object());
}

/// A couple of 40 and 38, neither using tobacco, in Washtenaw.
fn couple() -> Value {
    let mut census = adult("1984-06-15");
    census["spouse"] = json!({ "gender": "M", "birth_date": "1986-03-01", "tobacco": 0 });
    census
}

fn dollars_field(plan: &std::collections::BTreeMap<String, String>, k: &str) -> f64 {
    plan.get(k)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{k} in {plan:?}"))
}

#[tokio::test]
async fn a_household_of_two_is_shown_each_plans_two_person_out_of_pocket_maximum() {
    // In the repository's catalog every plan's two-person maximum equals its family one; so that
    // the two columns can be told apart, this catalog gives plan 530 (Blue Cross Premier PPO Gold
    // HSA: individual 4,000, family 8,000) a two-person maximum of 7,500.
    let root = crate::reload::rules_copy();
    let file = "rules/catalog/2025/medical.yaml";
    crate::reload::edit(
        &root,
        file,
        "    max_ind_oop: 4000\n    max_2p_oop: 8000\n",
        "    max_ind_oop: 4000\n    max_2p_oop: 7500\n",
    );
    let app = spawn_app_with(|c| c.root = root.clone()).await;
    let b = app.browser("acme");
    at_medical(&b, couple()).await;
    let list = b.get("/api/plans/1/allPlans").await.json();
    assert_eq!(list["household_size"], 2);
    let plans = list["plans"].as_array().expect("plans");
    assert!(plans.len() >= 10, "{}", plans.len());

    let catalog = catalog_plans(&root, file);
    for p in plans {
        let id = p["id"].as_i64().expect("id");
        let yaml = catalog
            .iter()
            .find(|c| c["id"] == id.to_string())
            .unwrap_or_else(|| panic!("plan {id} in {file}"));
        assert_eq!(
            p["max_oop"].as_f64(),
            Some(dollars_field(yaml, "max_2p_oop")),
            "plan {id}: the two-person maximum"
        );
        assert_eq!(
            p["max_2p_oop"].as_f64(),
            Some(dollars_field(yaml, "max_2p_oop"))
        );
        assert_eq!(
            p["max_ind_oop"].as_f64(),
            Some(dollars_field(yaml, "max_ind_oop"))
        );
        assert_eq!(
            p["max_fam_oop"].as_f64(),
            Some(dollars_field(yaml, "max_fam_oop"))
        );
    }
    let gold_hsa = plans
        .iter()
        .find(|p| p["id"] == 530)
        .expect("plan 530 is quoted in Washtenaw");
    assert_eq!(gold_hsa["max_oop"], json!(7500.0));
    assert_eq!(gold_hsa["max_fam_oop"], json!(8000.0));
    assert_eq!(gold_hsa["max_ind_oop"], json!(4000.0));
}

#[tokio::test]
async fn add_hsa_is_stored_with_an_hsa_plan_and_read_back() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let all = b.get("/api/plans/1/allPlans").await.json();
    let plans = all["plans"].as_array().expect("plans");
    let hsa = plans
        .iter()
        .find(|p| p["is_hsa"] == true)
        .expect("an HSA-eligible plan")["id"]
        .as_i64()
        .expect("id");
    let not_hsa = plans
        .iter()
        .find(|p| p["is_hsa"] == false)
        .expect("a plan without HSA")["id"]
        .as_i64()
        .expect("id");
    assert_eq!(b.get("/api/plans/1").await.json()["add_hsa"], false);

    let stored = || async {
        let v: Value = sqlx::query_scalar("SELECT data->'add_hsa' FROM applications")
            .fetch_one(&app.pool)
            .await
            .expect("the application");
        v
    };
    let choose = |id: i64, add_hsa: bool| {
        let (b, token) = (&b, &token);
        async move {
            let body = json!({ "selected_plan_id": id, "add_hsa": add_hsa });
            let r = put(b, token, "/api/plans/1", body).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        }
    };

    choose(hsa, true).await;
    let sel = b.get("/api/plans/1").await.json();
    assert_eq!(sel["medical_product_id"], hsa);
    assert_eq!(sel["add_hsa"], true, "{sel}");
    assert_eq!(stored().await, json!(true), "kept in the application");

    // An HSA is added to HSA-eligible plans only.
    choose(not_hsa, true).await;
    let sel = b.get("/api/plans/1").await.json();
    assert_eq!(sel["medical_product_id"], not_hsa);
    assert_eq!(sel["add_hsa"], false);
    assert_eq!(stored().await, json!(false));

    // And given up again when the box is cleared.
    choose(hsa, true).await;
    assert_eq!(b.get("/api/plans/1").await.json()["add_hsa"], true);
    choose(hsa, false).await;
    assert_eq!(b.get("/api/plans/1").await.json()["add_hsa"], false);
    assert_eq!(stored().await, json!(false));
}

#[tokio::test]
async fn the_metal_and_attribute_option_lists_are_the_catalogs() {
    let app = spawn_app().await;
    // rules/catalog/lists.yaml; a metal is listed when a quoted plan has it.
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    assert_eq!(
        b.get("/api/plans/1/metals").await.json(),
        json!([
            { "id": 2, "name": "Bronze" },
            { "id": 3, "name": "Expanded Bronze" },
            { "id": 4, "name": "Silver" },
            { "id": 5, "name": "Gold" },
            { "id": 6, "name": "Platinum" }
        ]),
        "at 40, no catastrophic plan is quoted (max_age 29)"
    );
    assert_eq!(
        b.get("/api/plans/1/networks").await.json(),
        json!([
            { "id": 1, "name": "PPO" },
            { "id": 2, "name": "HMO" },
            { "id": 3, "name": "EPO" }
        ])
    );
    assert_eq!(
        b.get("/api/plans/1/attributes").await.json(),
        json!([{ "id": "hsa", "name": "HSA eligible" }])
    );

    // Aged 25 on January 1, 2025: catastrophic plans are quoted, and their metal listed.
    let young = app.browser("acme");
    at_medical(&young, adult("1999-06-15")).await;
    let metals = young.get("/api/plans/1/metals").await.json();
    assert_eq!(
        metals[0],
        json!({ "id": 1, "name": "Catastrophic", "max_age": 29 })
    );
    assert_eq!(metals.as_array().map(Vec::len), Some(6));

    // The dental page: dental only versus dental and vision; dental plans have no metal.
    let medical = b.get("/api/plans/1/allPlans").await.json();
    select_plan(&b, &token, 1, medical["plans"][0]["id"].clone()).await;
    assert_eq!(
        b.get("/api/plans/2/attributes").await.json(),
        json!([
            { "id": "dental_only", "name": "Dental only" },
            { "id": "dental_and_vision", "name": "Dental and vision" }
        ])
    );
    assert_eq!(b.get("/api/plans/2/metals").await.json(), json!([]));
    assert_eq!(b.get("/api/plans/2/networks").await.json(), json!([]));
    let only = b
        .get("/api/plans/2/allPlans?filters=dental_only")
        .await
        .json();
    let r = select_plan(&b, &token, 2, only["plans"][0]["id"].clone()).await;
    assert_eq!(r.json()["next"]["id"], "vision", "{}", r.body);
    assert_eq!(b.get("/api/plans/3/attributes").await.json(), json!([]));
}

/// The dollars of a plan's yearly estimate part, in cents.
fn cents(v: &Value) -> i64 {
    (v.as_f64().expect("an amount") * 100.0).round() as i64
}

#[tokio::test]
async fn medical_plans_carry_a_yearly_estimate_that_follows_each_members_expected_use() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let list = b.get("/api/plans/1/allPlans").await.json();
    let plans = list["plans"].as_array().expect("plans");
    assert!(!plans.is_empty());
    let medium: Vec<(i64, i64)> = plans
        .iter()
        .map(|p| {
            let y = &p["yearly_cost"];
            // Twelve months of the premium, and the parts add up to the total exactly.
            assert_eq!(cents(&y["premium"]), cents(&p["rates"]["total"]) * 12);
            assert_eq!(
                cents(&y["premium"]) + cents(&y["deductible"]) + cents(&y["cost_sharing"]),
                cents(&y["total"]),
                "plan {}",
                p["id"]
            );
            // The worst case is the premiums and the out-of-pocket maximum.
            assert_eq!(
                cents(&y["worst_case"]),
                cents(&y["premium"]) + cents(&p["max_ind_oop"])
            );
            assert!(cents(&y["total"]) <= cents(&y["worst_case"]));
            (p["id"].as_i64().expect("id"), cents(&y["total"]))
        })
        .collect();
    // Medium until the household says otherwise.
    assert_eq!(b.get("/api/care").await.json()["uses"], json!(["medium"]));

    // One use for each member, no more and no fewer; nothing is stored otherwise.
    let r = put(&b, &token, "/api/care", json!({ "uses": ["high", "low"] })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let r = put(&b, &token, "/api/care", json!({ "uses": ["often"] })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert_eq!(b.get("/api/care").await.json()["uses"], json!(["medium"]));

    let r = put(&b, &token, "/api/care", json!({ "uses": ["high"] })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(b.get("/api/care").await.json()["uses"], json!(["high"]));
    let high = b.get("/api/plans/1/allPlans").await.json();
    for p in high["plans"].as_array().expect("plans") {
        let id = p["id"].as_i64().expect("id");
        let before = medium
            .iter()
            .find(|(i, _)| *i == id)
            .expect("the same plans")
            .1;
        let after = cents(&p["yearly_cost"]["total"]);
        assert!(
            after > before,
            "plan {id}: high use costs more ({after} vs {before})"
        );
    }

    // Dental plans have no estimate.
    let dental = b.get("/api/plans/2/allPlans").await;
    if dental.status == StatusCode::OK {
        for p in dental.json()["plans"].as_array().into_iter().flatten() {
            assert!(p["yearly_cost"].is_null());
        }
    }
}
