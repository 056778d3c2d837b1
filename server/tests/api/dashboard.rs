//! The agent dashboard's Quoting and Submissions lists and their Excel exports (items 2
//! and 3) against hand-built applications inserted with SQL.

use std::io::Cursor;

use calamine::{Data, Reader, Xlsx, open_workbook_from_rs};
use reqwest::StatusCode;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::helpers::{ACME_USER, ADMIN_USER, LAKESHORE_USER, TestApp, spawn_app};

/// A hand-built application.
struct App {
    first: &'static str,
    last: String,
    email: String,
    /// Days before the test clock's now.
    created_days_ago: i64,
    submitted_days_ago: Option<i64>,
    effective: Option<time::Date>,
    period_type: Option<i16>,
    dependents: usize,
    spouse: bool,
    products: &'static [&'static str],
}

fn person(first: &'static str, last: &str) -> App {
    App {
        first,
        last: last.to_string(),
        email: format!(
            "{}.{}@example.com",
            first.to_lowercase(),
            last.to_lowercase()
        ),
        created_days_ago: 5,
        submitted_days_ago: None,
        effective: Some(time::macros::date!(2025 - 01 - 01)),
        period_type: Some(1),
        dependents: 0,
        spouse: false,
        products: &["medical"],
    }
}

async fn agent_of(app: &TestApp, email: &str) -> Uuid {
    sqlx::query_scalar("SELECT agent_id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.pool)
        .await
        .expect("the user's agent")
}

fn now(app: &TestApp) -> OffsetDateTime {
    use enrollflow_server::platform::clock::Clock;
    app.clock.now()
}

async fn insert(app: &TestApp, agent: Uuid, a: &App) -> Uuid {
    let id = Uuid::new_v4();
    let mut data = json!({
        "census": {
            "sub_first_name": a.first, "sub_last_name": a.last, "email": a.email,
            "dependents": (0..a.dependents).map(|i| json!({ "first_name": format!("Kid{i}") }))
                .collect::<Vec<_>>(),
        },
    });
    if a.spouse {
        data["census"]["spouse"] = json!({ "first_name": "Sam" });
    }
    for (i, p) in a.products.iter().enumerate() {
        data[format!("{p}_plan")] =
            json!({ "id": 100 + i, "name": format!("{p} plan of {}", a.last) });
    }
    let created = now(app) - Duration::days(a.created_days_ago);
    let submitted = a.submitted_days_ago.map(|d| now(app) - Duration::days(d));
    sqlx::query(
        "INSERT INTO applications (id, agent_id, data, created_at, updated_at, submission_time,
             effective_date, enrollment_period_type_id, last_step, summary)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, 4, $8)",
    )
    .bind(id)
    .bind(agent)
    .bind(&data)
    .bind(created)
    .bind(submitted)
    .bind(a.effective)
    .bind(a.period_type)
    .bind(app.summary_of(&data))
    .execute(&app.pool)
    .await
    .expect("insert application");
    id
}

/// Moves an application to a site and says who started it.
async fn set_site(app: &TestApp, id: Uuid, site: &str, by_agent: bool) {
    sqlx::query("UPDATE applications SET subdomain = $2, agent_started = $3 WHERE id = $1")
        .bind(id)
        .bind(site)
        .bind(by_agent)
        .execute(&app.pool)
        .await
        .expect("site");
}

