//! Published rule sets, for analysts and admins: the history of publications, publishing a
//! draft (every file of `rules/`, `forms/` and `templates/`, checked whole first), and serving an
//! earlier set again. Instances serving from the database (`--rules-from-database`) switch when
//! the publication's notification arrives.
//!
//! The calls: `GET /api/admin/rules/sets`, `POST …/publish` (a draft's files, refused whole with
//! file:line problems), `POST …/rollback`, and the impact; the CLI has `publish`, `rollback` and
//! `rule-sets`. Each set is kept with its engine hash. `server/tests/api/rule_sets.rs`: two
//! instances switch and roll back, a broken draft changes nothing, an application replays under the
//! set it was saved with.

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::http::HeaderMap;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::host::ClientAddress;
use crate::db::rule_sets::{self, Publication};
use crate::http::state::AppState;
use crate::rules;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(history))
        .routes(routes!(rollback))
        .routes(routes!(impact))
}

/// How many publications the history lists.
const HISTORY: i64 = 50;

#[utoipa::path(get, path = "/api/admin/rules/sets", tag = "admin",
    responses((status = 200, description = "The publications, newest first (the first is serving)", body = Vec<Publication>),
              (status = 403, description = "Not an analyst or an admin")))]
async fn history(
    State(app): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<Vec<Publication>>> {
    current.require_rules()?;
    Ok(Json(rule_sets::history(&app.pool, HISTORY).await?))
}

/// A draft set: every file, its path relative to the repository root (`rules/…`, `forms/…`,
/// `templates/…`); or, instead of files, a git revision of the server's checkout (`rev`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct Draft {
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub files: Vec<rule_sets::File>,
    /// A git revision (a commit, tag or branch) of the folder the server serves from.
    #[serde(default)]
    pub rev: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
    /// How many made-up households an impact walks (1,000 unless given; at most 5,000).
    #[serde(default)]
    pub households: Option<usize>,
    /// The day the made-up households apply on (YYYY-MM-DD): "as of" a date, such as the first
    /// day of a set scheduled ahead; the server's today when absent.
    #[serde(default)]
    pub as_of: Option<String>,
    /// Scenario suites the draft changes or adds (`tests/scenarios/….yaml`): a change of premium
    /// comes with the expectations it changes. The others are the server's.
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub suites: Vec<rule_sets::File>,
}

/// The day a draft's made-up households apply on: its `as_of`, or the server's today.
pub(super) fn draft_day(app: &AppState, draft: &Draft) -> ApiResult<time::Date> {
    match draft
        .as_of
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        None => Ok(app.clock.today()),
        Some(d) => enrollflow_engine::dates::parse(d).ok_or_else(|| {
            ApiError::invalid("as_of", vec![format!("`{d}` is not a date (YYYY-MM-DD).")])
        }),
    }
}

/// The scenario suites a draft is checked with: the server's, each replaced or joined by the
/// draft's own; refused when one of the draft's is not a suite's path.
pub(super) fn draft_suites(
    app: &AppState,
    draft: &Draft,
) -> ApiResult<Vec<enrollflow_engine::Source>> {
    let mut suites = rules::read_folders(&app.config.root, &[rules::SUITES])
        .map_err(|d| anyhow::anyhow!("{d}"))?;
    for s in &draft.suites {
        let plain = s.path.starts_with(&format!("{}/", rules::SUITES))
            && s.path.ends_with(".yaml")
            && crate::protected::plain_path(&s.path);
        if !plain {
            return Err(invalid(vec![format!(
                "{}: a draft's suites are YAML files under {}/",
                s.path,
                rules::SUITES
            )]));
        }
        let source = enrollflow_engine::Source::new(s.path.clone(), s.text.clone());
        match suites.iter_mut().find(|k| k.path == s.path) {
            Some(kept) => *kept = source,
            None => suites.push(source),
        }
    }
    Ok(suites)
}

