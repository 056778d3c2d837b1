//! Uploaded documents (qualifying-event proof): bytes in an object store under random names, the
//! metadata in the `documents` table. Local disk by default; the store is an enum so a cloud object
//! store can be added beside it without touching the handlers.

use std::io::Write;
use std::path::{Path, PathBuf};

use rand::RngCore;

/// Where document bytes live.
#[derive(Debug, Clone)]
pub enum ObjectStore {
    /// A folder on local disk (one file per object; written to a temporary name, synced, renamed).
    LocalDisk(PathBuf),
}

impl ObjectStore {
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
        }
    }

    pub async fn get(&self, key: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self {
            ObjectStore::LocalDisk(dir) => match tokio::fs::read(object_path(dir, key)?).await {
                Ok(b) => Ok(Some(b)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            },
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
        }
    }
}

fn object_path(dir: &Path, key: &str) -> std::io::Result<PathBuf> {
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "object keys are hex",
        ));
    }
    Ok(dir.join(key))
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