/// Sets when an application was created (and last changed).
async fn set_created(app: &TestApp, id: Uuid, at: OffsetDateTime) {
    sqlx::query("UPDATE applications SET created_at = $2, updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(at)
        .execute(&app.pool)
        .await
        .expect("created_at");
}

/// Submits an application at `at` (the quote becomes a submission).
async fn submit(app: &TestApp, id: Uuid, at: OffsetDateTime) {
    sqlx::query("UPDATE applications SET submission_time = $2 WHERE id = $1")
        .bind(id)
        .bind(at)
        .execute(&app.pool)
        .await
        .expect("submit");
}

async fn delete(app: &TestApp, id: Uuid) {
    sqlx::query("DELETE FROM applications WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("delete");
}

fn names(page: &Value) -> Vec<String> {
    page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["last_name"].as_str().expect("last name").to_string())
        .collect()
}

#[tokio::test]
async fn each_agent_sees_only_their_own_rows_with_the_spec_columns() {
    let app = spawn_app().await;
    let (acme, lake) = (
        agent_of(&app, ACME_USER).await,
        agent_of(&app, LAKESHORE_USER).await,
    );
    let mut sub = person("Ann", "Archer");
    sub.submitted_days_ago = Some(2);
    sub.dependents = 2;
    sub.spouse = true;
    sub.products = &["medical", "dental", "vision"];
    let sub_id = insert(&app, acme, &sub).await;
    insert(&app, acme, &person("Quinn", "Quote")).await;
    let mut other = person("Bob", "Bystander");
    other.submitted_days_ago = Some(2);
    other.period_type = Some(2);
    insert(&app, lake, &other).await;
    insert(&app, lake, &person("Otto", "Otherquote")).await;
    app.settle().await;

    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let r = a.get("/api/dashboard/enrollees").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let page = r.json();
    assert_eq!(
        (page["total"].clone(), page["pages"].clone()),
        (json!(1), json!(1))
    );
    let row = &page["rows"][0];
    assert_eq!(row["application_id"], json!(sub_id));
    assert_eq!(row["primary_name"], "Ann Archer");
    assert_eq!(row["sub_email"], "ann.archer@example.com");
    assert_eq!(row["period_badge"], "OEP");
    assert_eq!(row["contract_count"], 4);
    assert_eq!(row["medical_plan_name"], "medical plan of Archer");
    assert_eq!(row["dental_plan_name"], "dental plan of Archer");
    assert_eq!(row["vision_plan_name"], "vision plan of Archer");
    assert_eq!(row["effective_date"], "2025-01-01");
    assert_eq!(row["last_application_step_type_id"], 4);
    assert!(row["submission_time"].is_string());
    let q = a.get("/api/dashboard/quotes").await.json();
    assert_eq!(names(&q), ["Quote"]);
    assert_eq!(q["rows"][0]["submission_time"], Value::Null);
    assert!(
        !a.get("/api/dashboard/enrollees")
            .await
            .body
            .contains("Bystander")
    );

    let b = app.browser("lakeshore");
    b.logged_in_as(LAKESHORE_USER).await;
    let e = b.get("/api/dashboard/enrollees").await.json();
    assert_eq!(names(&e), ["Bystander"]);
    assert_eq!(e["rows"][0]["period_badge"], "SEP");
    assert_eq!(e["rows"][0]["contract_count"], 1);
    assert_eq!(
        names(&b.get("/api/dashboard/quotes").await.json()),
        ["Otherquote"]
    );

    // Visitors: no session 419, a session without a user 403; an admin (not acting as an agent) 403.
    for path in [
        "/api/dashboard/quotes",
        "/api/dashboard/enrollees",
        "/api/dashboard/quotesExport",
        "/api/dashboard/enrolleesExport",
    ] {
        let v = app.browser("acme");
        assert_eq!(
            v.get(path).await.status,
            StatusCode::from_u16(419).expect("419")
        );
        v.start_session().await;
        assert_eq!(v.get(path).await.status, StatusCode::FORBIDDEN, "{path}");
        let admin = app.browser("");
        admin.logged_in_as(ADMIN_USER).await;
        assert_eq!(
            admin.get(path).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    // Bad parameters are refused, not guessed.
    for q in [
        "daysToShow=30",
        "sortCol=created_at",
        "filterProduct=life",
        "page=0",
    ] {
        let r = a.get(&format!("/api/dashboard/enrollees?{q}")).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}");
    }
}

#[tokio::test]
async fn period_search_and_product_filters() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    for (last, days, products) in [
        ("Ten", 10, &["medical"][..]),
        ("Hundred", 100, &["dental"][..]),
        ("Threehundred", 300, &["vision", "dental"][..]),
        ("Fourhundred", 400, &["medical"][..]),
    ] {
        let mut p = person("Pat", last);
        p.submitted_days_ago = Some(days);
        p.created_days_ago = days + 1;
        p.products = products;
        insert(&app, acme, &p).await;
        // The same shape as a quote, for the quotes' period (created date).
        let mut q = person("Quin", last);
        q.created_days_ago = days;
        q.products = products;
        insert(&app, acme, &q).await;
    }
    let mut odd = person("Percent", "Literal");
    odd.email = "odd_50%@example.com".into();
    odd.submitted_days_ago = Some(1);
    insert(&app, acme, &odd).await;
    // Another agent's customer whose name and e-mail match the searches below: never found.
    let lakeshore = agent_of(&app, LAKESHORE_USER).await;
    let mut theirs = person("Pat", "Hundredfold");
    theirs.email = "threehundred@example.com".into();
    theirs.submitted_days_ago = Some(100);
    insert(&app, lakeshore, &theirs).await;
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let get = |q: &str| {
        let a = &a;
        let q = q.to_string();
        async move {
            let r = a.get(&format!("/api/dashboard/enrollees?{q}")).await;
            assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.body);
            let mut n = names(&r.json());
            n.sort();
            n
        }
    };
    assert_eq!(get("").await, ["Literal", "Ten"]);
    assert_eq!(get("daysToShow=180").await, ["Hundred", "Literal", "Ten"]);
    assert_eq!(
        get("daysToShow=365").await,
        ["Hundred", "Literal", "Ten", "Threehundred"]
    );
    // Search: name or e-mail, case-insensitive, wildcards literal.
    assert_eq!(
        get("daysToShow=365&searchName=pat%20HUND").await,
        ["Hundred"]
    );
    // The total is the search's too, period and agent included.
    let r = a
        .get("/api/dashboard/enrollees?daysToShow=365&searchName=pat")
        .await
        .json();
    assert_eq!(r["total"], 3, "{r}");
    let r = a
        .get("/api/dashboard/enrollees?daysToShow=180&searchName=pat")
        .await
        .json();
    assert_eq!(r["total"], 2, "{r}");
    assert_eq!(
        get("daysToShow=365&searchName=THREEHUNDRED%40ex").await,
        ["Threehundred"]
    );
    assert_eq!(get("daysToShow=365&searchName=_50%25").await, ["Literal"]);
    assert_eq!(get("daysToShow=365&searchName=%25").await, ["Literal"]);
    assert_eq!(
        get("daysToShow=365&searchName='%20OR%201=1--").await,
        Vec::<String>::new()
    );
    // Products: any of the chosen ones.
    assert_eq!(
        get("daysToShow=365&filterProduct=dental").await,
        ["Hundred", "Threehundred"]
    );
    assert_eq!(
        get("daysToShow=365&filterProduct[]=vision&filterProduct[]=medical").await,
        ["Literal", "Ten", "Threehundred"]
    );
    assert_eq!(
        get("daysToShow=365&filterProduct=vision,dental").await,
        ["Hundred", "Threehundred"]
    );
    // The quotes' period counts from the created date.
    let r = a.get("/api/dashboard/quotes?daysToShow=180").await.json();
    let mut q = names(&r);
    q.sort();
    assert_eq!(q, ["Hundred", "Ten"]);
    assert_eq!(r["total"], 2);
}