/// The draft's files: the ones sent, or those of the git revision named.
pub(super) fn draft_files(
    app: &AppState,
    draft: &Draft,
) -> ApiResult<Vec<enrollflow_engine::Source>> {
    let Some(rev) = draft
        .rev
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
    else {
        if let Some(p) = draft_problem(draft) {
            return Err(invalid(vec![p]));
        }
        return Ok(rule_sets::sources(&draft.files));
    };
    // A revision git reads as a name, never as an option.
    let plain = rev.len() <= 100
        && !rev.starts_with('-')
        && rev
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/~^-".contains(c));
    if !plain {
        return Err(invalid(vec![format!("`{rev}` is not a git revision.")]));
    }
    crate::impact::set_at_revision(&app.config.root, rev).map_err(|e| invalid(vec![e.to_string()]))
}

/// The most files and bytes a draft may hold.
const MAX_FILES: usize = 2_000;
const MAX_BYTES: usize = 16 * 1024 * 1024;

/// What is wrong with a draft before it is read: no files, too many or too large, or a path
/// outside the analysts' (`protected::not_analysts`, which every load checks again).
fn draft_problem(draft: &Draft) -> Option<String> {
    let bytes: usize = draft.files.iter().map(|f| f.text.len()).sum();
    match () {
        _ if draft.files.is_empty() => Some("The draft has no files.".to_string()),
        _ if draft.files.len() > MAX_FILES || bytes > MAX_BYTES => {
            Some("The draft is too large.".to_string())
        }
        _ => draft.files.iter().find_map(|f| {
            crate::protected::not_analysts(&f.path).map(|why| format!("{}: {why}", f.path))
        }),
    }
}

pub(super) fn invalid(problems: Vec<String>) -> ApiError {
    ApiError::invalid("files", problems)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct Rollback {
    /// The earlier set's hash (or the start of it, naming one set).
    pub hash: String,
}

#[utoipa::path(post, path = "/api/admin/rules/rollback", tag = "admin",
    request_body = Rollback,
    responses((status = 200, description = "That set serves again on every instance serving from the database (an emergency: one approver's action)", body = Publication),
              (status = 403, description = "No approve permission"),
              (status = 404, description = "No single published set has that hash")))]
async fn rollback(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Json(body): Json<Rollback>,
) -> ApiResult<Json<Publication>> {
    current.require_rules()?;
    if !current.user.may_approve_rules() {
        return Err(ApiError::ForbiddenBecause(
            "Rolling back needs the approve permission: ask an approver or an admin.".into(),
        ));
    }
    let hash = body.hash.trim();
    if hash.len() < 6 || !hash.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(ApiError::NotFound(
            "No published rule set has that hash.".into(),
        ));
    }
    let now = app.clock.now();
    let from = app.rules.status().serving_set.clone().unwrap_or_default();
    let p = rule_sets::rollback(&app.pool, hash, &current.user.email, now)
        .await?
        .ok_or_else(|| ApiError::NotFound("No published rule set has that hash.".into()))?;
    crate::governance::record(
        &app.pool,
        &super::audit::actor_of(&current, address, &headers),
        crate::db::audit::Action::RulesRolledBack,
        format!(
            "set={} from={}",
            crate::governance::short(&p.hash),
            crate::governance::short(&from)
        ),
        now,
    )
    .await?;
    serve_it_here(&app).await?;
    Ok(Json(p))
}

/// An instance serving the published sets switches before it answers the publication (the others
/// switch on its notification): the analyst's next request, and the consumers' on this instance,
/// see the set that was just published.
async fn serve_it_here(app: &AppState) -> ApiResult<()> {
    if app.config.rules_from_database {
        rules::serve_newest(&app.rules, &app.pool, app.clock.now()).await?;
    }
    Ok(())
}

/// How many of the most recently saved applications an impact replays.
pub(super) const IMPACT_APPLICATIONS: i64 = 200;

#[utoipa::path(post, path = "/api/admin/rules/impact", tag = "admin",
    request_body = Draft,
    responses((status = 200, description = "What the draft changes against the rules serving now: the scenario suites and made-up households with their values, and of the most recent stored applications only counts in the serving set's words (no answer, nor any value a rule computed from one, leaves the server)", body = crate::impact::Report),
              (status = 403, description = "Not an analyst or an admin"),
              (status = 422, description = "`{errors: {files: [...]}}`: the draft does not load, or the impact ran past its budget"),
              (status = 429, description = "Another impact is running on this instance (`Retry-After`)")))]
