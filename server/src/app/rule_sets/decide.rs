//! The decisions on rule sets besides approving one (`publish`): a proposal rejected with a
//! reason by someone with the approve permission other than its author, or withdrawn by its
//! author; a scheduled set cancelled before it takes effect; an earlier set served again (an
//! emergency: one approver's action); and the publications' history. Each is audited.

use uuid::Uuid;

use super::propose::proposal;
use super::{Handles, Proposal, Publication, RuleSetError};
use crate::db::audit::Action;
use crate::db::{rule_proposals, rule_sets};
use crate::rules;
use crate::rules::governance::{self, Actor};

/// How many publications the history lists.
const HISTORY: i64 = 50;

/// Who decides: their account, whether they may approve, and who the audit log names.
pub struct Decider<'a> {
    pub user_id: Uuid,
    pub email: &'a str,
    pub may_approve: bool,
    pub actor: Actor,
}

fn not_allowed(why: &str) -> RuleSetError {
    RuleSetError::NotAllowed(why.into())
}

/// Rejects the proposal `id` with `reason`, which its author reads.
pub async fn reject(
    h: &Handles<'_>,
    by: &Decider<'_>,
    id: i64,
    reason: &str,
) -> Result<Proposal, RuleSetError> {
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > 2000 {
        return Err(RuleSetError::Invalid {
            field: "reason",
            problems: vec![
                "Say why, in at most 2,000 characters: the author reads it.".to_string(),
            ],
        });
    }
    let p = proposal(h, id).await?;
    if p.author_id == by.user_id {
        return Err(not_allowed(
            "You proposed this change: withdraw it instead.",
        ));
    }
    if !by.may_approve {
        return Err(not_allowed(
            "Rejecting a change needs the approve permission: ask an admin.",
        ));
    }
    decide(h, by, &p, ("rejected", Some(reason)), Action::RulesRejected).await
}

/// Withdraws the proposal `id`: only its author does.
pub async fn withdraw(
    h: &Handles<'_>,
    by: &Decider<'_>,
    id: i64,
) -> Result<Proposal, RuleSetError> {
    let p = proposal(h, id).await?;
    if p.author_id != by.user_id {
        return Err(not_allowed(
            "Only the author withdraws a proposal; others reject it with a reason.",
        ));
    }
    decide(h, by, &p, ("withdrawn", None), Action::RulesWithdrawn).await
}

/// Decides a proposal still `proposed` (its new state and reason) and audits it, in one
/// transaction (refused when someone decided it meanwhile).
async fn decide(
    h: &Handles<'_>,
    by: &Decider<'_>,
    p: &Proposal,
    (state, reason): (&str, Option<&str>),
    action: Action,
) -> Result<Proposal, RuleSetError> {
    let mut tx = h.pool.begin().await?;
    if !rule_proposals::decide(&mut *tx, p.id, state, by.user_id, reason, h.now).await? {
        return Err(RuleSetError::Conflict(
            "This proposal was decided already.".into(),
        ));
    }
    let detail = governance::detail(&p.hash, &p.base_hash, &p.diff_hash);
    governance::record(&mut *tx, &by.actor, action, detail, h.now).await?;
    tx.commit().await?;
    proposal(h, p.id).await
}

/// Approved sets that take effect later, soonest first.
pub async fn scheduled(h: &Handles<'_>) -> Result<Vec<Publication>, RuleSetError> {
    Ok(rule_sets::scheduled(h.pool, h.now).await?)
}

/// Cancels the scheduled publication `id`: it will not take effect.
pub async fn cancel_scheduled(
    h: &Handles<'_>,
    by: &Decider<'_>,
    id: i64,
) -> Result<(), RuleSetError> {
    if !by.may_approve {
        return Err(not_allowed(
            "Cancelling a scheduled set needs the approve permission.",
        ));
    }
    let gone = || {
        RuleSetError::NotFound(
            "Nothing is scheduled with that id: it took effect or was cancelled.".into(),
        )
    };
    let pending = rule_sets::scheduled(h.pool, h.now).await?;
    let p = pending.iter().find(|p| p.id == id).ok_or_else(gone)?;
    if !rule_sets::cancel(h.pool, id, h.now).await? {
        return Err(gone());
    }
    let detail = format!("set={} publication={id}", governance::short(&p.hash));
    governance::record(
        h.pool,
        &by.actor,
        Action::RulesScheduleCancelled,
        detail,
        h.now,
    )
    .await?;
    Ok(())
}

/// The publications, newest first (the first is serving).
pub async fn history(h: &Handles<'_>) -> Result<Vec<Publication>, RuleSetError> {
    Ok(rule_sets::history(h.pool, HISTORY).await?)
}

/// Serves again the published set whose hash starts with `hash`, on every instance serving from
/// the database.
pub async fn roll_back(
    h: &Handles<'_>,
    by: &Decider<'_>,
    hash: &str,
) -> Result<Publication, RuleSetError> {
    if !by.may_approve {
        return Err(not_allowed(
            "Rolling back needs the approve permission: ask an approver or an admin.",
        ));
    }
    let none = || RuleSetError::NotFound("No published rule set has that hash.".into());
    let hash = hash.trim();
    if hash.len() < 6 || !hash.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(none());
    }
    let from = h.rules.status().serving_set.clone().unwrap_or_default();
    let p = rule_sets::rollback(h.pool, hash, by.email, h.now)
        .await?
        .ok_or_else(none)?;
    let detail = format!(
        "set={} from={}",
        governance::short(&p.hash),
        governance::short(&from)
    );
    governance::record(h.pool, &by.actor, Action::RulesRolledBack, detail, h.now).await?;
    // An instance serving the published sets switches before it answers (the others switch on
    // its notification): the analyst's next request, and the consumers' here, see the set.
    if h.serves_published {
        rules::serve_newest(h.rules, h.pool, h.now).await?;
    }
    Ok(p)
}
