//! How the one error type (`crate::platform::error::ApiError`, what any request's work ends with) is
//! answered: every failure maps to a status and a JSON body; no stack trace or SQL text ever
//! reaches a response (internal errors are logged and answered generically).
//!
//! A 429 or 503 carries `Retry-After`. A database out of reach is 503 `Service unavailable` within
//! the pool's 5 s acquire timeout (`db::connect`), never a hang.

use std::collections::BTreeMap;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::app::applying::open::{ALREADY_SUBMITTED, CHANGED_ELSEWHERE, OpenError, StoreError};
use crate::app::applying::quotes::QuoteError;
use crate::app::applying::save_step::SaveError;
pub use crate::platform::error::{ApiError, ApiResult};
use enrollflow_engine::EvalError;

/// 419: the session expired or the CSRF check failed (the web client then goes to the site root).
pub const SESSION_EXPIRED: u16 = 419;

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden | ApiError::ForbiddenBecause(_) | ApiError::SecondFactorNeeded => {
                StatusCode::FORBIDDEN
            }
            ApiError::SessionExpired | ApiError::SessionReplaced => {
                StatusCode::from_u16(SESSION_EXPIRED).unwrap_or(StatusCode::UNAUTHORIZED)
            }
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Gone(_) => StatusCode::GONE,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooManyRequests(_) | ApiError::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable | ApiError::TryAgain(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A submitted application is never changed (a second purchase included): 409.
pub fn already_submitted() -> ApiError {
    ApiError::Conflict(ALREADY_SUBMITTED.into())
}

/// A rule's failure as an answer: a step that does not exist is 404, a page step saved through
/// the form route 400, a rule that failed (logged with its file and line) 500.
pub fn eval_error(e: EvalError) -> ApiError {
    match e {
        EvalError::UnknownStep(s) => ApiError::NotFound(format!("There is no step `{s}`.")),
        EvalError::NotAForm(s) => {
            ApiError::BadRequest(format!("Step `{s}` is saved by its own page."))
        }
        EvalError::Rule(d) => {
            crate::rules::evaluation::note_failure(&d);
            ApiError::Internal(anyhow::anyhow!("rule failed: {d}"))
        }
    }
}

impl From<QuoteError> for ApiError {
    fn from(e: QuoteError) -> Self {
        match e {
            QuoteError::AboutYouFirst => ApiError::Conflict(e.to_string()),
            QuoteError::Rules(e) => eval_error(e),
        }
    }
}

impl From<OpenError> for ApiError {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::NotASite => ApiError::NotFound(OpenError::NotASite.to_string()),
            OpenError::StepClosed => ApiError::Forbidden,
            OpenError::Rules(e) => eval_error(e),
            OpenError::Failed(e) => e.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::ChangedElsewhere => ApiError::Conflict(CHANGED_ELSEWHERE.into()),
            StoreError::AlreadySubmitted => ApiError::Conflict(ALREADY_SUBMITTED.into()),
            // Counted where it failed (`evaluation::note_failure`).
            StoreError::Rule(d) => ApiError::Internal(anyhow::anyhow!("rule failed: {d}")),
            StoreError::Failed(e) => e.into(),
        }
    }
}

impl From<SaveError> for ApiError {
    fn from(e: SaveError) -> Self {
        match e {
            SaveError::Open(e) => e.into(),
            SaveError::Store(e) => e.into(),
            SaveError::NotAnObject => ApiError::BadRequest(e.to_string()),
            SaveError::SavedByItsPage(s) => {
                ApiError::BadRequest(format!("Step `{s}` is saved by its own page."))
            }
            SaveError::Invalid(errors) => ApiError::Validation(errors),
            SaveError::PurchaseFirst => ApiError::Forbidden,
        }
    }
}

pub const SECOND_FACTOR_NEEDED: &str =
    "Please enter a code from your authenticator app to continue.";

/// The key of a rule's refusal of a whole submission, answered as `{"submit_error": "…"}`.
pub const SUBMIT_ERROR: &str = "submit_error";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match &self {
            // A refusal of the whole submission (a purchase the rules refuse: spec part 2, 7 and
            // 8 `submit_error`) comes apart from the field errors.
            ApiError::Validation(errors) => match errors.get(SUBMIT_ERROR) {
                Some(refusal) => {
                    let fields: BTreeMap<&String, &Vec<String>> =
                        errors.iter().filter(|(k, _)| *k != SUBMIT_ERROR).collect();
                    if fields.is_empty() {
                        json!({ SUBMIT_ERROR: refusal.join(" ") })
                    } else {
                        json!({ SUBMIT_ERROR: refusal.join(" "), "errors": fields })
                    }
                }
                None => json!({ "errors": errors }),
            },
            // The purchase of a submitted application is refused the same way.
            ApiError::Conflict(m) => json!({ "error": m, SUBMIT_ERROR: m }),
            ApiError::BadRequest(m)
            | ApiError::NotFound(m)
            | ApiError::Gone(m)
            | ApiError::TryAgain(m)
            | ApiError::MethodNotAllowed(m) => {
                json!({ "error": m })
            }
            ApiError::Forbidden => json!({ "error": "You are not allowed to do that." }),
            ApiError::ForbiddenBecause(why) => json!({ "error": why }),
            ApiError::SecondFactorNeeded => json!({
                "error": SECOND_FACTOR_NEEDED,
                "second_factor": "required",
            }),
            ApiError::SessionExpired => json!({ "error": "Your session has expired" }),
            ApiError::SessionReplaced => {
                json!({ "error": "Your session has been replaced", "session": "replaced" })
            }
            ApiError::PayloadTooLarge => json!({ "error": "The file is too large." }),
            ApiError::UnsupportedMediaType => json!({ "error": "Only PDF files are accepted." }),
            ApiError::TooManyRequests(_) => {
                json!({ "error": "Too many attempts. Please wait a moment and try again." })
            }
            ApiError::Busy { message, .. } => json!({ "error": message }),
            ApiError::Unavailable => json!({ "error": "Service unavailable" }),
            ApiError::Internal(e) => {
                tracing::error!(error = %e, "internal error");
                json!({ "error": "Something went wrong!" })
            }
        };
        let retry_after = match &self {
            ApiError::TooManyRequests(seconds) => Some((*seconds).max(1)),
            ApiError::Busy { retry_after, .. } => Some((*retry_after).max(1)),
            ApiError::Unavailable | ApiError::TryAgain(_) => Some(UNAVAILABLE_RETRY_AFTER),
            _ => None,
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// Seconds a client is asked to wait after a 503 (the database restarting, a write that failed).
pub const UNAVAILABLE_RETRY_AFTER: u64 = 5;
