//! The `audit_log` table: ids, an action, a time, an address, a route template and a request id;
//! never a password, token, e-mail address, name or value from a request.
//!
//! The log is append-only and chained: a trigger refuses UPDATE, DELETE and TRUNCATE, each row
//! carries sha256(previous hash ‖ its fields), and `enrollflow audit verify` (`verify`) names the
//! first row changed or missing. The request id is the server's; a client's is kept beside it. The
//! server's connections work as `enrollflow_app` (`crate::db::connect`), which may only read and
//! insert audit rows. `server/tests/api/governance.rs` `the_audit_log_is_a_chain_nobody_rewrites…`.

use sqlx::PgExecutor;
use time::OffsetDateTime;
use uuid::Uuid;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Action {
    #[default]
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
    SecondFactorEnabled,
    SecondFactorDisabled,
    SecondFactorFailed,
    SecondFactorVerified,
    SecondFactorReset,
    RecoveryCodeUsed,
    RecoveryCodesRenewed,
    SecuritySettingsChanged,
    /// An application's details were shown (the dashboard's More Info).
    ApplicationViewed,
    /// An application was opened to continue it (the dashboard's Enroll).
    ApplicationOpened,
    /// A dashboard list was exported (Excel).
    Exported,
    /// A PDF was made.
    PdfMade,
    /// A change made by an admin acting as an agent.
    ImpersonatedAction,
    /// A call refused with 403.
    AccessRefused,
    /// A rule set proposed, approved, rejected, withdrawn; published, scheduled, its schedule
    /// cancelled, rolled back; an impact run (`detail` names the set hashes and the diff's hash).
    RulesProposed,
    RulesApproved,
    RulesRejected,
    RulesWithdrawn,
    RulesPublished,
    RulesScheduled,
    RulesScheduleCancelled,
    RulesRolledBack,
    RulesImpactRun,
    /// A hand-off link sent to a customer, or withdrawn.
    HandoffSent,
    HandoffWithdrawn,
    /// A resume or hand-off link used: the application changed hands.
    LinkUsed,
    /// A submission downloaded as a made-up scenario.
    ScenarioDownloaded,
    /// A dashboard list searched or filtered (the route, never the words searched).
    ListSearched,
    /// The outbox or the audit log read by an admin.
    OutboxRead,
    AuditRead,
    /// An agent message written or changed by an admin.
    MessageChanged,
    /// A state-changing call refused for a foreign origin or a wrong CSRF token.
    RequestRefused,
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
            Action::SecondFactorEnabled => "second_factor_enabled",
            Action::SecondFactorDisabled => "second_factor_disabled",
            Action::SecondFactorFailed => "second_factor_failed",
            Action::SecondFactorVerified => "second_factor_verified",
            Action::SecondFactorReset => "second_factor_reset",
            Action::RecoveryCodeUsed => "recovery_code_used",
            Action::RecoveryCodesRenewed => "recovery_codes_renewed",
            Action::SecuritySettingsChanged => "security_settings_changed",
            Action::ApplicationViewed => "application_viewed",
            Action::ApplicationOpened => "application_opened",
            Action::Exported => "exported",
            Action::PdfMade => "pdf_made",
            Action::ImpersonatedAction => "impersonated_action",
            Action::AccessRefused => "access_refused",
            Action::RulesProposed => "rules_proposed",
            Action::RulesApproved => "rules_approved",
            Action::RulesRejected => "rules_rejected",
            Action::RulesWithdrawn => "rules_withdrawn",
            Action::RulesPublished => "rules_published",
            Action::RulesScheduled => "rules_scheduled",
            Action::RulesScheduleCancelled => "rules_schedule_cancelled",
            Action::RulesRolledBack => "rules_rolled_back",
            Action::RulesImpactRun => "rules_impact_run",
            Action::HandoffSent => "handoff_sent",
            Action::HandoffWithdrawn => "handoff_withdrawn",
            Action::LinkUsed => "link_used",
            Action::ScenarioDownloaded => "scenario_downloaded",
            Action::ListSearched => "list_searched",
            Action::OutboxRead => "outbox_read",
            Action::AuditRead => "audit_read",
            Action::MessageChanged => "message_changed",
            Action::RequestRefused => "request_refused",
        }
    }

    /// Every action, for the log viewer's filter.
    pub const ALL: [Action; 44] = [
        Action::Login,
        Action::LoginFailed,
        Action::Logout,
        Action::PasswordChange,
        Action::PasswordResetRequested,
        Action::PasswordReset,
        Action::Register,
        Action::Impersonate,
        Action::ImpersonateEnd,
        Action::SessionsEnded,
        Action::AccountDisabled,
        Action::AccountEnabled,
        Action::SecondFactorEnabled,
        Action::SecondFactorDisabled,
        Action::SecondFactorFailed,
        Action::SecondFactorVerified,
        Action::SecondFactorReset,
        Action::RecoveryCodeUsed,
        Action::RecoveryCodesRenewed,
        Action::SecuritySettingsChanged,
        Action::ApplicationViewed,
        Action::ApplicationOpened,
        Action::Exported,
        Action::PdfMade,
        Action::ImpersonatedAction,
        Action::AccessRefused,
        Action::RulesProposed,
        Action::RulesApproved,
        Action::RulesRejected,
        Action::RulesWithdrawn,
        Action::RulesPublished,
        Action::RulesScheduled,
        Action::RulesScheduleCancelled,
        Action::RulesRolledBack,
        Action::RulesImpactRun,
        Action::HandoffSent,
        Action::HandoffWithdrawn,
        Action::LinkUsed,
        Action::ScenarioDownloaded,
        Action::ListSearched,
        Action::OutboxRead,
        Action::AuditRead,
        Action::MessageChanged,
        Action::RequestRefused,
    ];

    pub fn parse(s: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

/// One audit entry. `actor` did it (the admin while impersonating); `subject` is the account it
/// concerns. `address` is the client's IP address, when known.
#[derive(Debug, Default)]
pub struct Entry {
    pub action: Action,
    pub actor: Option<Uuid>,
    pub subject: Option<Uuid>,
    pub address: Option<std::net::IpAddr>,
    /// The application whose data was reached.
    pub application: Option<Uuid>,
    /// What exactly: a method and route template (`GET /api/dashboard/getAppInfo/{id}`), never a
    /// value from the request.
    pub detail: Option<String>,
    /// The server's own id of the request (`x-request-id`, also in the access log).
    pub request_id: Option<String>,
    /// The id a client sent as `x-request-id`, kept beside the server's.
    pub client_request_id: Option<String>,
}

pub async fn record(db: impl PgExecutor<'_>, at: OffsetDateTime, e: &Entry) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO audit_log (at, action, actor_user_id, subject_user_id, address,
                                application_id, detail, request_id, client_request_id)
         VALUES ($1, $2, $3, $4, $5::text::inet, $6, left($7, 200), left($8, 100), left($9, 100))",
    )
    .bind(at)
    .bind(e.action.as_str())
    .bind(e.actor)
    .bind(e.subject)
    .bind(e.address.map(|a| a.to_string()))
    .bind(e.application)
    .bind(e.detail.as_deref())
    .bind(e.request_id.as_deref())
    .bind(e.client_request_id.as_deref())
    .execute(db)
    .await?;
    Ok(())
}