#[tokio::test]
async fn sort_rules_and_paging() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    // 30 submissions: submitted i days ago, effective dates in another order, names in a third.
    let lasts: Vec<String> = (0..30).map(|i| format!("N{:02}", (i * 7) % 30)).collect();
    for (i, last) in lasts.iter().enumerate() {
        let i = i as i64;
        let mut p = person("Sub", last);
        p.submitted_days_ago = Some(i + 1);
        p.created_days_ago = 40 - i;
        p.effective = Some(time::macros::date!(2025 - 01 - 01) + Duration::days((i * 11) % 30));
        insert(&app, acme, &p).await;
        let mut q = person("Quo", last);
        q.created_days_ago = i + 1;
        q.effective = p.effective;
        insert(&app, acme, &q).await;
    }
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let all = |list: &'static str, q: &'static str| {
        let a = &a;
        async move {
            let mut out = Vec::new();
            for page in 1..=3 {
                let r = a
                    .get(&format!("/api/dashboard/{list}?page={page}&{q}"))
                    .await;
                assert_eq!(r.status, StatusCode::OK, "{}", r.body);
                let p = r.json();
                assert_eq!(
                    (p["total"].clone(), p["pages"].clone()),
                    (json!(30), json!(3))
                );
                assert_eq!(p["page"], page);
                let n = names(&p);
                assert_eq!(n.len(), if page < 3 { 12 } else { 6 }, "page {page}");
                out.extend(n);
            }
            out
        }
    };
    let by_submitted: Vec<String> = lasts.clone(); // submitted 1, 2, … days ago: newest first
    let mut by_name = lasts.clone();
    by_name.sort();
    let mut by_effective: Vec<(i64, String)> = (0..30)
        .map(|i: i64| ((i * 11) % 30, lasts[i as usize].clone()))
        .collect();
    by_effective.sort();
    let by_effective_desc: Vec<String> =
        by_effective.iter().rev().map(|(_, n)| n.clone()).collect();

    // Submissions: default submission_time descending; name starts ascending; dates descending;
    // an explicit direction is honoured.
    assert_eq!(all("enrollees", "").await, by_submitted);
    assert_eq!(all("enrollees", "sortCol=last_name").await, by_name);
    let mut desc = by_name.clone();
    desc.reverse();
    assert_eq!(
        all("enrollees", "sortCol=last_name&sortOrderAsc=false").await,
        desc
    );
    assert_eq!(
        all("enrollees", "sortCol=effective_date").await,
        by_effective_desc
    );
    let mut oldest_first = by_submitted.clone();
    oldest_first.reverse();
    assert_eq!(
        all("enrollees", "sortCol=submission_time&sortOrderAsc=true").await,
        oldest_first
    );
    // Quoting: default last_name ascending; created_at starts newest first.
    assert_eq!(all("quotes", "").await, by_name);
    assert_eq!(all("quotes", "sortCol=created_at").await, lasts);
    assert_eq!(
        all("quotes", "sortCol=effective_date").await,
        by_effective_desc
    );

    // Past the last page: no rows, the same total.
    let p = a.get("/api/dashboard/enrollees?page=4").await.json();
    assert_eq!(
        (p["total"].clone(), p["rows"].clone()),
        (json!(30), json!([]))
    );
    // No rows at all: zero pages.
    let p = a
        .get("/api/dashboard/enrollees?searchName=nobody")
        .await
        .json();
    assert_eq!(
        (p["total"].clone(), p["pages"].clone()),
        (json!(0), json!(0))
    );
}

fn read_xlsx(bytes: &[u8]) -> Vec<Vec<Data>> {
    let mut wb: Xlsx<_> = open_workbook_from_rs(Cursor::new(bytes.to_vec())).expect("an xlsx");
    let sheet = wb.sheet_names()[0].clone();
    let range = wb.worksheet_range(&sheet).expect("the sheet");
    range.rows().map(<[Data]>::to_vec).collect()
}

/// A GET whose body is kept as bytes (the helper's `Reply` holds text).
async fn get_bytes(
    app: &TestApp,
    b: &crate::helpers::Browser<'_>,
    path: &str,
) -> (StatusCode, String, Vec<u8>) {
    let r = reqwest::Client::new()
        .get(format!("http://{}{path}", app.addr))
        .header(reqwest::header::HOST, &b.host)
        .header(reqwest::header::COOKIE, b.cookie())
        .send()
        .await
        .expect("request");
    let cd = r
        .headers()
        .get(reqwest::header::CONTENT_DISPOSITION)
        .map(|v| v.to_str().expect("ascii").to_string())
        .unwrap_or_default();
    (r.status(), cd, r.bytes().await.expect("body").to_vec())
}

