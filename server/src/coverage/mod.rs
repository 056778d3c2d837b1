//! Doctors and drugs: which plans cover a provider (by NPI) or a drug (by RxNorm id), from the
//! issuers' machine-readable files in the CMS format, loaded by `enrollflow import-coverage`.
//!
//! - An import reads and checks every issuer's files before it writes anything; one malformed file
//!   (named with its line) refuses the whole import, and the database keeps what it had.
//! - It is idempotent and incremental: an issuer whose files are unchanged since its last import
//!   is skipped; a changed one is replaced whole.
//! - Each issuer keeps the date its files are as of (the newest `last_updated_on`), which
//!   consumers see beside the answers.

pub mod lookup;
pub mod read;

use std::path::{Path, PathBuf};

use crate::db::PgPool;
use time::OffsetDateTime;

use crate::db::coverage as db;
pub use read::{FileError, IssuerFiles};

/// What an import did for one issuer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// Its files were loaded: the counts.
    Loaded {
        issuer_id: String,
        plans: usize,
        providers: usize,
        drugs: usize,
    },
    /// Its files are those already loaded.
    Unchanged { issuer_id: String },
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{0}")]
    Input(String),
    #[error("two inputs give issuer {0}: give each issuer's files once")]
    IssuerTwice(String),
    #[error(transparent)]
    Database(#[from] crate::db::Error),
}

const INDEX: &str = "cms-data-index.json";

/// The issuers' files of the inputs: a folder holds one `cms-data-index.json` per issuer (in it
/// or in its subfolders); an index names its issuer's files; other files given one by one are one
/// issuer's, told apart by name (`plans*.json`, `providers*.json`, `drugs*.json`).
pub fn gather(inputs: &[PathBuf]) -> Result<Vec<IssuerFiles>, ImportError> {
    let mut out = Vec::new();
    let mut loose = IssuerFiles::default();
    for input in inputs {
        if input.is_dir() {
            let mut indexes = Vec::new();
            find_indexes(input, 0, &mut indexes)?;
            if indexes.is_empty() {
                return Err(ImportError::Input(format!(
                    "{}: no {INDEX} in this folder or its subfolders",
                    input.display()
                )));
            }
            for i in indexes {
                out.push(read::from_index(&i)?);
            }
        } else if input.file_name().is_some_and(|n| n == INDEX) {
            out.push(read::from_index(input)?);
        } else if input.is_file() {
            let name = input
                .file_name()
                .map(|n| n.to_string_lossy().to_lowercase())
                .unwrap_or_default();
            let list = if name.starts_with("plans") {
                &mut loose.plans
            } else if name.starts_with("providers") {
                &mut loose.providers
            } else if name.starts_with("drugs") {
                &mut loose.drugs
            } else {
                return Err(ImportError::Input(format!(
                    "{}: not a folder, an index ({INDEX}) or a plans, providers or drugs file",
                    input.display()
                )));
            };
            list.push(input.clone());
        } else {
            return Err(ImportError::Input(format!(
                "{}: no such file or folder",
                input.display()
            )));
        }
    }
    if !loose.plans.is_empty() || !loose.providers.is_empty() || !loose.drugs.is_empty() {
        if loose.plans.is_empty() {
            return Err(ImportError::Input(
                "the files given one by one need their issuer's plans file (plans*.json)".into(),
            ));
        }
        out.push(loose);
    }
    Ok(out)
}

fn find_indexes(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<(), ImportError> {
    let here = dir.join(INDEX);
    if here.is_file() {
        out.push(here);
        return Ok(());
    }
    if depth >= 2 {
        return Ok(());
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ImportError::Input(format!("{}: {e}", dir.display())))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    for d in subdirs {
        find_indexes(&d, depth + 1, out)?;
    }
    Ok(())
}

/// Reads every issuer's files, then loads the changed ones in one transaction.
pub async fn import(
    pool: &PgPool,
    issuers: &[IssuerFiles],
    now: OffsetDateTime,
) -> Result<Vec<Imported>, ImportError> {
    // Everything is read and checked before anything is written.
    let mut read_all = Vec::new();
    let mut out = Vec::new();
    for files in issuers {
        let digest = read::digest(files)?;
        // Files already loaded as they are now were checked then: they are not read again.
        if let Some(issuer_id) = db::issuer_with_digest(pool, &digest).await? {
            out.push(Imported::Unchanged { issuer_id });
            continue;
        }
        let data = read::issuer(files)?;
        if read_all
            .iter()
            .any(|(d, _): &(db::IssuerData, String)| d.issuer_id == data.issuer_id)
        {
            return Err(ImportError::IssuerTwice(data.issuer_id));
        }
        read_all.push((data, digest));
    }
    let mut tx = pool.begin().await?;
    let mut changed = false;
    for (data, digest) in &read_all {
        db::replace_issuer(&mut tx, data, digest, now).await?;
        changed = true;
        out.push(Imported::Loaded {
            issuer_id: data.issuer_id.clone(),
            plans: data.plans.len(),
            providers: data.providers.len(),
            drugs: data.drugs.len(),
        });
    }
    if changed {
        db::drop_unlisted(&mut tx).await?;
    }
    tx.commit().await?;
    Ok(out)
}
