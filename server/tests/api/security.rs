use reqwest::{Method, StatusCode};

use crate::helpers::{spawn_app, spawn_app_with};

#[tokio::test]
async fn health_and_readiness() {
    let app = spawn_app().await;
    let b = app.browser("");
    let r = b.get("/healthz").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["status"], "ok");
    let r = b.get("/readyz").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["status"], "ready");
}

#[tokio::test]
async fn readiness_fails_when_the_database_is_gone() {
    let app = spawn_app().await;
    app.pool.close().await;
    let r = app.browser("").get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    // API calls too: the database out of reach is 503 (retry), never a 500.
    let api = app.browser("acme").get("/api/get-auth-state").await;
    assert_eq!(api.status, StatusCode::SERVICE_UNAVAILABLE, "{}", api.body);
    assert_eq!(api.json()["error"], "Service unavailable");
    assert!(
        !r.body.to_lowercase().contains("pool"),
        "no internals in the answer: {}",
        r.body
    );
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    for path in ["/", "/census", "/api/site", "/api/nope"] {
        let r = b.get(path).await;
        let csp = r.header("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("object-src 'none'"), "{path}: {csp}");
        assert!(csp.contains("base-uri 'none'"), "{path}: {csp}");
        assert_eq!(r.header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(r.header("referrer-policy"), "same-origin", "{path}");
        assert_eq!(r.header("x-frame-options"), "DENY", "{path}");
        assert!(!r.header("x-request-id").is_empty(), "{path}");
    }
}

#[tokio::test]
async fn client_routes_fall_back_to_the_web_app_and_unknown_api_calls_are_json_404() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    for path in [
        "/",
        "/census",
        "/dashboard/home",
        "/reset-password/email/a@b.c/token/x",
    ] {
        let r = b.get(path).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert!(r.body.contains("<title>Enrollflow</title>"), "{path}");
        assert_eq!(r.header("cache-control"), "no-cache", "{path}");
    }
    let asset = b.get("/assets/app-abc123.js").await;
    assert!(asset.header("cache-control").contains("immutable"));
    let r = b.get("/api/nope").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.json()["error"], "No such API call.");
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_with_413() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    let r = b
        .send(
            Method::POST,
            "/api/nothing",
            &[("x-csrf-token", token)],
            Some(vec![b'x'; 5 * 1024 * 1024]),
        )
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    // Made by an outer layer, it is still JSON with the security headers.
    assert_eq!(r.json()["error"], "The request is too large.");
    assert_security_headers(&r);
}

fn assert_security_headers(r: &crate::helpers::Reply) {
    for h in [
        "content-security-policy",
        "x-content-type-options",
        "x-frame-options",
        "referrer-policy",
    ] {
        assert!(!r.header(h).is_empty(), "{h} on {}", r.status);
    }
}

#[tokio::test]
async fn a_request_past_the_time_limit_is_408_json_with_the_security_headers() {
    let app = spawn_app_with(|c| c.request_timeout_secs = 1).await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    // A body that never finishes arriving keeps the request open past the limit.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut conn = tokio::net::TcpStream::connect(app.addr)
        .await
        .expect("connect");
    let head = format!(
        "PUT /api/application/step/census HTTP/1.1\r\nHost: acme.localhost:{}\r\n\
         Cookie: {}\r\nX-CSRF-Token: {token}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{",
        app.addr.port(),
        b.cookie()
    );
    conn.write_all(head.as_bytes()).await.expect("write");
    let mut answer = String::new();
    conn.read_to_string(&mut answer).await.expect("read");
    let lower = answer.to_ascii_lowercase();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(lower.contains("content-type: application/json"), "{answer}");
    assert!(lower.contains("content-security-policy:"), "{answer}");
    assert!(lower.contains("x-frame-options: deny"), "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
}

#[tokio::test]
async fn every_error_body_is_json_even_the_frameworks_own() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = b.start_session().await;
    // A wrong method, a body that is not JSON, a path id that is not a UUID.
    let cases = [
        b.get("/api/logout").await,
        b.send(
            Method::PUT,
            "/api/application/step/census",
            &[
                ("x-csrf-token", token.clone()),
                ("content-type", "application/json".into()),
            ],
            Some(b"{not json".to_vec()),
        )
        .await,
        b.get("/api/application/not-a-uuid/step").await,
    ];
    for r in cases {
        assert!(r.status.is_client_error(), "{}", r.status);
        assert!(
            r.header("content-type").starts_with("application/json"),
            "{}: {}",
            r.status,
            r.body
        );
        assert!(r.json()["error"].is_string(), "{}", r.body);
        assert_security_headers(&r);
    }
}

#[tokio::test]
async fn the_openapi_document_describes_the_api() {
    let app = spawn_app().await;
    let r = app.browser("").get("/api/openapi.json").await;
    assert_eq!(r.status, StatusCode::OK);
    let doc = r.json();
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with('3')));
    for path in [
        "/api/site",
        "/api/agent_branding/{subdomain}",
        "/api/agent_logo/{subdomain}",
        "/api/get-auth-state",
        "/api/legal/{kind}",
        "/api/application/active",
        "/api/application/timeout",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
    assert!(doc["components"]["schemas"]["Branding"].is_object());
}

#[tokio::test]
async fn the_benchmark_baselines_exist_only_with_the_bench_flag() {
    let app = crate::helpers::spawn_app().await;
    let b = app.browser("");
    let id = uuid::Uuid::new_v4();
    // Without the flag they are client routes like any other (the web app's page).
    for path in ["/bench/hello".to_string(), format!("/bench/pk/{id}")] {
        let r = b.get(&path).await;
        assert!(r.body.contains("<title>Enrollflow"), "{path}: {}", r.body);
    }
    let bench = crate::helpers::spawn_app_with(|c| c.bench_routes = true).await;
    let b = bench.browser("");
    let r = b.get("/bench/hello").await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (StatusCode::OK, "Hello, world!")
    );
    let agent: uuid::Uuid = sqlx::query_scalar("SELECT id FROM agents LIMIT 1")
        .fetch_one(&bench.pool)
        .await
        .expect("agent");
    let app_id = enrollflow_server::db::applications::create(
        &bench.pool,
        agent,
        time::OffsetDateTime::now_utc(),
        None,
        None,
    )
    .await
    .expect("application");
    let r = b.get(&format!("/bench/pk/{app_id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["last_step"], 1);
    assert_eq!(
        b.get(&format!("/bench/pk/{id}")).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn answers_carrying_pii_are_never_stored_by_browsers_or_proxies() {
    let app = spawn_app().await;
    let b = app.browser("acme");
    let token = crate::helpers::at_medical(&b, crate::helpers::adult("1990-01-01")).await;
    let census = b.get("/api/application/step/census").await;
    assert_eq!(census.status, StatusCode::OK);
    assert!(
        census.body.contains("1990-01-01"),
        "the census view holds the birth date"
    );
    for r in [
        census,
        b.get("/api/plans/1/allPlans").await,
        b.get("/api/application/active").await,
        // Errors too: a refused save answers with the session's data around it.
        crate::helpers::put(
            &b,
            &token,
            "/api/application/step/census",
            serde_json::json!({}),
        )
        .await,
        b.get("/api/nope").await,
    ] {
        assert_eq!(r.header("cache-control"), "no-store", "{}", r.body);
    }
}
