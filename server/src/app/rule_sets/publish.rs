//! Approving a proposed rule set, which publishes it: at once, or from a date and time on
//! Michigan's clock. Nobody approves their own proposal (nor an admin acting as its author); the
//! approver needs the approve permission; the proposal must still be over the set serving, its
//! scenarios must pass and its coverage must be above the floor; the set is checked whole again,
//! because the operators' policy may have changed since it was proposed. The decision, the
//! publication and the audit rows (approved, then published or scheduled) commit together; an
//! instance serving from the database serves the set at once when it is effective now.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::db::audit::Action;
use crate::db::rule_proposals::{self, Proposal};
use crate::db::rule_sets::{self, Publication};
use crate::platform::error::ApiError;
use crate::rules::drafts::Drafts;
use crate::rules::governance::{self, Actor};
use crate::rules::{self, Rules};

/// What publishing reads and writes.
#[derive(Clone, Copy)]
pub struct Handles<'a> {
    pub pool: &'a crate::db::PgPool,
    pub now: OffsetDateTime,
    pub rules: &'a Rules,
    /// Where the set is checked again, apart from consumers' requests.
    pub drafts: &'a Drafts,
    /// Whether this instance serves the rule sets published in the database (then a set effective
    /// now serves here at once; the other instances hear of it).
    pub serves_published: bool,
}

/// Who approves.
pub struct Approver<'a> {
    pub user_id: Uuid,
    pub email: &'a str,
    /// The admin acting as this user, if one is.
    pub impersonator_id: Option<Uuid>,
    pub may_approve: bool,
    /// Who the audit log names.
    pub actor: Actor,
}

/// Why a proposal was not approved (nothing was written).
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("No such proposal.")]
    NoSuchProposal,
    #[error("This proposal was {0} already.")]
    Decided(String),
    #[error(
        "You proposed this change: another analyst with the approve permission, or an admin, approves it."
    )]
    OwnProposal,
    #[error("Approving a change needs the approve permission: ask an admin.")]
    NoPermission,
    #[error(
        "The set serving changed since this was proposed: its author proposes it again over the set serving now."
    )]
    ServingMoved,
    #[error("{0} scenario(s) fail under this set: it cannot be approved until they pass.")]
    ScenariosFail(usize),
    #[error("The rule coverage is below its floor ({0}): it cannot be approved.")]
    BelowCoverageFloor(String),
    /// The effective date and time is not one.
    #[error("Give a date and time (YYYY-MM-DDTHH:MM, Michigan time).")]
    NotATime,
    #[error("That time has passed: choose a later one, or approve for now.")]
    TimePassed,
    /// The set does not load any more: its problems, file by file.
    #[error("the set does not load")]
    DoesNotLoad(Vec<String>),
    /// The threads that check sets are busy.
    #[error("{message}")]
    Busy { message: String, retry_after: u64 },
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(PublishError);

/// Approves proposal `id` and publishes its set, effective `effective_from` (`YYYY-MM-DDTHH:MM`
/// on Michigan's clock, or RFC 3339) or at once.
pub async fn approve(
    h: &Handles<'_>,
    approver: &Approver<'_>,
    id: i64,
    effective_from: Option<&str>,
) -> Result<Publication, PublishError> {
    let now = h.now;
    let p = rule_proposals::by_id(h.pool, id)
        .await?
        .ok_or(PublishError::NoSuchProposal)?;
    let serving = rule_sets::newest(h.pool, now).await?.map(|s| s.hash);
    approvable(approver, &p, serving.as_deref())?;
    let effective_at = match effective_from.map(str::trim).filter(|t| !t.is_empty()) {
        None => now,
        Some(text) => {
            let at = governance::michigan_instant(text).ok_or(PublishError::NotATime)?;
            if at < now {
                return Err(PublishError::TimePassed);
            }
            at
        }
    };
    // The set is checked whole again (the operators' policy may have changed since).
    let files = rule_proposals::files(h.pool, id).await?.unwrap_or_default();
    let sources = rule_sets::sources(&files);
    let checked = h
        .drafts
        .run(move || rules::bundle_of(&sources).map(|b| b.engine.hash().to_string()))
        .await
        .map_err(|e| match e {
            ApiError::Busy {
                message,
                retry_after,
            } => PublishError::Busy {
                message,
                retry_after,
            },
            other => PublishError::Failed(anyhow::anyhow!("checking the set: {other}")),
        })?;
    let engine_hash = checked.map_err(|problems| {
        PublishError::DoesNotLoad(problems.iter().map(ToString::to_string).collect())
    })?;
    let who = &approver.actor;
    let mut tx = h.pool.begin().await?;
    if !rule_proposals::decide(&mut *tx, id, "approved", approver.user_id, None, now).await? {
        return Err(PublishError::Decided("decided".into()));
    }
    let publication = rule_sets::publish_in(
        &mut tx,
        &p.hash,
        &engine_hash,
        &files,
        &p.author,
        Some(&p.note),
        rule_sets::Effect {
            effective_at,
            proposal: Some(id),
            approver: Some(approver.email),
        },
    )
    .await?;
    let detail = governance::detail(&p.hash, &p.base_hash, &p.diff_hash);
    governance::record(&mut *tx, who, Action::RulesApproved, detail.clone(), now).await?;
    let (action, detail) = if effective_at > now {
        (
            Action::RulesScheduled,
            format!("{detail} from={}", effective_at.unix_timestamp()),
        )
    } else {
        (Action::RulesPublished, detail)
    };
    governance::record(&mut *tx, who, action, detail, now).await?;
    tx.commit().await?;
    if effective_at <= now && h.serves_published {
        rules::serve_newest(h.rules, h.pool, now).await?;
    }
    Ok(publication)
}

/// Why a proposal cannot be approved by this person or in this state, if it cannot.
fn approvable(
    approver: &Approver<'_>,
    p: &Proposal,
    serving: Option<&str>,
) -> Result<(), PublishError> {
    if p.state != "proposed" {
        return Err(PublishError::Decided(p.state.clone()));
    }
    if p.author_id == approver.user_id || approver.impersonator_id == Some(p.author_id) {
        return Err(PublishError::OwnProposal);
    }
    if !approver.may_approve {
        return Err(PublishError::NoPermission);
    }
    if serving != Some(p.base_hash.as_str()) {
        return Err(PublishError::ServingMoved);
    }
    let evidence = &p.evidence.0;
    let failed = evidence["scenarios"]["failed"]
        .as_array()
        .map_or(0, Vec::len);
    if failed > 0 {
        return Err(PublishError::ScenariosFail(failed));
    }
    if let Some(below) = evidence["coverage"]["below_floor"]
        .as_array()
        .filter(|b| !b.is_empty())
    {
        let said: Vec<&str> = below.iter().filter_map(|b| b.as_str()).collect();
        return Err(PublishError::BelowCoverageFloor(said.join("; ")));
    }
    Ok(())
}
