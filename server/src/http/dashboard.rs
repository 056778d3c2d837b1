//! The agent dashboard's Quoting and Submissions lists and their Excel exports (spec part 2,
//! sections 2, 3, 4, 7 and 9): `GET /api/dashboard/quotes`, `/enrollees`, `/quotesExport`,
//! `/enrolleesExport`, and an application's replay (`/scenario/{id}`). Only the logged-in agent's
//! own applications (an admin acting as an agent is that agent).
//!
//! Here: the lists' query (the spec's sort rules, 12 a page, the period, search and filters) and
//! the answers. The pages, the workbooks and the replays are the use cases' (`app/dashboard/`);
//! the workbook is sent from its temporary file in chunks, so memory stays flat.

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use tokio_util::io::ReaderStream;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use crate::app::applying::handoff::Handoff;
use crate::app::dashboard::export::{self, ExportError};
use crate::app::dashboard::scenario::{self, ScenarioError};
use crate::app::dashboard::{Filter, List, ListRow, Slice, SortCol, StartedBy, lists};
use crate::http::state::AppState;
use enrollflow_engine::catalog::PlanKind;

/// Rows on a list page (spec part 2, section 9).
pub const PAGE_SIZE: i64 = 12;
const MAX_PAGE_SIZE: i64 = 100;
/// The period choices in days; the first is the default.
const PERIODS: [i64; 3] = [60, 180, 365];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(quotes))
        .routes(routes!(enrollees))
        .routes(routes!(quotes_export))
        .routes(routes!(enrollees_export))
        .routes(routes!(scenario))
}

/// The list's query, parsed from the spec's parameters (`filterProduct` may repeat, as
/// `filterProduct` or `filterProduct[]`, or hold a comma-separated list).
#[derive(Debug)]
struct ListQuery {
    page: i64,
    per_page: i64,
    sort: SortCol,
    asc: bool,
    days: i64,
    search: Option<String>,
    products: Vec<PlanKind>,
    subdomain: Option<String>,
    started_by: Option<StartedBy>,
}

fn bad(msg: &str) -> ApiError {
    ApiError::BadRequest(msg.to_string())
}

fn parse_query(list: List, raw: Option<&str>) -> ApiResult<ListQuery> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(raw.unwrap_or("")).map_err(|_| bad("Bad query string."))?;
    let mut q = ListQuery {
        page: 1,
        per_page: PAGE_SIZE,
        sort: match list {
            List::Quotes => SortCol::LastName,
            List::Enrollees => SortCol::SubmissionTime,
        },
        asc: false,
        days: PERIODS[0],
        search: None,
        products: Vec::new(),
        subdomain: None,
        started_by: None,
    };
    let mut asc = None;
    for (k, v) in pairs {
        match k.as_str() {
            "page" => {
                q.page = v
                    .parse::<i64>()
                    .ok()
                    .filter(|p| *p >= 1)
                    .ok_or_else(|| bad("page must be a positive number."))?
            }
            "resultsPerPage" => {
                q.per_page = v
                    .parse::<i64>()
                    .ok()
                    .filter(|p| (1..=MAX_PAGE_SIZE).contains(p))
                    .ok_or_else(|| bad("resultsPerPage must be from 1 to 100."))?
            }
            "sortCol" => {
                q.sort = match (list, v.as_str()) {
                    (_, "last_name") => SortCol::LastName,
                    (_, "effective_date") => SortCol::EffectiveDate,
                    (List::Quotes, "created_at") => SortCol::CreatedAt,
                    (List::Enrollees, "submission_time") => SortCol::SubmissionTime,
                    _ => return Err(bad("Unknown sortCol.")),
                }
            }
            "sortOrderAsc" => {
                asc = Some(match v.as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => return Err(bad("sortOrderAsc must be true or false.")),
                })
            }
            "daysToShow" => {
                q.days = v
                    .parse::<i64>()
                    .ok()
                    .filter(|d| PERIODS.contains(d))
                    .ok_or_else(|| bad("daysToShow must be 60, 180 or 365."))?
            }
            "searchName" => q.search = Some(v),
            "filterProduct" | "filterProduct[]" => {
                for p in v.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    let kind: PlanKind = p
                        .parse()
                        .map_err(|_| bad("filterProduct must be medical, dental or vision."))?;
                    if !q.products.contains(&kind) {
                        q.products.push(kind);
                    }
                }
            }
            // "All" (or nothing) is every site; the caller checks the site is the agent's.
            "filterSubdomain" => {
                let v = v.trim();
                q.subdomain =
                    (!v.is_empty() && !v.eq_ignore_ascii_case("all")).then(|| v.to_string());
            }
            "filterStartedBy" if list == List::Quotes => {
                q.started_by = match v.trim() {
                    "" | "all" => None,
                    "agent" => Some(StartedBy::Agent),
                    "consumer" => Some(StartedBy::Consumer),
                    _ => return Err(bad("filterStartedBy must be agent or consumer.")),
                }
            }
            // Other keys are ignored.
            _ => {}
        }
    }
    // Without a direction, the column's own: names ascending, dates newest first.
    q.asc = asc.unwrap_or(q.sort == SortCol::LastName);
    Ok(q)
}

