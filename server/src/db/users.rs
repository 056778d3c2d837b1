//! The `users` table and its single-use tokens (`user_tokens`).

use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;
use uuid::Uuid;

pub const ROLE_AGENT: &str = "agent";
pub const ROLE_ADMIN: &str = "admin";
/// Business analysts and testers: the rules workbench only.
pub const ROLE_ANALYST: &str = "analyst";

/// A user, with the first subdomain of the user's agent (the site shared with customers).
#[derive(Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: Uuid,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: String,
    pub agent_id: Option<Uuid>,
    /// The argon2id PHC string; `None` until the invitation is accepted.
    pub password_hash: Option<String>,
    pub agent_subdomain: Option<String>,
    /// An admin disabled the account: it cannot log in and has no sessions.
    pub disabled: bool,
    /// The user has a second factor (an authenticator app).
    pub second_factor: bool,
    /// The user must have one: every admin, and every agent while an admin requires it.
    pub second_factor_required: bool,
    /// An analyst given the permission to approve others' rule proposals (admins have it).
    pub approves_rules: bool,
}

impl UserRow {
    pub fn is_admin(&self) -> bool {
        self.role == ROLE_ADMIN
    }

    /// Opens the rules workbench (see, check, publish and roll back rule sets): analysts and
    /// admins.
    pub fn works_on_rules(&self) -> bool {
        self.role == ROLE_ADMIN || self.role == ROLE_ANALYST
    }

    /// May approve another person's rule proposal, schedule and cancel sets, and roll back: admins
    /// and the analysts given the permission.
    pub fn may_approve_rules(&self) -> bool {
        self.role == ROLE_ADMIN || (self.role == ROLE_ANALYST && self.approves_rules)
    }

    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
    }
}

// Never print the e-mail address or the hash, even in a debug log.
impl std::fmt::Debug for UserRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserRow")
            .field("id", &self.id)
            .field("role", &self.role)
            .field("agent_id", &self.agent_id)
            .finish_non_exhaustive()
    }
}

const SELECT_USER: &str = "
    SELECT u.id, u.email, u.first_name, u.last_name, u.role, u.agent_id, u.password_hash,
           u.disabled_at IS NOT NULL AS disabled,
           u.totp_secret IS NOT NULL AS second_factor, u.approves_rules,
           (u.role IN ('admin', 'analyst') OR COALESCE((SELECT second_factor_for_agents FROM security_settings),
                                         false)) AS second_factor_required,
           (SELECT s.subdomain FROM agent_subdomains s WHERE s.agent_id = u.agent_id
            ORDER BY s.position LIMIT 1) AS agent_subdomain
    FROM users u";

pub async fn by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as::<_, UserRow>(&format!("{SELECT_USER} WHERE u.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// The user with this address, whatever its case.
pub async fn by_email(pool: &PgPool, email: &str) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as::<_, UserRow>(&format!("{SELECT_USER} WHERE lower(u.email) = lower($1)"))
        .bind(email)
        .fetch_optional(pool)
        .await
}

/// The agent users of an agent, by name (admins are not listed: they cannot be acted as).
pub async fn agent_users_by_agent(pool: &PgPool, agent_id: Uuid) -> sqlx::Result<Vec<UserRow>> {
    sqlx::query_as::<_, UserRow>(&format!(
        "{SELECT_USER} WHERE u.agent_id = $1 AND u.role = '{ROLE_AGENT}'
         ORDER BY u.last_name, u.first_name, u.id"
    ))
    .bind(agent_id)
    .fetch_all(pool)
    .await
}

pub struct NewUser<'a> {
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: &'a str,
    pub agent_id: Option<Uuid>,
    pub password_hash: Option<&'a str>,
    pub terms_accepted_at: Option<OffsetDateTime>,
}

/// Inserts a user unless one with this address exists; returns the new id, or `None`.
pub async fn insert_if_absent(
    db: impl PgExecutor<'_>,
    u: &NewUser<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar(
        "INSERT INTO users (id, email, first_name, last_name, role, agent_id, password_hash,
                            terms_accepted_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT ((lower(email))) DO NOTHING
         RETURNING id",
    )
    .bind(Uuid::new_v4())
    .bind(u.email)
    .bind(u.first_name)
    .bind(u.last_name)
    .bind(u.role)
    .bind(u.agent_id)
    .bind(u.password_hash)
    .bind(u.terms_accepted_at)
    .bind(now)
    .fetch_optional(db)
    .await
}

pub async fn set_password(
    db: impl PgExecutor<'_>,
    id: Uuid,
    password_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(id)
        .bind(password_hash)
        .execute(db)
        .await?;
    Ok(())
}

