//! `Host` header values, parsed once: a lowercase DNS name of letters, digits, dots and dashes
//! with an optional numeric port (`acme.localhost:8080`). Whether a host is one of ours and which
//! agent subdomain it names are answered from the parsed value only, so the two can never
//! disagree about what a host is.
//!
//! `ServeArgs::is_own_host` and `subdomain_of` both answer from it.

use std::fmt;

/// A parsed `Host` header value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    name: String,
    port: Option<u16>,
}

/// An agent's subdomain: one DNS label, lowercase (`acme` of `acme.example.com`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subdomain(String);

impl Host {
    /// The host a header value names; `None` for anything that is not `name[:port]` (an empty or
    /// non-numeric port, a character outside `[a-z0-9.-]`, an empty name).
    pub fn parse(value: &str) -> Option<Host> {
        let value = value.trim().to_ascii_lowercase();
        let (name, port) = match value.rsplit_once(':') {
            Some((name, port)) => (name.to_string(), Some(port.parse::<u16>().ok()?)),
            None => (value, None),
        };
        let plain = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
        plain.then_some(Host { name, port })
    }

    /// The name without the port.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the host is one of `bases` itself (`example.com`, `localhost`).
    pub fn is_base(&self, bases: &[String]) -> bool {
        bases.contains(&self.name)
    }

    /// The agent subdomain the host names under one of `bases`: exactly one label before it.
    pub fn subdomain(&self, bases: &[String]) -> Option<Subdomain> {
        bases.iter().find_map(|base| {
            let label = self.name.strip_suffix(base.as_str())?.strip_suffix('.')?;
            (!label.is_empty() && !label.contains('.')).then(|| Subdomain(label.to_string()))
        })
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

impl Subdomain {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Subdomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bases() -> Vec<String> {
        vec!["localhost".into(), "example.com".into()]
    }

    #[test]
    fn a_host_is_a_plain_name_with_an_optional_numeric_port() {
        let h = Host::parse(" ACME.localhost:8080 ").expect("parses");
        assert_eq!(h.name(), "acme.localhost");
        assert_eq!(h.to_string(), "acme.localhost:8080");
        assert_eq!(
            Host::parse("example.com").map(|h| h.to_string()).as_deref(),
            Some("example.com")
        );
        for bad in [
            "",
            ":8080",
            "acme.localhost:",
            "acme.localhost:http",
            "acme.localhost:99999",
            "a_b.localhost",
            "evil.com/x",
            "[::1]:80",
        ] {
            assert_eq!(Host::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_subdomain_is_the_one_label_before_a_base_domain() {
        let sub = |h: &str| {
            Host::parse(h)
                .and_then(|h| h.subdomain(&bases()))
                .map(Subdomain::into_string)
        };
        assert_eq!(sub("acme.localhost:8080").as_deref(), Some("acme"));
        assert_eq!(sub("ACME.example.com").as_deref(), Some("acme"));
        assert_eq!(sub("localhost:8080"), None);
        assert_eq!(sub("a.b.localhost"), None);
        assert_eq!(sub("acme.evil.com"), None);
        assert_eq!(sub("acmelocalhost"), None);
        // The two questions agree on a host with an empty port: it is no host at all.
        assert_eq!(sub("acme.localhost:"), None);
    }
}
