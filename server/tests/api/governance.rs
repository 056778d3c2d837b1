//! What an analyst's draft cannot do, through the workbench's API: weaken the SSN's protection,
//! ship files outside the analysts' paths (account mail), wrap a mailed link, loop in a template,
//! import a file as a script, or read customers' answers through the impact report.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{ADMIN_USER, Browser, Reply, spawn_app_with};
use crate::rule_sets::post;

/// The repository's set as a draft's files, with each `(file, from, to)` edit applied (`from`
/// empty: the text appended).
fn draft_with(edits: &[(&str, &str, &str)]) -> Vec<Value> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<(String, String)> = enrollflow_server::rules::read_set(&root)
        .expect("the repository's set")
        .into_iter()
        .map(|f| (f.path, f.text))
        .collect();
    for (file, from, to) in edits {
        match files.iter_mut().find(|(p, _)| p == file) {
            Some((_, text)) if from.is_empty() => text.push_str(to),
            Some((_, text)) => {
                assert!(text.contains(from), "{file} lacks `{from}`");
                *text = text.replacen(from, to, 1);
            }
            None => files.push(((*file).to_string(), (*to).to_string())),
        }
    }
    files
        .into_iter()
        .map(|(path, text)| json!({ "path": path, "text": text }))
        .collect()
}

/// The problems a refused draft was answered with, one text.
fn problems(r: &Reply) -> String {
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    r.json()["errors"]["files"].to_string()
}

#[tokio::test]
async fn a_draft_that_weakens_the_protected_core_is_refused_with_file_and_line() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let serving = a.rules.status().serving_hash.clone();
    let form = "forms/subscriber_info.form.yaml";
    let script = "rules/scripts/census.rhai";
    let cases: Vec<(&str, Vec<Value>, Vec<&str>)> = vec![
        (
            "the SSN no longer sensitive",
            draft_with(&[(form, "x-sensitive: true", "x-sensitive: false")]),
            vec![
                "forms/subscriber_info.form.yaml:51:",
                "`sub_ssn` must be `x-sensitive: true`",
                "`spouse.ssn`",
                "`dependents.*.ssn`",
            ],
        ),
        (
            "a new field that reads as a tax id",
            draft_with(&[(
                form,
                "    next_page: { type: string",
                "    employer_tax_id: { type: string, title: Employer Tax ID }\n    next_page: { type: string",
            )]),
            vec!["`employer_tax_id` must be `x-sensitive: true`"],
        ),
        (
            "account mail in the set",
            draft_with(&[(
                "templates/email/reset_password.txt",
                "",
                "Subject: Reset\n\nhttps://elsewhere.example/?next={{ link }}\n",
            )]),
            vec!["templates/email/reset_password.txt", "account mail"],
        ),
        (
            "a link wrapped in another address",
            draft_with(&[(
                "templates/email/resume.txt",
                "\n{{ link }}\n",
                "\nhttps://elsewhere.example/?next={{ link }}\n",
            )]),
            vec!["templates/email/resume.txt", "on a line of its own"],
        ),
        (
            "a template that loops",
            draft_with(&[(
                "templates/legal/terms.html",
                "",
                "{% for i in range(10000) %}{% for j in range(10000) %}.{% endfor %}{% endfor %}",
            )]),
            vec!["templates/legal/terms.html", "past its limit"],
        ),
        (
            "a script importing a file",
            draft_with(&[(
                script,
                "fn derive(app, ctx, input) {",
                "import \"/etc/enrollflow/secrets\" as s;\nfn derive(app, ctx, input) {",
            )]),
            vec!["rules/scripts/census.rhai", "/etc/enrollflow/secrets"],
        ),
        (
            "a file outside the analysts' paths",
            draft_with(&[("templates/notes.txt", "", "hello")]),
            vec!["templates/notes.txt", "not a template of a rule set"],
        ),
    ];
    for (what, files, says) in cases {
        for call in ["proposals", "impact"] {
            let r = post(
                &admin,
                &csrf,
                call,
                json!({ "files": files, "households": 1, "note": what }),
            )
            .await;
            assert_eq!(
                r.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{what} ({call}): {}",
                r.body
            );
            let text = problems(&r);
            for s in &says {
                assert!(text.contains(s), "{what} ({call}): no `{s}` in {text}");
            }
        }
        assert_eq!(
            a.rules.status().serving_hash,
            serving,
            "{what}: the serving set changed"
        );
    }
}