#[tokio::test]
async fn exports_equal_the_list_and_keep_formulas_as_text() {
    let app = spawn_app().await;
    let (acme, lake) = (
        agent_of(&app, ACME_USER).await,
        agent_of(&app, LAKESHORE_USER).await,
    );
    let mut evil = person("=HYPERLINK(\"http://x\")", "Zed");
    evil.submitted_days_ago = Some(3);
    evil.spouse = true;
    insert(&app, acme, &evil).await;
    for (i, last) in ["+Plus", "-Minus", "@At", "Plain"].iter().enumerate() {
        let mut p = person("Sue", last);
        p.submitted_days_ago = Some(10 + i as i64);
        p.period_type = Some(2);
        insert(&app, acme, &p).await;
    }
    insert(&app, acme, &person("Quinn", "Quote")).await;
    let mut theirs = person("Bob", "Bystander");
    theirs.submitted_days_ago = Some(1);
    insert(&app, lake, &theirs).await;
    app.settle().await;

    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let list = a
        .get("/api/dashboard/enrollees?resultsPerPage=100")
        .await
        .json();
    let (status, cd, body) = get_bytes(&app, &a, "/api/dashboard/enrolleesExport").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cd, "attachment; filename=\"Exported_Enrollees.xlsx\"");
    let sheet = read_xlsx(&body);
    assert_eq!(sheet[0][0], Data::String("Subscriber Name".into()));
    let rows = list["rows"].as_array().expect("rows");
    assert_eq!(sheet.len(), rows.len() + 1);
    assert_eq!(rows.len(), 5);
    for (x, r) in sheet[1..].iter().zip(rows) {
        // Every text cell is a string (a formula would come back as its cached value or empty).
        assert_eq!(
            x[0],
            Data::String(r["primary_name"].as_str().expect("name").into())
        );
        assert_eq!(
            x[1],
            Data::String(r["sub_email"].as_str().expect("email").into())
        );
        let submitted = OffsetDateTime::parse(
            r["submission_time"].as_str().expect("time"),
            &time::format_description::well_known::Rfc3339,
        )
        .expect("rfc3339");
        match &x[2] {
            Data::DateTime(d) => {
                let days = (submitted.date() - time::macros::date!(1899 - 12 - 30)).whole_days();
                assert_eq!(d.as_f64().floor() as i64, days, "submit date serial");
            }
            other => panic!("submit date is not a date: {other:?}"),
        }
        match &x[3] {
            Data::DateTime(d) => {
                // 2025-01-01 is Excel serial 45658.
                assert_eq!(d.as_f64(), 45658.0);
            }
            other => panic!("effective date is not a date: {other:?}"),
        }
        assert_eq!(
            x[4],
            Data::String(r["period_badge"].as_str().expect("badge").into())
        );
        assert_eq!(
            x[5],
            Data::Float(r["contract_count"].as_f64().expect("count"))
        );
        assert_eq!(
            x[6],
            Data::String(r["medical_plan_name"].as_str().expect("plan").into())
        );
    }
    assert_eq!(
        sheet[1][0],
        Data::String("=HYPERLINK(\"http://x\") Zed".into())
    );
    let texts: Vec<String> = sheet[1..].iter().map(|r| r[0].to_string()).collect();
    assert!(texts.contains(&"Sue +Plus".to_string()));
    assert!(!texts.iter().any(|t| t.contains("Bystander")));

    // The same filters as the list.
    let (_, _, body) = get_bytes(&app, &a, "/api/dashboard/enrolleesExport?searchName=plain").await;
    let sheet = read_xlsx(&body);
    assert_eq!(sheet.len(), 2);
    assert_eq!(sheet[1][0], Data::String("Sue Plain".into()));

    let (status, cd, body) = get_bytes(&app, &a, "/api/dashboard/quotesExport").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cd, "attachment; filename=\"Exported_Quotes.xlsx\"");
    let sheet = read_xlsx(&body);
    assert_eq!(sheet.len(), 2);
    assert_eq!(sheet[1][0], Data::String("Quinn Quote".into()));
    assert!(
        matches!(sheet[1][3], Data::DateTime(_)),
        "{:?}",
        sheet[1][3]
    );
}

#[tokio::test]
async fn the_site_and_started_by_filters_keep_their_rows() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let mut rows = Vec::new();
    for (last, site, by_agent) in [
        ("Able", "acme", false),
        ("Baker", "acmeins", true),
        ("Cole", "acme", true),
    ] {
        let mut p = person("Pat", last);
        p.products = &["medical"];
        let id = insert(&app, acme, &p).await;
        set_site(&app, id, site, by_agent).await;
        rows.push(id);
    }
    sqlx::query(
        "UPDATE applications SET data = jsonb_set(data, '{medical_plan,sbc}', '\"https://sbc.example/1\"')
         WHERE id = $1",
    )
    .bind(rows[0])
    .execute(&app.pool)
    .await
    .expect("sbc");
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let page = a.get("/api/dashboard/quotes").await.json();
    assert_eq!(page["subdomains"], json!(["acme", "acmeins"]));
    assert_eq!(names(&page), ["Able", "Baker", "Cole"]);
    assert_eq!(page["rows"][0]["sbc_url"], "https://sbc.example/1");
    assert_eq!(page["rows"][0]["subdomain"], "acme");
    assert!(page["rows"][1]["sbc_url"].is_null());
    let q = |query: &str| format!("/api/dashboard/quotes?{query}");
    assert_eq!(
        names(&a.get(&q("filterSubdomain=acmeins")).await.json()),
        ["Baker"]
    );
    assert_eq!(
        names(&a.get(&q("filterSubdomain=All")).await.json()).len(),
        3
    );
    assert_eq!(
        names(&a.get(&q("filterStartedBy=agent")).await.json()),
        ["Baker", "Cole"]
    );
    assert_eq!(
        names(
            &a.get(&q("filterStartedBy=consumer&filterSubdomain=acme"))
                .await
                .json()
        ),
        ["Able"]
    );
    // Another agent's site, or a made-up value, is refused.
    for bad in ["filterSubdomain=lakeshore", "filterStartedBy=robot"] {
        assert_eq!(
            a.get(&q(bad)).await.status,
            StatusCode::BAD_REQUEST,
            "{bad}"
        );
    }
    // The export honours the same filter.
    let r = a
        .get("/api/dashboard/quotesExport?filterSubdomain=acmeins")
        .await;
    assert_eq!(r.status, StatusCode::OK);
}

