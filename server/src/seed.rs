//! Demo data: agents with their branding and logos, read from a JSON file (`demo/agents.json`).

use std::path::Path;

use serde::Deserialize;
use sqlx::PgPool;

use crate::db::agents::{NewAgent, upsert};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoAgent {
    npn: String,
    agent_name: String,
    agency_name: String,
    address_lines: Vec<String>,
    email: String,
    phone_number: String,
    fax_number: Option<String>,
    website_url: Option<String>,
    display_bcbsm: bool,
    display_ph: bool,
    display_medicare: bool,
    marketplace_certified: bool,
    /// A logo file next to the data file.
    logo: Option<String>,
    subdomains: Vec<String>,
}

fn content_type_of(file: &str) -> anyhow::Result<&'static str> {
    match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => Ok("image/svg+xml"),
        Some("png") => Ok("image/png"),
        Some("jpg" | "jpeg") => Ok("image/jpeg"),
        _ => anyhow::bail!("logo `{file}` must be .svg, .png or .jpg"),
    }
}

/// Loads (inserts or updates) every agent in the file; returns how many.
pub async fn load_file(pool: &PgPool, file: &Path) -> anyhow::Result<usize> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    let agents: Vec<DemoAgent> =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    for a in &agents {
        let logo = match &a.logo {
            Some(name) => Some((
                std::fs::read(dir.join(name))
                    .map_err(|e| anyhow::anyhow!("cannot read logo {name}: {e}"))?,
                content_type_of(name)?,
            )),
            None => None,
        };
        upsert(
            pool,
            &NewAgent {
                npn: &a.npn,
                agent_name: &a.agent_name,
                agency_name: &a.agency_name,
                address_lines: &a.address_lines,
                email: &a.email,
                phone_number: &a.phone_number,
                fax_number: a.fax_number.as_deref(),
                website_url: a.website_url.as_deref(),
                display_bcbsm: a.display_bcbsm,
                display_ph: a.display_ph,
                display_medicare: a.display_medicare,
                marketplace_certified: a.marketplace_certified,
                logo: logo.as_ref().map(|(b, t)| (b.as_slice(), *t)),
                subdomains: &a.subdomains,
            },
        )
        .await?;
    }
    Ok(agents.len())
}
