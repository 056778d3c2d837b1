//! Uploaded documents (qualifying-event proof): bytes in an object store under random names, the
//! metadata in the `documents` table. Local disk by default; with `ENROLLFLOW_DOCUMENT_STORE=
//! s3://bucket` an S3-compatible bucket (AWS S3, MinIO, …) through the `object_store` crate, so
//! every instance reads what any instance stored. Either way the bytes are encrypted under the data
//! key before they leave the process (`put_encrypted`).
//!
//! `ObjectStore::LocalDisk` writes a temporary file, syncs and renames it; `ObjectStore::S3` goes
//! through `object_store`; keys are random hex. The bytes are bound to their application and object
//! (`put_encrypted`, `get_decrypted`). Also the quota (10 files, 30 MB per application: migration
//! 23's `document_uploads`), the PDF check and file-name cleaning. `server/tests/api/documents.rs`
//! (the S3 test runs against the moto server `scripts/with-s3.sh` starts).
//!
//! Beside it: the purchase's evidence packet (`evidence`), its signature (`signing`) and the PDF
//! layout helper (`pdf`).

pub mod evidence;
pub mod pdf;
pub mod signing;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use object_store::ObjectStoreExt as _;
use rand::RngCore;

/// Where document bytes live.
#[derive(Debug, Clone)]
pub enum ObjectStore {
    /// A folder on local disk (one file per object; written to a temporary name, synced, renamed).
    LocalDisk(PathBuf),
    /// An S3-compatible bucket (a PUT is whole or nothing).
    S3(Arc<dyn object_store::ObjectStore>),
}

fn other(e: object_store::Error) -> std::io::Error {
    std::io::Error::other(e)
}

impl ObjectStore {
    /// The store `ENROLLFLOW_DOCUMENT_STORE` names: `s3://bucket` (credentials, region and endpoint
    /// from the usual `AWS_*` variables: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_REGION`, `AWS_ENDPOINT_URL` for MinIO and the like), or the local folder without it.
    pub fn from_config(documents_dir: &Path, store: Option<&str>) -> anyhow::Result<Self> {
        let Some(url) = store.map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(ObjectStore::LocalDisk(documents_dir.to_path_buf()));
        };
        let bucket = url
            .strip_prefix("s3://")
            .map(|b| b.trim_end_matches('/'))
            .filter(|b| !b.is_empty() && !b.contains('/'))
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "ENROLLFLOW_DOCUMENT_STORE must be s3://bucket (or unset: the folder)"
                )
            })?;
        crate::security::crypto::install_tls_provider();
        let s3 = object_store::aws::AmazonS3Builder::from_env()
            .with_bucket_name(bucket)
            .build()
            .map_err(|e| anyhow::anyhow!("ENROLLFLOW_DOCUMENT_STORE: {e}"))?;
        Ok(ObjectStore::S3(Arc::new(s3)))
    }

    /// A fresh random object key (128 bits, hex): never derived from the file's name or owner.
    pub fn new_key() -> String {
        let mut b = [0u8; 16];
        rand::rng().fill_bytes(&mut b);
        hex::encode(b)
    }

    /// Stores an object whole, or not at all.
    pub async fn put(&self, key: &str, bytes: Vec<u8>) -> std::io::Result<()> {
        match self {
            ObjectStore::LocalDisk(dir) => {
                let dir = dir.clone();
                let key = key.to_string();
                tokio::task::spawn_blocking(move || write_atomically(&dir, &key, &bytes))
                    .await
                    .map_err(std::io::Error::other)?
            }
            ObjectStore::S3(store) => store
                .put(&object_key(key)?, bytes.into())
                .await
                .map(|_| ())
                .map_err(other),
        }
    }

    pub async fn get(&self, key: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self {
            ObjectStore::LocalDisk(dir) => match tokio::fs::read(object_path(dir, key)?).await {
                Ok(b) => Ok(Some(b)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            },
            ObjectStore::S3(store) => match store.get(&object_key(key)?).await {
                Ok(found) => Ok(Some(found.bytes().await.map_err(other)?.to_vec())),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(other(e)),
            },
        }
    }

    /// Every object's key (what a backup copies).
    pub async fn list(&self) -> std::io::Result<Vec<String>> {
        match self {
            ObjectStore::LocalDisk(dir) => {
                let mut keys = Vec::new();
                let entries = match std::fs::read_dir(dir) {
                    Ok(e) => e,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(keys),
                    Err(e) => return Err(e),
                };
                for e in entries.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if e.path().is_file() && !name.starts_with('.') && checked(&name).is_ok() {
                        keys.push(name);
                    }
                }
                keys.sort();
                Ok(keys)
            }
            ObjectStore::S3(store) => {
                use futures_util::TryStreamExt as _;
                let prefix = object_store::path::Path::from("documents");
                let metas: Vec<object_store::ObjectMeta> = store
                    .list(Some(&prefix))
                    .try_collect()
                    .await
                    .map_err(other)?;
                let mut keys: Vec<String> = metas
                    .iter()
                    .filter_map(|m| m.location.filename().map(str::to_string))
                    .filter(|k| checked(k).is_ok())
                    .collect();
                keys.sort();
                Ok(keys)
            }
        }
    }

    pub async fn delete(&self, key: &str) -> std::io::Result<()> {
        match self {
            ObjectStore::LocalDisk(dir) => {
                match tokio::fs::remove_file(object_path(dir, key)?).await {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                    _ => Ok(()),
                }
            }
            ObjectStore::S3(store) => match store.delete(&object_key(key)?).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(e) => Err(other(e)),
            },
        }
    }
}