fn filter(app: &AppState, agent_id: Uuid, q: &ListQuery) -> Filter {
    Filter {
        agent_id,
        since: app.clock.now() - Duration::days(q.days),
        search: q.search.clone(),
        products: q.products.clone(),
        subdomain: q.subdomain.clone(),
        started_by: q.started_by,
    }
}

/// The list's query for this agent: a site filter must name one of the agent's sites.
async fn agent_query(
    app: &AppState,
    agent_id: Uuid,
    list: List,
    raw: Option<&str>,
) -> ApiResult<(ListQuery, Vec<String>)> {
    let q = parse_query(list, raw)?;
    // The agent's sites, the shared one first.
    let sites = lists::agent_sites(&app.pool, agent_id).await?;
    if let Some(s) = &q.subdomain
        && !sites.contains(s)
    {
        return Err(bad("filterSubdomain must be one of your sites."));
    }
    Ok((q, sites))
}

/// One row of either list (spec part 2, section 3: quote row and enrollee row).
#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardRow {
    pub application_id: Uuid,
    pub first_name: String,
    pub last_name: String,
    /// First and last name of the subscriber.
    pub primary_name: String,
    pub full_name: String,
    pub sub_email: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// Set on submissions only.
    #[serde(with = "time::serde::rfc3339::option")]
    pub submission_time: Option<OffsetDateTime>,
    /// YYYY-MM-DD.
    pub effective_date: Option<String>,
    pub enrollment_period_type_id: Option<i16>,
    /// `OEP` when the enrollment period type is 1, else `SEP`.
    pub period_badge: &'static str,
    /// 1 + dependents + 1 with a spouse.
    pub contract_count: i32,
    pub dependents_count: i32,
    pub has_spouse: bool,
    /// The step an Enroll resumes at.
    pub last_application_step_type_id: i16,
    pub agent_started: bool,
    /// The user who started an agent-started application.
    pub started_by: Option<String>,
    pub medical_product_id: Option<String>,
    pub medical_plan_name: Option<String>,
    pub dental_product_id: Option<String>,
    pub dental_plan_name: Option<String>,
    pub vision_product_id: Option<String>,
    pub vision_plan_name: Option<String>,
    /// The site the application was started on.
    pub subdomain: Option<String>,
    /// The medical plan's summary of benefits and coverage (View Medical SBC).
    pub sbc_url: Option<String>,
    /// The newest "Send to customer" hand-off, if the agent sent one.
    pub handoff: Option<Handoff>,
}

impl From<ListRow> for DashboardRow {
    fn from(r: ListRow) -> Self {
        let primary_name = r.primary_name();
        let (period_badge, contract_count) = (r.period_badge(), r.contract_count());
        DashboardRow {
            application_id: r.id,
            full_name: primary_name.clone(),
            primary_name,
            first_name: r.first_name,
            last_name: r.last_name,
            sub_email: r.email,
            created_at: r.created_at,
            updated_at: r.updated_at,
            submission_time: r.submission_time,
            effective_date: r.effective_date.map(|d| d.to_string()),
            enrollment_period_type_id: r.enrollment_period_type_id,
            period_badge,
            contract_count,
            dependents_count: r.dependents,
            has_spouse: r.has_spouse,
            last_application_step_type_id: r.last_step,
            agent_started: r.agent_started,
            started_by: r.started_by,
            medical_product_id: r.medical_product_id,
            medical_plan_name: r.medical_plan_name,
            dental_product_id: r.dental_product_id,
            dental_plan_name: r.dental_plan_name,
            vision_product_id: r.vision_product_id,
            vision_plan_name: r.vision_plan_name,
            subdomain: r.subdomain,
            sbc_url: r.sbc_url,
            handoff: None,
        }
    }
}

/// A list page.
#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardPage {
    /// Rows matching the filters (the total badge).
    pub total: i64,
    pub page: i64,
    /// The number of pages (0 with no rows).
    pub pages: i64,
    pub rows: Vec<DashboardRow>,
    /// The agent's sites (the Site filter is shown with more than one).
    pub subdomains: Vec<String>,
}

async fn list_page(
    app: &AppState,
    user: &CurrentUser,
    list: List,
    raw: Option<&str>,
) -> ApiResult<Json<DashboardPage>> {
    let agent_id = user.dashboard_agent()?;
    let (q, subdomains) = agent_query(app, agent_id, list, raw).await?;
    let f = filter(app, agent_id, &q);
    let offset = (q.page - 1).saturating_mul(q.per_page);
    let slice = Slice {
        sort: q.sort,
        asc: q.asc,
        limit: q.per_page,
        offset,
    };
    let handles = crate::app::applying::Handles::of(app);
    let lists::Page { total, rows } = lists::page(&handles, list, &f, slice).await?;
    let rows = rows
        .into_iter()
        .map(|(r, handoff)| DashboardRow {
            handoff,
            ..DashboardRow::from(r)
        })
        .collect();
    Ok(Json(DashboardPage {
        total,
        page: q.page,
        pages: (total + q.per_page - 1) / q.per_page,
        rows,
        subdomains,
    }))
}