/// Issue "The spec, to the letter" (agents' lists): times in the exports are the agent's local
/// time, America/Detroit, and labelled so; the quotes' Last Step is the step's title.
#[tokio::test]
async fn export_times_are_michigan_time_and_the_last_step_is_named() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let mut sub = person("Ema", "Evening");
    sub.submitted_days_ago = Some(3);
    let sub_id = insert(&app, acme, &sub).await;
    let quote_id = insert(&app, acme, &person("Quinn", "Late")).await;
    // 03:30 UTC on November 2, 2024 is 11:30 pm on November 1 in Detroit (EDT, UTC-4); 04:15 UTC
    // on November 15 is 11:15 pm on November 14 (EST, UTC-5).
    for (id, col, at) in [
        (sub_id, "submission_time", "2024-11-02T03:30:00Z"),
        (quote_id, "created_at", "2024-11-15T04:15:00Z"),
    ] {
        sqlx::query(&format!(
            "UPDATE applications SET {col} = $2::timestamptz WHERE id = $1"
        ))
        .bind(id)
        .bind(at)
        .execute(&app.pool)
        .await
        .expect("time");
    }
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let serial = |d: time::Date, h: i64, m: i64| {
        (d - time::macros::date!(1899 - 12 - 30)).whole_days() as f64 + (h * 60 + m) as f64 / 1440.0
    };
    let close = |x: &Data, want: f64| match x {
        Data::DateTime(d) => (d.as_f64() - want).abs() < 1e-6,
        _ => false,
    };

    let (status, _, body) = get_bytes(&app, &a, "/api/dashboard/enrolleesExport").await;
    assert_eq!(status, StatusCode::OK);
    let sheet = read_xlsx(&body);
    assert_eq!(
        sheet[0][2],
        Data::String("Submit Date (Michigan time)".into())
    );
    let row = sheet
        .iter()
        .find(|r| r[0] == Data::String("Ema Evening".into()))
        .expect("the submission");
    let want = serial(time::macros::date!(2024 - 11 - 01), 23, 30);
    assert!(close(&row[2], want), "{:?} is not 11/01/2024 23:30", row[2]);

    let (status, _, body) = get_bytes(&app, &a, "/api/dashboard/quotesExport").await;
    assert_eq!(status, StatusCode::OK);
    let sheet = read_xlsx(&body);
    assert_eq!(
        sheet[0][3],
        Data::String("Created Date (Michigan time)".into())
    );
    assert_eq!(sheet[0][5], Data::String("Last Step".into()));
    let row = sheet
        .iter()
        .find(|r| r[0] == Data::String("Quinn Late".into()))
        .expect("the quote");
    let want = serial(time::macros::date!(2024 - 11 - 14), 23, 15);
    assert!(close(&row[3], want), "{:?} is not 11/14/2024 23:15", row[3]);
    assert_eq!(row[5], Data::String("Dental Plans".into()), "last step 4");
}

/// A list's total is the per-day counts (kept by a trigger) plus the period's
/// first, partial day counted row by row. Every total equals the rows the list shows, whatever
/// the filters, at the period's edge, and after an application is submitted, changes its
/// products or its site, or is deleted.
#[tokio::test]
async fn totals_equal_the_rows_through_filters_the_periods_edge_and_changes() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let mut ids = Vec::new();
    for (last, days, products, site, by_agent) in [
        ("Anders", 1, &["medical"][..], "acme", false),
        ("Brook", 3, &["dental"][..], "acmeins", true),
        ("Cruz", 20, &["vision", "dental"][..], "acme", true),
        ("Dunn", 45, &["medical", "vision"][..], "acmeins", false),
        ("Ezra", 59, &[][..], "acme", false),
        ("Fay", 200, &["medical"][..], "acme", true),
    ] {
        let mut p = person("Pat", last);
        p.created_days_ago = days;
        p.products = products;
        let id = insert(&app, acme, &p).await;
        set_site(&app, id, site, by_agent).await;
        ids.push(id);
    }
    // The default period's edge (60 days): an hour inside it and an hour outside.
    let edge = now(&app) - Duration::days(60);
    let inside = insert(&app, acme, &person("Pat", "Inside")).await;
    set_created(&app, inside, edge + Duration::hours(1)).await;
    let outside = insert(&app, acme, &person("Pat", "Outside")).await;
    set_created(&app, outside, edge - Duration::hours(1)).await;
    app.settle().await;

    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let check = |expect: Vec<(&'static str, usize)>| {
        let a = &a;
        async move {
            for (query, rows) in expect {
                let r = a.get(&format!("/api/dashboard/{query}")).await;
                assert_eq!(r.status, StatusCode::OK, "{query}: {}", r.body);
                let page = r.json();
                assert_eq!(names(&page).len(), rows, "{query}: {page}");
                assert_eq!(page["total"], rows, "{query}: the total is the rows shown");
            }
        }
    };
    check(vec![
        ("quotes", 6),
        ("quotes?daysToShow=365", 8),
        ("quotes?daysToShow=180", 7),
        ("quotes?filterProduct=dental", 2),
        ("quotes?filterProduct[]=vision&filterProduct[]=medical", 4),
        ("quotes?filterSubdomain=acmeins", 2),
        ("quotes?filterStartedBy=agent", 2),
        ("quotes?filterStartedBy=consumer&filterSubdomain=acme", 2),
        ("quotes?searchName=pat%20in", 1),
        ("enrollees", 0),
    ])
    .await;

    // Anders buys (the quote becomes a submission today), Cruz drops dental and vision for
    // medical, Dunn moves to the other site, and Ezra is deleted.
    submit(&app, ids[0], now(&app)).await;
    sqlx::query(
        "UPDATE applications SET data = (data - 'dental_plan' - 'vision_plan')
             || '{\"medical_plan\": {\"id\": 7, \"name\": \"m\"}}'::jsonb WHERE id = $1",
    )
    .bind(ids[2])
    .execute(&app.pool)
    .await
    .expect("products");
    sqlx::query("UPDATE applications SET subdomain = 'acme' WHERE id = $1")
        .bind(ids[3])
        .execute(&app.pool)
        .await
        .expect("site");
    delete(&app, ids[4]).await;
    app.settle().await;
    check(vec![
        ("quotes", 4),
        ("quotes?daysToShow=365", 6),
        ("quotes?filterProduct=dental", 1),
        ("quotes?filterProduct=medical", 3),
        ("quotes?filterSubdomain=acmeins", 1),
        ("quotes?filterStartedBy=consumer&filterSubdomain=acme", 1),
        ("enrollees", 1),
        ("enrollees?filterProduct=medical&filterSubdomain=acme", 1),
        // Started-by is the Quoting list's filter only.
        ("enrollees?filterStartedBy=agent", 1),
    ])
    .await;
}

