//! The PDF sheets: fetched through the API and read back with poppler's `pdftotext -layout`
//! (Debian `poppler-utils`, installed by scripts/ensure-chromium.sh).

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use reqwest::StatusCode;
use reqwest::header::HOST;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, adult, at_medical, family, select_plan, spawn_app};

const AGENCY: &str = "Acme Insurance Agency";

struct Pdf {
    status: StatusCode,
    content_type: String,
    disposition: String,
    bytes: Vec<u8>,
}

impl Pdf {
    fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// A GET with the browser's session whose body is kept as bytes.
async fn fetch(app: &TestApp, b: &Browser<'_>, path: &str) -> Pdf {
    let mut req = reqwest::Client::new()
        .get(format!("http://{}{path}", app.addr))
        .header(HOST, &b.host);
    if let Some(c) = b.cookie.lock().expect("lock").clone() {
        req = req.header("cookie", c);
    }
    let res = req.send().await.expect("request");
    let header = |name: &str| {
        res.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let (content_type, disposition) = (header("content-type"), header("content-disposition"));
    let status = res.status();
    let bytes = res.bytes().await.expect("body").to_vec();
    Pdf {
        status,
        content_type,
        disposition,
        bytes,
    }
}

/// A PDF sheet that must be there: status, type, file name and magic checked.
async fn sheet(app: &TestApp, b: &Browser<'_>, path: &str, file: &str) -> Vec<u8> {
    let pdf = fetch(app, b, path).await;
    assert_eq!(pdf.status, StatusCode::OK, "{path}: {}", pdf.body_text());
    assert_eq!(pdf.content_type, "application/pdf");
    assert_eq!(pdf.disposition, format!("attachment; filename=\"{file}\""));
    assert!(pdf.bytes.starts_with(b"%PDF-"), "{path}: not a PDF");
    pdf.bytes
}

/// The text of a PDF (one page, or all with `None`) as `pdftotext -layout` reads it.
fn pdf_text(bytes: &[u8], page: Option<usize>) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "enrollflow-print-{}-{}.pdf",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).expect("write pdf");
    let mut cmd = Command::new("pdftotext");
    cmd.arg("-layout");
    if let Some(p) = page {
        cmd.args(["-f", &p.to_string(), "-l", &p.to_string()]);
    }
    let out = cmd.arg(&path).arg("-").output().unwrap_or_else(|e| {
        panic!("pdftotext is needed (Debian poppler-utils; scripts/ensure-chromium.sh): {e}")
    });
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "pdftotext failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 text")
}

/// Plan names as the sheet prints them: tags dropped, entities decoded.
fn plain(name: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in name.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&reg;", "\u{ae}")
        .replace("&trade;", "\u{2122}")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

fn dollars(v: &Value) -> String {
    let cents = (v.as_f64().expect("amount") * 100.0).round() as i64;
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, ch) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    format!("${grouped}.{:02}", cents % 100)
}

fn plans(list: &Value) -> Vec<Value> {
    list["plans"].as_array().expect("plans").clone()
}

/// Every plan is on a line of the text together with its monthly premium.
fn assert_lists(text: &str, list: &[Value]) {
    for p in list {
        let name = plain(p["name"].as_str().expect("name"));
        let premium = dollars(&p["rates"]["total"]);
        assert!(
            text.lines()
                .any(|l| l.contains(&name) && l.contains(&premium)),
            "{name} at {premium} is not on the sheet:\n{text}"
        );
    }
}