/// Accepting an invitation: the password and the moment the Terms of Use were agreed to.
pub async fn register(
    db: impl PgExecutor<'_>,
    id: Uuid,
    password_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET password_hash = $2, terms_accepted_at = $3 WHERE id = $1")
        .bind(id)
        .bind(password_hash)
        .bind(now)
        .execute(db)
        .await?;
    Ok(())
}

/// What a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    ResetPassword,
    Invitation,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::ResetPassword => "reset_password",
            Purpose::Invitation => "invitation",
        }
    }
}

/// Stores a token's hash; earlier unused tokens of the same user and purpose stop working.
pub async fn insert_token(
    db: &mut sqlx::PgConnection,
    token_hash: &[u8],
    user_id: Uuid,
    purpose: Purpose,
    now: OffsetDateTime,
    expires_at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE user_tokens SET used_at = $3
         WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL",
    )
    .bind(user_id)
    .bind(purpose.as_str())
    .bind(now)
    .execute(&mut *db)
    .await?;
    sqlx::query(
        "INSERT INTO user_tokens (token_hash, user_id, purpose, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(token_hash)
    .bind(user_id)
    .bind(purpose.as_str())
    .bind(now)
    .bind(expires_at)
    .execute(&mut *db)
    .await?;
    Ok(())
}

/// The user a live (unused, unexpired) token of this purpose belongs to.
pub async fn token_user(
    pool: &PgPool,
    token_hash: &[u8],
    purpose: Purpose,
    now: OffsetDateTime,
) -> sqlx::Result<Option<UserRow>> {
    sqlx::query_as::<_, UserRow>(&format!(
        "{SELECT_USER} JOIN user_tokens t ON t.user_id = u.id
         WHERE t.token_hash = $1 AND t.purpose = $2 AND t.used_at IS NULL AND t.expires_at > $3"
    ))
    .bind(token_hash)
    .bind(purpose.as_str())
    .bind(now)
    .fetch_optional(pool)
    .await
}

/// Uses a live token up (once: of two racing uses exactly one gets the user id).
pub async fn consume_token(
    db: impl PgExecutor<'_>,
    token_hash: &[u8],
    purpose: Purpose,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Uuid>> {
    sqlx::query_scalar(
        "UPDATE user_tokens SET used_at = $3
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
         RETURNING user_id",
    )
    .bind(token_hash)
    .bind(purpose.as_str())
    .bind(now)
    .fetch_optional(db)
    .await
}

/// How many tokens of this purpose the user was sent since `since` (limits reset mails).
pub async fn tokens_since(
    pool: &PgPool,
    user_id: Uuid,
    purpose: Purpose,
    since: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM user_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > $3",
    )
    .bind(user_id)
    .bind(purpose.as_str())
    .bind(since)
    .fetch_one(pool)
    .await
}

/// Removes tokens that expired before `cutoff`; returns how many.
pub async fn delete_expired_tokens(pool: &PgPool, cutoff: OffsetDateTime) -> sqlx::Result<u64> {
    Ok(sqlx::query("DELETE FROM user_tokens WHERE expires_at < $1")
        .bind(cutoff)
        .execute(pool)
        .await?
        .rows_affected())
}

/// Disables an account (`Some(time)`) or enables it again (`None`); whether there is such a user.
pub async fn set_disabled(
    db: impl sqlx::PgExecutor<'_>,
    id: Uuid,
    disabled_at: Option<time::OffsetDateTime>,
) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("UPDATE users SET disabled_at = $2 WHERE id = $1")
            .bind(id)
            .bind(disabled_at)
            .execute(db)
            .await?
            .rows_affected()
            > 0,
    )
}

/// The admins whose accounts are not disabled.
pub async fn active_admins(db: impl PgExecutor<'_>) -> sqlx::Result<Vec<UserRow>> {
    sqlx::query_as::<_, UserRow>(&format!(
        "{SELECT_USER} WHERE u.role = 'admin' AND u.disabled_at IS NULL ORDER BY u.email"
    ))
    .fetch_all(db)
    .await
}

/// Voids every unused reset and invitation link of an account (a disabled account's links must
/// not let anyone in); how many.
pub async fn void_tokens(
    db: impl PgExecutor<'_>,
    user_id: Uuid,
    now: OffsetDateTime,
) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL")
            .bind(user_id)
            .bind(now)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// Gives an analyst the permission to approve others' rule proposals, or takes it away.
pub async fn set_approves_rules(pool: &PgPool, id: Uuid, approves: bool) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET approves_rules = $2 WHERE id = $1")
        .bind(id)
        .bind(approves)
        .execute(pool)
        .await?;
    Ok(())
}