/// A page of a list sorted by its period's column starts at the day the per-day
/// counts put it in; every page, in both directions, with a filter and across the period's first,
/// partial day, holds exactly the rows the full order puts there.
#[tokio::test]
async fn pages_by_date_found_through_the_day_counts_follow_the_full_order() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let now = now(&app);
    let mut when = Vec::new();
    for i in 0..40i64 {
        // Four applications a day on ten days, at different hours.
        when.push(now - Duration::days((i % 10) * 6 + 1) - Duration::hours(i / 10));
    }
    // Either side of the default period's edge (60 days), and long before it.
    when.push(now - Duration::days(60) + Duration::hours(1));
    when.push(now - Duration::days(60) + Duration::hours(2));
    when.push(now - Duration::days(60) - Duration::hours(1));
    when.push(now - Duration::days(200));
    for (i, created) in when.iter().enumerate() {
        let mut p = person("Pat", &format!("P{i:02}"));
        p.products = if i % 2 == 0 {
            &["dental"]
        } else {
            &["medical"]
        };
        let id = insert(&app, acme, &p).await;
        set_created(&app, id, *created).await;
    }
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    for (query, days, dental_only) in [
        ("sortCol=created_at", 60, false),
        ("sortCol=created_at&sortOrderAsc=true", 60, false),
        ("sortCol=created_at&daysToShow=365", 365, false),
        (
            "sortCol=created_at&sortOrderAsc=true&filterProduct=dental",
            60,
            true,
        ),
    ] {
        let asc = query.contains("Asc=true");
        let expected: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT data->'census'->>'sub_last_name' FROM applications
             WHERE agent_id = $1 AND submission_time IS NULL AND created_at >= $2
               AND (NOT $3 OR has_dental)
             ORDER BY created_at {dir}, id {dir}",
            dir = if asc { "ASC" } else { "DESC" }
        ))
        .bind(acme)
        .bind(now - Duration::days(days))
        .bind(dental_only)
        .fetch_all(&app.pool)
        .await
        .expect("the full order");
        let mut got = Vec::new();
        for page in 1.. {
            let r = a
                .get(&format!("/api/dashboard/quotes?{query}&page={page}"))
                .await;
            assert_eq!(r.status, StatusCode::OK, "{query}: {}", r.body);
            let p = r.json();
            assert_eq!(p["total"], expected.len(), "{query}");
            let n = names(&p);
            if n.is_empty() {
                break;
            }
            got.extend(n);
        }
        assert_eq!(got, expected, "{query}");
    }
}

/// The ids of a list's rows (`quotes`, `enrollees`) for `query`, page after page until an empty
/// one; every page's total is `total`.
async fn ids_page_by_page(
    a: &crate::helpers::Browser<'_>,
    list: &str,
    query: &str,
    total: usize,
) -> Vec<Uuid> {
    let mut got = Vec::new();
    for page in 1.. {
        let r = a
            .get(&format!("/api/dashboard/{list}?{query}&page={page}"))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{query}: {}", r.body);
        let p = r.json();
        assert_eq!(p["total"], total, "{query}, page {page}");
        let rows = p["rows"].as_array().expect("rows");
        if rows.is_empty() {
            break;
        }
        got.extend(rows.iter().map(|r| {
            r["application_id"]
                .as_str()
                .and_then(|s| s.parse::<Uuid>().ok())
                .expect("an id")
        }));
    }
    got
}

/// Pages by name, in both directions, with and without a filter, follow the full order: the
/// pages in a list's second half are read from its end and turned round (`db::dashboard::page`),
/// same names included (the id breaks the tie) and the short last page too.
#[tokio::test]
async fn pages_by_name_from_either_end_follow_the_full_order() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let firsts = ["Ann", "Bob", "Ann"];
    let lasts = ["Cole", "ames", "Bell", "Cole", "Dunn", "Ames", "bell"];
    for i in 0..29usize {
        let mut p = person(firsts[i % 3], lasts[i % 7]);
        p.products = if i % 4 == 0 {
            &["dental"]
        } else {
            &["medical"]
        };
        insert(&app, acme, &p).await;
    }
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    for (query, dental_only) in [
        ("sortCol=last_name&sortOrderAsc=true", false),
        ("sortCol=last_name&sortOrderAsc=false", false),
        (
            "sortCol=last_name&sortOrderAsc=false&filterProduct=dental",
            true,
        ),
    ] {
        let dir = if query.contains("Asc=true") {
            "ASC"
        } else {
            "DESC"
        };
        let expected: Vec<Uuid> = sqlx::query_scalar(&format!(
            "SELECT id FROM applications
             WHERE agent_id = $1 AND submission_time IS NULL AND (NOT $2 OR has_dental)
             ORDER BY sort_last_name {dir}, sort_first_name {dir}, id {dir}"
        ))
        .bind(acme)
        .bind(dental_only)
        .fetch_all(&app.pool)
        .await
        .expect("the full order");
        for per_page in [5, 12] {
            let query = format!("{query}&resultsPerPage={per_page}");
            let got = ids_page_by_page(&a, "quotes", &query, expected.len()).await;
            assert_eq!(got, expected, "{query}");
        }
    }
}

