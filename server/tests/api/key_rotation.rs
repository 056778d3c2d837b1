//! SSNs are bound to their application and field, and `rotate-key` moves every
//! one to a new key while the service runs, resuming where a stopped run was.

use base64::Engine as _;
use reqwest::StatusCode;

use enrollflow_server::security::crypto::Cipher;
use enrollflow_server::security::keys::{self, Options};

use crate::helpers::{save_step, spawn_app, test_cipher};
use crate::steps::{at_subscriber_info, subscriber};

async fn stored_ssns(pool: &sqlx::PgPool) -> Vec<(uuid::Uuid, String)> {
    sqlx::query_as(
        "SELECT id, data->'subInfo'->>'sub_ssn' FROM applications
         WHERE data->'subInfo'->>'sub_ssn' IS NOT NULL ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .expect("ssns")
}

fn place(id: uuid::Uuid) -> String {
    format!("{id}:subInfo:sub_ssn")
}

#[tokio::test]
async fn an_ssn_copied_to_another_application_does_not_decrypt() {
    let app = spawn_app().await;
    let (a, b) = (app.browser("acme"), app.browser("acme"));
    let (ta, tb) = (a.start_session().await, b.start_session().await);
    at_subscriber_info(&app, &a, &ta).await;
    at_subscriber_info(&app, &b, &tb).await;
    assert_eq!(
        save_step(&a, &ta, "subInfo", subscriber("123456789"))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        save_step(&b, &tb, "subInfo", subscriber("987654321"))
            .await
            .status,
        StatusCode::OK
    );
    let ssns = stored_ssns(&app.pool).await;
    let cipher = test_cipher();
    assert!(
        ssns[0]
            .1
            .starts_with(&format!("enc:v2:{}:", cipher.key_id()))
    );
    assert!(cipher.decrypt_bound(&ssns[0].1, &place(ssns[0].0)).is_ok());
    assert!(
        cipher.decrypt_bound(&ssns[0].1, &place(ssns[1].0)).is_err(),
        "bound to its application"
    );
    // Someone with database access swaps the two rows' ciphertexts: neither view shows an SSN.
    for (from, to) in [(0, 1), (1, 0)] {
        sqlx::query(
            "UPDATE applications SET data = jsonb_set(data, '{subInfo,sub_ssn}', to_jsonb($1::text))
             WHERE id = $2",
        )
        .bind(&ssns[from].1)
        .bind(ssns[to].0)
        .execute(&app.pool)
        .await
        .expect("copy");
    }
    app.settle().await;
    for (browser, mine) in [(&a, "6789"), (&b, "4321")] {
        let view = browser.get("/api/application/step/subInfo").await;
        assert_eq!(
            view.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{}",
            view.body
        );
        assert!(!view.body.contains(mine) && !view.body.contains("*****"));
    }
}

#[tokio::test]
async fn rotate_key_moves_every_ssn_to_the_new_key_and_a_stopped_run_resumes() {
    let app = spawn_app().await;
    for n in 0..3 {
        let b = app.browser("acme");
        let token = b.start_session().await;
        at_subscriber_info(&app, &b, &token).await;
        let r = save_step(&b, &token, "subInfo", subscriber(&format!("12345678{n}"))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    }
    let before = stored_ssns(&app.pool).await;
    assert_eq!(before.len(), 3);
    let old = test_cipher();
    let new_key = base64::engine::general_purpose::STANDARD.encode([42u8; 32]);
    let old_key = base64::engine::general_purpose::STANDARD.encode(crate::helpers::TEST_KEY);
    let ring = Cipher::from_base64(&new_key)
        .expect("new")
        .with_older([old_key.as_str()])
        .expect("ring");
    let bundle = app.rules.current();
    // A document stored before documents were encrypted: the rotation encrypts it.
    let legacy_pdf = b"%PDF-1.4 stored in the clear by an older release";
    let docs_dir = app.state.config.documents_dir.clone();
    std::fs::create_dir_all(&docs_dir).expect("documents");
    std::fs::write(docs_dir.join("0123abcd"), legacy_pdf).expect("legacy file");
    sqlx::query(
        "INSERT INTO documents (id, application_id, storage_key, file_name, content_type,
                                size_bytes, created_at)
         VALUES ($1, $2, '0123abcd', 'proof.pdf', 'application/pdf', 49, now())",
    )
    .bind(uuid::Uuid::new_v4())
    .bind(before[0].0)
    .execute(&app.pool)
    .await
    .expect("document row");

    // A run stopped after its first batch, as a crash would leave it.
    let mut seen = Vec::new();
    let first = keys::rotate(
        &app.pool,
        &ring,
        &bundle.engine,
        &app.state.documents,
        Options {
            batch: 1,
            stop_after: Some(1),
        },
        |p| seen.push(p),
    )
    .await
    .expect("first run");
    assert!(!first.finished);
    assert_eq!(
        seen.last().map(|p| (p.done, p.total)),
        Some((1, 3)),
        "progress"
    );
    let half = stored_ssns(&app.pool).await;
    assert_eq!(
        half.iter().filter(|(_, v)| !ring.needs_rotation(v)).count(),
        1,
        "one batch done"
    );
    // The next run resumes after it and finishes.
    let second = keys::rotate(
        &app.pool,
        &ring,
        &bundle.engine,
        &app.state.documents,
        Options {
            batch: 1,
            stop_after: None,
        },
        |_| {},
    )
    .await
    .expect("second run");
    assert!(second.finished);
    assert_eq!(second.resumed_at, 1, "it resumed where the first stopped");
    assert_eq!(second.applications, 3);
    assert_eq!(second.documents, 1);
    let sealed = std::fs::read(docs_dir.join("0123abcd")).expect("document");
    assert!(!sealed.starts_with(b"%PDF"), "encrypted now");

    let only_new = Cipher::from_base64(&new_key).expect("new");
    for ((id, was), (_, now)) in before.iter().zip(stored_ssns(&app.pool).await) {
        assert!(now.starts_with(&format!("enc:v2:{}:", only_new.key_id())));
        assert_eq!(
            only_new
                .decrypt_bound(&now, &place(*id))
                .expect("new key reads it"),
            old.decrypt_bound(was, &place(*id))
                .expect("old key read it")
        );
        assert!(
            old.decrypt_bound(&now, &place(*id)).is_err(),
            "the old key is not needed"
        );
    }
    // Before the rotation a server read documents stored in clear; once it has finished, a server
    // starting refuses them (every one was encrypted by it), and a value of today still reads.
    let serving = keys::serving_cipher(&app.pool, only_new.clone())
        .await
        .expect("serving");
    assert!(
        serving.decrypt_bytes_bound(legacy_pdf, "anywhere").is_err(),
        "a document in clear is refused after the rotation"
    );
    let (id, now) = &stored_ssns(&app.pool).await[0];
    assert!(serving.decrypt_bound(now, &place(*id)).is_ok());
    let fresh = spawn_app().await;
    let before_any = keys::serving_cipher(&fresh.pool, only_new.clone())
        .await
        .expect("serving");
    assert_eq!(
        before_any
            .decrypt_bytes_bound(legacy_pdf, "anywhere")
            .expect("read before any rotation"),
        legacy_pdf
    );

    // A finished rotation run again changes nothing.
    let again = keys::rotate(
        &app.pool,
        &ring,
        &bundle.engine,
        &app.state.documents,
        Options::default(),
        |_| {},
    )
    .await
    .expect("again");
    assert!(again.finished);
    assert_eq!(again.applications, 0);
}
