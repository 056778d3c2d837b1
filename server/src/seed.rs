//! Demo data: agents with their branding, logos and users, read from a JSON file
//! (`demo/agents.json`). Loading is idempotent: agents are updated, users are created when missing
//! (an existing user, and a password changed in the demo, are left alone).

use std::path::Path;

use crate::db::PgPool;
use serde::Deserialize;

use crate::db::agents::{NewAgent, upsert};
use crate::db::users;
use crate::npn::Npn;

/// The password of every demo user (README, "Demo logins"). Demo data only.
pub const DEMO_PASSWORD: &str = "demo-password-2024";

/// The authenticator secret of the demo admins (README, "Demo logins"; `enrollflow demo-code`
/// prints its current code). Demo data only, like the password: published, so it protects nothing.
pub const DEMO_TOTP_SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoUser {
    email: String,
    first_name: String,
    last_name: String,
    /// `agent` (the default) or `admin` (an admin whose own site is this agent's).
    #[serde(default = "agent_role")]
    role: String,
    /// An analyst who may approve others' rule proposals.
    #[serde(default)]
    approves_rules: bool,
}

fn agent_role() -> String {
    users::ROLE_AGENT.to_string()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoAgent {
    npn: Npn,
    agent_name: String,
    agency_name: String,
    address_lines: Vec<String>,
    email: String,
    phone_number: String,
    fax_number: Option<String>,
    website_url: Option<String>,
    /// The carrier flags that are on: the catalog's `agent_flag` names.
    #[serde(default)]
    offers: Vec<String>,
    display_medicare: bool,
    marketplace_certified: bool,
    /// A logo file next to the data file.
    logo: Option<String>,
    subdomains: Vec<String>,
    /// Users who log in for this agent (with [`DEMO_PASSWORD`]).
    #[serde(default)]
    users: Vec<DemoUser>,
}

/// What a load did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seeded {
    pub agents: usize,
    pub users_created: usize,
}

fn content_type_of(file: &str) -> anyhow::Result<&'static str> {
    match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => Ok("image/svg+xml"),
        Some("png") => Ok("image/png"),
        Some("jpg" | "jpeg") => Ok("image/jpeg"),
        _ => anyhow::bail!("logo `{file}` must be .svg, .png or .jpg"),
    }
}

/// Loads (inserts or updates) every agent in the file and creates its missing users. With the
/// data key, new demo admins get the demo authenticator secret ([`DEMO_TOTP_SECRET`]); without
/// it they set up their own at their first login.
pub async fn load_file(
    pool: &PgPool,
    file: &Path,
    cipher: Option<&crate::security::crypto::Cipher>,
) -> anyhow::Result<Seeded> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    let agents: Vec<DemoAgent> =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut users_created = 0;
    for a in &agents {
        let logo = match &a.logo {
            Some(name) => Some((
                std::fs::read(dir.join(name))
                    .map_err(|e| anyhow::anyhow!("cannot read logo {name}: {e}"))?,
                content_type_of(name)?,
            )),
            None => None,
        };
        let agent_id = upsert(
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
                offers: &a.offers,
                display_medicare: a.display_medicare,
                marketplace_certified: a.marketplace_certified,
                logo: logo.as_ref().map(|(b, t)| (b.as_slice(), *t)),
                subdomains: &a.subdomains,
            },
        )
        .await?;
        for u in &a.users {
            if users::by_email(pool, &u.email).await?.is_some() {
                continue;
            }
            let hash = demo_password_hash().await?;
            let created = users::insert_if_absent(
                pool,
                &users::NewUser {
                    email: &u.email,
                    first_name: &u.first_name,
                    last_name: &u.last_name,
                    role: &u.role,
                    // An analyst belongs to no agent: no customer of theirs is in reach.
                    agent_id: (u.role != users::ROLE_ANALYST).then_some(agent_id),
                    password_hash: Some(&hash),
                    terms_accepted_at: Some(time::OffsetDateTime::now_utc()),
                },
                time::OffsetDateTime::now_utc(),
            )
            .await?;
            if let (Some(id), Some(cipher), true) = (created, cipher, u.role != users::ROLE_AGENT) {
                crate::db::second_factor::set_pending(pool, id, &cipher.encrypt(DEMO_TOTP_SECRET)?)
                    .await?;
                crate::db::second_factor::enable(pool, id, 0, time::OffsetDateTime::now_utc())
                    .await?;
            }
            if let (Some(id), true) = (created, u.approves_rules) {
                users::set_approves_rules(pool, id, true).await?;
            }
            users_created += usize::from(created.is_some());
        }
    }
    Ok(Seeded {
        agents: agents.len(),
        users_created,
    })
}

/// The hash of [`DEMO_PASSWORD`], computed once per process (the test suite seeds a database per
/// test). All demo users share it: their password is published in the README anyway.
async fn demo_password_hash() -> anyhow::Result<String> {
    static HASH: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    HASH.get_or_try_init(|| crate::accounts::password::hash(DEMO_PASSWORD.to_string()))
        .await
        .cloned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_password_meets_the_password_rules() {
        assert_eq!(
            crate::accounts::password::problem(super::DEMO_PASSWORD, &[]),
            None
        );
    }
}
