//! Mail that tells people what was done to an account: the person it was done to, and every active
//! admin, so that no admin's power over accounts goes unseen. The server's own template
//! (`server/mail/account_notice.txt`, part of the protected core), queued in the caller's
//! transaction: no change without its notices.

use time::OffsetDateTime;

use crate::db::users::{self, UserRow};
use crate::platform::mail;

/// A notice: its headline (the subject's end) and its sentence.
pub struct Notice<'a> {
    pub headline: &'a str,
    pub text: String,
}

/// `Nov 20, 2024, 3:04 PM` in Michigan (`impact::michigan_datetime`).
fn michigan(at: OffsetDateTime) -> String {
    crate::rules::impact::michigan_datetime(at).map_or_else(
        || at.to_string(),
        |local| local.strftime("%b %-d, %Y, %-I:%M %p").to_string(),
    )
}

/// Queues `notice` to `to`.
pub async fn tell(
    db: &mut crate::db::PgConnection,
    to: &UserRow,
    notice: &Notice<'_>,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let email = mail::render(
        crate::rules::protected::account_mail(),
        "email/account_notice.txt",
        minijinja::context! {
            first_name => &to.first_name,
            headline => notice.headline,
            text => &notice.text,
            when => michigan(now),
        },
    )?;
    mail::enqueue(&mut *db, &to.email, &email, now).await?;
    Ok(())
}

/// Queues `notice` to `to` on a connection of its own (a notice that stands alone, outside any
/// change's transaction).
pub async fn tell_now(
    pool: &crate::db::PgPool,
    to: &UserRow,
    notice: &Notice<'_>,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    let mut conn = pool.acquire().await?;
    tell(&mut conn, to, notice, now).await
}

/// Queues `notice` to every active admin but `except` (the person told already).
pub async fn tell_admins(
    db: &mut crate::db::PgConnection,
    notice: &Notice<'_>,
    except: Option<uuid::Uuid>,
    now: OffsetDateTime,
) -> anyhow::Result<()> {
    for admin in users::active_admins(&mut *db).await? {
        if Some(admin.id) != except {
            tell(db, &admin, notice, now).await?;
        }
    }
    Ok(())
}
