//! Configuration of `enrollflow serve`: the production settings, fourteen of them (`SETTINGS`),
//! from a YAML file (`--config`, `ENROLLFLOW_CONFIG`; `deploy/enrollflow.yaml` documents each),
//! overridden by the environment, overridden by a flag; the demonstration, test and benchmark knobs
//! (`NOT_PRODUCTION`) are flags and environment variables only; credentials are read from the
//! environment or files only (`ServeArgs::read_secrets`).
//!
//! It also maps a host to its agent subdomain (`is_own_host`, `subdomain_of`, answered from
//! `crate::platform::hostname`), and holds `PRODUCT_NAME`, the product's one name, given to every template as
//! the global `product_name`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::platform::hostname::{Host, Subdomain};

/// The product's name, in the site's answers and (as the template global `product_name`) in every
/// e-mail and legal text.
pub use crate::platform::texts::PRODUCT_NAME;

/// The shortest operator bearer token accepted (`ENROLLFLOW_ADMIN_TOKEN`).
pub const OPERATOR_TOKEN_MIN: usize = 32;

/// What retiring an abandoned quote does (`ENROLLFLOW_RETENTION_ACTION`; `crate::maintenance::retention`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RetentionAction {
    Delete,
    Anonymize,
}

/// The rule time a request may spend when no budget is set (`ENROLLFLOW_RULE_BUDGET_MS`).
pub const RULE_BUDGET_DEFAULT: Duration = Duration::from_millis(1000);

/// The heading of the settings that are not production settings (`serve --help`, `config`):
/// demonstration, tests and benchmarks.
pub const NOT_PRODUCTION: &str = "Demonstration, tests and benchmarks (not production settings)";

/// The largest request body accepted, in bytes (uploads are PDFs up to 3 MB).
pub const BODY_LIMIT: usize = 4 * 1024 * 1024;