fn page_count(text: &str) -> usize {
    let at = text.find("Page 1 of ").expect("page numbers") + "Page 1 of ".len();
    text[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("page count")
}

#[tokio::test]
async fn the_medical_sheet_lists_the_quoted_plans_with_the_branding_and_the_household() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, adult("1984-06-15")).await;
    let list = plans(&b.get("/api/plans/1/allPlans").await.json());
    assert!(list.len() >= 10);

    let pdf = sheet(&app, &b, "/api/printPdf/1/false", "compare.pdf").await;
    let text = pdf_text(&pdf, None);
    for s in [
        AGENCY,
        "Maria Alvarez",
        "(734) 555-0142",
        "maria.alvarez@acme-insurance.example.com",
        "NPN 17439021",
        "Medical Plan Comparison",
        "November 20, 2024",
        "Coverage effective: January 1, 2025",
        "Ann Lee (subscriber), age 40",
        "Medical plans (",
        "Monthly premium",
        "Out-of-pocket",
        "(individual)",
        "Page 1 of",
    ] {
        assert!(text.contains(s), "`{s}` is not on the sheet:\n{text}");
    }
    assert_lists(&text, &list);
    // Each plan's yearly estimate, as the plan page has it, on the plan's line of its table.
    assert!(text.contains("Estimated yearly cost"), "{text}");
    for p in &list {
        let name = plain(p["name"].as_str().expect("name"));
        let total = dollars(&p["yearly_cost"]["total"]);
        let worst = dollars(&p["yearly_cost"]["worst_case"]);
        assert!(
            text.lines()
                .any(|l| l.contains(&name) && l.contains(&total) && l.contains(&worst)),
            "{name}'s yearly {total} and worst case {worst} are not on the sheet:\n{text}"
        );
    }
    assert!(
        list.iter()
            .any(|p| p["name"].as_str().is_some_and(|n| n.contains("<sup>"))),
        "the quote has a name with HTML"
    );
    assert!(!text.contains("<sup>") && !text.contains("&reg;"));
    assert!(text.contains("Choice Plus\u{ae}"), "{text}");
    // A network that pays nothing outside it (HMO, EPO: lists.yaml has no `out_of_network`)
    // shows its zero out-of-network deductibles as "Not covered"; a PPO's are amounts.
    let not_covered = list
        .iter()
        .filter(|p| p["network"] != 1 && p["ded_out_ind"] == 0.0 && p["ded_out_fam"] == 0.0)
        .count();
    assert!(not_covered > 0, "the quote has HMO plans");
    assert_eq!(text.matches("Not covered").count(), not_covered, "{text}");
}

/// A PDF's creation date as `pdfinfo -isodates` reads it.
fn creation_date(bytes: &[u8]) -> String {
    let path = std::env::temp_dir().join(format!("enrollflow-info-{}.pdf", std::process::id()));
    std::fs::write(&path, bytes).expect("write pdf");
    let out = Command::new("pdfinfo")
        .arg("-isodates")
        .arg(&path)
        .output()
        .expect("pdfinfo (Debian poppler-utils)");
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| {
            l.strip_prefix("CreationDate:")
                .map(|d| d.trim().to_string())
        })
        .unwrap_or_default()
}

/// Issue "The spec, to the letter": the PDFs carry their creation date from the clock (they said
/// 1970-01-01), the same day the sheet prints.
#[tokio::test]
async fn the_sheets_are_dated_by_the_clock() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, adult("1984-06-15")).await;
    let pdf = sheet(&app, &b, "/api/printPdf/1/false", "compare.pdf").await;
    let created = creation_date(&pdf);
    assert!(
        created.starts_with("2024-11-20"),
        "CreationDate {created:?}"
    );
    assert!(pdf_text(&pdf, Some(1)).contains("November 20, 2024"));
}