/// The log viewer's filter.
#[derive(Debug, Default)]
pub struct Filter {
    pub action: Option<Action>,
    /// Actor or subject: a user's id.
    pub person: Option<Uuid>,
    pub application: Option<Uuid>,
    pub from: Option<OffsetDateTime>,
    pub until: Option<OffsetDateTime>,
    /// Rows older than this id (the next page).
    pub before_id: Option<i64>,
    pub limit: i64,
}

/// A row as the viewer shows it: people by name and address (admins only read this).
#[derive(Debug, sqlx::FromRow)]
pub struct Row {
    pub id: i64,
    pub at: OffsetDateTime,
    pub action: String,
    pub actor_id: Option<Uuid>,
    pub actor_name: Option<String>,
    pub subject_id: Option<Uuid>,
    pub subject_name: Option<String>,
    pub application_id: Option<Uuid>,
    pub detail: Option<String>,
    pub address: Option<String>,
    pub request_id: Option<String>,
    pub client_request_id: Option<String>,
}

/// The newest rows matching the filter (at most `limit`), newest first.
pub async fn list(pool: &sqlx::PgPool, f: &Filter) -> sqlx::Result<Vec<Row>> {
    sqlx::query_as(
        "SELECT l.id, l.at, l.action,
                l.actor_user_id AS actor_id, a.first_name || ' ' || a.last_name AS actor_name,
                l.subject_user_id AS subject_id, s.first_name || ' ' || s.last_name AS subject_name,
                l.application_id, l.detail, host(l.address) AS address, l.request_id,
                l.client_request_id
         FROM audit_log l
         LEFT JOIN users a ON a.id = l.actor_user_id
         LEFT JOIN users s ON s.id = l.subject_user_id
         WHERE ($1::text IS NULL OR l.action = $1)
           AND ($2::uuid IS NULL OR l.actor_user_id = $2 OR l.subject_user_id = $2)
           AND ($3::uuid IS NULL OR l.application_id = $3)
           AND ($4::timestamptz IS NULL OR l.at >= $4)
           AND ($5::timestamptz IS NULL OR l.at < $5)
           AND ($6::bigint IS NULL OR l.id < $6)
         ORDER BY l.id DESC
         LIMIT $7",
    )
    .bind(f.action.map(Action::as_str))
    .bind(f.person)
    .bind(f.application)
    .bind(f.from)
    .bind(f.until)
    .bind(f.before_id)
    .bind(f.limit)
    .fetch_all(pool)
    .await
}

