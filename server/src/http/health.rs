//! Liveness and readiness probes (not part of the API document).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::{ApiError, ApiResult};
use crate::startup::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The process is up.
async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The process can serve: the database answers.
async fn readyz(State(app): State<AppState>) -> ApiResult<Json<Value>> {
    match sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(&app.pool)
        .await
    {
        Ok(_) => Ok(Json(json!({ "status": "ready" }))),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(ApiError::Unavailable)
        }
    }
}
