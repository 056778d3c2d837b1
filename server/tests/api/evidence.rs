//! Proof of every submission: the purchase stores an evidence packet
//! with its hash and writes the subscriber a receipt nobody else can read; the agent downloads the
//! packet's PDF and JSON from Submissions; `enrollflow verify-packet` tells a stored packet from
//! a changed one.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};

use enrollflow_server::documents::evidence::{Verdict, verify};

use crate::helpers::{
    ACME_USER, ADMIN_USER, Browser, LAKESHORE_USER, TestApp, adult, at_medical, put, spawn_app,
    wait_for_mails,
};
use crate::purchase::{
    at_subscriber_information, give_subscriber_information, on_to_review_and_purchase, signatures,
};

/// A consumer on acme buys the cheapest plans for Ann Lee (SSN 123-45-6789); the application's id.
async fn bought(app: &TestApp, b: &Browser<'_>) -> uuid::Uuid {
    let token = at_subscriber_information(b).await;
    give_subscriber_information(b, &token).await;
    on_to_review_and_purchase(app).await;
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
    let confirmation = enrollflow_server::documents::evidence::confirmation(id);
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
    // The recipient is found by a keyed digest, not by a hash anyone can compute from a guess.
    let (keyed, plain): (bool, bool) = sqlx::query_as(
        "SELECT to_hash = $1, to_hash = sha256(convert_to('ann@example.com', 'UTF8')) FROM outbox",
    )
    .bind(
        enrollflow_server::platform::mail::recipient_digest(
            &crate::helpers::test_cipher(),
            "Ann@Example.com",
        )
        .to_vec(),
    )
    .fetch_one(&app.pool)
    .await
    .expect("digest");
    assert!(keyed && !plain);
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

/// Runs `enrollflow verify-packet` on `bytes`: whether it said yes, and what it printed.
fn verify_packet(bytes: &[u8], args: &[&str], env: &[(&str, &str)]) -> (bool, String) {
    let file = std::env::temp_dir().join(format!("enrollflow-verify-{}.bin", uuid::Uuid::new_v4()));
    std::fs::write(&file, bytes).expect("write");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_enrollflow"));
    cmd.arg("verify-packet").arg(&file).args(args);
    // Offline unless the test says otherwise: no database, no configured keys.
    for name in [
        "DATABASE_URL",
        "ENROLLFLOW_DATA_KEY",
        "ENROLLFLOW_DATA_KEY_FILE",
        "ENROLLFLOW_EVIDENCE_KEY",
        "ENROLLFLOW_EVIDENCE_KEY_FILE",
        "ENROLLFLOW_EVIDENCE_PUBLIC_KEYS",
        "ENROLLFLOW_EVIDENCE_PUBLIC_KEYS_FILE",
    ] {
        cmd.env_remove(name);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run");
    let _ = std::fs::remove_file(&file);
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The service's published keys, saved as a verifier would save them.
async fn published_keys(app: &TestApp) -> std::path::PathBuf {
    // Anyone may read them: a browser without a session.
    let r = app
        .browser("acme")
        .get("/.well-known/enrollflow-evidence-keys.json")
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let keys = r.body.into_bytes();
    let path = std::env::temp_dir().join(format!("enrollflow-keys-{}.json", uuid::Uuid::new_v4()));
    std::fs::write(&path, &keys).expect("write");
    path
}

#[tokio::test]
async fn a_packet_and_its_pdf_prove_themselves_offline_and_any_change_is_altered() {
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
    let keys = &app.state.evidence_keys;
    let key_id = keys.signing_key_id().expect("a signing key").to_string();
    // The packet names the key that signed it; the PDF is still a PDF poppler and qpdf read.
    let p: Value = serde_json::from_slice(&json_file).expect("json");
    assert_eq!(p["signature"]["alg"], "Ed25519");
    assert_eq!(p["signature"]["key_id"], key_id.as_str());
    assert!(text_of_pdf(&pdf).contains("Evidence"), "the PDF reads");
    assert_eq!(
        verify(keys, None, &json_file).await.expect("verify"),
        Verdict::Signed {
            key_id: key_id.clone(),
            application_id: Some(id)
        }
    );
    assert_eq!(
        verify(keys, None, &pdf).await.expect("verify"),
        Verdict::Signed {
            key_id: key_id.clone(),
            application_id: None
        }
    );
    // A premium changed in the JSON: altered, and with the database at hand, the part named.
    let premium = p["plans"]["monthly_total"]
        .as_str()
        .expect("total")
        .to_string();
    let changed = String::from_utf8(json_file.clone())
        .expect("utf-8")
        .replace(&premium, "$1.00");
    assert_eq!(
        verify(keys, Some(&app.pool), changed.as_bytes())
            .await
            .expect("verify"),
        Verdict::Altered {
            key_id: Some(key_id.clone()),
            application_id: Some(id),
            differs: vec!["plans".into()]
        }
    );
    // One byte of the PDF changed.
    let mut bad_pdf = pdf.clone();
    let i = bad_pdf.len() / 2;
    bad_pdf[i] ^= 1;
    assert!(matches!(
        verify(keys, None, &bad_pdf).await.expect("verify"),
        Verdict::Altered { .. }
    ));

    // Someone with the database edits the stored packet and recomputes its hash: the download
    // is the edited packet, its hash matches, and it is still reported as altered.
    sqlx::query(
        "UPDATE evidence_packets SET packet = $2, sha256 = sha256($2) WHERE application_id = $1",
    )
    .bind(id)
    .bind(changed.as_bytes())
    .execute(&app.pool)
    .await
    .expect("edit");
    let (_, edited) = agent
        .get_bytes(&format!("/api/dashboard/evidenceJson/{id}"))
        .await;
    assert_eq!(edited, changed.as_bytes());
    assert!(matches!(
        verify(keys, Some(&app.pool), &edited).await.expect("verify"),
        Verdict::Altered { key_id: Some(k), .. } if k == key_id
    ));

    // The operator's command, offline, with the keys the service publishes.
    let published = published_keys(&app).await;
    let keys_arg = published.to_str().expect("path");
    for (name, bytes, ok, says) in [
        ("packet", json_file.as_slice(), true, "intact"),
        ("pdf", pdf.as_slice(), true, "intact"),
        ("changed packet", changed.as_bytes(), false, "ALTERED"),
        ("changed pdf", bad_pdf.as_slice(), false, "ALTERED"),
        (
            "edited in the database",
            edited.as_slice(),
            false,
            "ALTERED",
        ),
    ] {
        let (success, said) = verify_packet(bytes, &["--keys", keys_arg], &[]);
        assert_eq!(success, ok, "{name}: {said}");
        assert!(said.starts_with(says), "{name}: {said}");
        assert!(said.contains(&key_id), "{name} names the key: {said}");
    }
    // With no key trusted, nothing is taken on faith.
    let (success, said) = verify_packet(&json_file, &[], &[]);
    assert!(
        !success && said.contains("no trusted evidence keys"),
        "{said}"
    );
    let _ = std::fs::remove_file(&published);
}

#[tokio::test]
async fn after_a_key_rotation_earlier_packets_verify_under_their_key_id() {
    use enrollflow_server::documents::signing::{EvidenceKeys, new_key};
    let (old_secret, old_public) = new_key("evidence-2025").expect("key");
    let (new_secret, _) = new_key("evidence-2026").expect("key");
    let old = EvidenceKeys::from_secret(&old_secret).expect("old key");
    let app = crate::helpers::spawn_app_with(|c| c.evidence_keys = Some(old.clone())).await;
    let b = app.browser("acme");
    let id = bought(&app, &b).await;
    let agent = app.browser("acme");
    agent.logged_in_as(ACME_USER).await;
    ready(&agent, id).await;
    let (_, packet) = agent
        .get_bytes(&format!("/api/dashboard/evidenceJson/{id}"))
        .await;

    // The service restarted with the new key, the old one retired to its public half: it signs
    // with the new key and publishes both.
    let rotated = EvidenceKeys::from_secret(&new_secret)
        .expect("new key")
        .with_trusted(
            enrollflow_server::documents::signing::public_keys_list(&old_public).expect("public"),
        );
    let after = crate::helpers::spawn_app_with(|c| c.evidence_keys = Some(rotated)).await;
    let published = published_keys(&after).await;
    let set: Value =
        serde_json::from_slice(&std::fs::read(&published).expect("read")).expect("json");
    let kids: Vec<&str> = set["keys"]
        .as_array()
        .expect("keys")
        .iter()
        .filter_map(|k| k["kid"].as_str())
        .collect();
    assert_eq!(kids, ["evidence-2026", "evidence-2025"]);
    let (ok, said) = verify_packet(&packet, &["--keys", published.to_str().expect("path")], &[]);
    assert!(
        ok && said.contains("signed with key evidence-2025"),
        "{said}"
    );
    // The operator's configured keys say the same, without the file.
    let (ok, said) = verify_packet(
        &packet,
        &[],
        &[
            ("ENROLLFLOW_EVIDENCE_KEY", new_secret.as_str()),
            ("ENROLLFLOW_EVIDENCE_PUBLIC_KEYS", old_public.as_str()),
        ],
    );
    assert!(ok && said.contains("evidence-2025"), "{said}");
    // Without the retired key, the packet's key is unknown (never taken as intact).
    let (ok, said) = verify_packet(
        &packet,
        &[],
        &[("ENROLLFLOW_EVIDENCE_KEY", new_secret.as_str())],
    );
    assert!(!ok && said.starts_with("UNKNOWN KEY"), "{said}");
    let _ = std::fs::remove_file(&published);
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
