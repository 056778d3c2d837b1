//! Structured logs with `tracing`: JSON lines by default, readable text with `ENROLLFLOW_LOG_FORMAT=pretty`.
//! Nothing logged carries PII: request spans hold the method and the matched route template only.
//! The same spans go to an OpenTelemetry collector when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and
//! the Prometheus metrics (`metrics()`) are served at `/metrics`.

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

pub fn init() {
    let filter = EnvFilter::try_from_env("ENROLLFLOW_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let pretty = std::env::var("ENROLLFLOW_LOG_FORMAT").is_ok_and(|v| v == "pretty");
    // Traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads it, and
    // the OTEL_EXPORTER_OTLP_* settings beside it).
    let otel = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|e| !e.trim().is_empty())
        .and_then(|_| match tracer_provider(None) {
            Ok(provider) => Some(provider),
            Err(e) => {
                eprintln!("enrollflow: OpenTelemetry traces are off: {e}");
                None
            }
        });
    let otel_layer = otel.map(|provider| {
        use opentelemetry::trace::TracerProvider as _;
        let tracer = provider.tracer("enrollflow");
        let _ = PROVIDER.set(provider);
        tracing_opentelemetry::layer().with_tracer(tracer)
    });
    let registry = tracing_subscriber::registry().with(filter).with(otel_layer);
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

static PROVIDER: std::sync::OnceLock<opentelemetry_sdk::trace::SdkTracerProvider> =
    std::sync::OnceLock::new();

/// An OTLP/HTTP trace pipeline (service name `enrollflow`): to `endpoint` (the full URL, ending
/// in `/v1/traces`) or, with `None`, where the `OTEL_EXPORTER_OTLP_*` variables say.
pub fn tracer_provider(
    endpoint: Option<&str>,
) -> anyhow::Result<opentelemetry_sdk::trace::SdkTracerProvider> {
    use opentelemetry_otlp::WithExportConfig as _;
    crate::security::crypto::install_tls_provider();
    let builder = opentelemetry_otlp::SpanExporter::builder().with_http();
    let builder = match endpoint {
        Some(e) => builder.with_endpoint(e),
        None => builder,
    };
    let exporter = builder.build()?;
    Ok(opentelemetry_sdk::trace::SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name("enrollflow")
                .build(),
        )
        .build())
}

/// Sends the traces still buffered (at shutdown).
pub fn flush_traces() {
    if let Some(p) = PROVIDER.get()
        && let Err(e) = p.shutdown()
    {
        tracing::warn!(error = %e, "the last traces could not be sent");
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

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use opentelemetry::trace::TracerProvider as _;
    use tracing_subscriber::prelude::*;

    /// Tracing export: the request spans reach an OTLP/HTTP collector.
    #[test]
    fn request_spans_are_exported_to_an_otlp_collector() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        listener.set_nonblocking(true).expect("nonblocking");
        let collector = std::thread::spawn(move || {
            // No export within 20 seconds fails the test (it never hangs).
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            let mut conn = loop {
                match listener.accept() {
                    Ok((conn, _)) => break conn,
                    Err(e)
                        if e.kind() == std::io::ErrorKind::WouldBlock
                            && std::time::Instant::now() < deadline =>
                    {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                    Err(e) => panic!("no trace export arrived: {e}"),
                }
            };
            conn.set_nonblocking(false).expect("blocking");
            conn.set_read_timeout(Some(std::time::Duration::from_secs(20)))
                .expect("timeout");
            let mut got = Vec::new();
            let mut buf = [0u8; 8192];
            // The headers and the body (Content-Length bytes).
            loop {
                let n = conn.read(&mut buf).expect("read");
                got.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&got).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len = text
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().to_string())
                        })
                        .and_then(|v| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    if got.len() >= end + 4 + len || n == 0 {
                        break;
                    }
                }
            }
            conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                .expect("answer");
            got
        });
        let provider = super::tracer_provider(Some(&format!("http://127.0.0.1:{port}/v1/traces")))
            .expect("pipeline");
        let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("enrollflow"));
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("request", method = "GET", route = "/api/site");
            let _entered = span.enter();
        });
        provider.force_flush().expect("flushed");
        let got = collector.join().expect("collector");
        let text = String::from_utf8_lossy(&got);
        assert!(text.starts_with("POST /v1/traces"), "{text}");
        assert!(
            text.to_ascii_lowercase()
                .contains("content-type: application/x-protobuf"),
            "{text}"
        );
        assert!(
            text.contains("/api/site") && text.contains("enrollflow"),
            "the span and the service"
        );
        let _ = provider.shutdown();
    }
}
