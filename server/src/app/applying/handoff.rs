//! The agent's hand-off to the customer: an application the agent quoted is
//! e-mailed to the customer as a single-use link (as "Save and finish later" links are: the
//! token's SHA-256 kept, 14 days, the agent's sites only); the customer opens it in their own
//! browser, gives the details only they should type (SSNs, signatures), uploads documents and
//! purchases, signing as the subscriber. The agent follows it on the dashboard (sent, opened,
//! submitted), and may withdraw or send it again.
//!
//! - `POST /api/dashboard/handoff/{id}` (an application of the agent's, quoted, not submitted)
//!   mails a single-use `handoff` link of `application_links` (`templates/email/handoff.txt`,
//!   private; a newer one replaces the older; 10 a day); `DELETE` withdraws an unopened one; `GET`
//!   tells where it stands. The customer opens it through the same `/resume/token/:token` page and
//!   `POST /api/application/resume` (`from_agent` names the agent).
//! - Each list row carries its `handoff` (sent, opened, submitted, withdrawn, expired;
//!   `links::newest_of` for a page's ids). Once opened, the summary as the agent left it is kept
//!   with the link (`summary_at_use`, migration 21): More Info masks what differs from it, and
//!   Enroll refuses the application.
//! - The web app: the Quoting row menu's Send to Customer dialog
//!   (`web/src/features/dashboard/components/handoff-modal.tsx`), also under an agent's wizard step
//!   (`web/src/app/layout/send-to-customer.tsx`, loaded for agents only).
//!   `server/tests/api/handoff.rs`.

use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::Handles;
use crate::app::applying::resume::{Link, LinkError, email_link};
use crate::db::agents::{self, AgentRow};
use crate::db::links::{self, NewestLink, Purpose};
use crate::db::{applications, sessions};
use crate::rules::Bundle;

/// Hand-offs one application may send in a day.
pub const PER_DAY: i64 = 10;
/// The e-mail's template.
pub const TEMPLATE: &str = "email/handoff.txt";

/// Where a hand-off stands.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum HandoffState {
    /// E-mailed; the customer has not opened it yet.
    Sent,
    /// The customer opened it (the application is in their browser).
    Opened,
    /// The customer signed and purchased (in this wizard the signatures are given with the
    /// purchase: one act).
    Submitted,
    /// The agent withdrew it, or sent a newer one.
    Revoked,
    /// Not opened within 14 days.
    Expired,
}

/// A hand-off as the agent sees it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Handoff {
    pub state: HandoffState,
    #[serde(with = "time::serde::rfc3339")]
    pub sent_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub opened_at: Option<OffsetDateTime>,
}

impl Handoff {
    pub fn of(l: &NewestLink, now: OffsetDateTime) -> Self {
        let state = if l.used_at.is_some() && l.submitted {
            HandoffState::Submitted
        } else if l.used_at.is_some() {
            HandoffState::Opened
        } else if l.revoked_at.is_some() {
            HandoffState::Revoked
        } else if l.expires_at <= now {
            HandoffState::Expired
        } else {
            HandoffState::Sent
        };
        Handoff {
            state,
            sent_at: l.created_at,
            expires_at: l.expires_at,
            opened_at: l.used_at,
        }
    }
}

/// The newest hand-off of each of these applications.
pub async fn states_of(h: &Handles<'_>, ids: &[Uuid]) -> Result<Vec<(Uuid, Handoff)>, LinkError> {
    let now = h.clock.now();
    Ok(links::newest_of(h.pool, ids, Purpose::Handoff)
        .await?
        .iter()
        .map(|l| (l.application_id, Handoff::of(l, now)))
        .collect())
}

/// The newest hand-off of one application.
pub async fn state_of(h: &Handles<'_>, id: Uuid) -> Result<Option<Handoff>, LinkError> {
    Ok(states_of(h, &[id])
        .await?
        .into_iter()
        .next()
        .map(|(_, h)| h))
}

