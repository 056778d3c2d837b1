//! An agent enrolls one of their applications from the dashboard: it becomes the agent's
//! session's application, and the wizard resumes it at the last step reached (Review and
//! Purchase once submitted). An application the customer opened through the agent's hand-off is
//! theirs to finish: the agent cannot take it back.

use uuid::Uuid;

use super::Handles;
use crate::db::{applications, links, sessions};

/// Where the wizard resumes the application, and its revision.
#[derive(Debug, PartialEq, Eq)]
pub struct Enrolled {
    pub route: String,
    pub revision: i64,
}

/// Why the application was not enrolled.
#[derive(Debug, thiserror::Error)]
pub enum EnrollError {
    #[error("No such application.")]
    NotFound,
    #[error(
        "Your customer opened the application you sent them: it is theirs to finish, and the details they give stay theirs."
    )]
    TheCustomers,
    #[error(transparent)]
    Failed(#[from] crate::db::Error),
}

/// Makes application `id` of `agent` the session's (`session`, its id hash).
pub async fn enroll(
    h: &Handles<'_>,
    agent: Uuid,
    session: &[u8; 32],
    id: Uuid,
) -> Result<Enrolled, EnrollError> {
    let (last_step, submitted, revision) = applications::standing_for_agent(h.pool, id, agent)
        .await?
        .ok_or(EnrollError::NotFound)?;
    if links::summary_at_handoff(h.pool, id).await?.is_some() {
        return Err(EnrollError::TheCustomers);
    }
    sessions::set_application(h.pool, session, Some(id)).await?;
    h.caches.evict_session(session);
    let bundle = h.rules.current();
    let engine = &bundle.engine;
    let step = if submitted {
        engine.step_info(engine.submitted_step())
    } else {
        engine
            .steps()
            .filter(|s| i64::from(s.number) <= i64::from(last_step))
            .last()
    };
    let route = step
        .or_else(|| engine.steps().next())
        .map_or_else(|| "/".to_string(), |s| s.route.clone());
    Ok(Enrolled { route, revision })
}
