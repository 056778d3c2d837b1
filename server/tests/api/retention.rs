//! Abandoned quotes are deleted or anonymized after the set days, their
//! documents with them; submitted applications and recent quotes are kept.

use serde_json::json;

use enrollflow_server::maintenance::retention::{self, Action};

use crate::helpers::{TestApp, put, spawn_app_with};

/// A quote with a name (census) saved now on a new session; its id.
async fn quote(app: &TestApp) -> uuid::Uuid {
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = put(
        &b,
        &token,
        "/api/application/step/whyApplying",
        json!({ "enrollment_type": "oe" }),
    )
    .await;
    assert_eq!(r.status, reqwest::StatusCode::OK, "{}", r.body);
    r.json()["application"]["applicationId"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("application id")
}

async fn age(app: &TestApp, id: uuid::Uuid, days: i64) {
    sqlx::query(
        "UPDATE applications SET updated_at = updated_at - make_interval(days => $2::int),
                created_at = created_at - make_interval(days => $2::int),
                data = data || '{\"census\": {\"sub_first_name\": \"Ann\"}}'::jsonb,
                summary = '{\"first_name\": \"Ann\"}'::jsonb
         WHERE id = $1",
    )
    .bind(id)
    .bind(days as i32)
    .execute(&app.pool)
    .await
    .expect("age");
}

#[tokio::test]
async fn abandoned_quotes_are_anonymized_or_deleted_with_their_documents() {
    let dir = std::env::temp_dir().join(format!("enrollflow-docs-{}", uuid::Uuid::new_v4()));
    let d = dir.clone();
    let app = spawn_app_with(move |c| c.documents_dir = d).await;
    let old = quote(&app).await;
    let recent = quote(&app).await;
    let old_submitted = quote(&app).await;
    age(&app, old, 100).await;
    age(&app, recent, 10).await;
    age(&app, old_submitted, 100).await;
    sqlx::query("UPDATE applications SET submission_time = now() WHERE id = $1")
        .bind(old_submitted)
        .execute(&app.pool)
        .await
        .expect("submit");
    // The old quote has a stored document.
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("abc123"), b"sealed").expect("file");
    sqlx::query(
        "INSERT INTO documents (id, application_id, storage_key, file_name, content_type,
                                size_bytes, created_at)
         VALUES ($1, $2, 'abc123', 'proof.pdf', 'application/pdf', 6, now())",
    )
    .bind(uuid::Uuid::new_v4())
    .bind(old)
    .execute(&app.pool)
    .await
    .expect("document");
    // And a hand-off link and its upload count; the recent quote has the same.
    for id in [old, recent] {
        sqlx::query(
            "INSERT INTO application_links (token_hash, application_id, agent_id, purpose,
                                            created_at, expires_at)
             SELECT sha256(id::text::bytea), id, agent_id, 'handoff', now(), now() + interval '1 day'
             FROM applications WHERE id = $1",
        )
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("link");
        sqlx::query(
            "INSERT INTO document_uploads (application_id, uploads, bytes) VALUES ($1, 1, 6)",
        )
        .bind(id)
        .execute(&app.pool)
        .await
        .expect("uploads");
    }

    let terms = |id| {
        sqlx::query_scalar::<_, String>("SELECT terms FROM application_search WHERE id = $1")
            .bind(id)
            .fetch_one(&app.pool)
    };
    assert!(terms(old).await.expect("the search row").starts_with("ann"));

    let n = retention::run_once(&app.state.retention(), 90, Action::Anonymize)
        .await
        .expect("anonymize");
    assert_eq!(n, 1, "only the quote abandoned for over 90 days");
    let (data, summary, anonymized): (serde_json::Value, serde_json::Value, bool) = sqlx::query_as(
        "SELECT data, summary, anonymized_at IS NOT NULL FROM applications WHERE id = $1",
    )
    .bind(old)
    .fetch_one(&app.pool)
    .await
    .expect("row");
    assert!(anonymized);
    assert_eq!(
        (data, summary),
        (json!({}), json!({})),
        "no answers, no name"
    );
    // Nor does the dashboard's search table (migration 27) keep the name.
    let terms = terms(old).await.expect("the search row");
    assert!(!terms.contains("ann"), "{terms:?}");
    assert!(!dir.join("abc123").exists(), "its document is gone");
    let docs: i64 = sqlx::query_scalar("SELECT count(*) FROM documents")
        .fetch_one(&app.pool)
        .await
        .expect("count");
    assert_eq!(docs, 0);
    // Its link and upload count went with its answers; the recent quote's stay.
    for sql in [
        "SELECT coalesce(array_agg(application_id), '{}') FROM application_links",
        "SELECT coalesce(array_agg(application_id), '{}') FROM document_uploads",
    ] {
        let kept: Vec<uuid::Uuid> = sqlx::query_scalar(sql)
            .fetch_one(&app.pool)
            .await
            .expect(sql);
        assert_eq!(kept, vec![recent], "{sql}");
    }
    // A second pass finds nothing more to do.
    assert_eq!(
        retention::run_once(&app.state.retention(), 90, Action::Anonymize)
            .await
            .expect("again"),
        0
    );

    // Deleting: the anonymized row is abandoned too; the recent quote and the submission stay.
    let n = retention::run_once(&app.state.retention(), 5, Action::Delete)
        .await
        .expect("delete");
    assert_eq!(n, 1, "the recent quote, abandoned for over 5 days");
    let left: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT id FROM applications ORDER BY id")
        .fetch_all(&app.pool)
        .await
        .expect("ids");
    let mut expected = vec![old, old_submitted];
    expected.sort();
    assert_eq!(left, expected);
    let searched: Vec<uuid::Uuid> =
        sqlx::query_scalar("SELECT id FROM application_search ORDER BY id")
            .fetch_all(&app.pool)
            .await
            .expect("search ids");
    assert_eq!(searched, expected, "the search table follows the deletions");

    let m = app.metrics().await;
    for expected in [
        r#"enrollflow_retention_applications_total{action="anonymized"}"#,
        r#"enrollflow_retention_applications_total{action="deleted"}"#,
        "enrollflow_retention_last_run_timestamp_seconds",
    ] {
        assert!(m.contains(expected), "{expected} in {m}");
    }
}

