//! Backups that restore: `enrollflow backup --to DIR` writes the database in
//! pg_dump's custom format, a copy of the document store and a manifest (every table's row count
//! and a checksum of the applications); `enrollflow restore --from DIR` loads them into an empty
//! database and document store and checks the result against the manifest.
//!
//! The database URL's password goes to pg_dump and pg_restore in `PGPASSWORD`, never on their
//! command line (where `ps` would show it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;

/// The files of a backup folder.
const DUMP: &str = "database.dump";
const DOCUMENTS: &str = "documents";
const MANIFEST: &str = "manifest.json";

/// What a backup holds, to check a restore against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Rows per table of the `public` schema (the migrations' own table included).
    pub tables: BTreeMap<String, i64>,
    /// MD5 of every application row, whole (every column), in id order.
    pub applications: String,
    /// Files in the document store.
    pub documents: usize,
}

#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    made_at: String,
    fingerprint: Fingerprint,
}

/// Rows per table and the applications' checksum, read in one snapshot, and the documents.
pub async fn fingerprint(pool: &PgPool, documents_dir: &Path) -> anyhow::Result<Fingerprint> {
    let (tables, applications) = crate::db::backup::snapshot(pool).await?;
    Ok(Fingerprint {
        tables,
        applications,
        documents: count_files(documents_dir)?,
    })
}

fn count_files(dir: &Path) -> anyhow::Result<usize> {
    match std::fs::read_dir(dir) {
        Ok(entries) => Ok(entries
            .flatten()
            .filter(|e| e.path().is_file() && !e.file_name().to_string_lossy().starts_with('.'))
            .count()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e.into()),
    }
}

/// A database URL without its password, and the password (percent-decoded).
fn without_password(url: &str) -> (String, Option<String>) {
    let Some((scheme, rest)) = url.split_once("://") else {
        return (url.to_string(), None);
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let Some((userinfo, host)) = authority.rsplit_once('@') else {
        return (url.to_string(), None);
    };
    let Some((user, password)) = userinfo.split_once(':') else {
        return (url.to_string(), None);
    };
    (
        format!("{scheme}://{user}@{host}{path}"),
        Some(percent_decode(password)),
    )
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| s.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

async fn run_tool(program: &str, args: &[&str], url: &str) -> anyhow::Result<()> {
    let (url, password) = without_password(url);
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args)
        .arg("--dbname")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(p) = password {
        cmd.env("PGPASSWORD", p);
    }
    let out = cmd.output().await.map_err(|e| {
        anyhow::anyhow!("cannot run {program} (install PostgreSQL's client programs): {e}")
    })?;
    anyhow::ensure!(
        out.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(())
}

fn copy_files(from: &Path, to: &Path) -> anyhow::Result<usize> {
    std::fs::create_dir_all(to)?;
    let mut n = 0;
    let entries = match std::fs::read_dir(from) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e.into()),
    };
    for e in entries.flatten() {
        let name = e.file_name();
        if e.path().is_file() && !name.to_string_lossy().starts_with('.') {
            std::fs::copy(e.path(), to.join(&name))?;
            n += 1;
        }
    }
    Ok(n)
}

/// Writes a backup of the database at `url` and the documents under `documents_dir` into `to`
/// (created; it must be empty). The documents are copied after the dump, so a document uploaded
/// meanwhile is kept too (an orphan file is harmless; a missing one is not).
pub async fn backup(
    pool: &PgPool,
    url: &str,
    documents_dir: &Path,
    to: &Path,
) -> anyhow::Result<Fingerprint> {
    std::fs::create_dir_all(to)?;
    anyhow::ensure!(
        std::fs::read_dir(to)?.next().is_none(),
        "{} is not empty: back up into a new folder",
        to.display()
    );
    let fingerprint = fingerprint(pool, documents_dir).await?;
    let dump = to.join(DUMP);
    let dump_arg = dump.to_string_lossy().into_owned();
    run_tool(
        "pg_dump",
        &["--format=custom", "--no-owner", "--file", &dump_arg],
        url,
    )
    .await?;
    copy_files(documents_dir, &to.join(DOCUMENTS))?;
    let manifest = Manifest {
        made_at: time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)?,
        fingerprint: fingerprint.clone(),
    };
    std::fs::write(to.join(MANIFEST), serde_json::to_vec_pretty(&manifest)?)?;
    Ok(fingerprint)
}

/// Loads the backup in `from` into the empty database at `url` and the document store
/// `documents_dir`, then checks every table's row count and the applications' checksum against
/// the backup's manifest.
pub async fn restore(
    pool: &PgPool,
    url: &str,
    documents_dir: &Path,
    from: &Path,
) -> anyhow::Result<Fingerprint> {
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(from.join(MANIFEST))
            .map_err(|e| anyhow::anyhow!("{} is not a backup folder: {e}", from.display()))?,
    )?;
    let tables = crate::db::backup::table_count(pool).await?;
    anyhow::ensure!(
        tables == 0,
        "the database is not empty ({tables} tables): restore into a new database"
    );
    let dump = from.join(DUMP).to_string_lossy().into_owned();
    run_tool(
        "pg_restore",
        &[
            "--no-owner",
            "--exit-on-error",
            "--single-transaction",
            &dump,
        ],
        url,
    )
    .await?;
    copy_files(&from.join(DOCUMENTS), documents_dir)?;
    let restored = fingerprint(pool, documents_dir).await?;
    anyhow::ensure!(
        restored.tables == manifest.fingerprint.tables
            && restored.applications == manifest.fingerprint.applications,
        "the restored database differs from the backup's manifest"
    );
    anyhow::ensure!(
        restored.documents >= manifest.fingerprint.documents,
        "documents are missing after the restore: {} of {}",
        restored.documents,
        manifest.fingerprint.documents
    );
    Ok(restored)
}

/// The folder a backup is written to by default: `backups/YYYYMMDDTHHMMSSZ`.
pub fn default_folder() -> PathBuf {
    let now = time::OffsetDateTime::now_utc();
    PathBuf::from("backups").join(format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
        now.year(),
        u8::from(now.month()),
        now.day(),
        now.hour(),
        now.minute(),
        now.second()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_leaves_the_url_for_the_environment() {
        assert_eq!(
            without_password(
                "postgres://app:p%40ss@db.internal:5432/enrollflow?sslmode=verify-full"
            ),
            (
                "postgres://app@db.internal:5432/enrollflow?sslmode=verify-full".to_string(),
                Some("p@ss".to_string())
            )
        );
        assert_eq!(
            without_password("postgresql://root@127.0.0.1:5432/x"),
            ("postgresql://root@127.0.0.1:5432/x".to_string(), None)
        );
    }
}
