//! Accounts outside HTTP: e-mail addresses, single-use tokens, login throttling, invitations and
//! password-reset mail. Used by `http/accounts.rs`, `http/admin.rs`, the seed and the `invite`
//! command.
//!
//! Also the origins of links. Failed logins are counted in PostgreSQL (shared by every instance)
//! per account (the SHA-256 of the typed address, known or not) and per client address over a
//! sliding 5-minute window; past 5 and 20 the login answers 429 without checking the password, and
//! a success clears the account's count. Reset and invitation tokens are single use, expire, and
//! are stored as SHA-256 only.
//!
//! Beside it: passwords (`password`), the second factor's codes (`second_factor`) and what an
//! account's owner is told (`notices`).

pub mod notices;
pub mod password;
pub mod second_factor;

use std::net::IpAddr;

use rand::RngCore;

use crate::db::PgPool;
use crate::npn::Npn;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::{self, audit, login_failures, users};
use crate::platform::config::ServeArgs;
use crate::platform::mail;
use crate::security::crypto::Cipher;

/// A password-reset link works for an hour.
pub const RESET_VALID_FOR: time::Duration = time::Duration::hours(1);
/// An invitation works for a week.
pub const INVITATION_VALID_FOR: time::Duration = time::Duration::days(7);
/// At most this many reset e-mails per account per hour (more requests get the same answer).
pub const RESETS_PER_HOUR: i64 = 5;

/// Failed logins are counted over this sliding window.
pub const FAILURE_WINDOW: time::Duration = time::Duration::minutes(5);
/// Failed logins for one account within the window after which it answers 429.
pub const ACCOUNT_LIMIT: i64 = 5;
/// Failed logins from one address within the window after which it answers 429.
pub const ADDRESS_LIMIT: i64 = 20;

/// An address as typed, trimmed; `None` unless it looks like one.
pub fn normalize_email(raw: &str) -> Option<String> {
    let e = raw.trim();
    let (local, domain) = e.rsplit_once('@')?;
    let ok = (3..=254).contains(&e.len())
        && !local.is_empty()
        && !domain.is_empty()
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !e.chars().any(|c| c.is_whitespace() || c.is_control());
    ok.then(|| e.to_string())
}

/// The throttling key of a typed address (known or not): SHA-256 of it in lower case.
pub fn account_key(email: &str) -> [u8; 32] {
    Sha256::digest(format!("login:{}", email.trim().to_lowercase()).as_bytes()).into()
}

/// A new random token for a link, and the hash that is stored.
pub fn new_token() -> (String, [u8; 32]) {
    let mut buf = [0u8; 32];
    rand::rng().fill_bytes(&mut buf);
    let token = hex::encode(buf);
    let hash = token_hash(&token);
    (token, hash)
}

pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.trim().as_bytes()).into()
}

/// The `Retry-After` of a throttled login: the whole window (the oldest counted failure may be
/// more recent than that, never older).
pub fn retry_after_secs() -> u64 {
    u64::try_from(FAILURE_WINDOW.whole_seconds()).unwrap_or(300)
}

/// Records a login attempt (counted as a failure until it succeeds) and says whether the account
/// or the address was already past its limit (429, the password not checked). Atomic: a parallel
/// burst of N wrong passwords records N failures and lets at most [`ACCOUNT_LIMIT`] through.
pub async fn attempt_login(
    pool: &PgPool,
    account_key: &[u8],
    address: Option<IpAddr>,
    now: OffsetDateTime,
) -> crate::db::Result<bool> {
    let (account, from_address) = login_failures::record_attempt(
        pool,
        account_key,
        address.map(crate::security::limits::limit_key),
        now,
        now - FAILURE_WINDOW,
    )
    .await?;
    Ok(account >= ACCOUNT_LIMIT || from_address >= ADDRESS_LIMIT)
}

/// The origin links in e-mails point to: the request's own host when it is one of ours (an
/// agent's site or a base domain), otherwise the first base domain. A forged `Host` header can
/// never send a reset link elsewhere.
pub fn public_origin(config: &ServeArgs, host: Option<&str>) -> String {
    let scheme = if config.https { "https" } else { "http" };
    match host {
        Some(h) if config.is_own_host(h) => format!("{scheme}://{}", h.to_ascii_lowercase()),
        _ => format!(
            "{scheme}://{}",
            config
                .base_domains
                .first()
                .map(String::as_str)
                .unwrap_or("localhost")
        ),
    }
}

/// Forgot-password requests per client address per hour, counted in PostgreSQL (every instance):
/// past it the call answers 429 with `Retry-After`. Generous for an office behind one address.
pub const RESETS_PER_ADDRESS_PER_HOUR: i64 = 20;

