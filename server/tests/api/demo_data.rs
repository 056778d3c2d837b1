//! `enrollflow seed-demo-data` (server/src/demo_data.rs): the dashboard of every demo agent has
//! data, a second load adds nothing, and no document holds an SSN.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{ACME_USER, LAKESHORE_USER, TestApp, spawn_app};

use enrollflow_server::demo_data as generator;

/// The demo agents' sites and users, and whether the agent offers any carrier (Northstar offers
/// none: its quotes never get past the first plan page, so it has no submissions).
const AGENTS: &[(&str, &str, bool)] = &[
    ("acme", ACME_USER, true),
    ("lakeshore", LAKESHORE_USER, true),
    ("northstar", "grace@northstar-financial.example.com", false),
    ("demo", "demo@enrollflow.example.com", true),
];

async fn load(app: &TestApp, applications: usize) -> generator::Loaded {
    use enrollflow_server::platform::clock::Clock;
    let bundle = app.rules.current();
    let rules = generator::Rules {
        engine: &bundle.engine,
    };
    let opts = generator::Options::new(applications, app.clock.today());
    generator::load(&app.pool, &rules, &opts)
        .await
        .expect("demo data loads")
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

#[tokio::test]
async fn demo_data_fills_every_list_once_and_holds_no_ssn() {
    let app = spawn_app().await;
    let first = load(&app, 800).await;
    assert_eq!(first.applications, 800);
    assert_eq!(first.agents_skipped, 0);
    assert_eq!(first.messages, 3);
    assert!(first.submitted > 100, "{first:?}");
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications WHERE data @> '{\"demo\": true}'"
        )
        .await,
        800
    );
    assert_eq!(
        scalar(&app, "SELECT count(*) FROM agent_message_targets").await,
        12
    );
    assert_eq!(
        scalar(&app, "SELECT count(*) FROM agent_messages WHERE is_sticky").await,
        1
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM agent_messages WHERE expires_at IS NOT NULL"
        )
        .await,
        1
    );

    // Loading again adds nothing.
    let second = load(&app, 800).await;
    assert_eq!(second.applications, 0, "{second:?}");
    assert_eq!(second.agents_skipped, 4);
    assert_eq!(second.messages, 0);
    assert_eq!(scalar(&app, "SELECT count(*) FROM applications").await, 800);
    assert_eq!(scalar(&app, "SELECT count(*) FROM agent_messages").await, 3);
    assert_eq!(
        scalar(&app, "SELECT count(*) FROM agent_message_targets").await,
        12
    );

    // No SSN anywhere: no key naming one, at any depth.
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications WHERE data::text ~* '\"[a-z0-9_]*ssn[a-z0-9_]*\"\\s*:'"
        )
        .await,
        0
    );
    // Submitted applications are at the last step, with a plan and its carrier column.
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications WHERE submission_time IS NOT NULL
               AND (last_step <> 10 OR submission_time < created_at
                    OR (medical_carrier_id IS NULL AND dental_carrier_id IS NULL
                        AND vision_carrier_id IS NULL))"
        )
        .await,
        0
    );

    // Everything the rules decide is the engine's (the demo data walks its steps): PCP Selection is
    // answered only for HMO medical plans (rules/flows/enrollment.flow.yaml), and for some, an
    // agent who offers only Priority Health has no dental- or vision-only applications (spec part
    // 1, 4.3), and coverage starts on the first of a month.
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications
              WHERE data ? 'pcp' AND medical_network_type_id IS DISTINCT FROM 2"
        )
        .await,
        0
    );
    assert!(
        scalar(
            &app,
            "SELECT count(*) FROM applications
              WHERE data ? 'pcp' AND submission_time IS NOT NULL AND medical_network_type_id = 2"
        )
        .await
            > 0
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications a JOIN agent_subdomains s ON s.agent_id = a.agent_id
              WHERE s.subdomain = 'lakeshore' AND a.data->>'enrollment_type' IN ('dental', 'vision')"
        )
        .await,
        0
    );
    assert!(
        scalar(
            &app,
            "SELECT count(*) FROM applications WHERE data->>'enrollment_type' IN ('dental', 'vision')"
        )
        .await
            > 0
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT count(*) FROM applications WHERE extract(day FROM effective_date) <> 1"
        )
        .await,
        0
    );

    for (site, user, sells) in AGENTS {
        let b = app.browser(site);
        b.logged_in_as(user).await;
        let get = |path: String| {
            let b = &b;
            async move {
                let r = b.get(&path).await;
                assert_eq!(r.status, StatusCode::OK, "{path}: {}", r.body);
                r.json()
            }
        };
        let quotes = get("/api/dashboard/quotes?daysToShow=365".into()).await;
        assert!(
            quotes["total"].as_i64().unwrap_or(0) > 50,
            "{site}: {quotes}"
        );
        // The default period (60 days) has rows too.
        let recent = get("/api/dashboard/quotes".into()).await;
        assert!(
            recent["total"].as_i64().unwrap_or(0) > 0,
            "{site}: {recent}"
        );
        for row in quotes["rows"].as_array().expect("rows") {
            for key in [
                "first_name",
                "last_name",
                "sub_email",
                "created_at",
                "effective_date",
            ] {
                assert!(
                    row[key].as_str().is_some_and(|s| !s.is_empty()),
                    "{site}: {key} in {row}"
                );
            }
            assert!(!row["sub_email"].as_str().unwrap_or("").contains("ssn"));
        }
        let messages = get("/api/dashboard/getMessages".into()).await;
        assert_eq!(
            messages["messages"].as_array().map(Vec::len),
            Some(3),
            "{site}: {messages}"
        );
        let enrollees =
            get("/api/dashboard/enrollees?daysToShow=365&resultsPerPage=100".into()).await;
        let ytd = get("/api/dashboard/enrollmentsYtd".into()).await;
        let ytd_total: i64 = ytd
            .as_object()
            .expect("ytd")
            .values()
            .filter_map(Value::as_i64)
            .sum();
        let share = get("/api/dashboard/carrierShare".into()).await;
        if !sells {
            assert_eq!(enrollees["total"], 0, "{site}");
            continue;
        }
        assert!(
            enrollees["total"].as_i64().unwrap_or(0) > 20,
            "{site}: {enrollees}"
        );
        assert!(ytd_total > 0, "{site}: {ytd}");
        assert!(
            share["carrierCounts"]
                .as_object()
                .is_some_and(|m| !m.is_empty()),
            "{site}: {share}"
        );
        let rows = enrollees["rows"].as_array().expect("rows");
        let some = |key: &str| {
            rows.iter()
                .any(|r| r[key].as_str().is_some_and(|s| !s.is_empty()))
        };
        for key in [
            "medical_plan_name",
            "sbc_url",
            "subdomain",
            "submission_time",
        ] {
            assert!(some(key), "{site}: no {key} in the submissions");
        }
        if *site != "lakeshore" {
            // Lakeshore offers Priority Health only: no dental or vision plans.
            assert!(some("dental_plan_name"), "{site}: no dental plans");
            assert!(some("vision_plan_name"), "{site}: no vision plans");
        }
        assert!(rows.iter().any(|r| r["has_spouse"] == true), "{site}");
        assert!(
            rows.iter()
                .any(|r| r["dependents_count"].as_i64() > Some(0)),
            "{site}"
        );
        assert!(rows.iter().any(|r| r["period_badge"] == "OEP"), "{site}");
        assert!(rows.iter().any(|r| r["period_badge"] == "SEP"), "{site}");
        assert!(rows.iter().any(|r| r["agent_started"] == true), "{site}");
        // More Info: a submission has the subscriber's phone and address.
        let id = rows[0]["application_id"].as_str().expect("id");
        let info = get(format!("/api/dashboard/getAppInfo/{id}")).await;
        for key in [
            "primary_name",
            "primary_phone",
            "email",
            "residential_street",
            "residential_city",
            "residential_state",
            "residential_zip",
        ] {
            assert!(
                info[key].as_str().is_some_and(|s| !s.is_empty()),
                "{site}: {key} in {info}"
            );
        }
    }
}
