//! Two-step verification: an authenticator app (TOTP) and ten recovery codes.
//!
//! - Proving a code: a code is accepted once; attempts are throttled like passwords (apart from
//!   the password's count), and five wrong codes in a row lock the factor, each lock twice the one
//!   before (the owner is mailed). A recovery code used is audited and its owner told.
//! - Setting up: a new secret is kept encrypted until its first code confirms it; it then becomes
//!   the factor with ten new recovery codes, shown once. Replacing or turning off a factor asks
//!   for the password and a code from the current app (or a recovery code), never the password
//!   alone; an account that must keep it can only replace it.
//! - Admins: whether agents must use it, and resetting another account's factor (never their own,
//!   never leaving fewer than two able admins), each ending the sessions it concerns.
//!
//! Every setup, removal, failure, recovery-code use and reset is audited. Refusals name the form
//! field they belong under ([`FactorError::Refused`]).

use std::net::IpAddr;

use time::OffsetDateTime;
use uuid::Uuid;

use super::UserRow;
use super::disable;
use super::log_in::{self, LoginError};
use super::sessions;
use crate::accounts;
use crate::accounts::notices::{self, Notice};
use crate::accounts::second_factor::{self as factor, Enrolment};
use crate::app::audit::{self, Action};
use crate::db::second_factor as store;
use crate::db::{PgPool, login_failures, sessions as stored_sessions, users};
use crate::platform::cache::Caches;
use crate::platform::clock::Clock;
use crate::security::crypto::Cipher;

pub const CODE_REQUIRED: &str = "Please enter the 6-digit code from your authenticator app.";
pub const WRONG_CODE: &str =
    "That code is not right, or it was used already. Wait for the next code and try again.";
pub const WRONG_RECOVERY_CODE: &str = "That recovery code is not right, or it was used already.";
pub const LOG_IN_AGAIN: &str =
    "Please log in again: it has been more than 5 minutes since you entered your password.";
pub const NO_SETUP: &str = "Please start again: scan the new QR code, then enter its code.";
pub const MUST_KEEP: &str =
    "Your account must keep two-step verification: you can only replace your authenticator app.";
/// What replacing or turning off the factor asks for besides the password.
pub const CURRENT_CODE_REQUIRED: &str =
    "Enter a code from your current authenticator app, or one of your recovery codes.";

/// Wrong codes in a row that lock the factor.
pub const LOCK_AFTER: i32 = 5;
/// The first lock; each one after lasts twice the one before, up to a day.
pub const FIRST_LOCK: time::Duration = time::Duration::minutes(15);
const LONGEST_LOCK: time::Duration = time::Duration::hours(24);

/// Why nothing was done.
#[derive(Debug, thiserror::Error)]
pub enum FactorError {
    /// Refused, with the message to show under the form's field `field`.
    #[error("{message}")]
    Refused {
        field: &'static str,
        message: &'static str,
    },
    /// Too many attempts, or the factor is locked: try again in `retry_after` seconds.
    #[error("try again in {retry_after} s")]
    TooMany { retry_after: u64 },
    #[error("User not found")]
    NotFound,
    /// An admin resetting their own factor: another admin must.
    #[error("another administrator must reset your own two-step verification")]
    OwnAccount,
    #[error("{}", disable::LAST_ADMINS)]
    LastAdmins,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(FactorError);

impl From<LoginError> for FactorError {
    fn from(e: LoginError) -> Self {
        match e {
            LoginError::TooMany { retry_after } => FactorError::TooMany { retry_after },
            other => FactorError::Failed(other.into()),
        }
    }
}

fn refused(field: &'static str, message: &'static str) -> FactorError {
    FactorError::Refused { field, message }
}

/// What the two-step use cases work with, for one request.
pub struct Ctx<'a> {
    pub pool: &'a PgPool,
    pub caches: &'a Caches,
    pub cipher: &'a Cipher,
    pub clock: &'a dyn Clock,
    pub address: Option<IpAddr>,
}

/// A code from the authenticator app, or one of the recovery codes (the first given counts).
#[derive(Debug, Default, Clone, Copy)]
pub struct Code<'a> {
    pub code: &'a str,
    pub recovery_code: &'a str,
}

