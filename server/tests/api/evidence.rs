//! Proof of every submission: the purchase stores an evidence packet
//! with its hash and writes the subscriber a receipt nobody else can read; the agent downloads the
//! packet's PDF and JSON from Submissions; `enrollflow verify-packet` tells a stored packet from
//! a changed one.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};

use enrollflow_server::evidence::{Verdict, verify};

use crate::helpers::{
    ACME_USER, ADMIN_USER, Browser, LAKESHORE_USER, TestApp, adult, at_medical, put, spawn_app,
    wait_for_mails,
};
use crate::purchase::{at_subscriber_information, give_subscriber_information, signatures};

/// A consumer on acme buys the cheapest plans for Ann Lee (SSN 123-45-6789); the application's id.
async fn bought(app: &TestApp, b: &Browser<'_>) -> uuid::Uuid {
    let token = at_subscriber_information(b).await;
    give_subscriber_information(b, &token).await;
    // The other questions are the step tests' business: on to Review and Purchase.
    sqlx::query("UPDATE applications SET data = data || '{\"last_step\": 10}'::jsonb")
        .execute(&app.pool)
        .await
        .expect("advance");
    app.settle().await;
    let r = put(b, &token, "/api/application/step/rap", signatures()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // The purchase tells the browser its application's new revision, as every save does (another
    // instance then never serves it an older copy).
    let revision = r.json()["revision"].as_i64().expect("a revision");
    assert!(
        r.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|c| c.starts_with("ef_rev=") && c.contains(&format!(".{revision};"))),
        "{:?}",
        r.headers
    );
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");
    id
}

