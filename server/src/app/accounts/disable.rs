//! An admin disables an account, or enables it again. A disabled account cannot log in; every
//! session of it (an admin's acting as it included) ends at once on every instance, and its
//! reset and invitation links stop working. An admin cannot disable their own account, nor leave
//! fewer than two active administrators with two-step verification. The account's owner and the
//! other admins are told, and the change is audited, in the transaction that makes it.

use std::net::IpAddr;

use time::OffsetDateTime;
use uuid::Uuid;

use crate::accounts::notices::{self, Notice};
use crate::db::audit::{self, Action};
use crate::db::users::{self, UserRow};
use crate::db::{PgPool, sessions};
use crate::platform::cache::Caches;

/// What an admin is told when a change would leave fewer than two active admins with a second
/// factor: someone must always be able to act, and no admin alone.
pub const LAST_ADMINS: &str = "At least two active administrators with two-step verification \
    must remain: enable or add another administrator first.";

/// The admin making the change.
pub struct ByAdmin<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub address: Option<IpAddr>,
}

/// Why the account was not changed.
#[derive(Debug, thiserror::Error)]
pub enum DisableError {
    #[error("User not found")]
    NotFound,
    #[error("You cannot disable your own account.")]
    OwnAccount,
    #[error("{}", LAST_ADMINS)]
    LastAdmins,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(DisableError);

/// Whether taking `user` out of the active admins with a second factor would leave fewer than two.
pub async fn among_last_admins(pool: &PgPool, user: &UserRow) -> crate::db::Result<bool> {
    if !user.is_admin() || user.disabled || !user.second_factor {
        return Ok(false);
    }
    let able = users::active_admins(pool)
        .await?
        .iter()
        .filter(|a| a.second_factor)
        .count();
    Ok(able <= 2)
}

/// Disables account `id` (or, with `disabled` false, enables it again) for `by`.
pub async fn set_disabled(
    pool: &PgPool,
    caches: &Caches,
    now: OffsetDateTime,
    by: &ByAdmin<'_>,
    id: Uuid,
    disabled: bool,
) -> Result<(), DisableError> {
    if id == by.id {
        return Err(DisableError::OwnAccount);
    }
    let user = users::by_id(pool, id)
        .await?
        .ok_or(DisableError::NotFound)?;
    if disabled && among_last_admins(pool, &user).await? {
        return Err(DisableError::LastAdmins);
    }
    let mut tx = pool.begin().await?;
    if !users::set_disabled(&mut *tx, id, disabled.then_some(now)).await? {
        return Err(DisableError::NotFound);
    }
    let ended = if disabled {
        // Its reset and invitation links stop working too.
        users::void_tokens(&mut *tx, id, now).await?;
        sessions::delete_for_user(&mut *tx, id, None).await?
    } else {
        Vec::new()
    };
    let admin = by.name;
    let (headline, to_them, to_admins) = if disabled {
        (
            "your account was disabled",
            format!(
                "{admin}, an administrator, disabled your account: you are signed out everywhere and cannot log in until it is enabled again."
            ),
            format!("{admin} disabled the account of {}.", user.full_name()),
        )
    } else {
        (
            "your account was enabled",
            format!("{admin}, an administrator, enabled your account again: you can log in."),
            format!("{admin} enabled the account of {} again.", user.full_name()),
        )
    };
    let notice = |text| Notice { headline, text };
    notices::tell(&mut tx, &user, &notice(to_them), now).await?;
    notices::tell_admins(&mut tx, &notice(to_admins), Some(user.id), now).await?;
    audit::record(
        &mut *tx,
        now,
        &audit::Entry {
            action: if disabled {
                Action::AccountDisabled
            } else {
                Action::AccountEnabled
            },
            actor: Some(by.id),
            subject: Some(id),
            address: by.address,
            ..Default::default()
        },
    )
    .await?;
    tx.commit().await?;
    for h in &ended {
        if let Ok(h) = <[u8; 32]>::try_from(h.as_slice()) {
            caches.evict_session(&h);
        }
    }
    Ok(())
}
