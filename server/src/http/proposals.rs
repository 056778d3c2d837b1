//! Proposals and their approval, for analysts and admins: a draft is proposed with a note (kept on
//! the server with its diff and evidence: the impact, the suites' result, the coverage); another
//! person with the approve permission approves it, at once or from a date and time in Michigan,
//! or rejects it with a reason; the author may withdraw it. A scheduled set is listed until it
//! takes effect and can be cancelled. Each step is audited with the set's, the base's and the
//! diff's hashes.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::actor_of;
use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use super::rule_sets::{Draft, ImpactRun, invalid, suite_diffs};
use crate::app::rule_sets::publish::{self, PublishError};
use crate::db::audit::Action;
use crate::db::rule_proposals::{self, Proposal};
use crate::db::rule_sets::{self, Publication};
use crate::governance::{self, FileDiff};
use crate::http::state::AppState;
use crate::rules;

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

/// How many proposals the list shows.
const LISTED: i64 = 50;

#[utoipa::path(get, path = "/api/admin/rules/proposals", tag = "workbench",
    responses((status = 200, description = "The proposals, newest first", body = Vec<Proposal>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn list_proposals(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<Proposal>>> {
    current.require_rules()?;
    Ok(Json(rule_proposals::list(&app.pool, LISTED).await?))
}

/// A proposal with its diff, file by file, against the set it was proposed over.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProposalDetail {
    pub proposal: Proposal,
    pub files: Vec<FileDiff>,
    /// The set serving now is not the one it was proposed over: it must be proposed again.
    pub serving_moved: bool,
}

async fn detail(app: &AppState, proposal: Proposal) -> ApiResult<ProposalDetail> {
    let proposed = rule_proposals::files(&app.pool, proposal.id)
        .await?
        .unwrap_or_default();
    let base = rule_sets::files(&app.pool, &proposal.base_hash)
        .await?
        .unwrap_or_default();
    let mut files = governance::diff(&rule_sets::sources(&base), &rule_sets::sources(&proposed));
    let suites = rule_proposals::suites(&app.pool, proposal.id).await?;
    if !suites.is_empty() {
        let server = rules::read_folders(&app.config.root, &[rules::SUITES])
            .map_err(|d| anyhow::anyhow!("{d}"))?;
        files.extend(suite_diffs(&server, &suites));
    }
    let serving = rule_sets::newest(&app.pool, app.clock.now())
        .await?
        .map(|p| p.hash);
    Ok(ProposalDetail {
        serving_moved: serving.as_deref() != Some(proposal.base_hash.as_str()),
        proposal,
        files,
    })
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
    let note = draft
        .note
        .as_deref()
        .map(str::trim)
        .unwrap_or_default()
        .to_string();
    if note.is_empty() || note.chars().count() > 2000 {
        return Err(ApiError::invalid(
            "note",
            vec!["Say what the change is and why, in at most 2,000 characters.".to_string()],
        ));
    }
    let files = super::rule_sets::draft_files(&app, &draft)?;
    let base_set = rule_sets::newest(&app.pool, app.clock.now())
        .await?
        .map(|p| p.hash)
        .ok_or_else(|| {
            ApiError::Conflict("No rule set is published yet: there is nothing to change.".into())
        })?;
    let run = ImpactRun::prepare(&app, &draft).await?;
    let server_suites = rules::read_folders(&app.config.root, &[rules::SUITES])
        .map_err(|d| anyhow::anyhow!("{d}"))?;
    let changes_of_suites = suite_diffs(&server_suites, &draft.suites);
    let changed_suites: Vec<rule_sets::File> = draft
        .suites
        .iter()
        .filter(|s| changes_of_suites.iter().any(|d| d.path == s.path))
        .cloned()
        .collect();
    let mut diffs = governance::diff(&run.base.files, &files);
    if diffs.is_empty() {
        return Err(invalid(vec![
            "The draft is the set serving now: there is nothing to propose.".to_string(),
        ]));
    }
    let suites = run.suites.clone();
    // The impact in the draft worker (it also finds a draft that does not load), then the
    // proposed set's suites and coverage on the draft thread.
    let impact = run.compare(&app, files.clone()).await?.map_err(invalid)?;
    let made = app
        .drafts
        .run(move || {
            let proposed = rules::bundle_of(&files)
                .map_err(|p| p.iter().map(ToString::to_string).collect::<Vec<_>>())?;
            let report = super::workbench::make_report(&proposed, &suites)
                .map_err(|e| vec![e.to_string()])?;
            let failed: Vec<_> = report
                .scenarios
                .iter()
                .filter(|s| !s.passed)
                .map(|s| json!({ "at": s.at, "name": s.name, "failures": s.failures }))
                .collect();
            let evidence = json!({
                "impact": impact,
                "scenarios": { "run": report.scenarios.len(), "failed": failed },
                "coverage": { "totals": report.coverage.totals, "below_floor": report.below_floor },
            });
            // The suites it changes are part of what the approver reads.
            diffs.extend(changes_of_suites);
            Ok((
                rules::set_hash(&files),
                proposed.engine.hash().to_string(),
                files,
                diffs,
                evidence,
            ))
        })
        .await?;
    let (hash, engine_hash, files, diffs, evidence) = made.map_err(invalid)?;
    let diff_hash = governance::diff_hash(&diffs);
    let kept: Vec<rule_sets::File> = files
        .iter()
        .map(|f| rule_sets::File {
            path: f.path.clone(),
            text: f.text.clone(),
        })
        .collect();
    let now = app.clock.now();
    let mut tx = app.pool.begin().await?;
    let id = rule_proposals::insert(
        &mut *tx,
        &rule_proposals::New {
            hash: &hash,
            engine_hash: &engine_hash,
            base_hash: &base_set,
            files: &kept,
            suites: &changed_suites,
            note: &note,
            diff_hash: &diff_hash,
            evidence: &evidence,
            author: current.user.id,
        },
        now,
    )
    .await?;
    governance::record(
        &mut *tx,
        &actor_of(&current, address, &headers),
        Action::RulesProposed,
        governance::detail(&hash, &base_set, &diff_hash),
        now,
    )
    .await?;
    tx.commit().await?;
    let proposal = rule_proposals::by_id(&app.pool, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the proposal just made is not there"))?;
    Ok(Json(ProposalDetail {
        proposal,
        files: diffs,
        serving_moved: false,
    }))
}

async fn proposal(app: &AppState, id: i64) -> ApiResult<Proposal> {
    rule_proposals::by_id(&app.pool, id)
        .await?
        .ok_or_else(|| ApiError::NotFound("No such proposal.".into()))
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
    let p = proposal(&app, id).await?;
    Ok(Json(detail(&app, p).await?))
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
    let handles = publish::Handles {
        pool: &app.pool,
        now: app.clock.now(),
        rules: &app.rules,
        drafts: &app.drafts,
        serves_published: app.config.rules_from_database,
    };
    let approver = publish::Approver {
        user_id: current.user.id,
        email: &current.user.email,
        impersonator_id: current.impersonator_id(),
        may_approve: current.user.may_approve_rules(),
        actor: actor_of(&current, address, &headers),
    };
    let publication =
        publish::approve(&handles, &approver, id, body.effective_from.as_deref()).await?;
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
            E::DoesNotLoad(problems) => invalid(problems),
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
    let reason = body.reason.trim();
    if reason.is_empty() || reason.chars().count() > 2000 {
        return Err(ApiError::invalid(
            "reason",
            vec!["Say why, in at most 2,000 characters: the author reads it.".to_string()],
        ));
    }
    let p = proposal(&app, id).await?;
    if p.author_id == current.user.id {
        return Err(ApiError::ForbiddenBecause(
            "You proposed this change: withdraw it instead.".into(),
        ));
    }
    if !current.user.may_approve_rules() {
        return Err(ApiError::ForbiddenBecause(
            "Rejecting a change needs the approve permission: ask an admin.".into(),
        ));
    }
    let decision = Decision {
        state: "rejected",
        reason: Some(reason),
        action: Action::RulesRejected,
    };
    let who = actor_of(&current, address, &headers);
    Ok(Json(decide(&app, &current, &who, &p, decision).await?))
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
    let p = proposal(&app, id).await?;
    if p.author_id != current.user.id {
        return Err(ApiError::ForbiddenBecause(
            "Only the author withdraws a proposal; others reject it with a reason.".into(),
        ));
    }
    let decision = Decision {
        state: "withdrawn",
        reason: None,
        action: Action::RulesWithdrawn,
    };
    let who = actor_of(&current, address, &headers);
    Ok(Json(decide(&app, &current, &who, &p, decision).await?))
}

/// A rejection or a withdrawal: its state, its reason and its audit action.
struct Decision<'a> {
    state: &'a str,
    reason: Option<&'a str>,
    action: Action,
}

/// Decides a proposal still `proposed` and audits it, in one transaction (409 when someone
/// decided it meanwhile).
async fn decide(
    app: &AppState,
    current: &CurrentUser,
    who: &governance::Actor,
    p: &Proposal,
    d: Decision<'_>,
) -> ApiResult<Proposal> {
    let now = app.clock.now();
    let mut tx = app.pool.begin().await?;
    if !rule_proposals::decide(&mut *tx, p.id, d.state, current.user.id, d.reason, now).await? {
        return Err(ApiError::Conflict(
            "This proposal was decided already.".into(),
        ));
    }
    governance::record(
        &mut *tx,
        who,
        d.action,
        governance::detail(&p.hash, &p.base_hash, &p.diff_hash),
        now,
    )
    .await?;
    tx.commit().await?;
    proposal(app, p.id).await
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
        rule_sets::scheduled(&app.pool, app.clock.now()).await?,
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
    if !current.user.may_approve_rules() {
        return Err(ApiError::ForbiddenBecause(
            "Cancelling a scheduled set needs the approve permission.".into(),
        ));
    }
    let now = app.clock.now();
    let pending = rule_sets::scheduled(&app.pool, now).await?;
    let Some(p) = pending.iter().find(|p| p.id == id) else {
        return Err(ApiError::NotFound(
            "Nothing is scheduled with that id: it took effect or was cancelled.".into(),
        ));
    };
    if !rule_sets::cancel(&app.pool, id, now).await? {
        return Err(ApiError::NotFound(
            "Nothing is scheduled with that id: it took effect or was cancelled.".into(),
        ));
    }
    governance::record(
        &app.pool,
        &actor_of(&current, address, &headers),
        Action::RulesScheduleCancelled,
        format!("set={} publication={id}", governance::short(&p.hash)),
        now,
    )
    .await?;
    Ok(Json(json!({ "cancelled": id })))
}