#[tokio::test]
async fn filters_choose_the_plans_of_the_sheet_and_a_bad_token_is_refused() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    at_medical(&b, adult("1984-06-15")).await;
    let all = plans(&b.get("/api/plans/1/allPlans").await.json());
    let names = |l: &[Value]| -> Vec<String> {
        l.iter()
            .map(|p| plain(p["name"].as_str().expect("name")))
            .collect()
    };

    // One carrier.
    let blue_care = plans(&b.get("/api/plans/1/allPlans?filters=car_2").await.json());
    assert!(!blue_care.is_empty() && blue_care.len() < all.len());
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/false/car_2", "compare.pdf").await,
        None,
    );
    assert_lists(&text, &blue_care);
    assert!(
        text.contains("Filters: Carrier Blue Care Network"),
        "{text}"
    );
    let shown = names(&blue_care);
    for n in names(&all).iter().filter(|n| !shown.contains(n)) {
        assert!(!text.contains(n.as_str()), "{n} is filtered out:\n{text}");
    }

    // The compare modal's print: two chosen plans, and a price ceiling with HSA plans.
    let (a, z) = (&all[0], &all[all.len() - 1]);
    let path = format!("/api/printPdf/1/false/plan_{},plan_{}", a["id"], z["id"]);
    let text = pdf_text(&sheet(&app, &b, &path, "compare.pdf").await, None);
    assert_lists(&text, &[a.clone(), z.clone()]);
    assert!(text.contains("Medical plans (2)"), "{text}");
    assert!(!text.contains(&plain(all[1]["name"].as_str().expect("name"))));

    let max = all[all.len() / 2]["rates"]["total"]
        .as_f64()
        .expect("total");
    let q = format!("hsa,maxPrice:{max}");
    let expected = plans(
        &b.get(&format!("/api/plans/1/allPlans?filters={q}"))
            .await
            .json(),
    );
    let text = pdf_text(
        &sheet(
            &app,
            &b,
            &format!("/api/printPdf/1/false/{q}"),
            "compare.pdf",
        )
        .await,
        None,
    );
    assert!(text.contains(&format!("Medical plans ({})", expected.len())));
    assert_lists(&text, &expected);

    // Nothing matches: the sheet says so.
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/false/maxPrice:1", "compare.pdf").await,
        None,
    );
    assert!(text.contains("No plans match these filters."), "{text}");

    for bad in [
        "/api/printPdf/1/false/bogus",
        "/api/printPdf/1/false/car_x,hsa",
    ] {
        let r = b.get(bad).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(r.json()["error"].is_string(), "{}", r.body);
    }
    let r = b.get("/api/printPdf/1/maybe").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["error"].is_string());
    assert_eq!(
        b.get("/api/printPdf/9/false").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_sheets_follow_the_plan_pages_access() {
    let app = spawn_app().await;
    // No application on this site.
    let b = app.browser("acme");
    b.start_session().await;
    assert_eq!(
        fetch(&app, &b, "/api/printPdf/1/false").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        fetch(&app, &b, "/api/printSelectionPdf").await.status,
        StatusCode::FORBIDDEN
    );
    // At the medical page: the comparison yes, the selection (Review) not yet.
    at_medical(&b, adult("1984-06-15")).await;
    assert_eq!(
        fetch(&app, &b, "/api/printPdf/1/true").await.status,
        StatusCode::OK
    );
    assert_eq!(
        fetch(&app, &b, "/api/printPdf/2/false").await.status,
        StatusCode::FORBIDDEN,
        "the dental page is not reached yet"
    );
    assert_eq!(
        fetch(&app, &b, "/api/printSelectionPdf").await.status,
        StatusCode::FORBIDDEN
    );
    let doc = app.browser("").get("/api/openapi.json").await.json();
    for path in [
        "/api/printPdf/{plan_type}/{flag}",
        "/api/printPdf/{plan_type}/{flag}/{filters}",
        "/api/printSelectionPdf",
    ] {
        assert!(
            doc["paths"][path]["get"]["responses"]["200"]["content"]["application/pdf"].is_object(),
            "{path} in the OpenAPI document"
        );
    }
    // Another site does not see this session's application.
    let other = app.browser("lakeshore");
    *other.cookie.lock().expect("lock") = b.cookie.lock().expect("lock").clone();
    assert_ne!(
        fetch(&app, &other, "/api/printPdf/1/false").await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_family_sheet_of_medical_dental_and_vision_runs_over_pages_with_its_header_repeated() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, family()).await;
    let medical = plans(&b.get("/api/plans/1/allPlans").await.json());

    // Reach the vision page (a dental plan without vision) so that every list can be read.
    let pick = medical[0]["id"].clone();
    let r = select_plan(&b, &token, 1, json!(pick)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let dental_only = plans(
        &b.get("/api/plans/2/allPlans?filters=dental_only")
            .await
            .json(),
    );
    let r = select_plan(&b, &token, 2, json!(dental_only[0]["id"])).await;
    assert_eq!(r.json()["next"]["id"], "vision", "{}", r.body);
    let medical = plans(&b.get("/api/plans/1/allPlans").await.json());
    let dental = plans(&b.get("/api/plans/2/allPlans").await.json());
    let vision = plans(&b.get("/api/plans/3/allPlans").await.json());
    assert!(!dental.is_empty() && !vision.is_empty());

    let pdf = sheet(&app, &b, "/api/printPdf/1/true", "compare.pdf").await;
    let text = pdf_text(&pdf, None);
    let pages = page_count(&text);
    assert!(pages >= 2, "{pages} page(s)");
    for s in [
        "Medical, Dental and Vision Plans",
        &format!("Medical plans ({})", medical.len()),
        &format!("Dental plans ({})", dental.len()),
        &format!("Vision plans ({})", vision.len()),
        "(family)",
        "Household (7)",
        "Spouse, age 38, tobacco user",
        "Dependent 5, age 10",
        "Eye exam copay",
        "Annual maximum",
    ] {
        assert!(text.contains(s), "`{s}` is not on the sheet:\n{text}");
    }
    assert_lists(&text, &medical);
    assert_lists(&text, &dental);
    assert_lists(&text, &vision);

    // Page 2 carries the branding, its number and a table header.
    let second = pdf_text(&pdf, Some(2));
    assert!(second.contains(AGENCY), "{second}");
    assert!(second.contains(&format!("Page 2 of {pages}")), "{second}");
    assert!(
        second.contains("Monthly premium") && second.contains("Carrier"),
        "the table header is repeated:\n{second}"
    );
    assert!(
        !second.contains("Household (7)"),
        "the household is on page 1 only"
    );

    // The medical sheet alone for a family of many plans paginates too when it must; either
    // way its pages are numbered.
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/false", "compare.pdf").await,
        None,
    );
    assert!(text.contains("Page 1 of"));
    assert!(!text.contains("Dental plans ("));
}

#[tokio::test]
async fn the_benefit_selection_sheet_shows_the_chosen_plans_their_breakdown_and_the_total() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, family()).await;
    let medical = plans(&b.get("/api/plans/1/allPlans").await.json());
    let m = medical[3].clone();
    select_plan(&b, &token, 1, json!(m["id"])).await;
    let dental = plans(
        &b.get("/api/plans/2/allPlans?filters=dental_only")
            .await
            .json(),
    );
    let d = dental[0].clone();
    select_plan(&b, &token, 2, json!(d["id"])).await;
    let vision = plans(&b.get("/api/plans/3/allPlans").await.json());
    let v = vision[0].clone();
    let r = select_plan(&b, &token, 3, json!(v["id"])).await;
    assert_eq!(r.json()["next"]["id"], "review", "{}", r.body);

    let info = b.get("/api/plans/planInfo").await.json();
    let pdf = sheet(&app, &b, "/api/printSelectionPdf", "benefits.pdf").await;
    let text = pdf_text(&pdf, None);
    for s in [
        AGENCY,
        "Benefit Selection",
        "Page 1 of",
        "Medical plan",
        "Dental plan",
        "Vision plan",
        "How the premium is figured",
        &format!("Your total cost: {} per month", dollars(&info["total"])),
    ] {
        assert!(text.contains(s), "`{s}` is not on the sheet:\n{text}");
    }
    for p in [&m, &d, &v] {
        let name = plain(p["name"].as_str().expect("name"));
        assert!(text.contains(&name), "{name}:\n{text}");
        assert!(
            text.contains(&format!(
                "Monthly premium: {}",
                dollars(&p["rates"]["total"])
            )),
            "{name}'s premium:\n{text}"
        );
        // Each member's row: label and amount on a line; the subscriber's explanation whole.
        for member in p["rates"]["members"].as_array().expect("members") {
            let label = member["member"].as_str().expect("member");
            let amount = dollars(&member["amount"]);
            assert!(
                text.lines()
                    .any(|l| l.trim_start().starts_with(label) && l.contains(&amount)),
                "{name}: {label} {amount}:\n{text}"
            );
        }
        // The subscriber's explanation: the age-21 rate times the age factor equals the rate.
        let sub = &p["rates"]["members"][0];
        let why = format!("(age {} on ", sub["age"]);
        let equals = format!("= {}", dollars(&sub["rate"]));
        assert!(
            text.lines().any(|l| l.contains("Subscriber age-21 rate")
                && l.contains(&why)
                && l.contains(&equals)),
            "{why} … {equals}:\n{text}"
        );
    }
    assert!(text.contains("not charged"), "the family rule is explained");

    // An application without plans (the pages cannot give every plan up: medical has no
    // "Continue without", vision needs a medical or dental plan): the sheet says nothing is
    // selected, which is no error.
    sqlx::query(
        "UPDATE applications SET data = data || '{\"skip_medical\": true, \"medical_plan\": null, \
         \"skip_dental\": true, \"dental_plan\": null, \"skip_vision\": true, \"vision_plan\": null}'::jsonb",
    )
    .execute(&app.pool)
    .await
    .expect("no plans");
    app.settle().await;
    let text = pdf_text(
        &sheet(&app, &b, "/api/printSelectionPdf", "benefits.pdf").await,
        None,
    );
    assert!(text.contains("No plans have been selected yet."), "{text}");
    assert!(!text.contains("Your total cost"));
}