/// Queues a forgot-password request (the caller answers at once, the same way for every address;
/// [`spawn_reset_worker`] does the work). `false` when the client's address made too many.
pub async fn queue_reset(
    pool: &PgPool,
    worker: &tokio::sync::Notify,
    r: &ResetRequest,
) -> crate::db::Result<bool> {
    let queued = db::reset_requests::enqueue(
        pool,
        &r.email,
        &r.origin,
        r.address.map(|address| db::reset_requests::Requester {
            address,
            counted_as: crate::security::limits::limit_key(address),
        }),
        r.now,
        r.now - time::Duration::hours(1),
        RESETS_PER_ADDRESS_PER_HOUR,
    )
    .await?;
    if queued {
        worker.notify_one();
    }
    Ok(queued)
}

/// How long a claimed request is left to its worker before another may take it.
const RESET_LEASE: time::Duration = time::Duration::minutes(1);
/// A request that failed this many times is given up (logged).
const RESET_ATTEMPTS: i32 = 5;

/// One pass over the forgot-password queue; how many requests were done.
pub async fn work_reset_queue(
    pool: &PgPool,
    cipher: &Cipher,
    now: OffsetDateTime,
) -> anyhow::Result<usize> {
    let claimed = db::reset_requests::claim(pool, now, now + RESET_LEASE, 20).await?;
    let mut done = 0;
    for q in claimed {
        let request = ResetRequest {
            email: q.email.clone(),
            origin: q.origin.clone(),
            address: q.address.as_deref().and_then(|a| a.parse().ok()),
            now: q.requested_at,
        };
        match request_reset(pool, cipher, &request).await {
            Ok(_) => {
                db::reset_requests::done(pool, q.id).await?;
                done += 1;
            }
            Err(e) if q.attempts >= RESET_ATTEMPTS => {
                tracing::error!(error = %e, request = q.id, "password reset request given up");
                db::reset_requests::done(pool, q.id).await?;
            }
            Err(e) => {
                tracing::warn!(error = %e, request = q.id, "password reset request failed; retried");
            }
        }
    }
    Ok(done)
}

/// What the forgot-password worker uses: the database, the cipher of private mail, the clock, and
/// the signal this instance gives when it queues a request.
pub struct ResetWorker {
    pub pool: PgPool,
    pub cipher: Cipher,
    pub clock: std::sync::Arc<dyn crate::platform::clock::Clock>,
    pub queued: std::sync::Arc<tokio::sync::Notify>,
}

/// Works the forgot-password queue for as long as the server runs: at once when this instance
/// queues a request, and every few seconds for the others' (and leases that ran out). One request
/// at a time per instance, so a burst waits its turn instead of taking the database pool.
pub fn spawn_reset_worker(w: ResetWorker) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = w.queued.notified() => {}
            }
            loop {
                match work_reset_queue(&w.pool, &w.cipher, w.clock.now()).await {
                    Ok(20..) => continue,
                    Ok(_) => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "password reset queue pass failed");
                        break;
                    }
                }
            }
        }
    })
}

/// A forgot-password request, as taken from the request before it is answered.
pub struct ResetRequest {
    /// The address as typed (checked by [`normalize_email`]); it may belong to no account.
    pub email: String,
    /// Where the link points ([`public_origin`]).
    pub origin: String,
    /// The client's address (for the audit log).
    pub address: Option<IpAddr>,
    /// When the request arrived: the link's hour counts from here.
    pub now: OffsetDateTime,
}

/// The work of a forgot-password request, done after the request has been answered (so the
/// answer and its timing are the same whether or not the address exists): if the address
/// belongs to a user who has a password, a reset link is mailed. Whether a mail was written.
pub async fn request_reset(
    pool: &PgPool,
    cipher: &Cipher,
    r: &ResetRequest,
) -> anyhow::Result<bool> {
    let Some(user) = users::by_email(pool, &r.email).await? else {
        return Ok(false);
    };
    if user.password_hash.is_none() || user.disabled {
        return Ok(false);
    }
    send_reset_link(pool, cipher, &r.origin, &user, r.address, r.now).await
}