fn checked(key: &str) -> std::io::Result<&str> {
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "object keys are hex",
        ));
    }
    Ok(key)
}

fn object_path(dir: &Path, key: &str) -> std::io::Result<PathBuf> {
    Ok(dir.join(checked(key)?))
}

/// A bucket's object name: the key under `documents/`.
fn object_key(key: &str) -> std::io::Result<object_store::path::Path> {
    Ok(object_store::path::Path::from(format!(
        "documents/{}",
        checked(key)?
    )))
}

fn write_atomically(dir: &Path, key: &str, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let path = object_path(dir, key)?;
    let tmp = dir.join(format!(".{key}.tmp"));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The largest upload (spec part 2, section 5: 3 MB).
pub const MAX_BYTES: usize = 3 * 1024 * 1024;

/// Uploads one application may make, replaced ones included.
pub const QUOTA_FILES: i32 = 10;
/// Bytes one application may upload in all, replaced ones included.
pub const QUOTA_BYTES: i64 = 30 * 1024 * 1024;

/// The associated data binding a stored document to its application and its object.
pub fn place(application: uuid::Uuid, storage_key: &str) -> String {
    format!("{application}:document:{storage_key}")
}

impl ObjectStore {
    /// Stores a document encrypted under the current data key, bound to its application.
    pub async fn put_encrypted(
        &self,
        cipher: &crate::security::crypto::Cipher,
        application: uuid::Uuid,
        key: &str,
        plain: &[u8],
    ) -> anyhow::Result<()> {
        let sealed = cipher.encrypt_bytes_bound(plain, &place(application, key))?;
        self.put(key, sealed).await?;
        Ok(())
    }

    /// A stored document's bytes, decrypted (a file from before encryption as it is).
    pub async fn get_decrypted(
        &self,
        cipher: &crate::security::crypto::Cipher,
        application: uuid::Uuid,
        key: &str,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        match self.get(key).await? {
            Some(stored) => Ok(Some(
                cipher.decrypt_bytes_bound(&stored, &place(application, key))?,
            )),
            None => Ok(None),
        }
    }

    /// Removes objects whose rows are gone (replaced or deleted documents); a failure is logged
    /// and left (an orphan object is unreadable without its row and costs only space).
    pub async fn delete_all(&self, keys: &[String]) {
        for key in keys {
            if let Err(e) = self.delete(key).await {
                tracing::warn!(error = %e, "could not remove a document no longer used");
            }
        }
    }
}

/// Whether the bytes are a PDF (they start with the `%PDF-` header).
pub fn is_pdf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"%PDF-")
}

/// A file name fit to store and show: its last path segment, no control characters, at most 120
/// characters; `document.pdf` when nothing is left.
pub fn clean_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let cleaned: String = base.chars().filter(|c| !c.is_control()).take(120).collect();
    let cleaned = cleaned.trim().to_string();
    if cleaned.is_empty() || cleaned == "." || cleaned == ".." {
        "document.pdf".into()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_pdf_header_makes_a_pdf() {
        assert!(is_pdf(b"%PDF-1.7\n..."));
        assert!(!is_pdf(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_pdf(b" %PDF-1.7"));
        assert!(!is_pdf(b""));
    }

    #[test]
    fn file_names_lose_paths_and_control_characters() {
        assert_eq!(clean_file_name("C:\\Users\\ann\\proof.pdf"), "proof.pdf");
        assert_eq!(clean_file_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_file_name("a\u{0}b\nc.pdf"), "abc.pdf");
        assert_eq!(clean_file_name(".."), "document.pdf");
        assert_eq!(clean_file_name(&"x".repeat(300)).len(), 120);
    }

    #[tokio::test]
    async fn objects_are_written_whole_read_back_and_deleted() {
        let dir = std::env::temp_dir().join(format!("enrollflow-store-{}", ObjectStore::new_key()));
        let store = ObjectStore::LocalDisk(dir.clone());
        let key = ObjectStore::new_key();
        store
            .put(&key, b"%PDF-1.4 hello".to_vec())
            .await
            .expect("put");
        assert_eq!(
            store.get(&key).await.expect("get").as_deref(),
            Some(&b"%PDF-1.4 hello"[..])
        );
        assert!(std::fs::read_dir(&dir).expect("dir").all(|e| {
            !e.expect("entry")
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        }));
        store.delete(&key).await.expect("delete");
        assert_eq!(store.get(&key).await.expect("get"), None);
        assert!(store.get("../x").await.is_err(), "keys cannot name paths");
        let _ = std::fs::remove_dir_all(dir);
    }
}
