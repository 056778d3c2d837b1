//! The agent subdomain a request was made to, from its `Host` header.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

use crate::http::state::AppState;

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

/// The client's IP address: with a configured proxy header (`ENROLLFLOW_CLIENT_IP_HEADER`), its
/// entry `ENROLLFLOW_TRUSTED_PROXY_HOPS` from the right (each proxy we run appends the address it
/// was reached from); otherwise, or when the header has fewer entries, the peer of the connection;
/// `None` when neither is known. For the per-address limits and the audit log only.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub Option<std::net::IpAddr>);

/// The client's address in a proxy header's values: the entry `hops` from the right (1: the last).
pub fn forwarded_client<'a>(
    values: impl Iterator<Item = &'a str>,
    hops: u8,
) -> Option<std::net::IpAddr> {
    let entries: Vec<&str> = values.flat_map(|v| v.split(',')).collect();
    let hops = usize::from(hops.max(1));
    let at = entries.len().checked_sub(hops)?;
    entries.get(at)?.trim().parse().ok()
}

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientAddress(client_address(
            app,
            &parts.headers,
            &parts.extensions,
        )))
    }
}

/// The client's address: from the configured proxy header (`trusted_proxy_hops` from the right),
/// else the connection's peer.
pub fn client_address(
    app: &AppState,
    headers: &axum::http::HeaderMap,
    extensions: &axum::http::Extensions,
) -> Option<std::net::IpAddr> {
    if let Some(name) = &app.config.client_ip_header {
        let values = headers
            .get_all(name.as_str())
            .iter()
            .filter_map(|v| v.to_str().ok());
        if let Some(client) = forwarded_client(values, app.config.trusted_proxy_hops) {
            return Some(client);
        }
    }
    extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip())
}

#[cfg(test)]
mod tests {
    use super::forwarded_client;

    #[test]
    fn the_client_is_read_from_the_right_as_many_entries_as_proxies_we_run() {
        let one = ["203.0.113.9, 198.51.100.7"];
        // One proxy: the address it was reached from, whatever the client wrote before it.
        assert_eq!(
            forwarded_client(one.into_iter(), 1),
            Some("198.51.100.7".parse().expect("ip"))
        );
        // Two proxies: the first one's view of the client, across repeated headers too.
        let two = ["1.2.3.4, 203.0.113.9", "10.0.0.2"];
        assert_eq!(
            forwarded_client(two.into_iter(), 2),
            Some("203.0.113.9".parse().expect("ip"))
        );
        // Fewer entries than proxies, or no address there: not trusted.
        assert_eq!(forwarded_client(["10.0.0.2"].into_iter(), 2), None);
        assert_eq!(forwarded_client(["unknown"].into_iter(), 1), None);
        assert_eq!(
            forwarded_client(["2001:db8::1"].into_iter(), 0),
            Some("2001:db8::1".parse().expect("ip"))
        );
    }
}
