//! The qualifying-event document upload (spec part 2, sections 3 and 5) and page-view events.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{Browser, Reply, TestApp, put, spawn_app, spawn_app_with, test_cipher};

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";

async fn upload(b: &Browser<'_>, token: &str, file_name: &str, bytes: &[u8]) -> Reply {
    let boundary = "----enrollflow-test-boundary";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"enrollment_type\"\r\n\r\nqle\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\n\
             Content-Type: application/pdf\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let headers = [
        ("x-csrf-token", token.to_string()),
        ("origin", b.origin()),
        (
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        ),
    ];
    b.send(
        Method::POST,
        "/api/whyapplying/fileupload",
        &headers,
        Some(body),
    )
    .await
}

async fn qle_saved(b: &Browser<'_>) -> String {
    let token = b.start_session().await;
    let r = put(
        b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "qle", "enrollment_reason_id": 2,
                "qle_event_date": "2024-11-01", "start_date_option_id": 1 }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    token
}

async fn stored(app: &TestApp) -> Vec<(String, String, i32)> {
    sqlx::query_as("SELECT storage_key, file_name, size_bytes FROM documents ORDER BY created_at")
        .fetch_all(&app.pool)
        .await
        .expect("documents")
}

#[tokio::test]
async fn a_pdf_is_stored_under_a_random_name_and_shown_on_the_step() {
    let dir = std::env::temp_dir().join(format!("enrollflow-docs-{}", uuid::Uuid::new_v4()));
    let d = dir.clone();
    let app = spawn_app_with(move |c| c.documents_dir = d).await;
    let b = app.browser("acme");

    let early = b.start_session().await;
    let r = upload(&b, &early, "proof.pdf", PDF).await;
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "no application yet: {}",
        r.body
    );

    let token = qle_saved(&b).await;
    let r = upload(&b, &token, "C:\\scans\\marriage proof.pdf", PDF).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["file_name"], "marriage proof.pdf");

    let rows = stored(&app).await;
    assert_eq!(rows.len(), 1);
    let (key, name, size) = &rows[0];
    assert_eq!(
        (name.as_str(), *size as usize),
        ("marriage proof.pdf", PDF.len())
    );
    assert!(
        key.len() == 32 && key.bytes().all(|c| c.is_ascii_hexdigit()),
        "{key}"
    );
    // Encrypted at rest, bound to its application and object.
    let at_rest = std::fs::read(dir.join(key)).expect("stored bytes");
    assert!(
        !at_rest.windows(4).any(|w| w == b"%PDF"),
        "no plaintext PDF on disk"
    );
    let application: uuid::Uuid = sqlx::query_scalar("SELECT application_id FROM documents")
        .fetch_one(&app.pool)
        .await
        .expect("application");
    assert_eq!(
        test_cipher()
            .decrypt_bytes_bound(
                &at_rest,
                &enrollflow_server::documents::place(application, key)
            )
            .expect("decrypts"),
        PDF
    );

    let view = b.get("/api/application/step/whyApplying").await;
    assert_eq!(
        view.json()["data"]["enrollment_reason_file_name"],
        "marriage proof.pdf",
        "{}",
        view.body
    );

    // The same answers saved again keep the document; open enrollment lets go of it.
    let again = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "qle", "enrollment_reason_id": 2,
                "qle_event_date": "2024-11-01", "start_date_option_id": 1,
                "enrollment_reason_file_name": "forged.pdf" }),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    let view = b.get("/api/application/step/whyApplying").await;
    assert_eq!(
        view.json()["data"]["enrollment_reason_file_name"],
        "marriage proof.pdf"
    );
    let oe = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(oe.status, StatusCode::OK, "{}", oe.body);
    let view = b.get("/api/application/step/whyApplying").await;
    assert!(
        view.json()["data"]
            .get("enrollment_reason_file_name")
            .is_none(),
        "{}",
        view.body
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn over_3_mb_is_413_and_a_png_named_pdf_is_415() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = qle_saved(&b).await;

    let mut big = PDF.to_vec();
    big.resize(3 * 1024 * 1024 + 1, b' ');
    let r = upload(&b, &token, "big.pdf", &big).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);

    big.truncate(3 * 1024 * 1024);
    let r = upload(&b, &token, "exactly-3mb.pdf", &big).await;
    assert_eq!(r.status, StatusCode::OK, "3 MB is allowed: {}", r.body);

    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    let r = upload(&b, &token, "photo.pdf", png).await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{}", r.body);

    let names: Vec<String> = stored(&app).await.into_iter().map(|r| r.1).collect();
    assert_eq!(
        names,
        ["exactly-3mb.pdf"],
        "refused files leave nothing behind"
    );
}

#[tokio::test]
async fn a_failed_store_write_changes_nothing_and_says_so() {
    // The store's folder cannot be created: a file stands where it should be.
    let blocker = std::env::temp_dir().join(format!("enrollflow-blocker-{}", uuid::Uuid::new_v4()));
    std::fs::write(&blocker, b"not a folder").expect("blocker");
    let d = blocker.join("documents");
    let app = spawn_app_with(move |c| c.documents_dir = d).await;
    let b = app.browser("acme");
    let token = qle_saved(&b).await;
    let before: serde_json::Value = sqlx::query_scalar("SELECT data FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("data");
    let r = upload(&b, &token, "proof.pdf", PDF).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .is_some_and(|m| m.starts_with("Your document could not be saved.")),
        "{}",
        r.body
    );
    assert!(stored(&app).await.is_empty());
    let after: serde_json::Value = sqlx::query_scalar("SELECT data FROM applications")
        .fetch_one(&app.pool)
        .await
        .expect("data");
    assert_eq!(before, after);
    let _ = std::fs::remove_file(blocker);
}