/// A search reads the search table (migration 27), which triggers keep equal to
/// the applications: a renamed application is found by its new name and e-mail only, a submitted
/// one moves from the quotes' search to the submissions', a site's filter applies to the matches,
/// a deleted one is gone, another agent's are never found, and a term never matches across the
/// name and the e-mail. Afterwards every row of the table equals its application's columns.
#[tokio::test]
async fn searches_follow_each_change_of_an_application() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let anders = insert(&app, acme, &person("Pat", "Anders")).await;
    let brook = insert(&app, acme, &person("Pat", "Brook")).await;
    let mut c = person("Quin", "Cole");
    c.submitted_days_ago = Some(2);
    let cole = insert(&app, acme, &c).await;
    set_site(&app, cole, "acme", false).await;
    let lakeshore = agent_of(&app, LAKESHORE_USER).await;
    insert(&app, lakeshore, &person("Pat", "Anders")).await;
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let search = |q: &str| {
        let a = &a;
        let q = q.to_string();
        async move {
            let r = a.get(&format!("/api/dashboard/{q}")).await;
            assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.body);
            let page = r.json();
            let n = names(&page);
            assert_eq!(page["total"], n.len(), "{q}: the total is the rows shown");
            n
        }
    };
    assert_eq!(search("quotes?searchName=ANDERS").await, ["Anders"]);
    // In the order asked for.
    assert_eq!(
        search("quotes?searchName=pat&sortCol=last_name&sortOrderAsc=false").await,
        ["Brook", "Anders"]
    );
    // A page's total is all the matches, on the last page and past it too.
    for (page, rows) in [(1, vec!["Anders"]), (2, vec!["Brook"]), (3, vec![])] {
        let r = a
            .get(&format!(
                "/api/dashboard/quotes?searchName=pat&sortCol=last_name&sortOrderAsc=true\
                 &resultsPerPage=1&page={page}"
            ))
            .await
            .json();
        assert_eq!(names(&r), rows, "page {page}");
        assert_eq!(r["total"], 2, "page {page}");
    }

    // Later saves change the subscriber's last name, first name and e-mail, one at a time (the
    // summary is what a save stores).
    let rename = |field: &'static str, value: &'static str| {
        let pool = app.pool.clone();
        async move {
            sqlx::query(
                "UPDATE applications SET summary = jsonb_set(summary, $2, $3) WHERE id = $1",
            )
            .bind(anders)
            .bind(vec![field])
            .bind(json!(value))
            .execute(&pool)
            .await
            .expect("rename");
        }
    };
    rename("last_name", "Zimmer").await;
    assert!(search("quotes?searchName=pat%20anders").await.is_empty());
    assert_eq!(search("quotes?searchName=pat%20zim").await, ["Zimmer"]);
    rename("first_name", "Zed").await;
    assert!(search("quotes?searchName=pat%20zim").await.is_empty());
    assert_eq!(search("quotes?searchName=zed%20zim").await, ["Zimmer"]);
    // The e-mail still names Pat Anders until it changes.
    assert_eq!(search("quotes?searchName=pat.anders").await, ["Zimmer"]);
    rename("email", "zed@example.org").await;
    assert!(search("quotes?searchName=pat.anders").await.is_empty());
    assert_eq!(search("quotes?searchName=ZED@EXAMPLE.O").await, ["Zimmer"]);
    // Never across the name and the e-mail, whatever the term holds.
    assert!(search("quotes?searchName=zimmer%0Azed").await.is_empty());
    assert!(search("quotes?searchName=zimmer%20zed").await.is_empty());
    assert!(search("quotes?searchName=zimmerzed").await.is_empty());

    // Brook buys: the quote becomes a submission.
    submit(&app, brook, now(&app)).await;
    assert!(search("quotes?searchName=brook").await.is_empty());
    assert_eq!(search("enrollees?searchName=brook").await, ["Brook"]);

    // Cole moves to the other site.
    assert_eq!(
        search("enrollees?searchName=cole&filterSubdomain=acme").await,
        ["Cole"]
    );
    set_site(&app, cole, "acmeins", false).await;
    assert!(
        search("enrollees?searchName=cole&filterSubdomain=acme")
            .await
            .is_empty()
    );
    assert_eq!(
        search("enrollees?searchName=cole&filterSubdomain=acmeins").await,
        ["Cole"]
    );

    // The export's search reads the same table.
    let (status, _, body) =
        get_bytes(&app, &a, "/api/dashboard/quotesExport?searchName=zimmer").await;
    assert_eq!(status, StatusCode::OK);
    let sheet = read_xlsx(&body);
    assert_eq!(sheet.len(), 2, "the header and Zed Zimmer: {sheet:?}");
    assert_eq!(sheet[1][0], Data::String("Zed Zimmer".into()));

    delete(&app, brook).await;
    assert!(search("enrollees?searchName=brook").await.is_empty());

    // The table holds exactly the applications, with their columns.
    let differ: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM applications a FULL JOIN application_search s ON s.id = a.id
         WHERE (a.id, a.agent_id, a.created_at, a.submission_time, a.effective_date, a.subdomain,
                a.agent_started, a.has_medical, a.has_dental, a.has_vision, a.sort_last_name,
                a.sort_first_name,
                lower(a.list_first_name || ' ' || a.list_last_name) || E'\\n' || lower(a.list_email))
           IS DISTINCT FROM
               (s.id, s.agent_id, s.created_at, s.submission_time, s.effective_date, s.subdomain,
                s.agent_started, s.has_medical, s.has_dental, s.has_vision, s.sort_last_name,
                s.sort_first_name, s.terms)",
    )
    .fetch_one(&app.pool)
    .await
    .expect("compare");
    assert_eq!(differ, 0);
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM application_search")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(rows, 3, "four inserted, one deleted");
}

