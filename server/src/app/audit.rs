//! The audit log: recording what a person did (every use case that changes an account, and the
//! HTTP layer's record of each look at an application and each refused request), and the admins'
//! search of it. Entries hold ids, times, route templates and addresses, never a value from a
//! request.

use std::net::IpAddr;

use time::OffsetDateTime;
use uuid::Uuid;

pub use crate::db::audit::{Action, Entry, Row};
use crate::db::users;
use crate::db::{PgPool, audit};

/// Records `entry` at `now`.
pub async fn record(pool: &PgPool, now: OffsetDateTime, entry: &Entry) -> crate::db::Result<()> {
    audit::record(pool, now, entry).await
}

/// Records that `actor` did `action` to the account `subject`, from `address`.
pub async fn record_event(
    pool: &PgPool,
    now: OffsetDateTime,
    action: Action,
    (actor, subject): (Option<Uuid>, Option<Uuid>),
    address: Option<IpAddr>,
) -> crate::db::Result<()> {
    let entry = Entry {
        action,
        actor,
        subject,
        address,
        ..Default::default()
    };
    audit::record(pool, now, &entry).await
}

/// What an admin searches the log for; every part optional.
#[derive(Debug, Default)]
pub struct Search<'a> {
    pub action: Option<Action>,
    /// The actor or subject, by e-mail address: an address no account has matches nothing.
    pub person: Option<&'a str>,
    pub application: Option<Uuid>,
    pub from: Option<OffsetDateTime>,
    /// Entries before this moment.
    pub until: Option<OffsetDateTime>,
    /// Entries older than this id (the next page).
    pub before: Option<i64>,
}

/// One page of the log, newest first.
pub struct Page {
    pub rows: Vec<Row>,
    /// The id to ask `before` for the next page, when there is one.
    pub next: Option<i64>,
}

/// The newest `page` entries matching `s`.
pub async fn search(pool: &PgPool, s: &Search<'_>, page: i64) -> crate::db::Result<Page> {
    let person = match s.person {
        None => None,
        Some(email) => Some(
            users::by_email(pool, email)
                .await?
                .map_or(Uuid::nil(), |u| u.id),
        ),
    };
    let filter = audit::Filter {
        action: s.action,
        person,
        application: s.application,
        from: s.from,
        until: s.until,
        before_id: s.before,
        limit: page + 1,
    };
    let mut rows = audit::list(pool, &filter).await?;
    let next = if rows.len() as i64 > page {
        rows.truncate(usize::try_from(page).unwrap_or(0));
        rows.last().map(|r| r.id)
    } else {
        None
    };
    Ok(Page { rows, next })
}