fn text_of_pdf(bytes: &[u8]) -> String {
    let path =
        std::env::temp_dir().join(format!("enrollflow-evidence-{}.pdf", uuid::Uuid::new_v4()));
    std::fs::write(&path, bytes).expect("write");
    let out = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .unwrap_or_else(|e| panic!("pdftotext is needed (Debian poppler-utils): {e}"));
    let check = Command::new("qpdf")
        .arg("--check")
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("qpdf is needed (Debian qpdf): {e}"));
    let _ = std::fs::remove_file(&path);
    assert!(
        check.status.success(),
        "qpdf --check: {}",
        String::from_utf8_lossy(&check.stdout)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The evidence of one of the agent's submissions, once its PDF is drawn (the drawing runs in the
/// background; this waits for it as the Submissions page does, up to a deadline only a failure
/// reaches).
async fn ready(agent: &Browser<'_>, id: uuid::Uuid) -> Value {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let r = agent.get(&format!("/api/dashboard/evidence/{id}")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        if r.json()["state"] == "ready" {
            return r.json();
        }
        assert_eq!(r.json()["state"], "preparing");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the PDF is not made"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_purchase_keeps_a_packet_of_what_was_seen_agreed_and_signed() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let id = bought(&app, &b).await;

    let (packet, sha): (Vec<u8>, Vec<u8>) =
        sqlx::query_as("SELECT packet, sha256 FROM evidence_packets WHERE application_id = $1")
            .bind(id)
            .fetch_one(&app.pool)
            .await
            .expect("a packet is stored with the purchase");
    assert_eq!(Sha256::digest(&packet).to_vec(), sha);
    let p: Value = serde_json::from_slice(&packet).expect("JSON");
    let text = String::from_utf8_lossy(&packet);
    // The SSN is masked; the answers are there with their questions.
    assert!(
        !text.contains("123456789") && !text.contains("enc:v"),
        "{text}"
    );
    let sub = p["answers"]
        .as_array()
        .expect("answers")
        .iter()
        .find(|s| s["step"] == "subInfo")
        .expect("Subscriber Information");
    let field = |key: &str| {
        sub["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .find(|f| f["key"] == key)
            .cloned()
            .unwrap_or_else(|| panic!("no {key} in {sub}"))
    };
    assert_eq!(field("sub_ssn")["value"], "*****6789");
    assert_eq!(field("sub_first_name")["value"], "Ann");
    // The plans with each member's part of the premium, the total as chosen.
    let data: (Value,) = sqlx::query_as("SELECT data FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("data");
    let medical = &p["plans"]["list"][0];
    assert_eq!(medical["kind"], "medical");
    assert_eq!(medical["id"], data.0["medical_plan"]["id"]);
    assert_eq!(medical["members"][0]["member"], "Subscriber");
    assert!(
        medical["members"][0]["how"]
            .as_str()
            .expect("how")
            .contains("age-21 rate")
    );
    // The exact texts agreed to, with their versions, and the signature with time and address.
    let terms = p["agreements"]
        .as_array()
        .expect("agreements")
        .iter()
        .find(|a| a["key"] == "agree_tc")
        .expect("the terms");
    let terms_text = terms["text"].as_str().expect("text");
    assert!(terms_text.contains("Michigan"), "{terms_text}");
    assert_eq!(
        terms["version"],
        hex::encode(Sha256::digest(terms_text.as_bytes()))
    );
    let signed = &p["signatures"]
        .as_array()
        .expect("signatures")
        .iter()
        .find(|s| s["key"] == "subscriber_signature")
        .expect("the subscriber's signature")
        .clone();
    assert_eq!(signed["signed_as"], "Ann Lee");
    assert_eq!(signed["address"], "127.0.0.1");
    assert_eq!(signed["signed_at"], p["application"]["submitted_at"]);
    assert_eq!(
        p["rules"]["rule_set"].as_str(),
        Some(app.rules.current().engine.hash())
    );
    assert_eq!(p["application"]["applied_by"], "consumer");

    // The agent gets the PDF once it is drawn, and the JSON byte for byte.
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    let status = ready(&agent, id).await;
    assert_eq!(status["sha256"], hex::encode(&sha));
    let (s, json_file) = agent
        .get_bytes(&format!("/api/dashboard/evidenceJson/{id}"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(json_file, packet);
    let (s, pdf) = agent
        .get_bytes(&format!("/api/dashboard/evidencePdf/{id}"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(status["pdf_sha256"], hex::encode(Sha256::digest(&pdf)));
    let pdf_text = text_of_pdf(&pdf);
    for expected in [
        medical["monthly_premium"].as_str().expect("premium"),
        "Terms and Conditions",
        "Michigan for at least",
        "Ann Lee",
        "127.0.0.1",
        "*****6789",
        &hex::encode(&sha),
    ] {
        assert!(pdf_text.contains(expected), "no {expected} in\n{pdf_text}");
    }
    assert!(!pdf_text.contains("123456789"));

    // Another agent's submission is not theirs.
    let other = app.browser("lakeshore");
    other.logged_in_as(LAKESHORE_USER).await;
    for path in ["evidence", "evidencePdf", "evidenceJson"] {
        let r = other.get(&format!("/api/dashboard/{path}/{id}")).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{path}: {}", r.body);
    }
}

#[tokio::test]
async fn the_receipt_goes_to_the_subscriber_and_no_admin_reads_it() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let id = bought(&app, &b).await;
    let mails = wait_for_mails(&app.pool, "ann@example.com", 1).await;
    let (subject, body) = &mails[0];
    assert_eq!(subject, "Your application has been submitted");
    let confirmation = enrollflow_server::evidence::confirmation(id);
    let data: (Value,) = sqlx::query_as("SELECT data FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("data");
    let plan = &data.0["medical_plan"];
    for expected in [
        "Hello Ann,",
        confirmation.as_str(),
        "Coverage starts:",
        plan["carrier_name"].as_str().expect("carrier"),
        "(734) 555-0142",
        "maria.alvarez@acme-insurance.example.com",
    ] {
        assert!(body.contains(expected), "no {expected} in\n{body}");
    }
    // No SSN and no birth date.
    for secret in ["6789", "1990", "01/01"] {
        assert!(!body.contains(secret), "{secret} in\n{body}");
    }
    // Stored so that neither a database reader nor an admin sees who it is for or what it says.
    let (to, stored): (String, String) = sqlx::query_as("SELECT to_address, body FROM outbox")
        .fetch_one(&app.pool)
        .await
        .expect("row");
    // (Ciphertext is base64, which may hold "ann" by chance; an address's `@` or the greeting's
    // space never.)
    assert!(
        to.starts_with("enc:v2:") && stored.starts_with("enc:v2:"),
        "{to} {stored}"
    );
    assert!(
        !to.contains("ann@example.com") && !stored.contains("Hello Ann"),
        "{to} {stored}"
    );
    let admin = app.browser("");
    admin.logged_in_as(ADMIN_USER).await;
    let r = admin.get("/api/admin/outbox").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        !r.body.contains("ann@example.com") && !r.body.contains("Ann"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("Your application has been submitted"),
        "{}",
        r.body
    );
}

#[tokio::test]
async fn a_changed_packet_or_pdf_fails_verification() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let id = bought(&app, &b).await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    ready(&agent, id).await;
    let (_, json_file) = agent
        .get_bytes(&format!("/api/dashboard/evidenceJson/{id}"))
        .await;
    let (_, pdf) = agent
        .get_bytes(&format!("/api/dashboard/evidencePdf/{id}"))
        .await;
    assert_eq!(
        verify(&app.pool, &json_file).await.expect("verify"),
        Verdict::Intact { application_id: id }
    );
    assert_eq!(
        verify(&app.pool, &pdf).await.expect("verify"),
        Verdict::Intact { application_id: id }
    );
    // A premium changed in the JSON: named, with the part that differs.
    let p: Value = serde_json::from_slice(&json_file).expect("json");
    let premium = p["plans"]["monthly_total"]
        .as_str()
        .expect("total")
        .to_string();
    let changed = String::from_utf8(json_file.clone())
        .expect("utf-8")
        .replace(&premium, "$1.00");
    assert_eq!(
        verify(&app.pool, changed.as_bytes()).await.expect("verify"),
        Verdict::Altered {
            application_id: id,
            differs: vec!["plans".into()]
        }
    );
    // One byte of the PDF changed: it is no stored PDF.
    let mut bad_pdf = pdf.clone();
    let i = bad_pdf.len() / 2;
    bad_pdf[i] ^= 1;
    assert_eq!(
        verify(&app.pool, &bad_pdf).await.expect("verify"),
        Verdict::Unknown
    );

    // The operator's command says the same, by its exit status.
    let url = crate::operator::database_url_of(&app.pool);
    let dir = std::env::temp_dir().join(format!("enrollflow-verify-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (name, bytes, ok, says) in [
        ("packet.json", json_file.as_slice(), true, "intact"),
        ("packet.pdf", pdf.as_slice(), true, "intact"),
        ("changed.json", changed.as_bytes(), false, "ALTERED"),
        ("changed.pdf", bad_pdf.as_slice(), false, "UNKNOWN"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, bytes).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_enrollflow"))
            .arg("verify-packet")
            .arg(&file)
            .env("DATABASE_URL", &url)
            .output()
            .expect("run");
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.success(), ok, "{name}: {said}");
        assert!(said.starts_with(says), "{name}: {said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_submission_without_a_packet_and_a_quote_say_why_there_is_none() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = at_medical(&b, adult("1990-01-01")).await;
    let _ = token;
    let (id,): (uuid::Uuid,) = sqlx::query_as("SELECT id FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("the application");
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    let r = agent.get(&format!("/api/dashboard/evidence/{id}")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("has not been submitted"), "{}", r.body);
    // Submitted before packets were kept (as the demo data's submissions are).
    sqlx::query("UPDATE applications SET submission_time = now()")
        .execute(&app.pool)
        .await
        .expect("submit");
    let r = agent.get(&format!("/api/dashboard/evidence/{id}")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(
        r.body.contains("before evidence packets were kept"),
        "{}",
        r.body
    );
}