#[tokio::test]
async fn page_views_store_route_templates_only() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    for route in ["/census", "/reset-password/email/:email/token/:token"] {
        let r = b
            .call(
                Method::POST,
                "/api/events/pageView",
                &token,
                &json!({ "route": route }),
            )
            .await;
        assert_eq!(r.status, StatusCode::NO_CONTENT, "{route}: {}", r.body);
    }
    for bad in ["/reset-password/email/ann@example.com", "census", "/a b"] {
        let r = b
            .call(
                Method::POST,
                "/api/events/pageView",
                &token,
                &json!({ "route": bad }),
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.body);
    }
    let routes: Vec<String> = sqlx::query_scalar("SELECT route FROM page_views ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .expect("views");
    assert_eq!(
        routes,
        ["/census", "/reset-password/email/:email/token/:token"]
    );
}

#[tokio::test]
async fn a_replaced_document_is_removed_and_an_application_has_a_quota_of_uploads() {
    let dir = std::env::temp_dir().join(format!("enrollflow-docs-{}", uuid::Uuid::new_v4()));
    let d = dir.clone();
    let app = spawn_app_with(move |c| c.documents_dir = d).await;
    let b = app.browser("acme");
    let token = qle_saved(&b).await;
    let files = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .map(|e| e.flatten().filter(|e| e.path().is_file()).count())
            .unwrap_or(0)
    };
    for n in 0..enrollflow_server::documents::QUOTA_FILES {
        let r = upload(&b, &token, &format!("proof-{n}.pdf"), PDF).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        // Each upload replaces the one before: one row, one file.
        assert_eq!(stored(&app).await.len(), 1);
        assert_eq!(files(&dir), 1, "the replaced file is removed");
    }
    let r = upload(&b, &token, "one-too-many.pdf", PDF).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(
        r.json()["error"]
            .as_str()
            .is_some_and(|m| m.contains("10 uploads")),
        "{}",
        r.body
    );
    let rows = stored(&app).await;
    assert_eq!(
        rows[0].1, "proof-9.pdf",
        "the refused upload changed nothing"
    );
    assert_eq!(files(&dir), 1, "and left no file behind");
    let _ = std::fs::remove_dir_all(dir);
}

/// With `ENROLLFLOW_DOCUMENT_STORE=s3://…` the documents go to the bucket,
/// encrypted; two instances share them. Runs against the S3-compatible server `make test` starts
/// (`scripts/with-s3.sh`).
#[tokio::test]
async fn documents_go_to_an_s3_bucket_encrypted_and_every_instance_reads_them() {
    let bucket = std::env::var("ENROLLFLOW_TEST_S3_BUCKET").expect(
        "an S3-compatible test server: run the tests with `make test` (scripts/with-s3.sh)",
    );
    let url = format!("s3://{bucket}");
    let u = url.clone();
    let app = spawn_app_with(move |c| c.document_store = Some(u)).await;
    assert!(matches!(
        app.state.documents,
        enrollflow_server::documents::ObjectStore::S3(_)
    ));
    let b = app.browser("acme");
    let token = qle_saved(&b).await;
    let r = upload(&b, &token, "proof.pdf", PDF).await;
    assert_eq!(r.status, reqwest::StatusCode::OK, "{}", r.body);
    let (key, _, _) = stored(&app).await.remove(0);
    let application: uuid::Uuid = sqlx::query_scalar("SELECT application_id FROM documents")
        .fetch_one(&app.pool)
        .await
        .expect("application");

    // Another instance (its own empty folder, the same bucket) reads the object; at rest it is
    // ciphertext.
    let other = enrollflow_server::documents::ObjectStore::from_config(
        &std::env::temp_dir().join("enrollflow-unused"),
        Some(&url),
    )
    .expect("store");
    let sealed = other.get(&key).await.expect("get").expect("in the bucket");
    assert!(
        !sealed.windows(4).any(|w| w == b"%PDF"),
        "encrypted in the bucket"
    );
    assert_eq!(
        other
            .get_decrypted(&test_cipher(), application, &key)
            .await
            .expect("decrypts")
            .as_deref(),
        Some(PDF)
    );
    // A backup takes the bucket's objects with the database, sealed under the backup key.
    let folder = std::env::temp_dir().join(format!("enrollflow-backup-{}", uuid::Uuid::new_v4()));
    let backup_key = enrollflow_server::security::sealed::BackupKey::random();
    let db_url = crate::operator::database_url_of(&app.pool);
    let owner = enrollflow_server::db::connect_as_owner(&db_url)
        .await
        .expect("owner");
    enrollflow_server::maintenance::backup::backup(&owner, &db_url, &other, &folder, &backup_key)
        .await
        .expect("backup");
    let in_backup = std::fs::read(folder.join("documents").join(format!("{key}.sealed")))
        .expect("the bucket's document is in the backup");
    assert_eq!(
        enrollflow_server::security::sealed::unseal_bytes(&backup_key, &key, &in_backup)
            .expect("opens"),
        sealed
    );
    let _ = std::fs::remove_dir_all(&folder);

    // A replacing upload removes the replaced object from the bucket.
    let r = upload(&b, &token, "better-proof.pdf", PDF).await;
    assert_eq!(r.status, reqwest::StatusCode::OK, "{}", r.body);
    assert_eq!(other.get(&key).await.expect("get"), None);
    assert!(
        enrollflow_server::documents::ObjectStore::from_config(
            std::path::Path::new("."),
            Some("s3://")
        )
        .is_err(),
        "a store URL without a bucket is refused"
    );
}
