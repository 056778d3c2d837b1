//! The agent's renewal worklist: a page of it under filters, one renewal side by side, the home
//! card's counts, and the Excel export. Each read first works out the renewals the serving rule
//! set has not (`refresh`).

use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{RenewalError, RenewalView, Season, refresh, season};
use crate::app::applying::Handles;
use crate::db::agents::AgentRow;
use crate::db::renewals::{self as store, Filter, Follow, Row};

pub use store::Filter as WorklistFilter;
pub use store::Follow as FollowUp;

/// A worklist row.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenewalRow {
    /// The renewed (submitted) application's id.
    pub id: Uuid,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// `carrier_change`, `no_successor`, `plan_change`, `member_aging_off`, `premium_change`,
    /// `same_plan`.
    pub status: String,
    /// This year's monthly premium and next year's, dollars (a plan without a successor counts
    /// its closest alternative).
    pub current_premium: f64,
    pub next_premium: f64,
    /// The change in percent of this year's premium.
    pub change_percent: f64,
    /// Each plan: its kind, this year's plan and next year's (none without a successor).
    pub plans: Vec<RowPlan>,
    /// `to_do`, `sent`, `opened`, `reenrolled`.
    pub follow: String,
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub opened_at: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RowPlan {
    pub kind: String,
    pub current: String,
    pub renewal: Option<String>,
}

/// A page of the worklist.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenewalPage {
    pub plan_year: i32,
    /// The premium change, in percent, from which a renewal into the same plan is
    /// `premium_change` (`rules/renewals.yaml`): how the status reads.
    pub notable_change_percent: u32,
    pub total: i64,
    pub page: i64,
    pub pages: i64,
    pub rows: Vec<RenewalRow>,
}

/// One renewal side by side.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenewalDetail {
    #[serde(flatten)]
    pub row: RenewalRow,
    pub email: Option<String>,
    pub renewal: RenewalView,
}

/// The home card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenewalCounts {
    pub plan_year: i32,
    /// Nothing sent yet (or the link expired unopened).
    pub to_do: i64,
    /// Sent or opened, not re-enrolled yet.
    pub sent: i64,
    /// Re-enrolled for the new year.
    pub done: i64,
    /// Days left in the open enrollment (none before it starts).
    pub days_left: Option<i64>,
}

fn stored_view(row: &Row) -> Option<RenewalView> {
    serde_json::from_value(row.renewal.0.clone()).ok()
}

fn row_of(r: &Row) -> RenewalRow {
    let plans = stored_view(r)
        .map(|v| {
            v.plans
                .iter()
                .map(|p| RowPlan {
                    kind: p.kind.clone(),
                    current: p.current.name.clone(),
                    renewal: p.renewal.as_ref().map(|t| t.name.clone()),
                })
                .collect()
        })
        .unwrap_or_default();
    RenewalRow {
        id: r.application_id,
        first_name: r.first_name.clone(),
        last_name: r.last_name.clone(),
        status: r.status.clone(),
        current_premium: r.current_cents as f64 / 100.0,
        next_premium: r.next_cents as f64 / 100.0,
        change_percent: (r.change_percent * 10.0).round() / 10.0,
        plans,
        follow: r.follow.clone(),
        sent_at: r.sent_at,
        opened_at: r.opened_at,
    }
}

/// The season, with the agent's renewals worked out under the serving rules.
pub async fn ready(h: &Handles<'_>, agent: &AgentRow) -> Result<Season, RenewalError> {
    let bundle = h.rules.current();
    let season = season(&bundle.engine, h.clock.today()).ok_or(RenewalError::NoSeason)?;
    refresh(h, &bundle, agent, &season).await?;
    Ok(season)
}

/// Rows a page holds.
pub const PER_PAGE: i64 = 25;

/// A page (from 1) of the agent's worklist under `filter`, `per_page` rows a page.
async fn read(
    h: &Handles<'_>,
    agent: &AgentRow,
    filter: &Filter,
    (page, per_page): (i64, i64),
) -> Result<RenewalPage, RenewalError> {
    let season = ready(h, agent).await?;
    let page = page.max(1);
    let rows = store::page(
        h.pool,
        agent.id,
        season.plan_year,
        h.clock.now(),
        filter,
        (per_page, (page - 1).saturating_mul(per_page)),
    )
    .await?;
    let total = rows.first().map_or(0, |r| r.total);
    Ok(RenewalPage {
        plan_year: season.plan_year,
        notable_change_percent: h
            .rules
            .current()
            .engine
            .renewal_rules()
            .notable_change_percent,
        total,
        page,
        pages: if total == 0 {
            0
        } else {
            (total - 1) / per_page + 1
        },
        rows: rows.iter().map(row_of).collect(),
    })
}

/// A page (from 1) of the agent's worklist under `filter`.
pub async fn page(
    h: &Handles<'_>,
    agent: &AgentRow,
    filter: &Filter,
    page: i64,
) -> Result<RenewalPage, RenewalError> {
    read(h, agent, filter, (page, PER_PAGE)).await
}

/// Every row of the agent's worklist under `filter`, in its order (the export), as one page.
pub async fn all(
    h: &Handles<'_>,
    agent: &AgentRow,
    filter: &Filter,
) -> Result<RenewalPage, RenewalError> {
    read(h, agent, filter, (1, i64::MAX)).await
}

/// One of the agent's renewals side by side.
pub async fn detail(
    h: &Handles<'_>,
    agent: &AgentRow,
    id: Uuid,
) -> Result<RenewalDetail, RenewalError> {
    let season = ready(h, agent).await?;
    let row = store::one(h.pool, agent.id, season.plan_year, h.clock.now(), id)
        .await?
        .ok_or(RenewalError::NotFound)?;
    let renewal = stored_view(&row).ok_or(RenewalError::NotFound)?;
    Ok(RenewalDetail {
        row: row_of(&row),
        email: row.email.clone(),
        renewal,
    })
}

/// The home card's counts.
pub async fn counts(h: &Handles<'_>, agent: &AgentRow) -> Result<RenewalCounts, RenewalError> {
    let season = ready(h, agent).await?;
    let mut c = RenewalCounts {
        plan_year: season.plan_year,
        to_do: 0,
        sent: 0,
        done: 0,
        days_left: season.days_left(h.clock.today()),
    };
    for (follow, n) in
        store::follow_counts(h.pool, agent.id, season.plan_year, h.clock.now()).await?
    {
        match Follow::parse(&follow) {
            Some(Follow::ToDo) => c.to_do += n,
            Some(Follow::Sent | Follow::Opened) => c.sent += n,
            Some(Follow::Reenrolled) => c.done += n,
            None => {}
        }
    }
    Ok(c)
}
