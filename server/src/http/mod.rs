//! The HTTP layer: one module per resource, each with its handlers registered in `api_router()`,
//! merged here with health checks, the OpenAPI document, static files and the middleware stack.
//!
//! The extractors (`host::SiteHost`, `session::LiveSession`, `auth::CurrentUser`), the session,
//! revision and cookie middleware, the wire types (`wire.rs`) and the HTTP side of the application
//! service (`open.rs`) live in this layer. The OpenAPI document says what serde does
//! (`openapi_document`): an answer's fields are all required (`null` when empty) but those of
//! `MAY_BE_ABSENT`, and a request's `Option` fields may be left out.

pub mod accounts;
pub mod admin;
pub mod application;
pub mod audit;
pub mod auth;
pub mod care;
pub mod cookies;
pub mod dashboard;
pub mod devices;
pub mod documents;
pub mod error;
pub mod evidence;
pub mod handoff;
pub mod health;
pub mod home;
pub mod host;
pub mod language;
pub mod legal;
pub mod limits;
pub mod messages;
pub mod metrics;
pub mod open;
pub mod plans;
pub mod prepared;
pub mod print;
pub mod proposals;
pub mod renewals;
pub mod resume;
pub mod revision;
pub mod rule_sets;
pub mod second_factor;
pub mod session;
pub mod sign_in;
pub mod site;
pub mod start;
pub mod state;
pub mod steps;
pub mod wire;
pub mod workbench;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use tower::ServiceBuilder;
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::http::state::AppState;
use error::ApiError;

#[derive(OpenApi)]
#[openapi(info(
    title = "Enrollflow API",
    description = "Quoting and enrollment for Michigan individual and family coverage. \
                   State-changing calls need the session cookie and the `X-CSRF-Token` header; \
                   419 means the session expired or the CSRF check failed."
))]
struct ApiDoc;

/// The OpenAPI document, as `/api/openapi.json` serves it (pretty-printed; `enrollflow openapi`
/// prints it, `web/openapi.json` is its committed copy the web app's types are generated from).
pub fn openapi_document() -> anyhow::Result<String> {
    let mut doc = serde_json::to_value(api().1)?;
    answers_are_whole(&mut doc);
    Ok(serde_json::to_string_pretty(&doc)?)
}

/// Response fields that may be left out of an answer (`skip_serializing_if`); every other field of
/// an answer is always written (`null` when it has no value).
const MAY_BE_ABSENT: &[(&str, &str)] = &[
    ("LoggedIn", "second_factor"),
    ("LoggedIn", "recovery_codes"),
    ("FilterOption", "max_age"),
];

/// Makes the document say what serde does: every field of a schema only answers use (none
/// reachable from a request body) is required, since serde writes each one (`null` included); in
/// a request an `Option` field may be left out.
fn answers_are_whole(doc: &mut serde_json::Value) {
    use serde_json::Value;
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    out.push(r.trim_start_matches("#/components/schemas/").to_string());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut pending = Vec::new();
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for op in paths
            .values()
            .filter_map(Value::as_object)
            .flat_map(|o| o.values())
        {
            if let Some(body) = op.get("requestBody") {
                refs(body, &mut pending);
            }
        }
    }
    let mut in_requests = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if in_requests.insert(name.clone())
            && let Some(schema) = doc.pointer(&format!("/components/schemas/{name}"))
        {
            refs(schema, &mut pending);
        }
    }
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    // `Option<T>`: `{"type": ["T", "null"]}` or `{"oneOf": [{"type": "null"}, …]}`.
    let nullable = |v: &Value| {
        v.get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.iter().any(|t| t == "null"))
            || v.get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|o| o.iter().any(|o| o.get("type").is_some_and(|t| t == "null")))
    };
    for (name, schema) in schemas.iter_mut() {
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            continue;
        };
        // A request may leave out an `Option` field (serde reads it as `None`); an answer always
        // writes every field but the few listed.
        let required: Vec<Value> = props
            .iter()
            .filter(|(field, v)| {
                if in_requests.contains(name) {
                    let listed = schema
                        .get("required")
                        .and_then(Value::as_array)
                        .is_some_and(|r| r.iter().any(|r| r == field.as_str()));
                    listed && !nullable(v)
                } else {
                    !MAY_BE_ABSENT.contains(&(name.as_str(), field.as_str()))
                }
            })
            .map(|(field, _)| Value::String(field.clone()))
            .collect();
        if let Some(obj) = schema.as_object_mut() {
            obj.insert("required".into(), Value::Array(required));
        }
    }
}

pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(site::router())
        .merge(auth::router())
        .merge(start::router())
        .merge(accounts::router())
        .merge(devices::router())
        .merge(second_factor::router())
        .merge(legal::router())
        .merge(application::router())
        .merge(steps::router())
        .merge(admin::router())
        .merge(rule_sets::router())
        .merge(proposals::router())
        .merge(audit::router())
        .merge(workbench::router())
        .merge(plans::router())
        .merge(care::router())
        .merge(print::router())
        .merge(documents::router())
        .merge(dashboard::router())
        .merge(home::router())
        .merge(evidence::router())
        .merge(resume::router())
        .merge(handoff::router())
        .merge(renewals::router())
        .merge(messages::router())
        .split_for_parts()
}

