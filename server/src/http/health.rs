//! Liveness and readiness probes, and the benchmark baselines (not part of the API document).
//!
//! The baselines `/bench/hello`, `/bench/pk/{id}` and `/bench/write/{slot}` exist only with
//! `--bench-routes` (`make bench-http`).

use axum::extract::{Path, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::{ApiError, ApiResult};
use crate::app::operations;
use crate::http::state::AppState;

pub fn router(bench: bool) -> Router<AppState> {
    let r = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz));
    if bench {
        r.route("/bench/hello", get(hello))
            .route("/bench/pk/{id}", get(pk_read))
            .route("/bench/write/{slot}", put(write))
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
    let row = operations::baseline_read(&app.pool, id).await?;
    let (last_step, effective) =
        row.ok_or_else(|| ApiError::NotFound("No such application.".into()))?;
    Ok(Json(
        json!({ "id": id, "last_step": last_step, "effective_date": effective.map(|d| d.to_string()) }),
    ))
}

/// Rows of the write baseline: the load scripts spread their writers over them.
const WRITE_SLOTS: i32 = 1024;

/// The write baseline (`--bench-routes` only): the JSON document of the body written durably to
/// one row, through the same pool as a step save (`db/bench.rs`). The load script sends the
/// size of an application after a census with a household of 6.
async fn write(
    State(app): State<AppState>,
    Path(slot): Path<i32>,
    Json(doc): Json<Value>,
) -> ApiResult<Json<Value>> {
    if !(0..WRITE_SLOTS).contains(&slot) {
        return Err(ApiError::NotFound("No such slot.".into()));
    }
    operations::baseline_write(&app.pool, slot, &doc, WRITE_SLOTS).await?;
    Ok(Json(json!({ "slot": slot })))
}

/// The process is up.
async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The process can serve: the database answers.
async fn readyz(State(app): State<AppState>) -> ApiResult<Json<Value>> {
    match operations::ready(&app.pool).await {
        Ok(_) => Ok(Json(json!({ "status": "ready" }))),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(ApiError::Unavailable)
        }
    }
}