/// The search row's update trigger fires on a change of the columns it compares (migration 29),
/// and `application_search_row` (migration 27) says what the row is made of: the two lists are
/// written apart, and a column read by the row but missing from the condition would leave the
/// search stale after a save that changes only that column. Every column the row reads is compared.
#[tokio::test]
async fn the_search_trigger_compares_every_column_the_search_row_reads() {
    let app = spawn_app().await;
    let row: String =
        sqlx::query_scalar("SELECT prosrc FROM pg_proc WHERE proname = 'application_search_row'")
            .fetch_one(&app.pool)
            .await
            .expect("the search row's function");
    let trigger: String = sqlx::query_scalar(
        "SELECT lower(pg_get_triggerdef(oid)) FROM pg_trigger
         WHERE tgname = 'applications_search_update'",
    )
    .fetch_one(&app.pool)
    .await
    .expect("the search row's update trigger");
    let columns: Vec<&str> = row
        .split("a.")
        .skip(1)
        .map(|rest| {
            rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")
        })
        .filter(|c| !c.is_empty())
        .collect();
    assert!(columns.len() >= 13, "{columns:?}");
    for column in columns {
        for side in ["old", "new"] {
            assert!(
                trigger.contains(&format!("{side}.{column}")),
                "the search trigger does not compare {side}.{column}: {trigger}"
            );
        }
    }
}

/// A deep page by name starts in the name bucket the per-day name counts put it
/// in (migration 28) and walks that bucket from its nearer end. Every page, in both directions,
/// for two periods (the default one's first, partial day included) and a page size that makes
/// pages cross buckets, holds exactly the rows the full order puts there; so it does after
/// applications are renamed into another bucket, submitted and deleted, and the counts then equal
/// the applications grouped by their keys.
#[tokio::test]
async fn pages_by_name_through_the_name_counts_follow_the_full_order() {
    let app = spawn_app().await;
    let acme = agent_of(&app, ACME_USER).await;
    let now = now(&app);
    // Names in most buckets, none, the first and the last, same names, and names that sort
    // before 'b' or after 'z'.
    let lasts = [
        "",
        "Ames",
        "ames",
        "Abbot",
        "Bell",
        "bell",
        "Brook",
        "Cole",
        "Dunn",
        "Mac",
        "Mcallister",
        "Miller",
        "O'Brien",
        "Smith",
        "smith",
        "Smythe",
        "Zed",
        "Zz",
        "Ávila",
        "Ørsted",
        "123",
        "Young",
    ];
    let mut ids = Vec::new();
    for (i, last) in lasts.iter().cycle().take(66).enumerate() {
        let mut p = person(["Ann", "Bob", "Cy"][i % 3], last);
        p.email = format!("p{i}@example.com");
        let id = insert(&app, acme, &p).await;
        // Spread over 70 days, a few either side of the default period's edge.
        let created = match i % 11 {
            0 => now - Duration::days(60) + Duration::hours(1),
            1 => now - Duration::days(60) - Duration::hours(1),
            _ => now - Duration::days((i as i64 * 7) % 70) - Duration::minutes(i as i64),
        };
        set_created(&app, id, created).await;
        // A third of them submitted two hours later (the Submissions list, by submission).
        if i % 3 == 2 {
            submit(&app, id, (created + Duration::hours(2)).min(now)).await;
        }
        ids.push(id);
    }
    app.settle().await;
    let a = app.browser("acme");
    a.logged_in_as(ACME_USER).await;
    let check = |when: &'static str| {
        let a = &a;
        let pool = app.pool.clone();
        async move {
            for (list, scope) in [
                ("quotes", "submission_time IS NULL AND created_at >= $2"),
                ("enrollees", "submission_time >= $2"),
            ] {
                for (days, asc) in [(60, true), (60, false), (365, true), (365, false)] {
                    let dir = if asc { "ASC" } else { "DESC" };
                    let expected: Vec<Uuid> = sqlx::query_scalar(&format!(
                        "SELECT id FROM applications WHERE agent_id = $1 AND {scope}
                         ORDER BY sort_last_name {dir}, sort_first_name {dir}, id {dir}"
                    ))
                    .bind(acme)
                    .bind(now - Duration::days(days))
                    .fetch_all(&pool)
                    .await
                    .expect("the full order");
                    for per_page in [4, 7] {
                        let query = format!(
                            "sortCol=last_name&sortOrderAsc={asc}&daysToShow={days}&resultsPerPage={per_page}"
                        );
                        let got = ids_page_by_page(a, list, &query, expected.len()).await;
                        assert_eq!(got, expected, "{when}, {list}?{query}");
                    }
                }
            }
        }
    };
    check("as loaded").await;

    // Renamed into other buckets (one within its bucket, one a submission), submitted, deleted.
    for (id, last) in [
        (ids[1], "Zulu"),
        (ids[16], "Able"),
        (ids[13], "Smart"),
        (ids[0], "Kay"),
        (ids[5], "Baker"),
    ] {
        sqlx::query(
            "UPDATE applications SET summary = jsonb_set(summary, '{last_name}', to_jsonb($2::text))
             WHERE id = $1",
        )
        .bind(id)
        .bind(last)
        .execute(&app.pool)
        .await
        .expect("rename");
    }
    submit(&app, ids[4], now).await;
    delete(&app, ids[7]).await;
    check("after the changes").await;

    let differ: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM (
             SELECT agent_id, submitted, day, bucket, n FROM application_name_counts WHERE n <> 0
             EXCEPT
             SELECT agent_id, submission_time IS NOT NULL,
                    (COALESCE(submission_time, created_at) AT TIME ZONE 'UTC')::date,
                    application_name_bucket(sort_last_name), count(*)
             FROM applications GROUP BY 1, 2, 3, 4) d",
    )
    .fetch_one(&app.pool)
    .await
    .expect("compare");
    let total: i64 = sqlx::query_scalar("SELECT sum(n)::bigint FROM application_name_counts")
        .fetch_one(&app.pool)
        .await
        .expect("sum");
    let apps: i64 = sqlx::query_scalar("SELECT count(*) FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!((differ, total), (0, apps));
}
