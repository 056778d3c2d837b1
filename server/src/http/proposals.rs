//! Proposals and their approval, for analysts and admins: a draft is proposed with a note (kept on
//! the server with its diff and evidence: the impact, the suites' result, the coverage); another
//! person with the approve permission approves it, at once or from a date and time in Michigan,
//! or rejects it with a reason; the author may withdraw it. A scheduled set is listed until it
//! takes effect and can be cancelled. Each step is audited with the set's, the base's and the
//! diff's hashes.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::actor_of;
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::app::rule_sets::decide::{self, Decider};
use crate::app::rule_sets::draft::Draft;
use crate::app::rule_sets::propose::{self, ProposalDetail};
use crate::app::rule_sets::publish::{self, PublishError};
use crate::app::rule_sets::{Handles, Proposal, Publication, RuleSetError};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_proposals, propose_draft))
        .routes(routes!(proposal_detail))
        .routes(routes!(approve_proposal))
        .routes(routes!(reject_proposal))
        .routes(routes!(withdraw_proposal))
        .routes(routes!(scheduled_sets))
        .routes(routes!(cancel_scheduled))
}

/// The rule-set use cases' handles for a request.
pub(super) fn handles(app: &AppState) -> Handles<'_> {
    Handles {
        pool: &app.pool,
        now: app.clock.now(),
        rules: &app.rules,
        drafts: &app.drafts,
        serves_published: app.config.rules_from_database,
    }
}

/// The caller as a decider on rule sets.
pub(super) fn decider<'a>(
    current: &'a CurrentUser,
    address: Option<std::net::IpAddr>,
    headers: &HeaderMap,
) -> Decider<'a> {
    Decider {
        user_id: current.user.id,
        email: &current.user.email,
        may_approve: current.user.may_approve_rules(),
        actor: actor_of(current, address, headers),
    }
}

/// The answer to a step on the rule sets that was refused.
pub(super) fn refusal(e: RuleSetError) -> ApiError {
    match e {
        RuleSetError::NotFound(m) => ApiError::NotFound(m),
        RuleSetError::NotAllowed(m) => ApiError::ForbiddenBecause(m),
        RuleSetError::Conflict(m) => ApiError::Conflict(m),
        RuleSetError::Invalid { field, problems } => ApiError::invalid(field, problems),
        RuleSetError::Busy {
            message,
            retry_after,
        } => ApiError::Busy {
            message,
            retry_after,
        },
        RuleSetError::Failed(e) => e.into(),
    }
}

#[utoipa::path(get, path = "/api/admin/rules/proposals", tag = "workbench",
    responses((status = 200, description = "The proposals, newest first", body = Vec<Proposal>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn list_proposals(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<Proposal>>> {
    current.require_rules()?;
    Ok(Json(propose::list(&handles(&app)).await.map_err(refusal)?))
}

#[utoipa::path(post, path = "/api/admin/rules/proposals", tag = "workbench",
    request_body = Draft,
    responses((status = 200, description = "Proposed: kept with its diff and evidence until someone else approves or rejects it", body = ProposalDetail),
              (status = 403, description = "Not an analyst or an admin"),
              (status = 422, description = "`{errors: {files | note: [...]}}`: the draft does not load, changes nothing, or has no note"),
              (status = 429, description = "An impact is running on this instance (`Retry-After`)")))]
async fn propose_draft(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Json(draft): Json<Draft>,
) -> ApiResult<Json<ProposalDetail>> {
    current.require_rules()?;
    let author = (current.user.id, &actor_of(&current, address, &headers));
    let (root, budget) = (&app.config.root, app.config.impact_budget());
    let detail = propose::propose(&handles(&app), root, budget, &draft, author)
        .await
        .map_err(refusal)?;
    Ok(Json(detail))
}

#[utoipa::path(get, path = "/api/admin/rules/proposals/{id}", tag = "workbench",
    params(("id" = i64, Path, description = "The proposal")),
    responses((status = 200, description = "The proposal with its diff file by file and its evidence", body = ProposalDetail),
              (status = 403, description = "Not an analyst or an admin"),
              (status = 404, description = "No such proposal")))]
