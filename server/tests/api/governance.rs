//! What an analyst's draft cannot do, through the workbench's API: weaken the SSN's protection,
//! ship files outside the analysts' paths (account mail), wrap a mailed link, loop in a template,
//! import a file as a script, or read customers' answers through the impact report.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{ADMIN_USER, Browser, Reply, spawn_app_with};

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

async fn post(admin: &Browser<'_>, csrf: &str, what: &str, body: Value) -> Reply {
    admin
        .call(
            Method::POST,
            &format!("/api/admin/rules/{what}"),
            csrf,
            &body,
        )
        .await
}

/// The problems a refused draft was answered with, one text.
fn problems(r: &Reply) -> String {
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    r.json()["errors"]["files"].to_string()
}

#[tokio::test]
async fn a_draft_that_weakens_the_protected_core_is_refused_with_file_and_line() {
    let a = spawn_app_with(|_| {}).await;
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
        for call in ["publish", "impact"] {
            let r = post(
                &admin,
                &csrf,
                call,
                json!({ "files": files, "households": 1 }),
            )
            .await;
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
