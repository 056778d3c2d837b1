//! Changing one's own password: the current password is a guess throttled like a login's; the
//! new one must pass the password rules and match its confirmation. Then, in one transaction, the
//! password is set, every other session of the person ended, the change audited and its owner
//! told. An admin acting as an agent changes the admin's own password, never the agent's.

use std::collections::BTreeMap;
use std::net::IpAddr;

use time::OffsetDateTime;
use uuid::Uuid;

use super::log_in::{self, LoginError};
use super::reset_password::password_problems;
use super::sessions;
use crate::accounts::notices::{self, Notice};
use crate::accounts::password;
use crate::db::audit::{self, Action};
use crate::db::users::{self, UserRow};
use crate::db::{PgPool, sessions as stored_sessions};
use crate::platform::cache::Caches;

/// What the caller's Change Password form sends, and who is at the keyboard.
pub struct Change<'a> {
    /// The person at the keyboard: the admin while acting as an agent.
    pub person: Uuid,
    /// The session the change is made from, which stays signed in.
    pub session: &'a [u8; 32],
    pub current: &'a str,
    pub new: &'a str,
    pub confirmation: &'a str,
    pub address: Option<IpAddr>,
}

/// The message under the current password when it is wrong.
pub const WRONG_PASSWORD: &str = "The current password is incorrect.";

/// Why the password was not changed (nothing was).
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    /// The person's account is gone.
    #[error("no such account")]
    NoAccount,
    /// Too many wrong passwords for this account or from this address lately.
    #[error("too many wrong passwords: try again in {retry_after} s")]
    TooMany { retry_after: u64 },
    /// The answers' problems, by field (`current_password`, `new_password`,
    /// `new_password_confirmation`).
    #[error("the change was refused")]
    Refused(BTreeMap<String, Vec<String>>),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(ChangeError);

impl From<LoginError> for ChangeError {
    fn from(e: LoginError) -> Self {
        match e {
            LoginError::TooMany { retry_after } => ChangeError::TooMany { retry_after },
            other => ChangeError::Failed(other.into()),
        }
    }
}

/// Changes the person's password (see the module's comment).
pub async fn change_password(
    pool: &PgPool,
    caches: &Caches,
    now: OffsetDateTime,
    c: &Change<'_>,
) -> Result<(), ChangeError> {
    let user: UserRow = users::by_id(pool, c.person)
        .await?
        .ok_or(ChangeError::NoAccount)?;
    let mut problems = password_problems(
        &user,
        ("new_password", c.new),
        ("new_password_confirmation", c.confirmation),
    )
    .await?;
    if c.current.is_empty() {
        problems
            .entry("current_password".into())
            .or_default()
            .push("The current password is required.".into());
    } else if !log_in::guess(pool, &user, c.current.to_string(), c.address, now).await? {
        problems
            .entry("current_password".into())
            .or_default()
            .push(WRONG_PASSWORD.into());
    }
    if !problems.is_empty() {
        return Err(ChangeError::Refused(problems));
    }
    let new_hash = password::hash(c.new.to_string()).await?;
    let mut tx = pool.begin().await?;
    users::set_password(&mut *tx, user.id, &new_hash).await?;
    let ended =
        stored_sessions::delete_for_user(&mut *tx, user.id, Some(c.session.as_slice())).await?;
    let entry = audit::Entry {
        action: Action::PasswordChange,
        actor: Some(user.id),
        subject: Some(user.id),
        address: c.address,
        ..Default::default()
    };
    audit::record(&mut *tx, now, &entry).await?;
    notices::tell(
        &mut tx,
        &user,
        &Notice {
            headline: "Your password was changed",
            text: "The password of your account was changed, and your other signed-in devices \
                   were signed out."
                .into(),
        },
        now,
    )
    .await?;
    tx.commit().await?;
    sessions::evict(caches, &ended);
    Ok(())
}
