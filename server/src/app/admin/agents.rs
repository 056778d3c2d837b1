//! The agents an admin works with: the list (Manage Messages, Act as Agent), one agent by NPN and
//! its users.

use uuid::Uuid;

use crate::app::accounts::UserRow;
pub use crate::db::agents::AgentRow;
use crate::db::{PgPool, Result, agents, users};
pub use crate::npn::{NotAnNpn, Npn};

/// An agent as the admins' list shows it: its name split at its last space.
pub struct Listed {
    pub first_name: String,
    pub last_name: String,
    pub agent: AgentRow,
}

/// Every agent, by last name then first name (case ignored).
pub async fn list(pool: &PgPool) -> Result<Vec<Listed>> {
    let mut list: Vec<Listed> = agents::all(pool)
        .await?
        .into_iter()
        .map(|agent| {
            let (first, last) = match agent.agent_name.trim().rsplit_once(' ') {
                Some((f, l)) => (f.trim().to_string(), l.to_string()),
                None => (String::new(), agent.agent_name.trim().to_string()),
            };
            Listed {
                first_name: first,
                last_name: last,
                agent,
            }
        })
        .collect();
    list.sort_by(|a, b| {
        (a.last_name.to_lowercase(), a.first_name.to_lowercase())
            .cmp(&(b.last_name.to_lowercase(), b.first_name.to_lowercase()))
    });
    Ok(list)
}

/// The agent with `npn`, if any.
pub async fn by_npn(pool: &PgPool, npn: &Npn) -> Result<Option<AgentRow>> {
    agents::by_npn(pool, npn).await
}

/// The agent users of the agent with `npn` (`None`: no such agent).
pub async fn users_of(pool: &PgPool, npn: &Npn) -> Result<Option<Vec<UserRow>>> {
    match agents::by_npn(pool, npn).await? {
        Some(agent) => Ok(Some(users::agent_users_by_agent(pool, agent.id).await?)),
        None => Ok(None),
    }
}

/// The agent user `id` an admin may act as (an account with the agent role).
pub async fn agent_user(pool: &PgPool, id: Uuid) -> Result<Option<UserRow>> {
    Ok(users::by_id(pool, id)
        .await?
        .filter(|u| u.role == users::ROLE_AGENT))
}
