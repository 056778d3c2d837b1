//! The one error type of a request's work, for the HTTP layer and the services it calls alike:
//! each variant names what went wrong in the terms the caller is answered in (`http::error` maps
//! it to a status and a JSON body). A database out of reach becomes `Unavailable`.

use std::collections::BTreeMap;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
    #[error("forbidden")]
    Forbidden,
    /// 403 with the reason the user is told (a proposal's author approving it, say).
    #[error("forbidden: {0}")]
    ForbiddenBecause(String),
    /// 403 `{"second_factor": "required"}`: the call needs the person's second factor proved
    /// within the last 15 minutes (impersonating an agent); the client asks for a code, sends it
    /// to `/api/user/second-factor/verify`, and calls again.
    #[error("second factor needed")]
    SecondFactorNeeded,
    #[error("session expired")]
    SessionExpired,
    /// 419 for a request that carried a session's cookie after that session was replaced (a login,
    /// an impersonation, a switch back) or ended: the browser has a newer cookie, and the client
    /// may simply send the request again. The answer never touches the cookie.
    #[error("session replaced")]
    SessionReplaced,
    #[error("{0}")]
    Conflict(String),
    /// 410: a link that worked once and no longer does (used, expired, replaced), with why.
    #[error("{0}")]
    Gone(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("validation failed")]
    Validation(BTreeMap<String, Vec<String>>),
    #[error("payload too large")]
    PayloadTooLarge,
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// 429, with `Retry-After` in seconds.
    #[error("too many requests")]
    TooManyRequests(u64),
    /// 429 with a message: work that waits its turn (an impact running, the draft threads busy).
    #[error("busy: {message}")]
    Busy { message: String, retry_after: u64 },
    #[error("service unavailable")]
    Unavailable,
    /// 503 with a message for the user (something could not be stored; nothing was changed).
    #[error("{0}")]
    TryAgain(String),
    #[error("internal error")]
    Internal(anyhow::Error),
}

impl ApiError {
    /// 422 `{errors: {field: [problems]}}`: what is wrong with one field of the request.
    pub fn invalid(field: &str, problems: Vec<String>) -> Self {
        ApiError::Validation(std::collections::BTreeMap::from([(
            field.to_string(),
            problems,
        )]))
    }
}

impl From<anyhow::Error> for ApiError {
    /// PostgreSQL out of reach (stopped, restarting, no connection within the pool's acquire
    /// timeout) is 503, which the client may retry; anything else is a 500.
    fn from(e: anyhow::Error) -> Self {
        if database_unavailable(&e) {
            tracing::warn!(error = %e, "database unavailable");
            ApiError::Unavailable
        } else {
            ApiError::Internal(e)
        }
    }
}

impl From<crate::db::Error> for ApiError {
    fn from(e: crate::db::Error) -> Self {
        anyhow::Error::new(e).into()
    }
}

/// Whether the error comes from the database connection rather than the query
/// (`db::is_unavailable`).
fn database_unavailable(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<crate::db::Error>())
        .any(crate::db::is_unavailable)
}

pub type ApiResult<T> = Result<T, ApiError>;
