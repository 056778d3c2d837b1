//! A backup of a seeded database and its documents restores into a new database
//! with every table's row count and the applications' checksum as they were.

use enrollflow_server::db;
use enrollflow_server::maintenance::backup;

use crate::helpers::{database_server, spawn_app_with};

/// The URL of the database `pool` is connected to, on the server DATABASE_URL names.
async fn url_of(pool: &sqlx::PgPool) -> (String, String) {
    let name: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(pool)
        .await
        .expect("name");
    let server = database_server();
    (server.clone(), format!("{server}/{name}"))
}

#[tokio::test]
async fn a_backup_of_a_seeded_database_restores_into_a_new_one_whole() {
    let documents = std::env::temp_dir().join(format!("enrollflow-docs-{}", uuid::Uuid::new_v4()));
    let d = documents.clone();
    let app = spawn_app_with(move |c| c.documents_dir = d).await;
    {
        use enrollflow_server::demo_data as generator;
        use enrollflow_server::platform::clock::Clock;
        let bundle = app.rules.current();
        let rules = generator::Rules {
            engine: &bundle.engine,
        };
        let opts = generator::Options::new(60, app.clock.today());
        generator::load(&app.pool, &rules, &opts)
            .await
            .expect("demo data loads");
    }
    std::fs::create_dir_all(&documents).expect("documents");
    std::fs::write(documents.join("0a1b2c"), b"%PDF-1.4 one").expect("document");
    std::fs::write(documents.join("3d4e5f"), b"%PDF-1.4 two").expect("document");

    let (server, url) = url_of(&app.pool).await;
    let store = enrollflow_server::documents::ObjectStore::LocalDisk(documents.clone());
    let key = enrollflow_server::security::sealed::BackupKey::random();
    let folder = std::env::temp_dir().join(format!("enrollflow-backup-{}", uuid::Uuid::new_v4()));
    let before = backup::backup(&app.pool, &url, &store, &folder, &key)
        .await
        .expect("backup");
    assert_eq!(before.tables.get("applications"), Some(&60));
    assert!(before.tables.get("agents").is_some_and(|n| *n > 0));
    assert_eq!(before.documents, 2);
    // Sealed, and readable by its owner only: no file holds a document or a name in clear.
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| p.metadata().expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&folder), 0o700);
        let dump = folder.join("database.dump.sealed");
        assert!(dump.metadata().expect("dump").len() > 0);
        assert_eq!(mode(&dump), 0o600);
        let mut files = vec![dump, folder.join("manifest.json.sealed")];
        for e in std::fs::read_dir(folder.join("documents")).expect("documents") {
            let path = e.expect("entry").path();
            assert_eq!(mode(&path), 0o600);
            files.push(path);
        }
        assert_eq!(files.len(), 4);
        for f in files {
            let bytes = std::fs::read(&f).expect("read");
            for clear in [&b"%PDF-1.4"[..], b"PGDMP", b"applications", b"Archer"] {
                assert!(
                    !bytes.windows(clear.len()).any(|w| w == clear),
                    "{} holds {:?} in clear",
                    f.display(),
                    String::from_utf8_lossy(clear)
                );
            }
        }
    }
    assert!(
        backup::backup(&app.pool, &url, &store, &folder, &key)
            .await
            .is_err(),
        "never over an earlier backup"
    );

    // Into a new, empty database and an empty document store.
    let name = format!("enrollflow_restore_{}", uuid::Uuid::new_v4().simple());
    let admin = db::connect_as_owner(&format!("{server}/postgres"))
        .await
        .expect("admin");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("create");
    let target_url = format!("{server}/{name}");
    let target = db::connect_as_owner(&target_url).await.expect("target");
    let restored_docs =
        std::env::temp_dir().join(format!("enrollflow-restored-{}", uuid::Uuid::new_v4()));
    let restored_store =
        enrollflow_server::documents::ObjectStore::LocalDisk(restored_docs.clone());
    // Another key opens nothing, and a changed dump is refused before anything is loaded.
    let wrong = backup::restore(
        &target,
        &target_url,
        &restored_store,
        &folder,
        &enrollflow_server::security::sealed::BackupKey::random(),
    )
    .await
    .expect_err("another key");
    assert!(wrong.to_string().contains("does not open"), "{wrong}");
    let dump = folder.join("database.dump.sealed");
    let whole = std::fs::read(&dump).expect("dump");
    let mut changed = whole.clone();
    let middle = changed.len() / 2;
    changed[middle] ^= 1;
    std::fs::write(&dump, &changed).expect("change");
    assert!(
        backup::restore(&target, &target_url, &restored_store, &folder, &key)
            .await
            .is_err()
    );
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .fetch_one(&target)
    .await
    .expect("tables");
    assert_eq!(tables, 0, "nothing of a changed dump was loaded");
    std::fs::write(&dump, &whole).expect("put back");
    let after = backup::restore(&target, &target_url, &restored_store, &folder, &key)
        .await
        .expect("restore");
    assert_eq!(after.tables, before.tables, "every table's row count");
    assert_eq!(
        after.applications, before.applications,
        "the applications, byte for byte"
    );
    assert_eq!(
        std::fs::read(restored_docs.join("3d4e5f")).expect("restored document"),
        b"%PDF-1.4 two"
    );
    // The checksum is over the rows' contents: a changed application changes it.
    sqlx::query("UPDATE applications SET revision = revision + 1 WHERE id = (SELECT id FROM applications ORDER BY id LIMIT 1)")
        .execute(&target)
        .await
        .expect("change");
    let changed = backup::fingerprint(&target, &restored_store)
        .await
        .expect("fingerprint");
    assert_ne!(changed.applications, before.applications);
    // A database that is not empty is refused.
    assert!(
        backup::restore(&target, &target_url, &restored_store, &folder, &key)
            .await
            .is_err()
    );
    target.close().await;
    sqlx::query(&format!("DROP DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("drop");
}

#[tokio::test]
async fn a_database_migrated_before_comments_were_reworded_still_starts() {
    use enrollflow_server::db::REWORDED;
    let app = spawn_app_with(|_| {}).await;
    let owner = sqlx::PgPool::connect_with((*app.pool.connect_options()).clone())
        .await
        .expect("the owner's connection");
    // As a database that ran the old text holds it: the old checksum of every reworded migration.
    for (version, old) in REWORDED {
        sqlx::query("UPDATE _sqlx_migrations SET checksum = decode($2, 'hex') WHERE version = $1")
            .bind(version)
            .bind(old)
            .execute(&owner)
            .await
            .expect("the old checksum");
    }
    db::migrate(&app.pool).await.expect("migrates again");
    for (version, _) in REWORDED {
        let stored: Vec<u8> =
            sqlx::query_scalar("SELECT checksum FROM _sqlx_migrations WHERE version = $1")
                .bind(version)
                .fetch_one(&owner)
                .await
                .expect("applied");
        let now = db::MIGRATOR
            .iter()
            .find(|m| m.version == *version)
            .expect("embedded");
        assert_eq!(stored, now.checksum.as_ref(), "migration {version}");
    }
    // Any other change to an applied migration still stops the start.
    sqlx::query("UPDATE _sqlx_migrations SET checksum = '\\x00'::bytea WHERE version = $1")
        .bind(REWORDED[0].0)
        .execute(&owner)
        .await
        .expect("a checksum nobody had");
    assert!(db::migrate(&app.pool).await.is_err());
}