/// Six stored applications with birth dates no made-up household is given.
const BIRTHS: [&str; 6] = [
    "1961-03-07",
    "1961-03-08",
    "1961-03-09",
    "1961-03-10",
    "1961-03-11",
    "1961-03-12",
];

#[tokio::test]
async fn no_channel_of_a_draft_hands_back_a_stored_answer() {
    let a = spawn_app_with(|_| {}).await;
    for birth in BIRTHS {
        let consumer = a.browser("acme");
        crate::helpers::at_medical(&consumer, crate::helpers::adult(birth)).await;
    }
    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    let script = "rules/scripts/census.rhai";
    let copied = "`${input.residential_zip}|${input.sub_gender}|${input.sub_birth_date}`";
    let derive_from =
        "    #{\n        skip_medical: dental_vision_type || medicare || marketplace,\n    }";
    let channels: Vec<(&str, Vec<Value>)> = vec![
        (
            "a flag's value and name",
            draft_with(&[(
                script,
                derive_from,
                &format!(
                    "    let m = #{{ skip_medical: dental_vision_type || medicare || marketplace, leak: {copied} }};\n    m[`f_${{input.sub_birth_date}}`] = {copied};\n    m"
                ),
            )]),
        ),
        (
            "an error's text and key",
            draft_with(&[(
                script,
                "    let errors = #{};\n    let today = ctx.today;",
                &format!(
                    "    let errors = #{{ residential_zip: [{copied}] }};\n    errors[{copied}] = [{copied}];\n    let today = ctx.today;"
                ),
            )]),
        ),
        (
            "a dialog",
            draft_with(&[(
                script,
                "    let a = age(app, ctx, input.sub_birth_date);",
                &format!(
                    "    return #{{ modal: {copied} }};\n    let a = age(app, ctx, input.sub_birth_date);"
                ),
            )]),
        ),
        (
            "the next step",
            draft_with(&[(
                script,
                "    let a = age(app, ctx, input.sub_birth_date);",
                &format!("    return {copied};\n    let a = age(app, ctx, input.sub_birth_date);"),
            )]),
        ),
    ];
    for (channel, files) in channels {
        let r = post(
            &admin,
            &csrf,
            "impact",
            json!({ "files": files, "households": 10 }),
        )
        .await;
        assert_eq!(r.status, StatusCode::OK, "{channel}: {}", r.body);
        let report = r.json();
        assert_eq!(report["applications_replayed"], BIRTHS.len(), "{channel}");
        assert_eq!(report["applications_changed"], "6", "{channel}: {report}");
        let body = report.to_string();
        for birth in BIRTHS {
            assert!(!body.contains(birth), "{channel}: {birth} in {body}");
        }
        assert!(
            !body.contains("48104|F|1961"),
            "{channel}: a copied answer in {body}"
        );
        // The stored applications are counts, in the serving set's words only.
        for c in report["application_counts"].as_array().expect("counts") {
            let shown = c["shown"].as_str().expect("shown");
            assert!(
                shown == "fewer than 5" || shown.parse::<usize>().is_ok_and(|n| n >= 5),
                "{channel}: {c}"
            );
            let what = c["what"].as_str().expect("what");
            assert!(
                !what.contains("48104") && !what.contains('|') && !what.contains("1961"),
                "{channel}: {what}"
            );
        }
    }
}

