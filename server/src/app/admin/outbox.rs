//! The outbox as an admin reads it (the demo's mail viewer): the newest messages with the tokens
//! of their single-use links hidden, and a consumer's private message (a receipt) shown by its
//! placeholder only. The operator reads a message whole with `enrollflow mail`.

use crate::db::outbox::{self, OutboxRow};
use crate::db::{PgPool, Result};
use crate::platform::mail;

/// The newest `limit` messages, newest first, as an admin may read them.
pub async fn newest(pool: &PgPool, limit: i64) -> Result<Vec<OutboxRow>> {
    let mut list = outbox::newest(pool, limit).await?;
    for m in &mut list {
        if m.private {
            m.to_address = mail::PRIVATE_RECIPIENT.to_string();
            m.body = mail::PRIVATE_BODY.to_string();
        } else {
            m.body = mail::redacted(&m.body);
        }
    }
    Ok(list)
}
