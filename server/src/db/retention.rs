//! Abandoned quotes (`crate::maintenance::retention`): found, deleted or anonymized in batches.

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

/// Unsubmitted applications not saved since `before` and not anonymized yet, the oldest created
/// first. They are found by their creation (an application not saved since `before` was created
/// before it), whose index a save never touches: an index on `updated_at`, which every save sets,
/// would keep every save from being a HOT update (migration 26).
pub async fn abandoned(
    pool: &PgPool,
    before: OffsetDateTime,
    limit: i64,
) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar(
        "SELECT id FROM applications
         WHERE submission_time IS NULL AND anonymized_at IS NULL
           AND created_at < $1 AND updated_at < $1
         ORDER BY created_at LIMIT $2",
    )
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Deletes the applications (still abandoned: a save since the search keeps one) with their
/// documents' rows; answers how many and the storage keys of the documents that went with them.
/// One application a statement: a deletion moves the application's per-day and per-name counts
/// (migrations 24 and 28), whose triggers lock the counts of one application in one order (the
/// day's, then the name's, each pair sorted), as every save does. A statement deleting many
/// applications would take the counts of one after another's, an order a concurrent save could
/// cross, and one of the two would be stopped as a deadlock (the save could be a purchase).
pub async fn delete(
    pool: &PgPool,
    ids: &[Uuid],
    before: OffsetDateTime,
) -> sqlx::Result<(i64, Vec<String>)> {
    let mut done = 0;
    let mut keys = Vec::new();
    for id in ids {
        // The SELECT sees the documents as they were before the statement's cascade.
        let (n, mut gone): (i64, Vec<String>) = sqlx::query_as(
            "WITH gone AS (
                 DELETE FROM applications
                 WHERE id = $1 AND submission_time IS NULL AND updated_at < $2
                 RETURNING id)
             SELECT (SELECT count(*) FROM gone),
                    coalesce((SELECT array_agg(d.storage_key) FROM documents d
                              WHERE d.application_id IN (SELECT id FROM gone)), '{}')",
        )
        .bind(id)
        .bind(before)
        .fetch_one(pool)
        .await?;
        done += n;
        keys.append(&mut gone);
    }
    Ok((done, keys))
}

/// Empties the applications' answers and summary (names, addresses, SSNs, the household) and
/// removes their documents' rows and links; keeps the typed columns the statistics count.
/// Answers how many and the storage keys of the removed documents. One application a
/// statement, for the reason [`delete`] gives (emptying the answers moves the counts too).
pub async fn anonymize(
    pool: &PgPool,
    ids: &[Uuid],
    before: OffsetDateTime,
    now: OffsetDateTime,
) -> sqlx::Result<(i64, Vec<String>)> {
    let mut done = 0;
    let mut keys = Vec::new();
    for id in ids {
        // One statement: the documents, links and uploads go only with an application emptied by
        // it (one saved since the search, submitted or already anonymized is left as it is).
        let (n, mut gone): (i64, Vec<String>) = sqlx::query_as(
            "WITH emptied AS (
                 UPDATE applications
                 SET data = '{}'::jsonb, summary = '{}'::jsonb, anonymized_at = $3
                 WHERE id = $1 AND submission_time IS NULL AND anonymized_at IS NULL
                   AND updated_at < $2
                 RETURNING id),
             documents_gone AS (
                 DELETE FROM documents WHERE application_id IN (SELECT id FROM emptied)
                 RETURNING storage_key),
             links_gone AS (
                 DELETE FROM application_links WHERE application_id IN (SELECT id FROM emptied)),
             uploads_gone AS (
                 DELETE FROM document_uploads WHERE application_id IN (SELECT id FROM emptied))
             SELECT (SELECT count(*) FROM emptied),
                    coalesce((SELECT array_agg(storage_key) FROM documents_gone), '{}')",
        )
        .bind(id)
        .bind(before)
        .bind(now)
        .fetch_one(pool)
        .await?;
        done += n;
        keys.append(&mut gone);
    }
    Ok((done, keys))
}