#[tokio::test]
async fn an_impact_past_its_budget_stops_with_a_message_and_the_next_one_runs() {
    let a = spawn_app_with(|c| c.impact_budget_secs = 2).await;
    let admin = a.browser("demo");
    let csrf = admin.logged_in_as(ADMIN_USER).await;
    // Every census save loops until its rule's own time budget stops it.
    let looping = draft_with(&[(
        "rules/scripts/census.rhai",
        "    let errors = #{};\n    let today = ctx.today;",
        "    let errors = #{};\n    loop { errors.x = 1; }\n    let today = ctx.today;",
    )]);
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": looping, "households": 100 }),
    )
    .await;
    let text = problems(&r);
    assert!(text.contains("ran past its budget of 2 seconds"), "{text}");
    // The turn was given back: the next impact is answered (here, refused for its own problem).
    let broken = draft_with(&[("templates/notes.txt", "", "hello")]);
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": broken, "households": 1 }),
    )
    .await;
    assert!(problems(&r).contains("templates/notes.txt"), "{}", r.body);
}

/// The impact of the serving set's own files (a draft that changes nothing) over `households`
/// made-up households, as the admin asks for it.
async fn impact_of_no_change(admin: &Browser<'_>, csrf: &str, households: u32) -> Reply {
    post(
        admin,
        csrf,
        "impact",
        json!({ "files": draft_with(&[]), "households": households }),
    )
    .await
}

/// The session id and the parent of process `pid`, from `/proc/<pid>/stat` (after the command's
/// closing parenthesis: state, ppid, pgrp, session).
fn session_and_parent(pid: &str) -> Option<(u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    Some((fields.get(3)?.parse().ok()?, fields.get(1)?.parse().ok()?))
}

#[tokio::test]
async fn an_impact_runs_in_a_worker_process_of_its_own_session_at_the_lowest_priority() {
    let a = spawn_app_with(|_| {}).await;
    let (admin, csrf) = person(&a, ADMIN_USER).await;
    let r = impact_of_no_change(&admin, &csrf, 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let me = std::process::id();
    let (my_session, _) = session_and_parent(&me.to_string()).expect("this process's stat");
    // The workers this test binary's servers started (other tests run beside this one).
    let workers: Vec<(String, u32)> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().into_owned();
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let (session, parent) = session_and_parent(&pid)?;
            (parent == me && String::from_utf8_lossy(&cmdline).contains("draft-worker"))
                .then_some((pid, session))
        })
        .collect();
    assert!(!workers.is_empty(), "no draft worker was started");
    for (pid, session) in &workers {
        assert_ne!(
            *session, my_session,
            "worker {pid} shares the server's session"
        );
    }
    // Its session's group yields to every other (where Linux has autogroups).
    if std::path::Path::new("/proc/self/autogroup").exists() {
        assert!(
            workers.iter().any(|(pid, _)| {
                std::fs::read_to_string(format!("/proc/{pid}/autogroup"))
                    .is_ok_and(|g| g.trim_end().ends_with("nice 19"))
            }),
            "no worker's group is at nice 19"
        );
    }
}

/// The demo analyst (proposes; no approve permission) and the demo approver (an analyst with it).
pub(crate) const ANALYST: &str = "analyst@enrollflow.example.com";
pub(crate) const APPROVER: &str = "approver@enrollflow.example.com";

/// The census title reworded (and its Spanish): a change every suite passes.
pub(crate) fn reworded() -> Vec<Value> {
    draft_with(&[
        (
            "forms/census.form.yaml",
            "title: First tell us a little about yourself",
            "title: First, tell us a little about yourself",
        ),
        (
            "forms/locales/es.yaml",
            "",
            "\n\"First, tell us a little about yourself\": \"Primero, cuéntenos un poco sobre usted\"\n",
        ),
    ])
}

/// Someone logged in on the demo site, and their CSRF token.
pub(crate) async fn person<'a>(
    a: &'a crate::helpers::TestApp,
    email: &str,
) -> (Browser<'a>, String) {
    let b = a.browser("demo");
    let csrf = b.logged_in_as(email).await;
    (b, csrf)
}

