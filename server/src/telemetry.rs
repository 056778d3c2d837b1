//! Structured logs with `tracing`: JSON lines by default, readable text with `ENROLLFLOW_LOG_FORMAT=pretty`.
//! Nothing logged carries PII: request spans hold the method and the matched route template only.

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

pub fn init() {
    let filter = EnvFilter::try_from_env("ENROLLFLOW_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let pretty = std::env::var("ENROLLFLOW_LOG_FORMAT").is_ok_and(|v| v == "pretty");
    let registry = tracing_subscriber::registry().with(filter);
    if pretty {
        registry.with(fmt::layer().with_target(false)).init();
    } else {
        registry
            .with(
                fmt::layer()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true),
            )
            .init();
    }
}

/// The process's Prometheus recorder (installed on first use, once per process; a process that
/// already has another recorder gets a detached one, whose handle still renders its own metrics).
pub fn metrics() -> &'static metrics_exporter_prometheus::PrometheusHandle {
    use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
    static HANDLE: std::sync::OnceLock<metrics_exporter_prometheus::PrometheusHandle> =
        std::sync::OnceLock::new();
    HANDLE.get_or_init(|| {
        // Seconds: from a cached step view (tens of microseconds) to a slow export.
        const BUCKETS: &[f64] = &[
            0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
        ];
        // Only empty buckets are refused.
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
            .unwrap_or_else(|_| PrometheusBuilder::new());
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was installed already: /metrics shows none");
        }
        handle
    })
}

/// Keeps the recorder's histograms bounded (the exporter's upkeep, every 5 seconds).
pub fn spawn_metrics_upkeep() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
        loop {
            tick.tick().await;
            metrics().run_upkeep();
        }
    })
}
