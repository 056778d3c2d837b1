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