/// The census suite as the reworded title makes it (its heading expectation follows the change).
pub(crate) fn reworded_suites() -> Vec<Value> {
    let path = "tests/scenarios/census.yaml";
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(path),
    )
    .expect("the census suite");
    vec![json!({
        "path": path,
        "text": text.replace(
            "title: First tell us a little about yourself",
            "title: \"First, tell us a little about yourself\"",
        ),
    })]
}

async fn propose(b: &Browser<'_>, csrf: &str, files: Vec<Value>, note: &str) -> Reply {
    propose_with(b, csrf, files, Vec::new(), note).await
}

pub(crate) async fn propose_with(
    b: &Browser<'_>,
    csrf: &str,
    files: Vec<Value>,
    suites: Vec<Value>,
    note: &str,
) -> Reply {
    post(
        b,
        csrf,
        "proposals",
        json!({ "files": files, "suites": suites, "note": note, "households": 5 }),
    )
    .await
}

async fn approve(b: &Browser<'_>, csrf: &str, id: &Value, body: Value) -> Reply {
    post(b, csrf, &format!("proposals/{id}/approve"), body).await
}

/// The audit log's actions and details, oldest first.
async fn audited(a: &crate::helpers::TestApp) -> Vec<(String, String)> {
    sqlx::query_as("SELECT action, coalesce(detail, '') FROM audit_log ORDER BY id")
        .fetch_all(&a.pool)
        .await
        .expect("audit rows")
}

