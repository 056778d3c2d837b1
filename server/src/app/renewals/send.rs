//! "Send renewal options": the customer's renewal mailed as a single-use `renewal` link
//! (`templates/email/renewal.txt`, in the language the agent chose for the customer), made as
//! the hand-off's links are (the token's SHA-256 kept, 14 days, the agent's sites only; a newer
//! link replaces the older; 10 a day). The link is sent to the address on the customer's
//! application.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{RenewalError, worklist};
use crate::app::applying::Handles;
use crate::app::applying::resume::{Link, email_link};
use crate::db::agents::AgentRow;
use crate::db::links::Purpose;
use crate::db::renewals::Follow;

/// Renewal links one customer may be sent in a day.
pub const PER_DAY: i64 = 10;
/// The e-mail's template.
pub const TEMPLATE: &str = "email/renewal.txt";

/// Mails one of `agent`'s customers their renewal options, opening on `origin` (the agent's
/// site), written in `language`; when the link expires.
pub async fn send(
    h: &Handles<'_>,
    agent: &AgentRow,
    id: Uuid,
    origin: &str,
    language: &str,
) -> Result<OffsetDateTime, RenewalError> {
    let detail = worklist::detail(h, agent, id).await?;
    if Follow::parse(&detail.row.follow) == Some(Follow::Reenrolled) {
        return Err(RenewalError::AlreadyReenrolled);
    }
    let email = detail
        .email
        .as_deref()
        .and_then(crate::accounts::normalize_email)
        .ok_or(RenewalError::NoEmail)?;
    let bundle = h.rules.current();
    let link = Link {
        purpose: Purpose::Renewal,
        template: TEMPLATE,
        per_day: PER_DAY,
        email: &email,
        origin,
        language,
        plan_year: Some(detail.renewal.plan_year),
    };
    Ok(email_link(h, &bundle, agent, id, &link).await?)
}