async fn proposal_detail(
    State(app): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ProposalDetail>> {
    current.require_rules()?;
    let detail = propose::detail(&handles(&app), &app.config.root, id)
        .await
        .map_err(refusal)?;
    Ok(Json(detail))
}

/// An approval: at once, or from a date and time in Michigan.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct Approval {
    /// `YYYY-MM-DDTHH:MM` on Michigan's clock (or RFC 3339); at once when absent.
    #[serde(default)]
    pub effective_from: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/rules/proposals/{id}/approve", tag = "workbench",
    params(("id" = i64, Path, description = "The proposal")),
    request_body = Approval,
    responses((status = 200, description = "Approved and published: serving at once, or scheduled", body = Publication),
              (status = 403, description = "The author, or no approve permission"),
              (status = 404, description = "No such proposal"),
              (status = 409, description = "Decided already, a scenario fails, coverage below the floor, or the set serving changed since"),
              (status = 422, description = "The effective date is not a date and time, or is past")))]
async fn approve_proposal(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Json(body): Json<Approval>,
) -> ApiResult<Json<Publication>> {
    current.require_rules()?;
    let approver = publish::Approver {
        user_id: current.user.id,
        email: &current.user.email,
        impersonator_id: current.impersonator_id(),
        may_approve: current.user.may_approve_rules(),
        actor: actor_of(&current, address, &headers),
    };
    let publication = publish::approve(
        &handles(&app),
        &approver,
        id,
        body.effective_from.as_deref(),
    )
    .await?;
    Ok(Json(publication))
}

impl From<PublishError> for ApiError {
    fn from(e: PublishError) -> Self {
        use PublishError as E;
        match e {
            E::NoSuchProposal => ApiError::NotFound(e.to_string()),
            E::Decided(_) | E::ServingMoved | E::ScenariosFail(_) | E::BelowCoverageFloor(_) => {
                ApiError::Conflict(e.to_string())
            }
            E::OwnProposal | E::NoPermission => ApiError::ForbiddenBecause(e.to_string()),
            E::NotATime | E::TimePassed => ApiError::invalid("effective_from", vec![e.to_string()]),
            E::DoesNotLoad(problems) => ApiError::invalid("files", problems),
            E::Busy {
                message,
                retry_after,
            } => ApiError::Busy {
                message,
                retry_after,
            },
            E::Failed(e) => e.into(),
        }
    }
}

/// A rejection and its reason.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Rejection {
    pub reason: String,
}

#[utoipa::path(post, path = "/api/admin/rules/proposals/{id}/reject", tag = "workbench",
    params(("id" = i64, Path, description = "The proposal")),
    request_body = Rejection,
    responses((status = 200, description = "Rejected", body = Proposal),
              (status = 403, description = "The author, or no approve permission"),
              (status = 409, description = "Decided already"),
              (status = 422, description = "No reason given")))]
async fn reject_proposal(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Json(body): Json<Rejection>,
) -> ApiResult<Json<Proposal>> {
    current.require_rules()?;
    let by = decider(&current, address, &headers);
    let p = decide::reject(&handles(&app), &by, id, &body.reason)
        .await
        .map_err(refusal)?;
    Ok(Json(p))
}

#[utoipa::path(post, path = "/api/admin/rules/proposals/{id}/withdraw", tag = "workbench",
    params(("id" = i64, Path, description = "The proposal")),
    responses((status = 200, description = "Withdrawn by its author", body = Proposal),
              (status = 403, description = "Not the author"),
              (status = 409, description = "Decided already")))]
async fn withdraw_proposal(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult<Json<Proposal>> {
    current.require_rules()?;
    let by = decider(&current, address, &headers);
    let p = decide::withdraw(&handles(&app), &by, id)
        .await
        .map_err(refusal)?;
    Ok(Json(p))
}

#[utoipa::path(get, path = "/api/admin/rules/scheduled", tag = "workbench",
    responses((status = 200, description = "Approved sets that take effect later, soonest first", body = Vec<Publication>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn scheduled_sets(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<Publication>>> {
    current.require_rules()?;
    Ok(Json(
        decide::scheduled(&handles(&app)).await.map_err(refusal)?,
    ))
}

#[utoipa::path(post, path = "/api/admin/rules/scheduled/{id}/cancel", tag = "workbench",
    params(("id" = i64, Path, description = "The publication")),
    responses((status = 200, description = "Cancelled: it will not take effect"),
              (status = 403, description = "No approve permission"),
              (status = 404, description = "Nothing scheduled with that id (it took effect, or was cancelled)")))]
async fn cancel_scheduled(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult<Json<serde_json::Value>> {
    current.require_rules()?;
    let by = decider(&current, address, &headers);
    decide::cancel_scheduled(&handles(&app), &by, id)
        .await
        .map_err(refusal)?;
    Ok(Json(json!({ "cancelled": id })))
}