/// Settings of the HTTP server (see `enrollflow serve --help`).
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// A YAML file of production settings (`deploy/enrollflow.yaml` lists them); the environment
    /// and flags override what it says.
    #[arg(long, env = "ENROLLFLOW_CONFIG")]
    pub config: Option<PathBuf>,

    /// Address and port to listen on.
    #[arg(long, env = "ENROLLFLOW_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Folder holding the built web app (index.html and assets).
    #[arg(long, env = "ENROLLFLOW_STATIC_DIR", default_value = "web/dist")]
    pub static_dir: PathBuf,

    /// Folder holding the analysts' `rules/`, `forms/` and `templates/` (watched and hot-reloaded).
    #[arg(long, env = "ENROLLFLOW_ROOT", default_value = ".")]
    pub root: PathBuf,

    /// Do not watch the rules for changes (they are then read once at start).
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_NO_WATCH", default_value_t = false)]
    pub no_watch: bool,

    /// Serve the rule sets published in the database (`enrollflow publish`, the workbench) instead
    /// of watching the folder: every instance switches when a set is published or rolled back. A
    /// database with no set yet publishes the folder's at start.
    #[arg(long, env = "ENROLLFLOW_RULES_FROM_DATABASE", default_value_t = false)]
    pub rules_from_database: bool,

    /// Bearer token for the operators' endpoints (rule status) until admin accounts exist: from
    /// `ENROLLFLOW_ADMIN_TOKEN` or the file `ENROLLFLOW_ADMIN_TOKEN_FILE`, never a flag
    /// ([`ServeArgs::read_secrets`]).
    #[arg(skip)]
    pub admin_token: Option<String>,

    /// Show the Misc menu with the playground link (spec part 1, 2.1): the hidden /playground route
    /// opens the rules workbench's preview, for analysts and admins only.
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_PLAYGROUND", default_value_t = false)]
    pub playground: bool,

    /// Domains under which agent sites live: the label before one of these is the agent's subdomain
    /// (`acme.localhost` -> `acme`). Comma-separated.
    #[arg(
        long,
        env = "ENROLLFLOW_BASE_DOMAINS",
        value_delimiter = ',',
        default_value = "localhost,example.com"
    )]
    pub base_domains: Vec<String>,

    /// Subdomains of demo agents, whose sites say submitted applications will not be processed.
    #[arg(
        help_heading = NOT_PRODUCTION,
        long,
        env = "ENROLLFLOW_DEMO_SUBDOMAINS",
        value_delimiter = ',',
        default_value = "demo"
    )]
    pub demo_subdomains: Vec<String>,

    /// Set when the site is served over HTTPS (directly or behind a TLS proxy): cookies become
    /// `Secure` with the `__Host-` prefix, and HSTS is sent.
    #[arg(long, env = "ENROLLFLOW_HTTPS", default_value_t = false)]
    pub https: bool,

    /// Idle minutes after which a session expires (every request counts as activity).
    #[arg(long, env = "ENROLLFLOW_IDLE_MINUTES", default_value_t = 30)]
    pub idle_minutes: u32,

    /// Idle seconds after which a session expires; overrides the minutes (tests use seconds).
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_IDLE_SECONDS")]
    pub idle_seconds: Option<u64>,

    /// Hours after which a session ends however busy it is (its absolute lifetime).
    #[arg(long, env = "ENROLLFLOW_SESSION_HOURS", default_value_t = 12)]
    pub session_hours: u32,

    /// Folder of the local object store holding uploaded documents (random file names).
    #[arg(
        long,
        env = "ENROLLFLOW_DOCUMENTS_DIR",
        default_value = "var/documents"
    )]
    pub documents_dir: PathBuf,

    /// An S3-compatible bucket for uploaded documents instead of the folder: `s3://bucket`, with
    /// the usual `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` and (MinIO and the like)
    /// `AWS_ENDPOINT_URL`. Every instance then reads what any instance stored.
    #[arg(long, env = "ENROLLFLOW_DOCUMENT_STORE")]
    pub document_store: Option<String>,

    /// Per client address and minute, on each instance: new applications, document uploads, PDFs
    /// and exports each allow this many (a burst of half of it at once); past it, 429 with
    /// `Retry-After`. 0 turns the limits off (load tests from one address).
    #[arg(long, env = "ENROLLFLOW_ADDRESS_LIMIT", default_value_t = 120)]
    pub address_limit: u32,

    /// Seconds after which a request is answered 408.
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_REQUEST_TIMEOUT", default_value_t = 30)]
    pub request_timeout_secs: u64,

    /// The tool owner named in the footer.
    #[arg(
        long,
        env = "ENROLLFLOW_TOOL_OWNER",
        default_value = "Enrollflow Technologies, LLC"
    )]
    pub tool_owner: String,

    /// SMTP relay for outgoing e-mail, credentials in the URL if needed: `smtps://host:465` (TLS),
    /// `smtp://host:587?tls=required` (STARTTLS), or plain `smtp://` to a relay on this host only.
    /// Without it, e-mail stays in the outbox that admins can read (the demo's mail viewer).
    /// From `ENROLLFLOW_SMTP_URL` or the file `ENROLLFLOW_SMTP_URL_FILE`, never a flag (it may
    /// hold a password; [`ServeArgs::read_secrets`]).
    #[arg(skip)]
    pub smtp_url: Option<String>,

    /// The sender of outgoing e-mail.
    #[arg(
        long,
        env = "ENROLLFLOW_MAIL_FROM",
        default_value = "Enrollflow <no-reply@enrollflow.example.com>"
    )]
    pub mail_from: String,

    /// Header naming the client's address when a proxy or load balancer you run sets it (e.g.
    /// `x-forwarded-for`). Without it the peer address is the client's. Used by the per-address
    /// limits and the audit log.
    #[arg(long, env = "ENROLLFLOW_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,

    /// How many proxies you run in front of the server, each adding the address it was reached
    /// from to the header: the client's address is read that many entries from the right (what a
    /// client wrote further left is not trusted). A header with fewer entries than that did not
    /// come through every proxy: the connection's peer is used.
    #[arg(long, env = "ENROLLFLOW_TRUSTED_PROXY_HOPS", default_value_t = 1)]
    pub trusted_proxy_hops: u8,

    /// The general agent named in the footer.
    #[arg(
        long,
        env = "ENROLLFLOW_GENERAL_AGENT",
        default_value = "Great Lakes General Agency, Inc."
    )]
    pub general_agent: String,

    /// Serves the benchmark baselines (`/bench/hello`, `/bench/pk/{id}`: a primary-key read), so
    /// that throughput can be reported as a ratio to them. Off in production.
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_BENCH_ROUTES", default_value_t = false)]
    pub bench_routes: bool,

    /// Milliseconds of rule evaluation one request may use in all; a rule still running past it
    /// stops and its request fails (the request's other work does not count).
    #[arg(long, help_heading = NOT_PRODUCTION, env = "ENROLLFLOW_RULE_BUDGET_MS", default_value_t = 1000)]
    pub rule_budget_ms: u64,

    /// Seconds an impact run may take in all (made-up households and stored applications walked
    /// under two sets); past it the run stops and says so.
    #[arg(long, help_heading = NOT_PRODUCTION, default_value_t = 60)]
    pub impact_budget_secs: u64,

    /// Also serve `/metrics` (Prometheus) without the operator token on this address (a port the
    /// private network's scraper reaches, not the load balancer). On the main address `/metrics`
    /// needs the operator token.
    #[arg(long, env = "ENROLLFLOW_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Days after which a quote nobody submitted or saved is retired (deleted or anonymized,
    /// with its documents) by an hourly job; 0 keeps quotes forever.
    #[arg(long, env = "ENROLLFLOW_RETENTION_DAYS", default_value_t = 0)]
    pub retention_days: u32,

    /// What retiring an abandoned quote does: `anonymize` (answers and names emptied, the
    /// statistics kept) or `delete`.
    #[arg(long, env = "ENROLLFLOW_RETENTION_ACTION", value_enum, default_value_t = RetentionAction::Anonymize)]
    pub retention_action: RetentionAction,

    /// The program the draft worker runs (`enrollflow draft-worker`): this server's own, set at
    /// start. Without one, impacts run on the server's draft thread.
    #[arg(skip)]
    pub draft_worker: Option<PathBuf>,

    /// The evidence signing key and the retired keys still trusted, read at start from the
    /// environment or files (`crate::documents::signing`); without them, a key derived from the data key.
    #[arg(skip)]
    pub evidence_keys: Option<crate::documents::signing::EvidenceKeys>,
}

