//! The agent subdomain a request was made to, from its `Host` header.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use crate::state::AppState;

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

/// The client's IP address: the last entry of the configured proxy header
/// (`ENROLLFLOW_CLIENT_IP_HEADER`) when there is one, otherwise the peer of the connection; `None`
/// when neither is known. For throttling and the audit log only.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub Option<std::net::IpAddr>);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(name) = &app.config.client_ip_header {
            let forwarded = parts
                .headers
                .get_all(name.as_str())
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .last()
                .and_then(|v| v.trim().parse().ok());
            if forwarded.is_some() {
                return Ok(ClientAddress(forwarded));
            }
        }
        Ok(ClientAddress(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}