const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; font-src 'self' data:; connect-src 'self'; \
                   object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub fn router(state: AppState) -> Router {
    // The process's metrics recorder, before the first request.
    crate::platform::telemetry::metrics();
    let (api, _) = api();
    let openapi_json = openapi_document().unwrap_or_else(|_| "{}".to_string());
    let static_dir = state.config.static_dir.clone();
    // The build's brotli and gzip copies (web/scripts/precompress.mjs) go to the browsers that
    // accept them; nothing is compressed per request.
    let index = ServeFile::new(static_dir.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let https = state.config.https;
    let limit = crate::platform::config::BODY_LIMIT;
    let timeout = state.config.request_timeout();

    let api = api
        .route(
            "/api/openapi.json",
            get(
                move || async move { ([(header::CONTENT_TYPE, "application/json")], openapi_json) },
            ),
        )
        .route(
            "/api/{*rest}",
            any(|| async { ApiError::NotFound("No such API call.".into()) }),
        )
        // Answers made per request, compressed per request: gzip at level 4. Brotli is not used
        // here: each stream sets up a large window (a 10 kB step view cost more to compress than
        // to make, and the step view's rate fell to a fifth); the answers served most (step views,
        // the quote) are compressed once and kept (`prepared.rs`).
        // The refusals in the consumer's language, before they are compressed.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            language::refusals_in_language,
        ))
        .layer(
            CompressionLayer::new()
                .no_br()
                .quality(CompressionLevel::Precise(4))
                .compress_when(json_over_a_kilobyte()),
        );

    let app = Router::new()
        .merge(health::router(state.config.bench_routes))
        .merge(metrics::router())
        .merge(api)
        .fallback_service(
            ServeDir::new(static_dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(index),
        )
        .layer(middleware::from_fn(cache_control))
        // Inside the session layer: they read the request's session.
        .layer(middleware::from_fn_with_state(state.clone(), limits::layer))
        .layer(middleware::from_fn_with_state(state.clone(), audit::layer))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            session::layer,
        ))
        // Outermost: a request counts from its start, and the draft worker waits meanwhile.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            consumers_first,
        ))
        .with_state(state);
    let hsts = https.then(|| {
        SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        )
    });
    let request_id = HeaderName::from_static("x-request-id");
    app.layer(
        ServiceBuilder::new()
            // A client's `x-request-id` is kept aside: the id of every request is the server's.
            .layer(middleware::from_fn(audit::own_request_id))
            .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
            .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
                // Route templates only: paths may carry tokens or e-mail addresses.
                let route = metrics::route_of(req);
                let id = req
                    .headers()
                    .get("x-request-id")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_string();
                tracing::info_span!("request", method = %req.method(), route, request_id = id)
            }))
            .layer(PropagateRequestIdLayer::new(request_id))
            // Counts, times and logs every answer, the 408 and 413 of the layers below included.
            .layer(middleware::from_fn(metrics::observe))
            // The security headers wrap everything below, the 408 and 413 answers included.
            .option_layer(hsts)
            .layer(SetResponseHeaderLayer::if_not_present(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CSP),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                header::X_FRAME_OPTIONS,
                HeaderValue::from_static("DENY"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                header::REFERRER_POLICY,
                HeaderValue::from_static("same-origin"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                HeaderName::from_static("permissions-policy"),
                HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
            ))
            .layer(middleware::from_fn(json_errors))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                timeout,
            ))
            .layer(RequestBodyLimitLayer::new(limit)),
    )
}

/// Every error answer is JSON `{"error": …}`: those made by a handler already are; this turns the
/// rest (axum's extractor rejections, 405 for a wrong method, the 408 and 413 of the outer layers)
/// into the same shape, with a fixed message (a rejection's own text may quote the request).
async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return res;
    }
    let message = match status {
        StatusCode::BAD_REQUEST => "The request could not be read.",
        StatusCode::NOT_FOUND => "Not found.",
        StatusCode::METHOD_NOT_ALLOWED => "This call does not accept that method.",
        StatusCode::REQUEST_TIMEOUT => "The request took too long. Please try again.",
        StatusCode::PAYLOAD_TOO_LARGE => "The request is too large.",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "The request's content type is not accepted.",
        StatusCode::UNPROCESSABLE_ENTITY => "The request body is not valid.",
        s => s.canonical_reason().unwrap_or("Something went wrong!"),
    };
    let (mut parts, _) = res.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = serde_json::json!({ "error": message }).to_string();
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// JSON answers of more than 1 kB are compressed (gzip, when the browser accepts it; one that is
/// compressed already, like a prepared step view or plan list, is left alone). The answers that carry the
/// CSRF token (the auth state, a login) stay under 1 kB by their fields' limits, so no secret is
/// compressed beside text a page could make an attacker choose (BREACH; `docs/security.md`).
fn json_over_a_kilobyte() -> impl Predicate {
    SizeAbove::new(1024).and(
        |_: StatusCode,
         _: axum::http::Version,
         headers: &axum::http::HeaderMap,
         _: &axum::http::Extensions| {
            headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|t| t.starts_with("application/json"))
        },
    )
}

/// Hashed build assets are cached for a year; everything else (index.html, API) is revalidated.
async fn cache_control(req: Request, next: Next) -> Response {
    let immutable = req.uri().path().starts_with("/assets/");
    // API answers belong to one session and may carry PII: never stored by a browser or proxy.
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    if !res.headers().contains_key(header::CACHE_CONTROL) {
        let value = if immutable && res.status().is_success() {
            "public, max-age=31536000, immutable"
        } else if api {
            "no-store"
        } else {
            "no-cache"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    res
}

/// Turns anything into a JSON error response (used where a handler returns a plain status).
pub fn status_error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
}

/// Consumers first (`drafts::Pause`): every request but the workbench's own counts as in flight,
/// and the draft worker waits meanwhile.
pub async fn consumers_first(
    axum::extract::State(app): axum::extract::State<crate::http::state::AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if request.uri().path().starts_with("/api/admin/rules") {
        return next.run(request).await;
    }
    let _counted = app.drafts.pause.enter();
    next.run(request).await
}
