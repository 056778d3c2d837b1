//! Resetting a forgotten password from the mailed link: the link's token names the account (an
//! address sent with it must be that account's); the new password must pass the password rules
//! and match its confirmation; then, in one transaction, the token is spent, the password set,
//! every session of the account ended, the reset audited and its owner mailed. The account's
//! failed-login count starts again.

use std::collections::BTreeMap;
use std::net::IpAddr;

use time::OffsetDateTime;

use crate::accounts::notices::{self, Notice};
use crate::accounts::{self, password};
use crate::db::audit::{self, Action};
use crate::db::users::{self, UserRow};
use crate::db::{PgPool, login_failures, sessions};
use crate::platform::cache::Caches;

/// What the link page sends.
pub struct Reset<'a> {
    pub token: &'a str,
    /// The address typed with it, if any (the link carries none).
    pub email: &'a str,
    pub password: &'a str,
    pub confirmation: &'a str,
    pub address: Option<IpAddr>,
}

/// Why the password was not reset (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum ResetError {
    /// Used, expired, replaced, or not the typed address's.
    #[error("the link is no longer valid")]
    LinkNoLongerValid,
    /// The new password's problems, by field.
    #[error("the new password was refused")]
    Refused(BTreeMap<String, Vec<String>>),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(ResetError);

/// A new password's problems under `key`, and a mismatching confirmation under `confirm_key`
/// (registration, a change and a reset alike).
pub async fn password_problems(
    user: &UserRow,
    (key, password): (&str, &str),
    (confirm_key, confirmation): (&str, &str),
) -> anyhow::Result<BTreeMap<String, Vec<String>>> {
    let mut problems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let personal = vec![
        user.email.clone(),
        user.first_name.clone(),
        user.last_name.clone(),
    ];
    if let Some(problem) = password::check(password.to_string(), personal).await? {
        problems
            .entry(key.to_string())
            .or_default()
            .push(problem.to_string());
    }
    if password != confirmation {
        problems
            .entry(confirm_key.to_string())
            .or_default()
            .push("The password confirmation does not match.".to_string());
    }
    Ok(problems)
}

/// Resets the password the link names (see the module's comment).
pub async fn reset_password(
    pool: &PgPool,
    caches: &Caches,
    now: OffsetDateTime,
    r: &Reset<'_>,
) -> Result<(), ResetError> {
    let hash = accounts::token_hash(r.token);
    let user = users::token_user(pool, &hash, users::Purpose::ResetPassword, now).await?;
    let typed = r.email.trim().to_lowercase();
    let Some(user) = user.filter(|u| typed.is_empty() || u.email.to_lowercase() == typed) else {
        return Err(ResetError::LinkNoLongerValid);
    };
    let problems = password_problems(
        &user,
        ("password", r.password),
        ("password_confirmation", r.confirmation),
    )
    .await?;
    if !problems.is_empty() {
        return Err(ResetError::Refused(problems));
    }
    let new_hash = password::hash(r.password.to_string()).await?;
    let mut tx = pool.begin().await?;
    if users::consume_token(&mut *tx, &hash, users::Purpose::ResetPassword, now)
        .await?
        .is_none()
    {
        return Err(ResetError::LinkNoLongerValid);
    }
    users::set_password(&mut *tx, user.id, &new_hash).await?;
    let ended = sessions::delete_for_user(&mut *tx, user.id, None).await?;
    audit::record(
        &mut *tx,
        now,
        &audit::Entry {
            action: Action::PasswordReset,
            actor: Some(user.id),
            subject: Some(user.id),
            address: r.address,
            ..Default::default()
        },
    )
    .await?;
    notices::tell(
        &mut tx,
        &user,
        &Notice {
            headline: "Your password was reset",
            text: "The password of your account was reset from a link mailed to you, and every \
                   device signed in to it was signed out."
                .into(),
        },
        now,
    )
    .await?;
    tx.commit().await?;
    for h in &ended {
        if let Ok(h) = <[u8; 32]>::try_from(h.as_slice()) {
            caches.evict_session(&h);
        }
    }
    login_failures::clear_account(pool, &accounts::account_key(&user.email)).await?;
    Ok(())
}