/// Whether the text has a table row of this plan: its name followed by the next cell (two
/// spaces or more) or the line's end, so that "Blue Dental PPO Plus" is not found in the row of
/// "Blue Dental PPO Plus with Blue Vision".
fn has_row(text: &str, name: &str) -> bool {
    text.lines().any(|l| {
        l.match_indices(name).any(|(at, _)| {
            let rest = &l[at + name.len()..];
            rest.is_empty() || rest.starts_with("  ")
        })
    })
}

/// The plans of `all` the predicate keeps are on the sheet; the others are not.
fn assert_only(text: &str, all: &[Value], keep: impl Fn(&Value) -> bool) {
    let (kept, dropped): (Vec<Value>, Vec<Value>) = all.iter().cloned().partition(|p| keep(p));
    assert!(
        !kept.is_empty() && !dropped.is_empty(),
        "a filter that narrows"
    );
    assert_lists(text, &kept);
    for p in &dropped {
        let name = plain(p["name"].as_str().expect("name"));
        assert!(!has_row(text, &name), "{name} is filtered out:\n{text}");
    }
}

#[tokio::test]
async fn the_medical_dental_and_vision_sheet_honours_network_metal_price_and_dental_filters() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1984-06-15")).await;
    let medical = plans(&b.get("/api/plans/1/allPlans").await.json());

    // From the medical page: HMO (network 2) and gold (metal 5) plans only. In Washtenaw, for a
    // 40-year-old (rules/catalog/2025/medical.yaml): 539, 540 and 544 of Blue Care Network and
    // 552 of Priority Health.
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/true/net_2,m_5", "compare.pdf").await,
        None,
    );
    assert!(text.contains("Filters: Network HMO; metal Gold"), "{text}");
    assert!(text.contains("Medical plans (4)"), "{text}");
    assert_only(&text, &medical, |p| p["network"] == 2 && p["metal"] == 5);
    let mut hmo_gold: Vec<i64> = medical
        .iter()
        .filter(|p| p["network"] == 2 && p["metal"] == 5)
        .map(|p| p["id"].as_i64().expect("id"))
        .collect();
    hmo_gold.sort_unstable();
    assert_eq!(hmo_gold, vec![539, 540, 544, 552]);

    // A price floor: the plans from the middle one's premium up.
    let floor = medical[medical.len() / 2]["rates"]["total"].clone();
    let min = floor.as_f64().expect("total");
    let text = pdf_text(
        &sheet(
            &app,
            &b,
            &format!("/api/printPdf/1/true/minPrice:{min}"),
            "compare.pdf",
        )
        .await,
        None,
    );
    assert!(
        text.contains(&format!(
            "Filters: Premium from {} a month",
            dollars(&floor)
        )),
        "{text}"
    );
    let kept = medical
        .iter()
        .filter(|p| p["rates"]["total"].as_f64().expect("total") >= min)
        .count();
    assert!(text.contains(&format!("Medical plans ({kept})")), "{text}");
    assert_only(&text, &medical, |p| {
        p["rates"]["total"].as_f64().expect("total") >= min
    });

    // From the dental page (a medical plan chosen): the dental kinds narrow the dental plans,
    // while the medical and vision lists are whole.
    let r = select_plan(&b, &token, 1, medical[0]["id"].clone()).await;
    assert_eq!(r.json()["next"]["id"], "dental", "{}", r.body);
    let medical = plans(&b.get("/api/plans/1/allPlans").await.json());
    let dental = plans(&b.get("/api/plans/2/allPlans").await.json());
    // The vision page is not open yet; its list is the whole vision catalog of 2025 (plans
    // 720-726: Blue Cross, Blue Care Network and UnitedHealthcare, sold statewide).
    let vision = "Vision plans (7)";
    let with_vision = dental
        .iter()
        .filter(|p| p["include_vision"] == true)
        .count();

    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/2/true/dental_only", "compare.pdf").await,
        None,
    );
    assert!(text.contains("Filters: Dental only"), "{text}");
    assert!(
        text.contains(&format!("Dental plans ({})", dental.len() - with_vision)),
        "{text}"
    );
    assert_only(&text, &dental, |p| p["include_vision"] == false);
    assert!(text.contains(&format!("Medical plans ({})", medical.len())));
    assert_lists(&text, &medical);
    assert!(text.contains(vision), "{text}");

    let text = pdf_text(
        &sheet(
            &app,
            &b,
            "/api/printPdf/2/true/dental_and_vision",
            "compare.pdf",
        )
        .await,
        None,
    );
    assert!(text.contains("Filters: Dental and vision"), "{text}");
    assert!(
        text.contains(&format!("Dental plans ({with_vision})")),
        "{text}"
    );
    assert_only(&text, &dental, |p| p["include_vision"] == true);
    assert!(text.contains(vision), "{text}");
}

