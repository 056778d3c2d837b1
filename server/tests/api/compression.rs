//! What the browser downloads: the build's precompressed copies served as the
//! browser accepts them, and JSON answers over 1 kB compressed, never those carrying the CSRF token.

use reqwest::StatusCode;

use crate::helpers::{at_medical, family, spawn_app_with};

/// A static folder like the build makes it: a hashed script with its brotli and gzip copies.
fn built_app() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("enrollflow-dist-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(dir.join("assets")).expect("dist");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>Enrollflow</title>",
    )
    .expect("index");
    std::fs::write(dir.join("index.html.br"), b"BR-INDEX").expect("index.br");
    std::fs::write(dir.join("assets/app-abc123.js"), "console.log('plain')").expect("js");
    std::fs::write(dir.join("assets/app-abc123.js.br"), b"BR-COPY").expect("js.br");
    std::fs::write(dir.join("assets/app-abc123.js.gz"), b"GZ-COPY").expect("js.gz");
    dir
}

#[tokio::test]
async fn the_builds_compressed_copies_go_to_browsers_that_accept_them() {
    let dist = built_app();
    let app = spawn_app_with(|c| c.static_dir = dist.clone()).await;
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    let get = |path: &'static str, accept: &'static str| {
        let client = client.clone();
        let url = format!("http://{}{path}", app.addr);
        async move {
            let r = client
                .get(url)
                .header("host", "acme.localhost")
                .header("accept-encoding", accept)
                .send()
                .await
                .expect("send");
            let encoding = r
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap_or("").to_string());
            let cache = r
                .headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap_or("").to_string());
            (r.status(), encoding, cache, r.bytes().await.expect("body"))
        }
    };
    let (status, encoding, cache, body) = get("/assets/app-abc123.js", "gzip, br").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(encoding.as_deref(), Some("br"));
    assert_eq!(&body[..], b"BR-COPY");
    assert_eq!(
        cache.as_deref(),
        Some("public, max-age=31536000, immutable")
    );
    let (_, encoding, _, body) = get("/assets/app-abc123.js", "gzip").await;
    assert_eq!(
        (encoding.as_deref(), &body[..]),
        (Some("gzip"), &b"GZ-COPY"[..])
    );
    let (_, encoding, _, body) = get("/assets/app-abc123.js", "identity").await;
    assert_eq!((encoding, &body[..]), (None, &b"console.log('plain')"[..]));
    // The page itself too (a route of the app answers index.html).
    let (_, encoding, cache, body) = get("/census", "br").await;
    assert_eq!(
        (encoding.as_deref(), &body[..]),
        (Some("br"), &b"BR-INDEX"[..])
    );
    assert_eq!(cache.as_deref(), Some("no-cache"));
}

#[tokio::test]
async fn json_over_a_kilobyte_is_compressed_but_never_the_answers_with_the_csrf_token() {
    let app = spawn_app_with(|_| {}).await;
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    let ask = |path: &str, accept: &str| {
        client
            .get(format!("http://{}{path}", app.addr))
            .header("host", "acme.localhost")
            .header("accept-encoding", accept)
            .send()
    };
    // Answers made per request are compressed with gzip only: brotli's per-stream set-up costs
    // more than making a step view (docs/performance.md).
    let big = ask("/api/openapi.json", "br, gzip").await.expect("openapi");
    assert_eq!(big.status(), StatusCode::OK);
    assert_eq!(
        big.headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let br_only = ask("/api/openapi.json", "br").await.expect("openapi");
    assert!(br_only.headers().get("content-encoding").is_none());
    let gz = ask("/api/openapi.json", "gzip").await.expect("openapi");
    assert_eq!(
        gz.headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
    let raw = gz.bytes().await.expect("body");
    let mut json = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut json)
        .expect("gzip");
    assert!(
        serde_json::from_slice::<serde_json::Value>(&json).is_ok(),
        "a JSON document"
    );
    // The auth state carries the CSRF token: it stays plain (and small).
    let state = ask("/api/get-auth-state", "br, gzip")
        .await
        .expect("auth state");
    assert!(state.headers().get("content-encoding").is_none());
    let body = state.text().await.expect("text");
    assert!(body.contains("csrf_token") && body.len() < 1024, "{body}");
}

#[tokio::test]
async fn a_step_view_is_sent_from_its_compressed_copy_with_the_same_json() {
    let app = spawn_app_with(|_| {}).await;
    let b = app.browser("acme");
    at_medical(&b, family()).await;
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .expect("client");
    let ask = |accept: &'static str| {
        client
            .get(format!("http://{}/api/application/step/census", app.addr))
            .header("host", format!("acme.localhost:{}", app.addr.port()))
            .header("cookie", b.cookie())
            .header("accept-encoding", accept)
            .send()
    };
    let plain = ask("identity").await.expect("plain");
    assert_eq!(plain.status(), StatusCode::OK);
    assert!(plain.headers().get("content-encoding").is_none());
    let plain: serde_json::Value = plain.json().await.expect("json");
    assert_eq!(plain["step"]["id"], "census");
    for _ in 0..2 {
        // The first asks makes the compressed copy, the second is served from it.
        let gz = ask("gzip, deflate, br").await.expect("gzip");
        assert_eq!(
            gz.headers()
                .get("content-encoding")
                .and_then(|v| v.to_str().ok()),
            Some("gzip")
        );
        assert_eq!(
            gz.headers().get("vary").and_then(|v| v.to_str().ok()),
            Some("accept-encoding")
        );
        let raw = gz.bytes().await.expect("body");
        let mut json = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut json)
            .expect("gzip");
        let unpacked: serde_json::Value = serde_json::from_slice(&json).expect("json");
        assert_eq!(unpacked, plain);
    }
}