/// Sends a password-reset link to a user who has a password (the caller answers the same way
/// whether or not this happens); the token, the mail and the audit entry are written in one
/// transaction. At most [`RESETS_PER_HOUR`] per account.
async fn send_reset_link(
    pool: &PgPool,
    cipher: &Cipher,
    origin: &str,
    user: &users::UserRow,
    address: Option<IpAddr>,
    now: OffsetDateTime,
) -> anyhow::Result<bool> {
    let recent = users::tokens_since(
        pool,
        user.id,
        users::Purpose::ResetPassword,
        now - time::Duration::hours(1),
    )
    .await?;
    if recent >= RESETS_PER_HOUR {
        return Ok(false);
    }
    let (token, hash) = new_token();
    // The link names no e-mail address (it would sit in browser history and proxy logs); the
    // token alone finds the account.
    let link = format!("{origin}/reset-password/token/{}", mail::LINK_SECRET);
    let email = mail::render(
        crate::rules::protected::account_mail(),
        "email/reset_password.txt",
        minijinja::context! {
            first_name => &user.first_name,
            link => link,
            valid_for => "1 hour",
        },
    )?;
    let mut tx = pool.begin().await?;
    users::insert_token(
        &mut tx,
        &hash,
        user.id,
        users::Purpose::ResetPassword,
        now,
        now + RESET_VALID_FOR,
    )
    .await?;
    mail::enqueue_with_secret(
        &mut *tx,
        cipher,
        &user.email,
        &email,
        &token,
        now + RESET_VALID_FOR,
        now,
    )
    .await?;
    audit::record(
        &mut *tx,
        now,
        &audit::Entry {
            action: audit::Action::PasswordResetRequested,
            actor: None,
            subject: Some(user.id),
            address,
            ..Default::default()
        },
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Who to invite.
pub struct Invitation<'a> {
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    /// `agent` or `admin`.
    pub role: &'a str,
    /// The agent's NPN (required for agents; an admin may belong to an agent's site).
    pub npn: Option<&'a Npn>,
}

/// Creates a user without a password and e-mails them an invitation link
/// (`/register/token/{token}/`, a week). Inviting a user who has not registered yet sends a new
/// link (the old one stops working); a registered user cannot be invited again.
pub async fn invite(
    pool: &PgPool,
    cipher: &Cipher,
    origin: &str,
    who: &Invitation<'_>,
    now: OffsetDateTime,
) -> anyhow::Result<Uuid> {
    let email = normalize_email(who.email)
        .ok_or_else(|| anyhow::anyhow!("that is not an e-mail address"))?;
    for (field, value) in [("first name", who.first_name), ("last name", who.last_name)] {
        let n = value.trim().chars().count();
        anyhow::ensure!(
            (1..=30).contains(&n),
            "the {field} must have 1 to 30 characters"
        );
    }
    anyhow::ensure!(
        [users::ROLE_AGENT, users::ROLE_ADMIN, users::ROLE_ANALYST].contains(&who.role),
        "the role is agent, admin or analyst"
    );
    let agent = match who.npn {
        Some(npn) => Some(
            db::agents::by_npn(pool, npn)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no agent has NPN {npn}"))?,
        ),
        None => None,
    };
    anyhow::ensure!(
        who.role != users::ROLE_AGENT || agent.is_some(),
        "an agent user needs the agent's NPN"
    );
    let user = match users::by_email(pool, &email).await? {
        Some(u) if u.password_hash.is_some() => {
            anyhow::bail!("a user with that address has already registered")
        }
        Some(u) => u,
        None => {
            users::insert_if_absent(
                pool,
                &users::NewUser {
                    email: &email,
                    first_name: who.first_name.trim(),
                    last_name: who.last_name.trim(),
                    role: who.role,
                    // An analyst belongs to no agent, whatever NPN was given.
                    agent_id: agent
                        .as_ref()
                        .filter(|_| who.role != users::ROLE_ANALYST)
                        .map(|a| a.id),
                    password_hash: None,
                    terms_accepted_at: None,
                },
                now,
            )
            .await?;
            users::by_email(pool, &email)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the new user is not there"))?
        }
    };
    let (token, hash) = new_token();
    let message = mail::render(
        crate::rules::protected::account_mail(),
        "email/invitation.txt",
        minijinja::context! {
            first_name => &user.first_name,
            last_name => &user.last_name,
            agency_name => agent.as_ref().map(|a| a.agency_name.clone()),
            link => format!("{origin}/register/token/{}/", mail::LINK_SECRET),
            valid_for => "7 days",
        },
    )?;
    let mut tx = pool.begin().await?;
    users::insert_token(
        &mut tx,
        &hash,
        user.id,
        users::Purpose::Invitation,
        now,
        now + INVITATION_VALID_FOR,
    )
    .await?;
    mail::enqueue_with_secret(
        &mut *tx,
        cipher,
        &user.email,
        &message,
        &token,
        now + INVITATION_VALID_FOR,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(user.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_and_checked_loosely() {
        assert_eq!(
            normalize_email("  Ann@Example.com ").as_deref(),
            Some("Ann@Example.com")
        );
        assert_eq!(normalize_email("ann"), None);
        assert_eq!(normalize_email("@example.com"), None);
        assert_eq!(normalize_email("ann@"), None);
        assert_eq!(normalize_email("an n@example.com"), None);
    }

    #[test]
    fn the_account_key_ignores_case_and_never_holds_the_address() {
        assert_eq!(
            account_key("Ann@Example.com"),
            account_key(" ann@example.com")
        );
        assert_ne!(
            account_key("ann@example.com"),
            account_key("bob@example.com")
        );
    }

    #[test]
    fn tokens_are_random_and_stored_only_as_hashes() {
        let (a, ha) = new_token();
        let (b, _) = new_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a), ha);
        assert_ne!(ha.as_slice(), a.as_bytes());
    }

    #[test]
    fn links_stay_on_our_hosts() {
        let c = ServeArgs::defaults();
        assert_eq!(
            public_origin(&c, Some("acme.localhost:8080")),
            "http://acme.localhost:8080"
        );
        assert_eq!(public_origin(&c, Some("evil.com")), "http://localhost");
        assert_eq!(
            public_origin(&c, Some("acme.localhost:80@evil.com")),
            "http://localhost"
        );
        assert_eq!(public_origin(&c, None), "http://localhost");
    }
}