#[tokio::test]
async fn a_county_without_plans_prints_the_no_plans_sentence() {
    let app = spawn_app().await;
    // Gogebic (53): the lakeshore agent's only carrier, Priority Health, sells no plan there.
    let b = app.browser("lakeshore");
    let mut census = adult("1984-06-15");
    census["residential_zip"] = json!("49938");
    census["residential_county_id"] = json!(53);
    at_medical(&b, census).await;
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/false", "compare.pdf").await,
        None,
    );
    assert!(text.contains("Medical plans (0)"), "{text}");
    assert!(
        text.contains("Sorry, there are no plans available in your area."),
        "{text}"
    );
}

#[tokio::test]
async fn a_couples_sheet_heads_the_out_of_pocket_column_for_two_people() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let mut census = adult("1984-06-15");
    census["spouse"] = json!({ "gender": "M", "birth_date": "1986-03-01", "tobacco": 0 });
    at_medical(&b, census).await;
    let text = pdf_text(
        &sheet(&app, &b, "/api/printPdf/1/false", "compare.pdf").await,
        None,
    );
    // The column's title runs over lines: "Out-of-pocket / max (2 / people)".
    assert!(
        text.contains("max (2") && text.contains("people)"),
        "{text}"
    );
    assert!(!text.contains("(individual)") && !text.contains("(family)"));
    assert!(text.contains("Household (2)"), "{text}");
}

