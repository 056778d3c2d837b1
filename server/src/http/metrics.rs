//! Observability: Prometheus metrics at `/metrics`, and one access-log line per
//! request.
//!
//! `/metrics` answers on the main address to the operator token (`Authorization: Bearer …`), and
//! without it on `ENROLLFLOW_METRICS_LISTEN` (a private port for the scraper). The access line and
//! the request metrics name the route template, never the path as sent (paths may carry tokens)
//! and never a query string or a body.
//!
//! `telemetry::metrics()` is `metrics` with `metrics-exporter-prometheus`. `observe` counts and
//! times every request by route template and logs its `access` line (method, route, status,
//! duration, request id); the pool, outbox and session gauges are read at scrape time, beside the
//! pool-wait probe. A client route such as `/reset-password/email/{email}/…` is logged as
//! `(static)`. Tests below and `server/tests/api/observability.rs`.

use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::error::ApiError;
use crate::app::accounts::sessions::Cutoffs;
use crate::app::operations;
use crate::http::state::AppState;
use crate::platform::telemetry;

/// The route template of a request, as its metrics and its log line name it.
pub fn route_of(req: &Request) -> String {
    req.extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| {
            if req.uri().path().starts_with("/api/") {
                "/api/(unmatched)".into()
            } else {
                "(static)".into()
            }
        })
}

/// Counts and times every request, and logs it: method, route template, status, duration,
/// request id.
pub async fn observe(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let route = route_of(&req);
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let res = next.run(req).await;
    let elapsed = started.elapsed();
    let status = res.status().as_u16();
    let labels = [
        ("method", method.as_str().to_string()),
        ("route", route.clone()),
    ];
    metrics::histogram!("enrollflow_http_request_duration_seconds", &labels)
        .record(elapsed.as_secs_f64());
    metrics::counter!("enrollflow_http_requests_total", "method" => method.as_str().to_string(),
                      "route" => route.clone(), "status" => status.to_string())
    .increment(1);
    tracing::info!(
        target: "access",
        method = %method,
        route = %route,
        status,
        duration_ms = elapsed.as_secs_f64() * 1000.0,
        request_id = %request_id,
        "request"
    );
    res
}

/// `/metrics` on the main address: the operator's.
pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(guarded))
}

async fn guarded(State(app): State<AppState>, headers: HeaderMap) -> Response {
    if !super::admin::bearer_is_operator(&app, &headers) {
        return ApiError::Forbidden.into_response();
    }
    exposition(&app).await
}

/// `/metrics` alone, on the metrics address (no token: that port is not the load balancer's).
pub fn private_router(state: AppState) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(|State(app): State<AppState>| async move { exposition(&app).await }),
        )
        .with_state(state)
}

/// The Prometheus text, with the gauges read now: the pool, the outbox and the sessions.
async fn exposition(app: &AppState) -> Response {
    let idle = app.pool.num_idle();
    let size = app.pool.size() as usize;
    metrics::gauge!("enrollflow_db_pool_connections", "state" => "in_use")
        .set(size.saturating_sub(idle) as f64);
    metrics::gauge!("enrollflow_db_pool_connections", "state" => "idle").set(idle as f64);
    let now = app.clock.now();
    let cutoffs = Cutoffs {
        idle: now - app.config.idle_timeout(),
        created: now - app.config.session_lifetime(),
    };
    let counts = operations::counts(&app.pool, cutoffs);
    match tokio::time::timeout(Duration::from_secs(2), counts).await {
        Ok(Ok(c)) => {
            metrics::gauge!("enrollflow_outbox_depth").set(c.unsent_mail as f64);
            metrics::gauge!("enrollflow_sessions_active").set(c.live_sessions as f64);
        }
        Ok(Err(e)) => tracing::warn!(error = %e, "metrics: the database counts failed"),
        Err(_) => tracing::warn!("metrics: the database counts timed out"),
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        telemetry::metrics().render(),
    )
        .into_response()
}

/// Samples how long a request waits for a database connection (`enrollflow_db_pool_acquire_seconds`)
/// every second: sqlx does not report its waits, so a probe takes a connection as a request would.
pub fn spawn_pool_probe(app: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            let started = Instant::now();
            match app.pool.acquire().await {
                Ok(conn) => {
                    metrics::histogram!("enrollflow_db_pool_acquire_seconds")
                        .record(started.elapsed().as_secs_f64());
                    drop(conn);
                }
                Err(_) => {
                    metrics::counter!("enrollflow_db_pool_acquire_failures_total").increment(1)
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    use super::*;

    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn each_request_is_logged_at_info_with_its_route_template_and_never_its_query() {
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_max_level(tracing::Level::INFO)
            .with_writer(move || writer.clone())
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let app: Router = Router::new()
            .route(
                "/api/application/step/{step}",
                get(|| async { StatusCode::CREATED }),
            )
            .layer(axum::middleware::from_fn(observe));
        let res = app
            .oneshot(
                Request::get("/api/application/step/subInfo?email=ann%40example.com")
                    .header("x-request-id", "req-42")
                    .body(Body::empty())
                    .expect("request"),
            )
            .await
            .expect("answer");
        assert_eq!(res.status(), StatusCode::CREATED);
        let text = String::from_utf8(lines.0.lock().expect("lines").clone()).expect("utf-8");
        let line: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON line");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["target"], "access");
        let f = &line["fields"];
        assert_eq!(f["method"], "GET");
        assert_eq!(f["route"], "/api/application/step/{step}");
        assert_eq!(f["status"], 201);
        assert_eq!(f["request_id"], "req-42");
        assert!(f["duration_ms"].as_f64().is_some());
        assert!(!text.contains("ann"), "no query string: {text}");
        assert!(
            !text.contains("subInfo"),
            "the template, not the path: {text}"
        );
    }
}
