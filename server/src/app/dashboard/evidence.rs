//! The agent's evidence packets: a submission's packet (what was seen, agreed and signed at the
//! purchase), its state while its PDF is drawn, and its downloads. A packet of an application the
//! customer finished from a hand-off holds details only they gave, so the agent sees its
//! confirmation and fingerprints but does not download it (as More Info masks those details).

use uuid::Uuid;

pub use crate::db::evidence::PacketRow;
use crate::db::{PgPool, evidence, links};

/// What an agent is told of a packet their customer's own details are in.
pub const CUSTOMERS_OWN: &str = "Your customer finished this application from the link you sent \
    them: its evidence packet holds details only they gave, so it is not downloaded from the \
    dashboard. Its confirmation and fingerprints are shown here; an administrator can verify a \
    copy.";

/// Why there is no packet to show or download.
#[derive(Debug, thiserror::Error)]
pub enum PacketError {
    #[error("No such application.")]
    NoApplication,
    #[error("This application has not been submitted.")]
    NotSubmitted,
    #[error("This application was submitted before evidence packets were kept.")]
    NoPacketKept,
    #[error("{}", CUSTOMERS_OWN)]
    CustomersOwn,
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(PacketError);

/// The packet of the agent's application `id`. A packet whose PDF could not be drawn is cleared
/// to be drawn again (the caller wakes the drawer when the PDF is missing).
pub async fn packet(pool: &PgPool, agent: Uuid, id: Uuid) -> Result<PacketRow, PacketError> {
    if let Some(p) = evidence::packet_for_agent(pool, id, agent).await? {
        return Ok(p);
    }
    Err(
        match evidence::submitted_for_agent(pool, id, agent).await? {
            Some(true) => PacketError::NoPacketKept,
            Some(false) => PacketError::NotSubmitted,
            None => PacketError::NoApplication,
        },
    )
}

/// The packet as [`packet`] does, with a failed PDF cleared to be drawn again.
pub async fn packet_state(pool: &PgPool, agent: Uuid, id: Uuid) -> Result<PacketRow, PacketError> {
    let p = packet(pool, agent, id).await?;
    if p.pdf.is_none() && p.pdf_problem.is_some() {
        evidence::set_problem(pool, id, None).await?;
    }
    Ok(p)
}

/// The packet to download: refused for an application the customer finished from a hand-off.
pub async fn downloadable(pool: &PgPool, agent: Uuid, id: Uuid) -> Result<PacketRow, PacketError> {
    let p = packet(pool, agent, id).await?;
    if links::summary_at_handoff(pool, id).await?.is_some() {
        return Err(PacketError::CustomersOwn);
    }
    Ok(p)
}
