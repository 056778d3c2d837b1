//! The agent subdomain a request was made to, from its `Host` header.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use crate::startup::AppState;

/// `Some("acme")` for `acme.localhost:8080`; `None` for the bare domain or a foreign host.
pub struct SiteHost(pub Option<String>);

impl FromRequestParts<AppState> for SiteHost {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let host = parts
            .headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| parts.uri.host());
        Ok(SiteHost(host.and_then(|h| app.config.subdomain_of(h))))
    }
}