impl Ctx<'_> {
    fn now(&self) -> OffsetDateTime {
        self.clock.now()
    }

    async fn record(
        &self,
        action: Action,
        actor: Option<Uuid>,
        subject: Uuid,
    ) -> crate::db::Result<()> {
        audit::record_event(
            self.pool,
            self.now(),
            action,
            (actor, Some(subject)),
            self.address,
        )
        .await
    }

    /// Mails the owner of the account what was done to its second factor.
    async fn notify(&self, user: &UserRow, headline: &str, text: String) -> anyhow::Result<()> {
        notices::tell_now(self.pool, user, &Notice { headline, text }, self.now()).await
    }

    /// Counts an attempt at the user's second factor; refused while it is locked or past the limit.
    async fn attempt(&self, user: &UserRow) -> Result<(), FactorError> {
        let now = self.now();
        if let Some(until) = store::locked_until(self.pool, user.id, now).await? {
            let retry_after = u64::try_from((until - now).whole_seconds().max(1)).unwrap_or(1);
            return Err(FactorError::TooMany { retry_after });
        }
        let key = factor::throttle_key(user.id);
        if accounts::attempt_login(self.pool, &key, self.address, now).await? {
            return Err(FactorError::TooMany {
                retry_after: accounts::retry_after_secs(),
            });
        }
        Ok(())
    }

    async fn attempt_succeeded(&self, user: &UserRow) -> Result<(), FactorError> {
        login_failures::clear_account(self.pool, &factor::throttle_key(user.id)).await?;
        store::clear_failures(self.pool, user.id).await?;
        Ok(())
    }

    /// A wrong code: audited and counted; the fifth in a row locks the factor (the owner is
    /// mailed). The refusal to answer under `field`.
    async fn wrong_code(
        &self,
        user: &UserRow,
        field: &'static str,
        message: &'static str,
    ) -> FactorError {
        let counted = async {
            self.record(Action::SecondFactorFailed, None, user.id)
                .await?;
            let now = self.now();
            let locked = store::record_failure(
                self.pool,
                user.id,
                now,
                LOCK_AFTER,
                FIRST_LOCK,
                LONGEST_LOCK,
            )
            .await?;
            if let Some(until) = locked {
                let minutes = (until - now).whole_minutes();
                self.notify(
                    user,
                    "Two-step verification locked",
                    format!(
                        "{LOCK_AFTER} wrong codes in a row were given for your account, so codes \
                         are refused for the next {minutes} minutes (longer each time it happens \
                         again). If this was not you, your password is known to someone else: \
                         change it."
                    ),
                )
                .await?;
            }
            anyhow::Ok(())
        };
        match counted.await {
            Ok(()) => refused(field, message),
            Err(e) => FactorError::Failed(e),
        }
    }

    fn decrypt(&self, stored: Option<String>) -> anyhow::Result<Option<String>> {
        Ok(match stored {
            Some(s) => Some(self.cipher.decrypt(&s)?),
            None => None,
        })
    }

    /// Checks a code (or recovery code) against the user's factor, using it up; refusals under
    /// `code_field` and `recovery_field`.
    async fn prove_under(
        &self,
        user: &UserRow,
        given: Code<'_>,
        [code_field, recovery_field]: [&'static str; 2],
    ) -> Result<(), FactorError> {
        let code = given.code.trim();
        let recovery = given.recovery_code.trim();
        if code.is_empty() && recovery.is_empty() {
            return Err(refused(code_field, CODE_REQUIRED));
        }
        self.attempt(user).await?;
        let secret = self
            .decrypt(store::stored(self.pool, user.id).await?.secret)?
            .ok_or_else(|| refused("code", WRONG_CODE))?;
        let now = self.now();
        let (right, field, message) = if code.is_empty() {
            let right = match factor::recovery_hash(recovery) {
                Some(h) => store::use_recovery_code(self.pool, user.id, &h, now).await?,
                None => false,
            };
            (right, recovery_field, WRONG_RECOVERY_CODE)
        } else {
            let right = match factor::matching_step(&secret, code, self.clock.real_now()) {
                Some(step) => store::use_step(self.pool, user.id, step).await?,
                None => false,
            };
            (right, code_field, WRONG_CODE)
        };
        if !right {
            return Err(self.wrong_code(user, field, message).await);
        }
        if code.is_empty() {
            self.record(Action::RecoveryCodeUsed, Some(user.id), user.id)
                .await?;
            let left = store::recovery_codes_left(self.pool, user.id).await?;
            self.notify(
                user,
                "A recovery code was used",
                format!(
                    "One of your recovery codes was used instead of a code from your \
                     authenticator app. It cannot be used again; {left} of your recovery codes \
                     are left."
                ),
            )
            .await?;
        }
        self.attempt_succeeded(user).await
    }

    /// Checks a code or recovery code (refusals under `code` and `recovery_code`).
    async fn prove(&self, user: &UserRow, given: Code<'_>) -> Result<(), FactorError> {
        self.prove_under(user, given, ["code", "recovery_code"])
            .await
    }

    /// The current factor proved by `typed`, a code from the app (six digits) or a recovery code,
    /// before the factor is replaced or turned off: refusals under `current_code`.
    async fn prove_current(&self, user: &UserRow, typed: &str) -> Result<(), FactorError> {
        let typed = typed.trim();
        if typed.is_empty() {
            return Err(refused("current_code", CURRENT_CODE_REQUIRED));
        }
        let is_app_code = typed.len() == 6 && typed.bytes().all(|b| b.is_ascii_digit());
        let given = if is_app_code {
            Code {
                code: typed,
                recovery_code: "",
            }
        } else {
            Code {
                code: "",
                recovery_code: typed,
            }
        };
        self.prove_under(user, given, ["current_code", "current_code"])
            .await
    }

    /// The password, refused under `password` when wrong (throttled like a login).
    async fn password(&self, user: &UserRow, typed: &str) -> Result<(), FactorError> {
        let now = self.now();
        if log_in::guess(self.pool, user, typed.to_string(), self.address, now).await? {
            Ok(())
        } else {
            Err(refused("password", super::change_password::WRONG_PASSWORD))
        }
    }

    /// Confirms the pending secret with its first code: it becomes the user's factor, with ten
    /// new recovery codes (returned, to show once).
    async fn finish_setup(&self, user: &UserRow, code: &str) -> Result<Vec<String>, FactorError> {
        if code.trim().is_empty() {
            return Err(refused("code", CODE_REQUIRED));
        }
        self.attempt(user).await?;
        let stored = store::stored(self.pool, user.id).await?;
        let Some(pending) = self.decrypt(stored.pending_secret)? else {
            return Err(refused("code", NO_SETUP));
        };
        let Some(step) = factor::matching_step(&pending, code, self.clock.real_now()) else {
            return Err(self.wrong_code(user, "code", WRONG_CODE).await);
        };
        let codes = factor::new_recovery_codes();
        let hashes: Vec<[u8; 32]> = codes
            .iter()
            .filter_map(|c| factor::recovery_hash(c))
            .collect();
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        if !store::enable(&mut *tx, user.id, step, now).await? {
            return Err(refused("code", NO_SETUP));
        }
        store::replace_recovery_codes(&mut tx, user.id, &hashes, now).await?;
        tx.commit().await?;
        self.attempt_succeeded(user).await?;
        self.record(Action::SecondFactorEnabled, Some(user.id), user.id)
            .await?;
        let (headline, text) = if user.second_factor {
            (
                "Your two-step verification app was replaced",
                "Codes for your account now come from a new authenticator app; the earlier app's \
                 codes and your earlier recovery codes no longer work.",
            )
        } else {
            (
                "Two-step verification is on",
                "Logging in to your account now asks for a code from your authenticator app.",
            )
        };
        self.notify(user, headline, text.into()).await?;
        Ok(codes)
    }

    /// A new secret for the user to scan, kept (encrypted) until a code confirms it.
    pub async fn start_setup(&self, user: &UserRow) -> Result<Enrolment, FactorError> {
        let secret = factor::new_secret();
        store::set_pending(self.pool, user.id, &self.cipher.encrypt(&secret)?).await?;
        Ok(factor::enrolment(&secret, &user.email)?)
    }

    /// The user whose password the session `challenged` gave in the last five minutes (the
    /// login's first step).
    pub async fn challenged_user(&self, challenged: &[u8; 32]) -> Result<UserRow, FactorError> {
        let since = self.now() - factor::CHALLENGE_VALID_FOR;
        let user = match store::challenge(self.pool, challenged, since).await? {
            Some(id) => sessions::active_user(self.pool, id).await?,
            None => None,
        };
        user.ok_or_else(|| refused("code", LOG_IN_AGAIN))
    }

    /// The login's second step: the code of the challenged user's factor, or the first code of
    /// the factor they set up now (then its recovery codes, to show once).
    pub async fn log_in(
        &self,
        user: &UserRow,
        given: Code<'_>,
    ) -> Result<Vec<String>, FactorError> {
        if user.second_factor {
            self.prove(user, given).await?;
            Ok(Vec::new())
        } else {
            self.finish_setup(user, given.code).await
        }
    }

    /// A new secret for an account that must set up its factor at this login.
    pub async fn log_in_setup(&self, user: &UserRow) -> Result<Enrolment, FactorError> {
        if user.second_factor {
            return Err(refused("code", LOG_IN_AGAIN));
        }
        self.start_setup(user).await
    }

    /// Turns the factor on, or replaces the app: the password, the current factor when there is
    /// one, and the new app's first code. The session `session` counts as just proved.
    pub async fn enable(
        &self,
        user: &UserRow,
        session: &[u8; 32],
        password: &str,
        current_code: &str,
        code: &str,
    ) -> Result<Vec<String>, FactorError> {
        self.password(user, password).await?;
        if user.second_factor {
            self.prove_current(user, current_code).await?;
        }
        let codes = self.finish_setup(user, code).await?;
        store::set_session_proved_at(self.pool, session, self.now()).await?;
        Ok(codes)
    }

    /// Turns the factor off (the recovery codes with it).
    pub async fn disable(
        &self,
        user: &UserRow,
        password: &str,
        current_code: &str,
    ) -> Result<(), FactorError> {
        if user.second_factor_required {
            return Err(refused("password", MUST_KEEP));
        }
        self.password(user, password).await?;
        self.prove_current(user, current_code).await?;
        let mut tx = self.pool.begin().await?;
        store::disable(&mut tx, user.id).await?;
        tx.commit().await?;
        self.record(Action::SecondFactorDisabled, Some(user.id), user.id)
            .await?;
        self.notify(
            user,
            "Two-step verification is off",
            "Logging in to your account no longer asks for a code from an authenticator app, and \
             your recovery codes no longer work."
                .into(),
        )
        .await?;
        Ok(())
    }

    /// Ten new recovery codes for a code from the app (a recovery code cannot mint new ones).
    pub async fn renew_recovery_codes(
        &self,
        user: &UserRow,
        code: &str,
    ) -> Result<Vec<String>, FactorError> {
        let given = Code {
            code,
            recovery_code: "",
        };
        self.prove(user, given).await?;
        let codes = factor::new_recovery_codes();
        let hashes: Vec<[u8; 32]> = codes
            .iter()
            .filter_map(|c| factor::recovery_hash(c))
            .collect();
        let mut tx = self.pool.begin().await?;
        store::replace_recovery_codes(&mut tx, user.id, &hashes, self.now()).await?;
        tx.commit().await?;
        self.record(Action::RecoveryCodesRenewed, Some(user.id), user.id)
            .await?;
        self.notify(
            user,
            "New recovery codes",
            "Ten new recovery codes were made for your account; the earlier ones no longer work."
                .into(),
        )
        .await?;
        Ok(codes)
    }

    /// Proves the factor for the session `session` now (acting as an agent is allowed for the
    /// next 15 minutes).
    pub async fn verify(
        &self,
        user: &UserRow,
        session: &[u8; 32],
        given: Code<'_>,
    ) -> Result<(), FactorError> {
        if !user.second_factor {
            return Err(refused("code", NO_SETUP));
        }
        self.prove(user, given).await?;
        store::set_session_proved_at(self.pool, session, self.now()).await?;
        self.record(Action::SecondFactorVerified, Some(user.id), user.id)
            .await?;
        Ok(())
    }

    /// Requires two-step verification of every agent, or stops requiring it, for `admin`: the
    /// sessions of agents who have not used it in them end; the other admins are told of a change.
    pub async fn set_required_for_agents(
        &self,
        admin: &UserRow,
        required: bool,
    ) -> Result<(), FactorError> {
        let now = self.now();
        let before = store::required_for_agents(self.pool).await?;
        let ended = store::set_required_for_agents(self.pool, required, admin.id, now).await?;
        sessions::evict(self.caches, &ended);
        let entry = audit::Entry {
            action: Action::SecuritySettingsChanged,
            actor: Some(admin.id),
            address: self.address,
            ..Default::default()
        };
        audit::record(self.pool, now, &entry).await?;
        if before != required {
            let notice = Notice {
                headline: "the agents' two-step verification changed",
                text: format!(
                    "{} {} two-step verification for agents.",
                    admin.full_name(),
                    if required {
                        "required"
                    } else {
                        "stopped requiring"
                    }
                ),
            };
            let mut db = self.pool.acquire().await?;
            notices::tell_admins(&mut db, &notice, None, now).await?;
        }
        Ok(())
    }

    /// The account `id` whose factor `admin` may reset: never the admin's own (another admin
    /// vouches for them). Asked before the admin's own recent code is.
    pub async fn account_to_reset(
        &self,
        admin: &UserRow,
        id: Uuid,
    ) -> Result<UserRow, FactorError> {
        let user = users::by_id(self.pool, id)
            .await?
            .ok_or(FactorError::NotFound)?;
        if user.id == admin.id {
            return Err(FactorError::OwnAccount);
        }
        Ok(user)
    }

    /// An admin removes the factor and recovery codes of `user` (who lost them) and ends its
    /// sessions; it sets up the factor again at its next login if required.
    pub async fn reset_for(&self, admin: &UserRow, user: &UserRow) -> Result<(), FactorError> {
        if disable::among_last_admins(self.pool, user).await? {
            return Err(FactorError::LastAdmins);
        }
        let now = self.now();
        let mut tx = self.pool.begin().await?;
        store::disable(&mut tx, user.id).await?;
        let ended = stored_sessions::delete_for_user(&mut *tx, user.id, None).await?;
        let by = admin.full_name();
        notices::tell(
            &mut tx,
            user,
            &Notice {
                headline: "your two-step verification was reset",
                text: format!(
                    "{by}, an administrator, removed your authenticator app and recovery codes \
                     and signed you out everywhere. You set up two-step verification again at \
                     your next login."
                ),
            },
            now,
        )
        .await?;
        notices::tell_admins(
            &mut tx,
            &Notice {
                headline: "a user's two-step verification was reset",
                text: format!(
                    "{by} reset the two-step verification of {}.",
                    user.full_name()
                ),
            },
            Some(user.id),
            now,
        )
        .await?;
        tx.commit().await?;
        sessions::evict(self.caches, &ended);
        self.record(Action::SecondFactorReset, Some(admin.id), user.id)
            .await?;
        Ok(())
    }
}

/// Recovery codes left to the user.
pub async fn recovery_codes_left(pool: &PgPool, user: Uuid) -> crate::db::Result<i64> {
    store::recovery_codes_left(pool, user).await
}

/// Whether every agent must use two-step verification.
pub async fn required_for_agents(pool: &PgPool) -> crate::db::Result<bool> {
    store::required_for_agents(pool).await
}

/// When the session `session` last proved its person's factor, if within
/// [`factor::RECENT`] of `now` (an admin's powerful actions need it).
pub async fn recently_proved(
    pool: &PgPool,
    session: &[u8; 32],
    now: OffsetDateTime,
) -> crate::db::Result<Option<OffsetDateTime>> {
    Ok(store::session_proved_at(pool, session)
        .await?
        .filter(|t| *t <= now && now - *t <= factor::RECENT))
}
