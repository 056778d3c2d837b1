//! The session store behind the cookie: starting, replacing and ending sessions, finding the
//! session a cookie names (from memory while it is fresh, otherwise from PostgreSQL, which records
//! the activity and decides idle expiry), and a person's "Signed-in devices": listing their live
//! sessions and ending one or all the others. Every ending is evicted from this instance's cache
//! at once (the database's triggers tell the other instances). Cookies and the CSRF guard are the
//! HTTP layer's (`http/session.rs`).

use std::net::IpAddr;
use std::sync::Arc;

use time::OffsetDateTime;
use uuid::Uuid;

use crate::app::audit;
use crate::db::sessions::{self, Lookup};
pub use crate::db::sessions::{DeviceRow, NewSession};
use crate::db::users::{self, UserRow};
use crate::db::{PgPool, Result};
use crate::platform::cache::{CachedSession, Caches};

/// When sessions stop: idle since `idle_cutoff`, or begun before `created_cutoff`.
#[derive(Debug, Clone, Copy)]
pub struct Cutoffs {
    pub idle: OffsetDateTime,
    pub created: OffsetDateTime,
}

/// What a cookie's session hash names.
#[derive(Debug)]
pub enum Found {
    /// A live session (its activity recorded).
    Live(Arc<CachedSession>),
    /// Idle or past its lifetime: it is deleted now.
    Expired,
    /// Replaced or ended within the last minute.
    Replaced,
    /// No such session.
    Ended,
}

/// Stores a new session without a user.
pub async fn create(
    pool: &PgPool,
    id_hash: &[u8; 32],
    csrf: &str,
    now: OffsetDateTime,
) -> Result<()> {
    sessions::create(pool, id_hash, csrf, now).await
}

/// Replaces `old` (if any) with `new` in one transaction (logging in, impersonating, switching
/// back), and forgets `old` here at once.
pub async fn replace(
    pool: &PgPool,
    caches: &Caches,
    old: Option<&[u8; 32]>,
    new: &NewSession<'_>,
    now: OffsetDateTime,
) -> Result<()> {
    sessions::replace(pool, old.map(|h| h.as_slice()), new, now).await?;
    if let Some(old) = old {
        caches.evict_session(old);
    }
    Ok(())
}

/// Ends a session the browser asked to end (logout, its own device ended).
pub async fn end(
    pool: &PgPool,
    caches: &Caches,
    id_hash: &[u8; 32],
    now: OffsetDateTime,
) -> Result<()> {
    sessions::end(pool, id_hash, now).await?;
    caches.evict_session(id_hash);
    Ok(())
}

/// Forgets sessions ended in PostgreSQL, by hash.
pub fn evict(caches: &Caches, hashes: &[Vec<u8>]) {
    for h in hashes {
        if let Ok(h) = <[u8; 32]>::try_from(h.as_slice()) {
            caches.evict_session(&h);
        }
    }
}

/// The session `id_hash` names. A cached one is used while its activity is recent and `fresh`
/// accepts it (the browser's view of its application agrees); otherwise PostgreSQL is asked.
pub async fn find(
    pool: &PgPool,
    caches: &Caches,
    id_hash: [u8; 32],
    now: OffsetDateTime,
    cutoffs: Cutoffs,
    fresh: impl Fn(&CachedSession) -> bool,
) -> Result<Found> {
    if let Some(c) = caches.session(&id_hash)
        && c.last_seen_at <= now
        && now - c.last_seen_at < sessions::TOUCH_EVERY
        && fresh(&c)
    {
        return Ok(Found::Live(c));
    }
    let generation = caches.generation();
    Ok(
        match sessions::touch(pool, &id_hash, now, cutoffs.idle, cutoffs.created).await? {
            Lookup::Live(row) => {
                let session = CachedSession {
                    csrf_token: row.csrf_token,
                    application_id: row.application_id,
                    user_id: row.user_id,
                    impersonator_id: row.impersonator_id,
                    last_seen_at: row.last_seen_at,
                };
                caches.put_session(generation, id_hash, session.clone());
                Found::Live(Arc::new(session))
            }
            Lookup::Expired => {
                caches.evict_session(&id_hash);
                Found::Expired
            }
            Lookup::Replaced => Found::Replaced,
            Lookup::Unknown => {
                caches.evict_session(&id_hash);
                Found::Ended
            }
        },
    )
}

/// A person's live sessions (an admin's include those in which they act as an agent), newest
/// activity first.
pub async fn devices(pool: &PgPool, person: Uuid, cutoffs: Cutoffs) -> Result<Vec<DeviceRow>> {
    sessions::for_person(pool, person, cutoffs.idle, cutoffs.created).await
}

/// Ends the person's session `id_hash` (not the caller's own: see [`end`]) and records it;
/// whether there was one.
pub async fn end_device(
    pool: &PgPool,
    caches: &Caches,
    now: OffsetDateTime,
    person: Uuid,
    id_hash: &[u8; 32],
    address: Option<IpAddr>,
) -> Result<bool> {
    if !sessions::delete_for_person(pool, person, id_hash).await? {
        return Ok(false);
    }
    caches.evict_session(id_hash);
    record_ended(pool, now, person, address).await?;
    Ok(true)
}

/// Ends every session of the person but `keep`, and records it.
pub async fn end_other_devices(
    pool: &PgPool,
    caches: &Caches,
    now: OffsetDateTime,
    person: Uuid,
    keep: &[u8; 32],
    address: Option<IpAddr>,
) -> Result<()> {
    let ended = sessions::delete_for_user(pool, person, Some(keep.as_slice())).await?;
    evict(caches, &ended);
    record_ended(pool, now, person, address).await
}

/// Records that the person ended sessions of theirs.
pub async fn record_ended(
    pool: &PgPool,
    now: OffsetDateTime,
    person: Uuid,
    address: Option<IpAddr>,
) -> Result<()> {
    let who = (Some(person), Some(person));
    audit::record_event(pool, now, audit::Action::SessionsEnded, who, address).await
}

/// The account a session's user id names, unless it is disabled (read each time, so that a role
/// change or a disabling counts at once; disabling also deletes its sessions).
pub async fn active_user(pool: &PgPool, id: Uuid) -> Result<Option<UserRow>> {
    Ok(users::by_id(pool, id).await?.filter(|u| !u.disabled))
}

/// The account `id`, disabled or not (the admin a session acts for).
pub async fn account(pool: &PgPool, id: Uuid) -> Result<Option<UserRow>> {
    users::by_id(pool, id).await
}
