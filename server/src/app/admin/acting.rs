//! An admin acting as an agent's user, and switching back. Acting reaches every one of the
//! agent's customers, so it needs the admin's second factor proved lately (the HTTP layer asks
//! for it first) and carries that proof into the new session; switching back restores the admin's
//! own session with the proof the acting began with. The HTTP layer replaces the sessions
//! (`http/session.rs`) and audits both steps.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::app::accounts::UserRow;
use crate::db::{PgPool, Result, second_factor, users};

/// The admin a session acting as an agent belongs to (`None`: no longer an admin), and when the
/// acting session's second factor was proved (carried back).
pub async fn switching_back(
    pool: &PgPool,
    admin: Uuid,
    session: &[u8; 32],
) -> Result<Option<(UserRow, Option<OffsetDateTime>)>> {
    let Some(admin) = users::by_id(pool, admin).await?.filter(UserRow::is_admin) else {
        return Ok(None);
    };
    let proved_at = second_factor::session_proved_at(pool, session).await?;
    Ok(Some((admin, proved_at)))
}