/// One production setting as the configuration file names it: a plain value (`key` empty) or a
/// group of values, each the `serve` flag (by its argument id) it fills.
pub struct Setting {
    pub name: &'static str,
    pub values: &'static [(&'static str, &'static str)],
}

/// A setting of one value, which fills the flag of its name.
macro_rules! plain {
    ($name:literal) => {
        Setting {
            name: $name,
            values: &[("", $name)],
        }
    };
}

/// The production settings, in the order `enrollflow config` prints them.
pub const SETTINGS: [Setting; 14] = [
    plain!("listen"),
    plain!("https"),
    plain!("base_domains"),
    Setting {
        name: "client_ip",
        values: &[
            ("header", "client_ip_header"),
            ("proxy_hops", "trusted_proxy_hops"),
        ],
    },
    plain!("metrics_listen"),
    plain!("static_dir"),
    plain!("root"),
    plain!("rules_from_database"),
    Setting {
        name: "sessions",
        values: &[("idle_minutes", "idle_minutes"), ("hours", "session_hours")],
    },
    Setting {
        name: "documents",
        values: &[("dir", "documents_dir"), ("store", "document_store")],
    },
    plain!("address_limit"),
    plain!("mail_from"),
    Setting {
        name: "legal",
        values: &[
            ("tool_owner", "tool_owner"),
            ("general_agent", "general_agent"),
        ],
    },
    Setting {
        name: "retention",
        values: &[("days", "retention_days"), ("action", "retention_action")],
    },
];

/// The setting (and its key within a group) that fills the `serve` argument `id`, if one does.
pub fn setting_of(id: &str) -> Option<(&'static str, &'static str)> {
    SETTINGS.iter().find_map(|s| {
        s.values
            .iter()
            .find(|(_, arg)| *arg == id)
            .map(|(key, _)| (s.name, *key))
    })
}

