//! An agent's branded site: the agent a subdomain names (`applying::open::site_agent`, cached)
//! and its logo.

pub use crate::db::agents::{AgentRow, Logo};
use crate::db::{PgPool, Result, agents};
pub use crate::npn::Npn;

/// The logo of the agent whose site `subdomain` names (case ignored), if it has one.
pub async fn logo(pool: &PgPool, subdomain: &str) -> Result<Option<Logo>> {
    agents::logo_by_subdomain(pool, &subdomain.to_ascii_lowercase()).await
}
