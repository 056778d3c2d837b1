//! Accepting an invitation: the mailed link's token names an account without a password; the
//! invitee types the address it was sent to, a password that passes the password rules (twice)
//! and agrees to the Terms of Use. Then, in one transaction, the token is spent, the password set
//! and the registration audited. Role and agent come from the invitation, never from the request.

use std::collections::BTreeMap;
use std::net::IpAddr;

use time::OffsetDateTime;

use super::reset_password::password_problems;
use crate::accounts::{self, password};
use crate::db::PgPool;
use crate::db::audit::{self, Action};
use crate::db::users::{self, UserRow};

/// What the invitation page sends.
pub struct Registration<'a> {
    pub token: &'a str,
    pub email: &'a str,
    pub password: &'a str,
    pub confirmation: &'a str,
    pub terms_agreed: bool,
    pub address: Option<IpAddr>,
}

/// Why the account was not registered (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// Used, expired, or for an account that has its password.
    #[error("the link is no longer valid")]
    LinkNoLongerValid,
    /// The answers' problems, by field (`email`, `password`, `password_confirmation`,
    /// `tos_agree`).
    #[error("the registration was refused")]
    Refused(BTreeMap<String, Vec<String>>),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(RegisterError);

/// The account a live invitation `token` is for (its greeting), if any.
pub async fn invitee(
    pool: &PgPool,
    token: &str,
    now: OffsetDateTime,
) -> crate::db::Result<Option<UserRow>> {
    let hash = accounts::token_hash(token);
    Ok(
        users::token_user(pool, &hash, users::Purpose::Invitation, now)
            .await?
            .filter(|u| u.password_hash.is_none()),
    )
}

/// Registers the invited account (see the module's comment).
pub async fn register(
    pool: &PgPool,
    now: OffsetDateTime,
    r: &Registration<'_>,
) -> Result<(), RegisterError> {
    let Some(user) = invitee(pool, r.token, now).await? else {
        return Err(RegisterError::LinkNoLongerValid);
    };
    let mut problems = password_problems(
        &user,
        ("password", r.password),
        ("password_confirmation", r.confirmation),
    )
    .await?;
    if r.email.trim().to_lowercase() != user.email.to_lowercase() {
        problems
            .entry("email".into())
            .or_default()
            .push("Please use the address the invitation was sent to.".into());
    }
    if !r.terms_agreed {
        problems
            .entry("tos_agree".into())
            .or_default()
            .push("You must agree to the Terms of Use.".into());
    }
    if !problems.is_empty() {
        return Err(RegisterError::Refused(problems));
    }
    let new_hash = password::hash(r.password.to_string()).await?;
    let hash = accounts::token_hash(r.token);
    let mut tx = pool.begin().await?;
    if users::consume_token(&mut *tx, &hash, users::Purpose::Invitation, now)
        .await?
        .is_none()
    {
        return Err(RegisterError::LinkNoLongerValid);
    }
    users::register(&mut *tx, user.id, &new_hash, now).await?;
    let entry = audit::Entry {
        action: Action::Register,
        actor: Some(user.id),
        subject: Some(user.id),
        address: r.address,
        ..Default::default()
    };
    audit::record(&mut *tx, now, &entry).await?;
    tx.commit().await?;
    Ok(())
}