/// A save sets the application's answers, summary, time, revision and rules (db::applications);
/// an index on any of them would keep every save from being a HOT update, writing an entry in
/// each of the table's indexes (migration 23's index on `updated_at` did, and a
/// save wrote 1,855 WAL bytes instead of 198).
#[tokio::test]
async fn no_index_of_the_applications_reads_what_every_save_writes() {
    let app = spawn_app_with(|_| {}).await;
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT pg_get_indexdef(indexrelid) FROM pg_index
         WHERE indrelid = 'applications'::regclass",
    )
    .fetch_all(&app.pool)
    .await
    .expect("the indexes");
    assert!(indexes.len() > 5, "{indexes:?}");
    let every_save = ["data", "summary", "updated_at", "revision", "rules_hash"];
    for index in &indexes {
        let words: Vec<&str> = index
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        for column in every_save {
            assert!(
                !words.contains(&column),
                "{index} reads {column}, which every save writes"
            );
        }
    }
}

/// A trigger's condition (`WHEN`) on the applications is worked out at every
/// save. One that calls a function of the schema's own runs it through PostgreSQL's SQL-function
/// executor, set up again for each save: migration 27's search trigger built the search row twice
/// that way, half of PostgreSQL's CPU per save (docs/performance.md). Conditions compare columns.
#[tokio::test]
async fn no_trigger_condition_of_the_applications_calls_a_function_of_the_schema() {
    let app = spawn_app_with(|_| {}).await;
    let triggers: Vec<String> = sqlx::query_scalar(
        "SELECT pg_get_triggerdef(oid) FROM pg_trigger
         WHERE tgrelid = 'applications'::regclass AND NOT tgisinternal AND tgqual IS NOT NULL",
    )
    .fetch_all(&app.pool)
    .await
    .expect("the triggers");
    let functions: Vec<String> = sqlx::query_scalar(
        "SELECT proname::text FROM pg_proc
         WHERE pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())",
    )
    .fetch_all(&app.pool)
    .await
    .expect("the schema's functions");
    assert!(triggers.len() >= 4, "{triggers:?}");
    assert!(
        functions.iter().any(|f| f == "application_search_keep"),
        "{functions:?}"
    );
    for trigger in &triggers {
        let condition = trigger
            .split_once(" WHEN ")
            .and_then(|(_, rest)| rest.split_once(" EXECUTE FUNCTION "))
            .map(|(when, _)| when)
            .unwrap_or_else(|| panic!("no condition in {trigger}"));
        for function in &functions {
            assert!(
                !condition.contains(&format!("{function}(")),
                "{trigger} calls {function} at every save"
            );
        }
    }
}
