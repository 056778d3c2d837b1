//! A page of the Quoting or Submissions list: filtered, sorted and paged in SQL, each row with
//! its newest hand-off. Rows of applications handed to their customer show, as More Info does,
//! only what the agent had entered when the customer opened the link: a name or e-mail the
//! customer gave since is masked.

use uuid::Uuid;

use super::{Filter, List, ListRow, Slice};
use crate::app::applying::Handles;
use crate::app::applying::handoff::{self, Handoff};
use crate::app::applying::resume::LinkError;
use crate::db::{PgPool, Result, agents, dashboard, links};
use enrollflow_engine::summary::Summary;

/// The agent's sites, the shared one first (the Site filter's choices).
pub async fn agent_sites(pool: &PgPool, agent_id: Uuid) -> Result<Vec<String>> {
    Ok(agents::by_id(pool, agent_id)
        .await?
        .map(|a| a.subdomains)
        .unwrap_or_default())
}

/// Masks, in rows of applications handed to their customer, what the customer gave since.
pub async fn mask_handed_off(pool: &PgPool, rows: &mut [ListRow]) -> Result<()> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    for (id, at) in links::summaries_at_handoff(pool, &ids).await? {
        let entered: Summary = serde_json::from_value(at).unwrap_or_default();
        if let Some(r) = rows.iter_mut().find(|r| r.id == id) {
            crate::security::crypto::mask_unless(&mut r.first_name, entered.first_name.as_deref());
            crate::security::crypto::mask_unless(&mut r.last_name, entered.last_name.as_deref());
            crate::security::crypto::mask_unless(&mut r.email, entered.email.as_deref());
        }
    }
    Ok(())
}

/// A page of the list: the rows matching in all, and the page's rows with their hand-offs.
pub struct Page {
    pub total: i64,
    pub rows: Vec<(ListRow, Option<Handoff>)>,
}

/// The page `slice` of `list` under `filter`.
pub async fn page(
    h: &Handles<'_>,
    list: List,
    filter: &Filter,
    slice: Slice,
) -> std::result::Result<Page, LinkError> {
    let (total, mut rows) = dashboard::page(h.pool, list, filter, slice).await?;
    mask_handed_off(h.pool, &mut rows).await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let mut handoffs = handoff::states_of(h, &ids).await?;
    let rows = rows
        .into_iter()
        .map(|r| {
            let h = handoffs
                .iter()
                .position(|(id, _)| *id == r.id)
                .map(|i| handoffs.swap_remove(i).1);
            (r, h)
        })
        .collect();
    Ok(Page { total, rows })
}
