//! Liveness and readiness probes, and the benchmark baselines (not part of the API document).

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::{ApiError, ApiResult};
use crate::state::AppState;

pub fn router(bench: bool) -> Router<AppState> {
    let r = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz));
    if bench {
        r.route("/bench/hello", get(hello))
            .route("/bench/pk/{id}", get(pk_read))
    } else {
        r
    }
}

/// The reference route: the middleware stack and nothing else (`--bench-routes` only).
async fn hello() -> &'static str {
    "Hello, world!"
}

/// The database baseline: one row by primary key (`--bench-routes` only).
async fn pk_read(
    State(app): State<AppState>,
    Path(id): Path<uuid::Uuid>,
) -> ApiResult<Json<Value>> {
    let row = crate::db::applications::step_and_date(&app.pool, id).await?;
    let (last_step, effective) =
        row.ok_or_else(|| ApiError::NotFound("No such application.".into()))?;
    Ok(Json(
        json!({ "id": id, "last_step": last_step, "effective_date": effective.map(|d| d.to_string()) }),
    ))
}

/// The process is up.
async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The process can serve: the database answers.
async fn readyz(State(app): State<AppState>) -> ApiResult<Json<Value>> {
    match crate::db::ping(&app.pool).await {
        Ok(_) => Ok(Json(json!({ "status": "ready" }))),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(ApiError::Unavailable)
        }
    }
}