#[utoipa::path(get, path = "/api/dashboard/quotes", tag = "dashboard",
    description = "The agent's quotes (not submitted). Query: page, resultsPerPage (12), sortCol \
                   (last_name default, created_at, effective_date), sortOrderAsc, daysToShow \
                   (60, 180, 365), searchName, filterProduct (repeatable: medical, dental, vision), \
                   filterSubdomain (one of the agent's sites), filterStartedBy (agent, consumer).",
    responses((status = 200, body = DashboardPage), (status = 403), (status = 419)))]
async fn quotes(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<DashboardPage>> {
    list_page(&app, &user, List::Quotes, raw.as_deref()).await
}

#[utoipa::path(get, path = "/api/dashboard/enrollees", tag = "dashboard",
    description = "The agent's submissions. Query: page, resultsPerPage (12), sortCol \
                   (submission_time default, last_name, effective_date), sortOrderAsc, daysToShow \
                   (60, 180, 365), searchName, filterProduct (repeatable: medical, dental, vision), \
                   filterSubdomain (one of the agent's sites).",
    responses((status = 200, body = DashboardPage), (status = 403), (status = 419)))]
async fn enrollees(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<DashboardPage>> {
    list_page(&app, &user, List::Enrollees, raw.as_deref()).await
}

#[utoipa::path(get, path = "/api/dashboard/quotesExport", tag = "dashboard",
    description = "Every quote matching the list's filters and sort as Exported_Quotes.xlsx.",
    responses((status = 200, description = "The workbook", body = super::wire::BinaryFile, content_type =
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 403), (status = 419)))]
async fn quotes_export(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    export(&app, &user, List::Quotes, raw.as_deref()).await
}

#[utoipa::path(get, path = "/api/dashboard/enrolleesExport", tag = "dashboard",
    description = "Every submission matching the list's filters and sort as Exported_Enrollees.xlsx.",
    responses((status = 200, description = "The workbook", body = super::wire::BinaryFile, content_type =
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        (status = 403), (status = 419)))]
async fn enrollees_export(
    State(app): State<AppState>,
    user: CurrentUser,
    RawQuery(raw): RawQuery,
) -> ApiResult<Response> {
    export(&app, &user, List::Enrollees, raw.as_deref()).await
}

async fn export(
    app: &AppState,
    user: &CurrentUser,
    list: List,
    raw: Option<&str>,
) -> ApiResult<Response> {
    let agent_id = user.dashboard_agent()?;
    let (q, _) = agent_query(app, agent_id, list, raw).await?;
    let f = filter(app, agent_id, &q);
    let steps: Vec<(i16, String)> = app
        .rules
        .current()
        .engine
        .steps()
        .map(|s| (i16::from(s.number), s.title.clone()))
        .collect();
    let file = export::workbook_file(&app.pool, list, &f, (q.sort, q.asc), steps)
        .await
        .map_err(|e| match e {
            ExportError::Failed(e) => ApiError::from(e),
        })?;
    let length = file
        .metadata()
        .map_err(|e| ApiError::Internal(e.into()))?
        .len();
    let body = Body::from_stream(ReaderStream::with_capacity(
        tokio::fs::File::from_std(file),
        64 * 1024,
    ));
    let name = export::file_name(list);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
            (header::CONTENT_LENGTH, length.to_string()),
        ],
        body,
    )
        .into_response())
}

/// Which rules a replay runs under.
#[derive(Debug, Deserialize, IntoParams)]
pub struct ReplayUnder {
    /// `saved`: the published rule set the application was last saved under (its engine hash);
    /// otherwise the rules serving now.
    #[serde(default)]
    pub rules: Option<String>,
}

#[utoipa::path(get, path = "/api/dashboard/scenario/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "One of the agent's applications"), ReplayUnder),
    responses((status = 200, content_type = "application/yaml",
               description = "A scenario suite (YAML) replaying the application's steps, every personal detail made up, each outcome the expectation; `X-Rules-Hash` names the rules it ran under"),
              (status = 403), (status = 404, description = "No such application, or (`rules=saved`) its rule set was never published")))]
async fn scenario(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
    Query(under): Query<ReplayUnder>,
) -> ApiResult<Response> {
    let agent_id = user.dashboard_agent()?;
    let saved = under.rules.as_deref() == Some("saved");
    let replayed = scenario::replay(&app.pool, &app.rules, agent_id, id, saved)
        .await
        .map_err(|e| match e {
            ScenarioError::NotFound
            | ScenarioError::NeverPublished
            | ScenarioError::NoLongerLoads
            | ScenarioError::NoRulesRecorded => ApiError::NotFound(e.to_string()),
            ScenarioError::Rules(e) => super::error::eval_error(e),
            ScenarioError::Failed(e) => e.into(),
        })?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/yaml; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"application-scenario.yaml\"".to_string(),
            ),
            (
                header::HeaderName::from_static(RULES_HASH),
                replayed.rules_hash,
            ),
        ],
        replayed.yaml,
    )
        .into_response())
}

/// The header naming the engine hash of the rules a replay ran under.
const RULES_HASH: &str = "x-rules-hash";