/// Why an application is not handed off (nothing was sent).
#[derive(Debug, thiserror::Error)]
pub enum HandoffError {
    #[error("No such application.")]
    NotFound,
    #[error("This application has already been submitted.")]
    AlreadySubmitted,
    /// Not quoted far enough for the customer to take over.
    #[error("Quote the customer's plans before sending the application to them.")]
    NotQuoted,
    #[error("Please enter a valid e-mail address.")]
    NotAnEmail,
    /// The agent's row is gone.
    #[error("no such agent")]
    NoAgent,
    #[error(transparent)]
    Link(#[from] LinkError),
}

impl From<crate::db::Error> for HandoffError {
    fn from(e: crate::db::Error) -> Self {
        HandoffError::Link(e.into())
    }
}

/// How far one of `agent`'s applications got, if it is theirs and not submitted.
pub async fn open_quote(h: &Handles<'_>, agent: Uuid, id: Uuid) -> Result<i16, HandoffError> {
    let (last_step, submitted, _) = applications::standing_for_agent(h.pool, id, agent)
        .await?
        .ok_or(HandoffError::NotFound)?;
    if submitted {
        return Err(HandoffError::AlreadySubmitted);
    }
    Ok(last_step)
}

/// The newest hand-off of one of `agent`'s applications.
pub async fn state_for(
    h: &Handles<'_>,
    agent: Uuid,
    id: Uuid,
) -> Result<Option<Handoff>, HandoffError> {
    applications::standing_for_agent(h.pool, id, agent)
        .await?
        .ok_or(HandoffError::NotFound)?;
    Ok(state_of(h, id).await?)
}

/// Hands one of `agent`'s quoted applications to its customer at the address typed (`to.email`,
/// checked here): the link is mailed, and the agent's session (`session`, its id hash, holding
/// `holding`) lets go of the application, whose purchase is the customer's now.
pub async fn hand_off(
    h: &Handles<'_>,
    agent: Uuid,
    id: Uuid,
    to: &Customer<'_>,
    (session, holding): (&[u8; 32], Option<Uuid>),
) -> Result<Handoff, HandoffError> {
    let last_step = open_quote(h, agent, id).await?;
    let bundle = h.rules.current();
    if let Some(from) = bundle.engine.save_for_later_from()
        && last_step < i16::from(from)
    {
        return Err(HandoffError::NotQuoted);
    }
    let email = crate::accounts::normalize_email(to.email).ok_or(HandoffError::NotAnEmail)?;
    let agent = agents::by_id(h.pool, agent)
        .await?
        .ok_or(HandoffError::NoAgent)?;
    let to = Customer {
        email: &email,
        ..*to
    };
    let sent = send(h, &bundle, &agent, id, &to).await?;
    if holding == Some(id) {
        sessions::set_application(h.pool, session, None).await?;
        h.caches.evict_session(session);
    }
    Ok(sent)
}

/// Withdraws the unopened hand-off link of one of `agent`'s applications.
pub async fn withdraw(
    h: &Handles<'_>,
    agent: Uuid,
    id: Uuid,
) -> Result<Option<Handoff>, HandoffError> {
    open_quote(h, agent, id).await?;
    Ok(revoke(h, id).await?)
}

/// Who a hand-off link goes to, and in which language its e-mail is written.
#[derive(Clone, Copy)]
pub struct Customer<'a> {
    pub email: &'a str,
    /// The agent's site the link opens on.
    pub origin: &'a str,
    /// The language the agent chose for the customer (English unless the rules speak it).
    pub language: &'a str,
}

/// E-mails the customer a hand-off link (earlier ones stop working).
pub async fn send(
    h: &Handles<'_>,
    bundle: &Bundle,
    agent: &AgentRow,
    id: Uuid,
    to: &Customer<'_>,
) -> Result<Handoff, LinkError> {
    let link = Link {
        purpose: Purpose::Handoff,
        plan_year: None,
        template: TEMPLATE,
        per_day: PER_DAY,
        email: to.email,
        origin: to.origin,
        language: to.language,
    };
    let expires_at = email_link(h, bundle, agent, id, &link).await?;
    Ok(Handoff {
        state: HandoffState::Sent,
        sent_at: h.clock.now(),
        expires_at,
        opened_at: None,
    })
}

/// Withdraws the application's unopened hand-off link.
pub async fn revoke(h: &Handles<'_>, id: Uuid) -> Result<Option<Handoff>, LinkError> {
    links::revoke(h.pool, id, Purpose::Handoff, h.clock.now()).await?;
    state_of(h, id).await
}
