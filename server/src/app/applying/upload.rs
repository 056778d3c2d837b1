//! Attaching a qualifying-event document to an application: the bytes are stored first,
//! encrypted and bound to the application and the object; then the document's row and the
//! application's answers change in one transaction. A failure on the way removes the stored
//! object again, so nothing half-done remains; the documents a new one replaces are removed
//! once it is saved. An application has an upload quota and takes none once submitted.

use uuid::Uuid;

use super::Handles;
use crate::db::applications::{self, Attached, NewDocument};
use crate::documents::{self, ObjectStore};

/// A document as it was attached.
pub struct Upload<'a> {
    pub application: Uuid,
    /// The step whose answers show the file's name.
    pub step: &'a str,
    pub file_name: &'a str,
    pub bytes: &'a [u8],
}

/// What was attached: the document's id and the application's new revision.
#[derive(Debug)]
pub struct Attachment {
    pub document_id: Uuid,
    pub revision: i64,
}

/// Why nothing was attached (and nothing kept).
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The object store refused the bytes.
    #[error(
        "Your document could not be saved. Please try again, or send it using one of the \
             methods below."
    )]
    NotStored,
    #[error("This application has used its {files} uploads ({megabytes} MB). Please send further \
             documents using one of the methods below.",
            files = documents::QUOTA_FILES, megabytes = documents::QUOTA_BYTES / (1024 * 1024))]
    OverQuota,
    /// The application has been submitted.
    #[error("the application has been submitted")]
    Submitted,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(UploadError);

/// Attaches `u` (see the module's comment).
pub async fn attach(h: &Handles<'_>, u: &Upload<'_>) -> Result<Attachment, UploadError> {
    let key = ObjectStore::new_key();
    let size = i32::try_from(u.bytes.len()).map_err(anyhow::Error::new)?;
    // The file's fingerprint, listed in the purchase's evidence packet.
    let sha256 = crate::documents::evidence::sha256(u.bytes);
    if let Err(e) = h
        .documents
        .put_encrypted(h.cipher, u.application, &key, u.bytes)
        .await
    {
        tracing::error!(error = %e, "document store write failed");
        return Err(UploadError::NotStored);
    }
    let document_id = Uuid::new_v4();
    let document = NewDocument {
        id: document_id,
        application_id: u.application,
        storage_key: &key,
        file_name: u.file_name,
        size,
        sha256: &sha256,
        step: u.step,
        now: h.clock.now(),
    };
    let saved = applications::attach_document(
        h.pool,
        &document,
        documents::QUOTA_FILES,
        documents::QUOTA_BYTES,
    )
    .await;
    match saved {
        Ok(Attached::Saved { revision, replaced }) => {
            h.caches.changed_application(u.application, revision);
            // The documents this one replaced are of no use any more.
            h.documents.delete_all(&replaced).await;
            Ok(Attachment {
                document_id,
                revision,
            })
        }
        other => {
            h.documents.delete_all(&[key]).await;
            match other {
                Ok(Attached::OverQuota) => Err(UploadError::OverQuota),
                Ok(_) => Err(UploadError::Submitted),
                Err(e) => Err(e.into()),
            }
        }
    }
}