/// The arguments a configuration file stands for, as `serve` flags (`--listen=…`), for the
/// values whose environment variable is not set (the environment overrides the file; flags given
/// after these override both). A key that is not a production setting is refused, by name.
pub fn file_arguments(
    path: &std::path::Path,
    serve: &clap::Command,
) -> anyhow::Result<Vec<std::ffi::OsString>> {
    use anyhow::Context as _;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("the configuration file {}", path.display()))?;
    let file: serde_json::Value =
        serde_saphyr::from_str(&text).with_context(|| format!("{}: not YAML", path.display()))?;
    let shown = path.display();
    let entries = match file {
        serde_json::Value::Object(m) => m,
        serde_json::Value::Null => serde_json::Map::new(),
        _ => anyhow::bail!("{shown}: a mapping of settings is expected"),
    };
    let names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
    let mut out = Vec::new();
    for (name, value) in entries {
        let setting = SETTINGS.iter().find(|s| s.name == name).ok_or_else(|| {
            anyhow::anyhow!(
                "{shown}: `{name}` is not a production setting (the settings: {}; \
                 demonstration and test knobs and credentials are never read from the file)",
                names.join(", ")
            )
        })?;
        let leaves: Vec<(&str, serde_json::Value)> = match (setting.values, value) {
            ([("", arg)], v) => vec![(*arg, v)],
            (values, serde_json::Value::Object(group)) => {
                let mut leaves = Vec::new();
                for (key, v) in group {
                    let arg = values
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, arg)| *arg)
                        .ok_or_else(|| {
                            let keys: Vec<&str> = values.iter().map(|(k, _)| *k).collect();
                            anyhow::anyhow!(
                                "{shown}: `{name}.{key}` is not a setting (`{name}` holds {})",
                                keys.join(", ")
                            )
                        })?;
                    leaves.push((arg, v));
                }
                leaves
            }
            (_, _) => anyhow::bail!("{shown}: `{name}` is a group of values, a mapping"),
        };
        for (id, v) in leaves {
            let arg = serve
                .get_arguments()
                .find(|a| a.get_id().as_str() == id)
                .ok_or_else(|| anyhow::anyhow!("`{id}` is not a serve flag"))?;
            if arg
                .get_env()
                .is_some_and(|env| std::env::var_os(env).is_some())
            {
                continue;
            }
            let long = arg.get_long().unwrap_or(id);
            let text = match v {
                serde_json::Value::Null => continue,
                serde_json::Value::Bool(b) => {
                    // A switch is given by its name alone.
                    if b {
                        out.push(format!("--{long}").into());
                    }
                    continue;
                }
                serde_json::Value::String(s) => s,
                serde_json::Value::Array(items) => items
                    .iter()
                    .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            out.push(format!("--{long}={text}").into());
        }
    }
    Ok(out)
}

/// The command line with the configuration file's settings placed right after the `serve` (or
/// `config`) subcommand, so that the flags given after them win; unchanged without a file
/// (`--config FILE`, `--config=FILE` or `ENROLLFLOW_CONFIG`).
pub fn with_config_file(
    args: Vec<std::ffi::OsString>,
    serve: &clap::Command,
) -> anyhow::Result<Vec<std::ffi::OsString>> {
    // The subcommand is the first argument (the command has no flags of its own before it).
    let at = 1;
    if !args.get(at).is_some_and(|a| a == "serve" || a == "config") {
        return Ok(args);
    }
    let mut path = std::env::var_os("ENROLLFLOW_CONFIG").map(PathBuf::from);
    let mut rest = args[at + 1..].iter();
    while let Some(a) = rest.next() {
        let a = a.to_string_lossy();
        if a == "--config" {
            path = rest.next().map(PathBuf::from);
        } else if let Some(p) = a.strip_prefix("--config=") {
            path = Some(PathBuf::from(p));
        }
    }
    let Some(path) = path else {
        return Ok(args);
    };
    let from_file = file_arguments(&path, serve)?;
    let mut out = args[..=at].to_vec();
    out.extend(from_file);
    out.extend_from_slice(&args[at + 1..]);
    Ok(out)
}

