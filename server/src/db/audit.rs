//! The `audit_log` table: ids, an action, a time and an address; never a password, token, e-mail
//! address or name.

use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    LoginFailed,
    Logout,
    PasswordChange,
    PasswordResetRequested,
    PasswordReset,
    Register,
    Impersonate,
    ImpersonateEnd,
    SessionsEnded,
    AccountDisabled,
    AccountEnabled,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::LoginFailed => "login_failed",
            Action::Logout => "logout",
            Action::PasswordChange => "password_change",
            Action::PasswordResetRequested => "password_reset_requested",
            Action::PasswordReset => "password_reset",
            Action::Register => "register",
            Action::Impersonate => "impersonate",
            Action::ImpersonateEnd => "impersonate_end",
            Action::SessionsEnded => "sessions_ended",
            Action::AccountDisabled => "account_disabled",
            Action::AccountEnabled => "account_enabled",
        }
    }
}

/// One audit entry. `actor` did it (the admin while impersonating); `subject` is the account it
/// concerns. `address` is the client's IP address, when known.
pub struct Entry {
    pub action: Action,
    pub actor: Option<Uuid>,
    pub subject: Option<Uuid>,
    pub address: Option<std::net::IpAddr>,
}

pub async fn record(db: impl PgExecutor<'_>, at: OffsetDateTime, e: &Entry) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO audit_log (at, action, actor_user_id, subject_user_id, address)
         VALUES ($1, $2, $3, $4, $5::text::inet)",
    )
    .bind(at)
    .bind(e.action.as_str())
    .bind(e.actor)
    .bind(e.subject)
    .bind(e.address.map(|a| a.to_string()))
    .execute(db)
    .await?;
    Ok(())
}
