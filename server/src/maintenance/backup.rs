//! Backups that restore: `enrollflow backup --to DIR` writes the database in
//! pg_dump's custom format, every object of the document store (the local folder or the S3
//! bucket) and a manifest (every table's row count and a checksum of the applications), each file
//! sealed under the backup key (`crate::security::sealed`: AES-256-GCM, a key kept apart from the data key)
//! in a folder only its owner may read. `enrollflow restore --from DIR` opens them, refusing any
//! changed or cut file, loads them into an empty database and document store, and checks the
//! result against the manifest.
//!
//! The dump streams from pg_dump through the sealer to disk and back into pg_restore: it is never
//! on disk in clear. The database URL's password goes to pg_dump and pg_restore in `PGPASSWORD`,
//! never on their command line (where `ps` would show it).
//!
//! `server/tests/api/backup.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::db::PgPool;
use serde::{Deserialize, Serialize};

use crate::documents::ObjectStore;
use crate::security::sealed::{BackupKey, Sealer, seal_bytes, unseal_bytes};

/// The files of a backup folder (each sealed; the name is the sealed file's associated data).
const DUMP: &str = "database.dump.sealed";
const DOCUMENTS: &str = "documents";
const MANIFEST: &str = "manifest.json.sealed";

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
pub async fn fingerprint(pool: &PgPool, store: &ObjectStore) -> anyhow::Result<Fingerprint> {
    let (tables, applications) = crate::db::backup::snapshot(pool).await?;
    Ok(Fingerprint {
        tables,
        applications,
        documents: store.list().await?.len(),
    })
}

/// A new file only its owner may read or write.
fn owner_only_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

/// Writes `bytes` to a new file only its owner may read, synced.
fn write_owner_only(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = owner_only_file(path)?;
    std::io::Write::write_all(&mut f, bytes)?;
    f.sync_all()
}

/// A new folder only its owner may enter.
fn owner_only_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
}

/// A database URL without its password, and the password (percent-decoded).
pub fn without_password(url: &str) -> (String, Option<String>) {
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

/// pg_dump or pg_restore against `url`, its password in the environment.
fn tool(program: &str, args: &[&str], url: &str) -> std::process::Command {
    let (url, password) = without_password(url);
    let mut cmd = std::process::Command::new(program);
    cmd.args(args).arg("--dbname").arg(&url);
    if let Some(p) = password {
        cmd.env("PGPASSWORD", p);
    }
    cmd
}

fn finished(program: &str, child: std::process::Child) -> anyhow::Result<()> {
    let out = child.wait_with_output()?;
    anyhow::ensure!(
        out.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(())
}

fn spawned(program: &str, mut cmd: std::process::Command) -> anyhow::Result<std::process::Child> {
    cmd.spawn().map_err(|e| {
        anyhow::anyhow!("cannot run {program} (install PostgreSQL's client programs): {e}")
    })
}

/// pg_dump's output sealed into `path` as it comes.
fn dump_sealed(url: &str, key: &BackupKey, path: &Path) -> anyhow::Result<()> {
    let mut cmd = tool("pg_dump", &["--format=custom", "--no-owner"], url);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = spawned("pg_dump", cmd)?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| anyhow::anyhow!("pg_dump's output"))?;
    let mut sealer = Sealer::new(key, DUMP, std::io::BufWriter::new(owner_only_file(path)?))?;
    std::io::copy(&mut stdout, &mut sealer)?;
    sealer
        .finish()?
        .into_inner()
        .map_err(|e| e.into_error())?
        .sync_all()?;
    finished("pg_dump", child)
}

/// The sealed dump at `path` opened into pg_restore.
fn restore_sealed(url: &str, key: &BackupKey, path: &Path) -> anyhow::Result<()> {
    let mut cmd = tool(
        "pg_restore",
        &["--no-owner", "--exit-on-error", "--single-transaction"],
        url,
    );
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = spawned("pg_restore", cmd)?;
    let stdin = child
        .stdin
        .take()
        .ok_or_else(|| anyhow::anyhow!("pg_restore's input"))?;
    let opened = crate::security::sealed::unseal(
        key,
        DUMP,
        std::io::BufReader::new(std::fs::File::open(path)?),
        std::io::BufWriter::new(stdin),
    );
    if let Err(e) = opened {
        let _ = child.kill();
        let _ = child.wait();
        return Err(anyhow::anyhow!("{}: {e}", path.display()));
    }
    finished("pg_restore", child)
}

/// Writes a backup of the database at `url` and every object of the document store into `to`
/// (created, only its owner may read it; it must be empty), sealed under `key`. The documents are
/// copied after the dump, so a document uploaded meanwhile is kept too (an orphan file is
/// harmless; a missing one is not).
pub async fn backup(
    pool: &PgPool,
    url: &str,
    store: &ObjectStore,
    to: &Path,
    key: &BackupKey,
) -> anyhow::Result<Fingerprint> {
    owner_only_dir(to)?;
    anyhow::ensure!(
        std::fs::read_dir(to)?.next().is_none(),
        "{} is not empty: back up into a new folder",
        to.display()
    );
    let fingerprint = fingerprint(pool, store).await?;
    {
        let (url, key, dump) = (url.to_string(), key.clone(), to.join(DUMP));
        tokio::task::spawn_blocking(move || dump_sealed(&url, &key, &dump)).await??;
    }
    let documents = to.join(DOCUMENTS);
    owner_only_dir(&documents)?;
    for name in store.list().await? {
        let Some(bytes) = store.get(&name).await? else {
            continue;
        };
        write_owner_only(
            &documents.join(format!("{name}.sealed")),
            &seal_bytes(key, &name, &bytes)?,
        )?;
    }
    let manifest = Manifest {
        made_at: time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)?,
        fingerprint: fingerprint.clone(),
    };
    write_owner_only(
        &to.join(MANIFEST),
        &seal_bytes(key, MANIFEST, &serde_json::to_vec_pretty(&manifest)?)?,
    )?;
    Ok(fingerprint)
}

/// Loads the backup in `from`, opened with `key`, into the empty database at `url` and the
/// document store, then checks every table's row count, the applications' checksum and the
/// documents against the backup's manifest.
pub async fn restore(
    pool: &PgPool,
    url: &str,
    store: &ObjectStore,
    from: &Path,
    key: &BackupKey,
) -> anyhow::Result<Fingerprint> {
    let sealed = std::fs::read(from.join(MANIFEST))
        .map_err(|e| anyhow::anyhow!("{} is not a backup folder: {e}", from.display()))?;
    let manifest: Manifest = serde_json::from_slice(
        &unseal_bytes(key, MANIFEST, &sealed)
            .map_err(|e| anyhow::anyhow!("{}: {e}", from.join(MANIFEST).display()))?,
    )?;
    let tables = crate::db::backup::table_count(pool).await?;
    anyhow::ensure!(
        tables == 0,
        "the database is not empty ({tables} tables): restore into a new database"
    );
    {
        let (url, key, dump) = (url.to_string(), key.clone(), from.join(DUMP));
        tokio::task::spawn_blocking(move || restore_sealed(&url, &key, &dump)).await??;
    }
    let documents = from.join(DOCUMENTS);
    if documents.is_dir() {
        for entry in std::fs::read_dir(&documents)?.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some(name) = file.strip_suffix(".sealed") else {
                continue;
            };
            let bytes = unseal_bytes(key, name, &std::fs::read(entry.path())?)
                .map_err(|e| anyhow::anyhow!("{}: {e}", entry.path().display()))?;
            store.put(name, bytes).await?;
        }
    }
    let restored = fingerprint(pool, store).await?;
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
