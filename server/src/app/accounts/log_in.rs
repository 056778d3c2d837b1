//! Checking a login's credentials: the attempt is counted before the password is checked (a success
//! clears the count), so a parallel burst cannot slip past the limit; a wrong password and an
//! unknown address are answered alike and audited; a disabled account is said only to whoever knows
//! its password; an account with (or required to have) a second factor gets a challenge on the
//! caller's session instead of a session of its own. The session itself is the HTTP layer's.

use std::net::IpAddr;

use time::OffsetDateTime;

use crate::accounts::password;
use crate::accounts::{self, normalize_email};
use crate::db::audit::{self, Action};
use crate::db::users::{self, UserRow};
use crate::db::{PgPool, login_failures, second_factor};

/// A login's credentials, from a session (its id hash).
pub struct Credentials<'a> {
    pub email: &'a str,
    pub password: String,
    pub session: &'a [u8; 32],
    pub address: Option<IpAddr>,
}

/// What the credentials open.
#[derive(Debug)]
pub enum Checked {
    /// The account: its session may be made.
    Account(Box<UserRow>),
    /// The account's second factor must be proved first (`code`), or set up first (not `code`).
    SecondFactor { code: bool },
}

/// Why nobody is logged in.
#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    /// Too many failed logins for this account or from this address lately.
    #[error("too many failed logins: try again in {retry_after} s")]
    TooMany { retry_after: u64 },
    /// A wrong password, or an address no account has.
    #[error("These credentials do not match our records.")]
    BadCredentials,
    #[error("This account has been disabled. Please ask your administrator.")]
    Disabled,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(LoginError);

/// Checks `c` (see the module's comment).
pub async fn check(
    pool: &PgPool,
    c: Credentials<'_>,
    now: OffsetDateTime,
) -> Result<Checked, LoginError> {
    let key = accounts::account_key(c.email);
    if accounts::attempt_login(pool, &key, c.address, now).await? {
        return Err(LoginError::TooMany {
            retry_after: accounts::retry_after_secs(),
        });
    }
    let user = match normalize_email(c.email) {
        Some(email) => users::by_email(pool, &email).await?,
        None => None,
    };
    let hash = user.as_ref().and_then(|u| u.password_hash.clone());
    if !password::verify(c.password, hash).await? {
        let entry = audit::Entry {
            action: Action::LoginFailed,
            subject: user.as_ref().map(|u| u.id),
            address: c.address,
            ..Default::default()
        };
        audit::record(pool, now, &entry).await?;
        return Err(LoginError::BadCredentials);
    }
    let Some(user) = user else {
        return Err(LoginError::BadCredentials);
    };
    if user.disabled {
        return Err(LoginError::Disabled);
    }
    login_failures::clear_account(pool, &key).await?;
    if user.second_factor || user.second_factor_required {
        // The password was right; the code step decides (on this same session, within 5 min).
        second_factor::set_challenge(pool, c.session, user.id, now).await?;
        return Ok(Checked::SecondFactor {
            code: user.second_factor,
        });
    }
    Ok(Checked::Account(Box::new(user)))
}

/// Whether `typed` is `user`'s password: a guess like a login's, throttled the same way (the
/// attempt counted first, the count cleared when it is right). Changing the password and the
/// second factor's settings ask for it.
pub async fn guess(
    pool: &PgPool,
    user: &UserRow,
    typed: String,
    address: Option<IpAddr>,
    now: OffsetDateTime,
) -> Result<bool, LoginError> {
    let key = accounts::account_key(&user.email);
    if accounts::attempt_login(pool, &key, address, now).await? {
        return Err(LoginError::TooMany {
            retry_after: accounts::retry_after_secs(),
        });
    }
    let right = password::verify(typed, user.password_hash.clone()).await?;
    if right {
        login_failures::clear_account(pool, &key).await?;
    }
    Ok(right)
}