/// A sheet asked in a language (the `enrollflow_lang` cookie the web app writes).
async fn sheet_in(app: &TestApp, b: &Browser<'_>, path: &str, language: &str) -> String {
    let mut req = reqwest::Client::new()
        .get(format!("http://{}{path}", app.addr))
        .header(HOST, &b.host);
    let session = b.cookie.lock().expect("lock").clone().unwrap_or_default();
    req = req.header("cookie", format!("{session}; enrollflow_lang={language}"));
    let res = req.send().await.expect("request");
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    pdf_text(&res.bytes().await.expect("body"), None)
}

/// The comparison and the benefit selection in Spanish, and in the tests'
/// pseudo-language no plain English word left (every text the sheets write goes through the
/// catalogs; names, figures and plan names aside).
#[tokio::test]
async fn the_sheets_are_printed_in_the_consumers_language() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, family()).await;
    let mut names: Vec<String> = vec![AGENCY.into(), "Maria Alvarez Ann Lee".into()];
    for t in 1..=3 {
        let list = b.get(&format!("/api/plans/{t}/allPlans")).await.json();
        for p in plans(&list) {
            names.push(plain(p["name"].as_str().unwrap_or("")));
            names.push(p["carrier_name"].as_str().unwrap_or("").into());
            names.push(p["network_name"].as_str().unwrap_or("").into());
        }
        let first = plans(&list)[0]["id"].clone();
        select_plan(&b, &token, t, first).await;
    }
    let spanish = sheet_in(&app, &b, "/api/printSelectionPdf", "es").await;
    for s in [
        "Selección de beneficios",
        "Prima mensual",
        "Página 1 de",
        "Cómo se calcula la prima",
        "Cónyuge",
        "Su costo total:",
    ] {
        assert!(spanish.contains(s), "{s} in\n{spanish}");
    }
    let spanish = sheet_in(&app, &b, "/api/printPdf/1/true", "es").await;
    for s in [
        "Planes médicos, dentales y de visión",
        "Aseguradora",
        "Deducible",
        "Hogar (7)",
    ] {
        assert!(spanish.contains(s), "{s} in\n{spanish}");
    }
    // The agent's address, e-mail and site from the frame are names too.
    let site = b.get("/api/site").await.json();
    for k in ["address", "email", "agency_name", "agent_name"] {
        names.push(site["agent"][k].as_str().unwrap_or("").to_string());
    }
    let allowed: std::collections::HashSet<String> = names
        .iter()
        .flat_map(|n| {
            n.split(|c: char| !c.is_ascii_alphabetic())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    for path in [
        "/api/printSelectionPdf",
        "/api/printPdf/1/true",
        "/api/printPdf/2/false/dental_only",
    ] {
        let text = sheet_in(&app, &b, path, "pseudo").await;
        let plain_words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || ",.:;()[]/×=$%—·-".contains(c))
            .filter(|w| {
                w.len() >= 3
                    && w.chars().all(|c| c.is_ascii_alphabetic())
                    && !w.chars().all(|c| c.is_ascii_uppercase())
                    && !allowed.contains(*w)
            })
            .collect();
        assert!(plain_words.is_empty(), "{path}: {plain_words:?}\n{text}");
    }
}
