//! The `agents` and `agent_subdomains` tables.

use sqlx::PgPool;
use uuid::Uuid;

use crate::npn::Npn;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentRow {
    pub id: Uuid,
    pub npn: Npn,
    pub agent_name: String,
    pub agency_name: String,
    pub address_lines: Vec<String>,
    pub email: String,
    pub phone_number: String,
    pub fax_number: Option<String>,
    pub website_url: Option<String>,
    /// The carrier flags that are on: the catalog's `agent_flag` names (`display_bcbsm`, …).
    pub offers: Vec<String>,
    pub display_medicare: bool,
    pub marketplace_certified: bool,
    /// All of the agent's subdomains, the shared one first.
    pub subdomains: Vec<String>,
}

impl AgentRow {
    /// A display flag by the name rules data gives it (a carrier's or a marketplace link's
    /// `agent_flag`); an unknown name is off.
    pub fn flag(&self, name: &str) -> bool {
        match name {
            "display_medicare" => self.display_medicare,
            "marketplace_certified" => self.marketplace_certified,
            carrier_flag => self.offers.iter().any(|f| f == carrier_flag),
        }
    }

    /// What rules see of the agent (`ctx.agent`).
    pub fn engine_flags(&self) -> enrollflow_engine::AgentFlags {
        enrollflow_engine::AgentFlags {
            offers: self.offers.clone(),
            marketplace_certified: self.marketplace_certified,
            display_medicare: self.display_medicare,
            name: self.agent_name.clone(),
            npn: self.npn.to_string(),
        }
    }
}

const SELECT_AGENT: &str = "
    SELECT a.id, a.npn, a.agent_name, a.agency_name, a.address_lines, a.email, a.phone_number,
           a.fax_number, a.website_url, a.offers, a.display_medicare,
           a.marketplace_certified,
           ARRAY(SELECT s.subdomain FROM agent_subdomains s WHERE s.agent_id = a.id
                 ORDER BY s.position) AS subdomains
    FROM agents a";

pub async fn by_subdomain(pool: &PgPool, subdomain: &str) -> sqlx::Result<Option<AgentRow>> {
    sqlx::query_as::<_, AgentRow>(&format!(
        "{SELECT_AGENT} JOIN agent_subdomains d ON d.agent_id = a.id WHERE d.subdomain = $1"
    ))
    .bind(subdomain)
    .fetch_optional(pool)
    .await
}

pub async fn by_id(pool: &PgPool, id: Uuid) -> sqlx::Result<Option<AgentRow>> {
    sqlx::query_as::<_, AgentRow>(&format!("{SELECT_AGENT} WHERE a.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await
}

pub async fn by_npn(pool: &PgPool, npn: &Npn) -> sqlx::Result<Option<AgentRow>> {
    sqlx::query_as::<_, AgentRow>(&format!("{SELECT_AGENT} WHERE a.npn = $1"))
        .bind(npn)
        .fetch_optional(pool)
        .await
}

/// Every agent, by name (the admins' agent list).
pub async fn all(pool: &PgPool) -> sqlx::Result<Vec<AgentRow>> {
    sqlx::query_as::<_, AgentRow>(&format!("{SELECT_AGENT} ORDER BY a.agent_name, a.npn"))
        .fetch_all(pool)
        .await
}

pub struct Logo {
    pub bytes: Vec<u8>,
    pub content_type: String,
}

pub async fn logo_by_subdomain(pool: &PgPool, subdomain: &str) -> sqlx::Result<Option<Logo>> {
    let row: Option<(Option<Vec<u8>>, Option<String>)> = sqlx::query_as(
        "SELECT a.logo, a.logo_content_type FROM agents a
         JOIN agent_subdomains d ON d.agent_id = a.id WHERE d.subdomain = $1",
    )
    .bind(subdomain)
    .fetch_optional(pool)
    .await?;
    Ok(match row {
        Some((Some(bytes), Some(content_type))) => Some(Logo {
            bytes,
            content_type,
        }),
        _ => None,
    })
}

/// An agent as written by the seed command (and later by agent administration).
pub struct NewAgent<'a> {
    pub npn: &'a Npn,
    pub agent_name: &'a str,
    pub agency_name: &'a str,
    pub address_lines: &'a [String],
    pub email: &'a str,
    pub phone_number: &'a str,
    pub fax_number: Option<&'a str>,
    pub website_url: Option<&'a str>,
    /// The carrier flags that are on (the catalog's `agent_flag` names).
    pub offers: &'a [String],
    pub display_medicare: bool,
    pub marketplace_certified: bool,
    pub logo: Option<(&'a [u8], &'a str)>,
    pub subdomains: &'a [String],
}

/// Inserts or updates the agent with this NPN and replaces its subdomains.
pub async fn upsert(pool: &PgPool, a: &NewAgent<'_>) -> sqlx::Result<Uuid> {
    let mut tx = pool.begin().await?;
    let (id,): (Uuid,) = sqlx::query_as(
        "INSERT INTO agents (id, npn, agent_name, agency_name, address_lines, email, phone_number,
                             fax_number, website_url, offers, display_medicare,
                             marketplace_certified, logo, logo_content_type)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (npn) DO UPDATE SET
             agent_name = EXCLUDED.agent_name, agency_name = EXCLUDED.agency_name,
             address_lines = EXCLUDED.address_lines, email = EXCLUDED.email,
             phone_number = EXCLUDED.phone_number, fax_number = EXCLUDED.fax_number,
             website_url = EXCLUDED.website_url, offers = EXCLUDED.offers,
             display_medicare = EXCLUDED.display_medicare,
             marketplace_certified = EXCLUDED.marketplace_certified, logo = EXCLUDED.logo,
             logo_content_type = EXCLUDED.logo_content_type
         RETURNING id",
    )
    .bind(Uuid::new_v4())
    .bind(a.npn)
    .bind(a.agent_name)
    .bind(a.agency_name)
    .bind(a.address_lines)
    .bind(a.email)
    .bind(a.phone_number)
    .bind(a.fax_number)
    .bind(a.website_url)
    .bind(a.offers)
    .bind(a.display_medicare)
    .bind(a.marketplace_certified)
    .bind(a.logo.map(|l| l.0))
    .bind(a.logo.map(|l| l.1))
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM agent_subdomains WHERE agent_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    for (position, subdomain) in a.subdomains.iter().enumerate() {
        sqlx::query(
            "INSERT INTO agent_subdomains (subdomain, agent_id, position) VALUES ($1, $2, $3)",
        )
        .bind(subdomain)
        .bind(id)
        .bind(i32::try_from(position).unwrap_or(i32::MAX))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(id)
}
