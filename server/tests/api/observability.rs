//! Prometheus metrics after a journey, and TLS to PostgreSQL.

use reqwest::StatusCode;

use enrollflow_server::db;

use crate::helpers::spawn_app;

#[tokio::test]
async fn metrics_after_a_journey_show_route_histograms_and_the_service_gauges() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    b.start_session().await;
    assert_eq!(
        b.get("/api/application/step/whyApplying").await.status,
        StatusCode::OK
    );
    // A query string carrying an address: never a label.
    b.get("/api/site?email=ann.secret%40example.com").await;

    assert_eq!(
        b.get("/metrics").await.status,
        StatusCode::FORBIDDEN,
        "operators only on the main address"
    );
    let m = app.metrics_reply().await;
    assert_eq!(m.status, StatusCode::OK);
    assert!(m.header("content-type").starts_with("text/plain"));
    let text = &m.body;
    for expected in [
        // Latency per route template, as a histogram.
        r#"enrollflow_http_request_duration_seconds_bucket{method="GET",route="/api/application/step/{step}",le="0.005"}"#,
        r#"enrollflow_http_request_duration_seconds_count{method="GET",route="/api/application/step/{step}"}"#,
        // Rate and errors per route and status.
        r#"enrollflow_http_requests_total{method="GET",route="/api/site",status="200"}"#,
        r#"enrollflow_http_requests_total{method="GET",route="/metrics",status="403"}"#,
        r#"enrollflow_db_pool_connections{state="in_use"}"#,
        r#"enrollflow_db_pool_connections{state="idle"}"#,
        r#"enrollflow_cache_requests_total{cache="session",result="hit"}"#,
        "enrollflow_outbox_depth ",
        "enrollflow_sessions_active ",
    ] {
        assert!(text.contains(expected), "{expected} missing in:\n{text}");
    }
    assert!(!text.contains("ann.secret"), "no query string in a metric");
    assert!(
        !text.contains("whyApplying"),
        "route templates, not paths as sent"
    );
}

#[tokio::test]
async fn the_metrics_port_answers_without_the_token_and_serves_nothing_else() {
    let app = spawn_app().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let state = app.state.clone();
    tokio::spawn(async move {
        axum::serve(
            listener,
            enrollflow_server::http::metrics::private_router(state),
        )
        .await
    });
    let client = reqwest::Client::new();
    let m = client
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .expect("metrics");
    assert_eq!(m.status(), StatusCode::OK);
    assert!(
        m.text()
            .await
            .expect("body")
            .contains("enrollflow_db_pool_connections")
    );
    let other = client
        .get(format!("http://{addr}/api/site"))
        .send()
        .await
        .expect("answer");
    assert_eq!(other.status(), StatusCode::NOT_FOUND);
}

/// The server named by DATABASE_URL, for a URL of our own (host, options).
fn server_parts() -> (String, String) {
    let url = std::env::var("DATABASE_URL").expect("DATABASE_URL");
    let rest = url
        .split_once("://")
        .map(|(_, r)| r.to_string())
        .expect("a URL");
    let (userinfo, hostpart) = rest.rsplit_once('@').expect("a user in DATABASE_URL");
    let port = hostpart
        .split('/')
        .next()
        .and_then(|h| h.rsplit_once(':'))
        .map_or("5432".to_string(), |(_, p)| p.to_string());
    (userinfo.to_string(), port)
}

/// Whether a connection of `pool` uses TLS, and which version. Its own row of `pg_stat_ssl` is
/// shown to the login, not to the server's role, so the connection is taken out of the pool and
/// goes back to the login first.
async fn tls_of(pool: &sqlx::PgPool) -> (bool, Option<String>) {
    let mut conn = pool.acquire().await.expect("a connection").detach();
    sqlx::query("RESET ROLE")
        .execute(&mut conn)
        .await
        .expect("the login's role");
    sqlx::query_as("SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .fetch_one(&mut conn)
        .await
        .expect("pg_stat_ssl")
}

#[tokio::test]
async fn database_connections_use_tls_as_database_url_asks_and_verify_the_server() {
    let (user, port) = server_parts();
    let plain = db::connect(&format!(
        "postgresql://{user}@127.0.0.1:{port}/postgres?sslmode=disable"
    ))
    .await
    .expect("plain connection");
    let ssl_on: String = sqlx::query_scalar("SHOW ssl")
        .fetch_one(&plain)
        .await
        .expect("show ssl");
    assert_eq!(
        ssl_on, "on",
        "this test needs the local PostgreSQL with TLS switched on (ssl = on)"
    );
    assert!(!tls_of(&plain).await.0, "sslmode=disable is plain");
    // The server's own certificate, as the root to trust (it is self-signed on a test machine).
    let cert: String = sqlx::query_scalar("SHOW ssl_cert_file")
        .fetch_one(&plain)
        .await
        .expect("ssl_cert_file");
    let ca: String = sqlx::query_scalar("SHOW ssl_ca_file")
        .fetch_one(&plain)
        .await
        .unwrap_or_default();
    let root = if ca.is_empty() { cert } else { ca };

    let required = db::connect(&format!(
        "postgresql://{user}@127.0.0.1:{port}/postgres?sslmode=require"
    ))
    .await
    .expect("TLS connection");
    let (ssl, version) = tls_of(&required).await;
    assert!(ssl, "sslmode=require is encrypted");
    assert!(version.is_some_and(|v| v.starts_with("TLSv1.")));

    // verify-full: the certificate must chain to the given root and name the host.
    let verified = db::connect(&format!(
        "postgresql://{user}@localhost:{port}/postgres?sslmode=verify-full&sslrootcert={root}"
    ))
    .await
    .expect("verified TLS connection (the certificate names localhost)");
    assert!(tls_of(&verified).await.0);
    // verify-full checks the name too: the certificate names localhost, not 127.0.0.1.
    let wrong_name = db::connect(&format!(
        "postgresql://{user}@127.0.0.1:{port}/postgres?sslmode=verify-full&sslrootcert={root}"
    ))
    .await;
    assert!(
        wrong_name.is_err(),
        "a certificate for another name is refused"
    );
}