impl ServeArgs {
    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(
            self.idle_seconds
                .unwrap_or(u64::from(self.idle_minutes) * 60),
        )
    }

    /// The settings that hold credentials, from the environment or files only (a command line is
    /// visible to every user of the machine in `ps`): the operator token and the SMTP URL.
    pub fn read_secrets(&mut self) -> anyhow::Result<()> {
        let read = |name: &str| -> anyhow::Result<Option<String>> {
            Ok(crate::security::crypto::env_or_file(name)?.map(|v| v.trim().to_string()))
        };
        self.admin_token = read("ENROLLFLOW_ADMIN_TOKEN")?;
        self.smtp_url = read("ENROLLFLOW_SMTP_URL")?;
        Ok(())
    }

    /// Settings that cannot work together, refused before serving.
    pub fn check(&self) -> anyhow::Result<()> {
        if let Some(token) = &self.admin_token {
            anyhow::ensure!(
                token.len() >= OPERATOR_TOKEN_MIN,
                "ENROLLFLOW_ADMIN_TOKEN must have at least {} characters \
                 (head -c32 /dev/urandom | od -An -tx1 | tr -d ' \\n')",
                OPERATOR_TOKEN_MIN
            );
        }
        anyhow::ensure!(
            self.session_hours >= 1,
            "ENROLLFLOW_SESSION_HOURS must be at least 1"
        );
        Ok(())
    }

    /// The absolute lifetime of a session ([`Self::session_hours`]).
    pub fn session_lifetime(&self) -> Duration {
        Duration::from_secs(u64::from(self.session_hours) * 3600)
    }

    /// The rule time of one request ([`Self::rule_budget_ms`]).
    pub fn rule_budget(&self) -> Duration {
        Duration::from_millis(self.rule_budget_ms.max(1))
    }

    /// An impact run's overall budget ([`Self::impact_budget_secs`]), ending a second before the
    /// request's own timeout when that comes first (the analyst then reads why it stopped).
    pub fn impact_budget(&self) -> Duration {
        let budget = Duration::from_secs(self.impact_budget_secs.max(1));
        let answered_by = self
            .request_timeout()
            .saturating_sub(Duration::from_secs(1));
        budget.min(answered_by.max(Duration::from_secs(1)))
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_secs)
    }

    /// The settings with their defaults, for tests and tools.
    pub fn defaults() -> Self {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: ServeArgs,
        }
        // Only defaults are parsed: no argument can fail.
        #[allow(clippy::expect_used)]
        Wrapper::try_parse_from(["enrollflow"])
            .expect("defaults parse")
            .args
    }

    /// Whether a `Host` header value names one of our sites: a base domain or an agent subdomain
    /// of one, with an optional numeric port.
    pub fn is_own_host(&self, host: &str) -> bool {
        Host::parse(host).is_some_and(|h| {
            h.is_base(&self.base_domains) || h.subdomain(&self.base_domains).is_some()
        })
    }

    /// The agent subdomain named by a `Host` header value, if any.
    pub fn subdomain_of(&self, host: &str) -> Option<String> {
        Host::parse(host)?
            .subdomain(&self.base_domains)
            .map(Subdomain::into_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subdomain_is_the_label_before_a_base_domain() {
        let c = ServeArgs::defaults();
        assert_eq!(
            c.subdomain_of("acme.localhost:8080").as_deref(),
            Some("acme")
        );
        assert_eq!(c.subdomain_of("ACME.example.com").as_deref(), Some("acme"));
        assert_eq!(c.subdomain_of("localhost:8080"), None);
        assert_eq!(c.subdomain_of("a.b.localhost"), None);
        assert_eq!(c.subdomain_of("acme.evil.com"), None);
        assert_eq!(c.subdomain_of("acmelocalhost"), None);
    }

    #[test]
    fn own_hosts_are_base_domains_and_their_agent_sites() {
        let c = ServeArgs::defaults();
        for host in [
            "acme.localhost:8080",
            "localhost:8080",
            "ACME.example.com",
            "example.com",
        ] {
            assert!(c.is_own_host(host), "{host}");
        }
        for host in [
            "evil.com",
            "acme.evil.com",
            "a.b.localhost",
            "acme.localhost:80@evil.com",
            "acme.localhost:",
            "acme.localhost/x",
        ] {
            assert!(!c.is_own_host(host), "{host}");
        }
    }
}