#[tokio::test]
async fn a_change_takes_effect_when_someone_else_approves_it_at_the_time_they_chose() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let first = a.rules.status().serving_set.clone().expect("a set serves");
    let (analyst, analyst_csrf) = person(&a, ANALYST).await;
    let (approver, approver_csrf) = person(&a, APPROVER).await;

    // A note is required.
    let r = propose(&analyst, &analyst_csrf, reworded(), " ").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["note"].is_array(), "{}", r.body);

    let r = propose_with(
        &analyst,
        &analyst_csrf,
        reworded(),
        reworded_suites(),
        "Add the comma to About You's title",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let proposed = r.json();
    let id = proposed["proposal"]["id"].clone();
    assert_eq!(proposed["proposal"]["state"], "proposed");
    assert_eq!(proposed["proposal"]["base_hash"], first.as_str());
    let census = proposed["files"]
        .as_array()
        .and_then(|f| f.iter().find(|d| d["path"] == "forms/census.form.yaml"))
        .unwrap_or_else(|| panic!("no diff of the census form: {proposed}"));
    assert_eq!(census["change"], "changed");
    // The suite it changes is part of what the approver reads.
    assert!(
        proposed["files"]
            .as_array()
            .is_some_and(|f| f.iter().any(|d| d["path"] == "tests/scenarios/census.yaml")),
        "{proposed}"
    );
    assert!(
        census["diff"]
            .as_str()
            .is_some_and(|d| d.contains("+title: First, tell us a little about yourself")),
        "{census}"
    );
    let evidence = &proposed["proposal"]["evidence"];
    assert_eq!(evidence["scenarios"]["failed"], json!([]), "{evidence}");
    assert!(evidence["impact"]["scenarios_run"].as_u64().unwrap_or(0) > 200);
    // Nothing is published by proposing.
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );

    // The author cannot approve it, nor can an analyst without the permission.
    let r = approve(&analyst, &analyst_csrf, &id, json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(r.body.contains("You proposed this change"), "{}", r.body);
    let r = propose_with(
        &approver,
        &approver_csrf,
        reworded(),
        reworded_suites(),
        "The same, by the approver",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let theirs = r.json()["proposal"]["id"].clone();
    let r = approve(&analyst, &analyst_csrf, &theirs, json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    assert!(r.body.contains("approve permission"), "{}", r.body);

    // Approved a minute ahead (05:01 in Detroit is 10:01 UTC): scheduled, not serving yet.
    let r = approve(
        &approver,
        &approver_csrf,
        &id,
        json!({ "effective_from": "2024-11-20T05:01" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let publication = r.json();
    let second = publication["hash"].as_str().expect("hash").to_string();
    assert_eq!(publication["effective_at"], "2024-11-20T10:01:00Z");
    assert_eq!(publication["approver"], APPROVER);
    assert_eq!(publication["author"], ANALYST);
    let scheduled = approver.get("/api/admin/rules/scheduled").await.json();
    assert_eq!(scheduled[0]["hash"], second.as_str(), "{scheduled}");
    // Decided once: a second approval is refused.
    let r = approve(&approver, &approver_csrf, &id, json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );

    // The clock passes the minute: the instance switches by itself.
    a.clock.advance(std::time::Duration::from_secs(120));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while a.rules.status().serving_set.as_deref() != Some(second.as_str()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the scheduled set did not take effect"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        approver.get("/api/admin/rules/scheduled").await.json(),
        json!([])
    );

    // Each step is in the audit log, with the set's hash.
    let log = audited(&a).await;
    for action in ["rules_proposed", "rules_approved", "rules_scheduled"] {
        let row = log
            .iter()
            .find(|(a, _)| a == action)
            .unwrap_or_else(|| panic!("no {action} in {log:?}"));
        assert!(row.1.contains(&format!("set={}", &second[..32])), "{row:?}");
        assert!(row.1.contains("diff="), "{row:?}");
    }

    // The approver's proposal was made over the set before: it is refused now.
    let r = approve(&analyst, &analyst_csrf, &theirs, json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let (admin, admin_csrf) = person(&a, ADMIN_USER).await;
    let r = approve(&admin, &admin_csrf, &theirs, json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("serving changed"), "{}", r.body);
}

#[tokio::test]
async fn a_red_suite_or_coverage_below_the_floor_cannot_be_approved_and_a_rejection_says_why() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let first = a.rules.status().serving_set.clone().expect("a set serves");
    let (analyst, analyst_csrf) = person(&a, ANALYST).await;
    let (approver, approver_csrf) = person(&a, APPROVER).await;

    // A premium change without the expectations it changes: a quoting scenario fails.
    let medical = "rules/catalog/2025/medical.yaml";
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(medical),
    )
    .expect("medical.yaml");
    let at = text.find("id: 521").expect("plan 521");
    let rates = text[at..]
        .lines()
        .find(|l| l.contains("rates:"))
        .expect("its rates");
    let four = rates
        .split(" 4: ")
        .nth(1)
        .and_then(|r| r.split([',', '}']).next())
        .expect("area 4");
    let cheaper = rates.replacen(&format!(" 4: {four}"), " 4: 100.00", 1);
    let r = propose(
        &analyst,
        &analyst_csrf,
        draft_with(&[(medical, rates, &cheaper)]),
        "Plan 521 in area 4 at $100",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let red = r.json();
    assert!(
        red["proposal"]["evidence"]["scenarios"]["failed"]
            .as_array()
            .is_some_and(|f| !f.is_empty()),
        "{red}"
    );
    let r = approve(&approver, &approver_csrf, &red["proposal"]["id"], json!({})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("scenario(s) fail"), "{}", r.body);

    // Rejected: a reason is required, and kept.
    let reject = format!("proposals/{}/reject", red["proposal"]["id"]);
    let r = post(&approver, &approver_csrf, &reject, json!({ "reason": "" })).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    let r = post(
        &approver,
        &approver_csrf,
        &reject,
        json!({ "reason": "Update quoting.yaml's expectations with it." }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["state"], "rejected");
    assert_eq!(
        r.json()["reason"],
        "Update quoting.yaml's expectations with it."
    );

    // A floor raised past what the suites reach: coverage below the floor.
    let floor = draft_with(&[("rules/coverage.yaml", "", "")]);
    let mut floor = floor;
    for f in &mut floor {
        if f["path"] == "rules/coverage.yaml" {
            let text = f["text"].as_str().expect("text");
            let raised: String = text
                .lines()
                .map(|l| match l.split_once(':') {
                    Some((k, v)) if v.trim().parse::<f64>().is_ok() => format!("{k}: 100"),
                    _ => l.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n");
            f["text"] = json!(raised);
        }
    }
    let r = propose(&analyst, &analyst_csrf, floor, "Full coverage, please").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let below = r.json();
    assert!(
        below["proposal"]["evidence"]["coverage"]["below_floor"]
            .as_array()
            .is_some_and(|b| !b.is_empty()),
        "{below}"
    );
    let r = approve(
        &approver,
        &approver_csrf,
        &below["proposal"]["id"],
        json!({}),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body.contains("below its floor"), "{}", r.body);
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );
    let log = audited(&a).await;
    assert!(log.iter().any(|(a, _)| a == "rules_rejected"), "{log:?}");
}

#[tokio::test]
async fn a_scheduled_set_can_be_cancelled_and_a_rollback_needs_the_permission() {
    let a = spawn_app_with(|c| c.rules_from_database = true).await;
    let first = a.rules.status().serving_set.clone().expect("a set serves");
    let (analyst, analyst_csrf) = person(&a, ANALYST).await;
    let (approver, approver_csrf) = person(&a, APPROVER).await;
    let r = propose_with(
        &analyst,
        &analyst_csrf,
        reworded(),
        reworded_suites(),
        "The comma",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let id = r.json()["proposal"]["id"].clone();
    let r = approve(
        &approver,
        &approver_csrf,
        &id,
        json!({ "effective_from": "2024-11-20T05:10" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let publication = r.json()["id"].clone();
    // The analyst may not cancel it; the approver may.
    let cancel = format!("scheduled/{publication}/cancel");
    let r = post(&analyst, &analyst_csrf, &cancel, json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = post(&approver, &approver_csrf, &cancel, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    a.clock.advance(std::time::Duration::from_secs(15 * 60));
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    assert_eq!(
        a.rules.status().serving_set.as_deref(),
        Some(first.as_str())
    );
    // A time already past is refused.
    let r = propose_with(
        &analyst,
        &analyst_csrf,
        reworded(),
        reworded_suites(),
        "The comma, again",
    )
    .await;
    let again = r.json()["proposal"]["id"].clone();
    let r = approve(
        &approver,
        &approver_csrf,
        &again,
        json!({ "effective_from": "2024-11-20T05:12" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    // Rollback is an approver's emergency action, not an analyst's.
    let r = post(
        &analyst,
        &analyst_csrf,
        "rollback",
        json!({ "hash": &first[..12] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = post(
        &approver,
        &approver_csrf,
        "rollback",
        json!({ "hash": &first[..12] }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let log = audited(&a).await;
    for action in ["rules_schedule_cancelled", "rules_rolled_back"] {
        assert!(
            log.iter().any(|(a, _)| a == action),
            "no {action} in {log:?}"
        );
    }
}

#[tokio::test]
async fn the_audit_log_is_a_chain_nobody_rewrites_and_keeps_the_servers_request_id() {
    let a = spawn_app_with(|_| {}).await;
    // A few sign-ins first: rows to chain.
    for _ in 0..2 {
        person(&a, ANALYST).await;
    }
    let (admin, csrf) = person(&a, ADMIN_USER).await;
    // A client's own request id is kept beside the server's, never instead of it.
    let r = admin
        .call_with_header(
            Method::POST,
            "/api/admin/rules/impact",
            &csrf,
            &json!({ "files": draft_with(&[]), "households": 1 }),
            ("x-request-id", "client-7"),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let ours = r.header("x-request-id").to_string();
    let ours = ours.as_str();
    assert_ne!(ours, "client-7");
    let (request_id, client): (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT request_id, client_request_id FROM audit_log WHERE action = 'rules_impact_run'",
    )
    .fetch_one(&a.pool)
    .await
    .expect("the impact's row");
    assert_eq!(request_id.as_deref(), Some(ours));
    assert_eq!(client.as_deref(), Some("client-7"));

    use enrollflow_server::db::audit::{Verdict, verify};
    let Verdict::Intact { rows } = verify(&a.pool).await.expect("verify") else {
        panic!("a fresh log is intact");
    };
    assert!(rows >= 3, "{rows}");
    // The server's role may read and insert audit rows, never change or remove one; the schema's
    // owner is refused by the log's trigger.
    let owner = sqlx::PgPool::connect_with((*a.pool.connect_options()).clone())
        .await
        .expect("the owner's connection");
    let role: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(&a.pool)
        .await
        .expect("role");
    assert_eq!(role, enrollflow_server::db::APP_ROLE);
    for change in [
        "UPDATE audit_log SET detail = 'nothing happened'",
        "DELETE FROM audit_log",
        "TRUNCATE audit_log",
        "UPDATE audit_chain_head SET last_hash = ''::bytea",
    ] {
        let e = sqlx::query(change)
            .execute(&a.pool)
            .await
            .expect_err("refused to the server's role");
        assert!(e.to_string().contains("permission denied"), "{change}: {e}");
    }
    for change in [
        "UPDATE audit_log SET detail = 'nothing happened'",
        "DELETE FROM audit_log",
    ] {
        let e = sqlx::query(change)
            .execute(&owner)
            .await
            .expect_err("refused to the owner");
        assert!(e.to_string().contains("append-only"), "{change}: {e}");
    }
    // Changed or removed behind the trigger's back (by the schema's owner): found.
    let (middle,): (i64,) = sqlx::query_as("SELECT min(id) + 1 FROM audit_log")
        .fetch_one(&a.pool)
        .await
        .expect("an id");
    let behind = |sql: &'static str| {
        let pool = owner.clone();
        async move {
            let mut tx = pool.begin().await.expect("tx");
            sqlx::query("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
                .execute(&mut *tx)
                .await
                .expect("disable");
            sqlx::query(sql)
                .bind(middle)
                .execute(&mut *tx)
                .await
                .expect(sql);
            sqlx::query("ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only")
                .execute(&mut *tx)
                .await
                .expect("enable");
            tx.commit().await.expect("commit");
        }
    };
    behind("UPDATE audit_log SET detail = 'edited' WHERE id = $1").await;
    match verify(&a.pool).await.expect("verify") {
        Verdict::Broken { id, why } => {
            assert_eq!(id, Some(middle));
            assert!(why.contains("changed"), "{why}");
        }
        other => panic!("an edited row went unseen: {other:?}"),
    }
    behind("DELETE FROM audit_log WHERE id = $1").await;
    match verify(&a.pool).await.expect("verify") {
        Verdict::Broken { id, why } => {
            assert_eq!(id, Some(middle + 1));
            assert!(why.contains("missing"), "{why}");
        }
        other => panic!("a removed row went unseen: {other:?}"),
    }
}

#[tokio::test]
async fn an_impact_can_be_asked_as_of_a_date() {
    let a = spawn_app_with(|_| {}).await;
    let (admin, csrf) = person(&a, ADMIN_USER).await;
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": draft_with(&[]), "households": 3, "as_of": "2025-06-02" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["households_made"], 3, "{}", r.body);
    let r = post(
        &admin,
        &csrf,
        "impact",
        json!({ "files": draft_with(&[]), "households": 3, "as_of": "June 2nd" }),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.json()["errors"]["as_of"].is_array(), "{}", r.body);
}

#[tokio::test]
async fn an_impact_counts_applications_not_yet_given_a_zip_code() {
    let a = spawn_app_with(|_| {}).await;
    // A consumer who only said why they apply: the summary has no ZIP code yet.
    let consumer = a.browser("acme");
    let token = consumer.start_session().await;
    crate::helpers::in_open_enrollment(&consumer, &token).await;
    let (admin, csrf) = person(&a, ADMIN_USER).await;
    let r = impact_of_no_change(&admin, &csrf, 3).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["applications_replayed"], 1, "{}", r.body);
}