/// What `enrollflow audit verify` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every row's hash is its own, each names the one before, the head names the last.
    Intact { rows: u64 },
    /// The first row that does not hold, and why.
    Broken { id: Option<i64>, why: String },
}

/// Walks the audit chain in id order: each row's hash must be sha256(previous hash ‖ its fields),
/// its previous hash the row before's, and the chain's head the last row's (a changed row, a
/// missing one and a missing last one are all found).
pub async fn verify(pool: &sqlx::PgPool) -> sqlx::Result<Verdict> {
    use futures_util::TryStreamExt;
    use sha2::{Digest, Sha256};
    let mut rows = sqlx::query_as::<_, (i64, Option<Vec<u8>>, Option<Vec<u8>>, String)>(
        "SELECT l.id, l.prev_hash, l.row_hash, audit_row_text(l) FROM audit_log l ORDER BY l.id",
    )
    .fetch(pool);
    let mut previous: Vec<u8> = Vec::new();
    let mut count = 0u64;
    let mut last_id = None;
    while let Some((id, prev, hash, text)) = rows.try_next().await? {
        let (Some(prev), Some(hash)) = (prev, hash) else {
            return Ok(Verdict::Broken {
                id: Some(id),
                why: "the row has no hash".into(),
            });
        };
        if prev != previous {
            return Ok(Verdict::Broken {
                id: Some(id),
                why: "the row does not follow the one before it: a row is missing".into(),
            });
        }
        let mut h = Sha256::new();
        h.update(&prev);
        h.update(text.as_bytes());
        if h.finalize().as_slice() != hash.as_slice() {
            return Ok(Verdict::Broken {
                id: Some(id),
                why: "the row was changed after it was written".into(),
            });
        }
        previous = hash;
        count += 1;
        last_id = Some(id);
    }
    drop(rows);
    let head: Option<(Option<i64>, Vec<u8>)> =
        sqlx::query_as("SELECT last_id, last_hash FROM audit_chain_head")
            .fetch_optional(pool)
            .await?;
    match head {
        Some((id, hash)) if id == last_id && hash == previous => {
            Ok(Verdict::Intact { rows: count })
        }
        None if count == 0 => Ok(Verdict::Intact { rows: 0 }),
        _ => Ok(Verdict::Broken {
            id: last_id,
            why: "the chain's head names another last row: rows are missing at the end".into(),
        }),
    }
}