async fn impact(
    State(app): State<AppState>,
    current: CurrentUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Json(draft): Json<Draft>,
) -> ApiResult<Json<crate::impact::Report>> {
    current.require_rules()?;
    let files = draft_files(&app, &draft)?;
    let run = ImpactRun::prepare(&app, &draft).await?;
    let report = run.compare(&app, files).await?.map_err(invalid)?;
    crate::governance::record(
        &app.pool,
        &super::audit::actor_of(&current, address, &headers),
        crate::db::audit::Action::RulesImpactRun,
        format!(
            "draft={} base={}",
            crate::governance::short(&report.against),
            crate::governance::short(&report.base)
        ),
        app.clock.now(),
    )
    .await?;
    Ok(Json(report))
}

/// What an impact of a draft is worked out from, gathered on the request (the database, the
/// files) before the work goes to the draft thread; it holds this instance's impact turn until
/// it is dropped, even when the analyst stops waiting.
pub(super) struct ImpactRun {
    _turn: crate::drafts::ImpactTurn,
    stored: Vec<crate::impact::Stored>,
    pub(super) suites: Vec<enrollflow_engine::Source>,
    pub(super) base: std::sync::Arc<rules::Bundle>,
    mix: crate::demo_data::Mix,
    households: usize,
    today: time::Date,
    budget: crate::budget::Budget,
}

impl ImpactRun {
    /// Takes the instance's impact turn (429 when one runs) and reads what the run needs.
    pub(super) async fn prepare(app: &AppState, draft: &Draft) -> ApiResult<Self> {
        let turn = app.drafts.impact_turn()?;
        let suites = draft_suites(app, draft)?;
        let today = draft_day(app, draft)?;
        let stored = crate::impact::recent_applications(&app.pool, IMPACT_APPLICATIONS).await?;
        let base = app.rules.current();
        let mix = crate::impact::book_mix(&app.pool, base.engine.catalog()).await?;
        Ok(ImpactRun {
            _turn: turn,
            stored,
            suites,
            base,
            mix,
            households: draft
                .households
                .unwrap_or(IMPACT_HOUSEHOLDS)
                .min(MAX_HOUSEHOLDS),
            today,
            budget: crate::budget::Budget::new(app.config.impact_budget()),
        })
    }

    /// The impact of `draft` against the serving set, worked out in the draft worker: the
    /// suites, the made-up households and the stored applications (counted only); the problems
    /// otherwise. The instance's impact turn is held until it answers.
    pub(super) async fn compare(
        mut self,
        app: &AppState,
        draft: Vec<enrollflow_engine::Source>,
    ) -> ApiResult<Result<crate::impact::Report, Vec<String>>> {
        let job = crate::draft_worker::Job {
            base: self.base.files.clone(),
            draft,
            suites: std::mem::take(&mut self.suites),
            stored: std::mem::take(&mut self.stored),
            mix: std::mem::take(&mut self.mix),
            households: self.households,
            today: self.today.to_string(),
            budget_ms: u64::try_from(self.budget.remaining().as_millis()).unwrap_or(u64::MAX),
            budget_of_secs: self.budget.of().as_secs(),
        };
        let answer = app.drafts.impact(job).await;
        drop(self);
        answer
    }
}

/// The diffs of the scenario suites a draft changes, against the server's.
pub(super) fn suite_diffs(
    server: &[enrollflow_engine::Source],
    theirs: &[rule_sets::File],
) -> Vec<crate::governance::FileDiff> {
    let changed = rule_sets::sources(theirs);
    let before: Vec<enrollflow_engine::Source> = server
        .iter()
        .filter(|s| changed.iter().any(|c| c.path == s.path))
        .cloned()
        .collect();
    crate::governance::diff(&before, &changed)
}

/// How many made-up households an impact walks, unless the draft asks for another number.
pub(super) const IMPACT_HOUSEHOLDS: usize = 1_000;
pub(super) const MAX_HOUSEHOLDS: usize = 5_000;
