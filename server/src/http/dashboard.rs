//! The agent dashboard's Quoting and Submissions lists and their Excel exports (spec part 2,
//! sections 2, 3, 4, 7 and 9): `GET /api/dashboard/quotes`, `/enrollees`, `/quotesExport`,
//! `/enrolleesExport`. Only the logged-in agent's own applications (an admin acting as an agent is
//! that agent); filtering, sorting and paging happen in SQL (`db::dashboard`).
//!
//! - The lists: the spec's sort rules, 12 a page. Anything named by id (More Info, Enroll) that is
//!   not the agent's is 404.
//! - The exports (rust_xlsxwriter): real dates, times in Michigan time (America/Detroit, jiff's
//!   bundled zone data), the last step by its title, user text only as strings. Rows stream from
//!   PostgreSQL through a bounded channel into the constant-memory writer; the workbook is saved to
//!   an unnamed temporary file and sent from it in chunks, so the server's memory stays flat
//!   whatever the export's size.

use std::io::{Seek, SeekFrom, Write};

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, Worksheet, XlsxError};
use serde::{Deserialize, Serialize};
use time::{Date, Duration, OffsetDateTime};
use tokio_util::io::ReaderStream;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use crate::db::agents;
use crate::db::dashboard::{self as db, Filter, List, ListRow, SortCol, StartedBy};
use crate::http::state::AppState;
use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::summary::Summary;
use enrollflow_engine_tools::replay;

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
    let sites = agents::by_id(&app.pool, agent_id)
        .await?
        .map(|a| a.subdomains)
        .unwrap_or_default();
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
    pub handoff: Option<crate::app::applying::handoff::Handoff>,
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

/// Rows of applications handed to their customer show, as More Info does, only what the agent had
/// entered when the customer opened the link: a name or e-mail the customer gave since is masked.
async fn mask_handed_off(app: &AppState, rows: &mut [ListRow]) -> ApiResult<()> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    for (id, at) in crate::db::links::summaries_at_handoff(&app.pool, &ids).await? {
        let entered: Summary = serde_json::from_value(at).unwrap_or_default();
        if let Some(r) = rows.iter_mut().find(|r| r.id == id) {
            crate::crypto::mask_unless(&mut r.first_name, entered.first_name.as_deref());
            crate::crypto::mask_unless(&mut r.last_name, entered.last_name.as_deref());
            crate::crypto::mask_unless(&mut r.email, entered.email.as_deref());
        }
    }
    Ok(())
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
    let slice = db::Slice {
        sort: q.sort,
        asc: q.asc,
        limit: q.per_page,
        offset,
    };
    let (total, mut rows) = db::page(&app.pool, list, &f, slice).await?;
    mask_handed_off(app, &mut rows).await?;
    let mut rows: Vec<DashboardRow> = rows.into_iter().map(DashboardRow::from).collect();
    let ids: Vec<Uuid> = rows.iter().map(|r| r.application_id).collect();
    for (id, h) in
        crate::app::applying::handoff::states_of(&crate::app::applying::Handles::of(app), &ids)
            .await?
    {
        if let Some(r) = rows.iter_mut().find(|r| r.application_id == id) {
            r.handoff = Some(h);
        }
    }
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
    // Rows flow from PostgreSQL through a bounded channel (in batches: a hand-over per row cost
    // more than the row) into the writer on the blocking pool, which keeps the worksheet in a
    // temporary file (constant memory mode).
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<ListRow>>(8);
    let steps: Vec<(i16, String)> = app
        .rules
        .current()
        .engine
        .steps()
        .map(|s| (i16::from(s.number), s.title.clone()))
        .collect();
    // The workbook is saved to an unnamed temporary file (gone when closed) and sent from there,
    // so the server holds neither the rows nor the file: its memory stays flat whatever the size.
    let writer = tokio::task::spawn_blocking(move || -> Result<std::fs::File, XlsxError> {
        let mut file = tempfile::tempfile()?;
        let rows = std::iter::from_fn(|| rx.blocking_recv()).flatten();
        workbook(list, &steps, rows, &mut file)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(file)
    });
    let read = db::each_batch(&app.pool, list, &f, q.sort, q.asc, |mut rows| {
        let tx = tx.clone();
        async move {
            // A batch whose hand-off masking cannot be read is not written: the export fails.
            if let Err(e) = mask_handed_off(app, &mut rows).await {
                tracing::warn!(error = %e, "an export's hand-off masking could not be read");
                return false;
            }
            tx.send(rows).await.is_ok()
        }
    })
    .await;
    drop(tx);
    let written = writer.await.map_err(|e| ApiError::Internal(e.into()))?;
    read?;
    let file = written.map_err(|e| ApiError::Internal(e.into()))?;
    let length = file
        .metadata()
        .map_err(|e| ApiError::Internal(e.into()))?
        .len();
    let body = Body::from_stream(ReaderStream::with_capacity(
        tokio::fs::File::from_std(file),
        64 * 1024,
    ));
    let name = match list {
        List::Quotes => "Exported_Quotes.xlsx",
        List::Enrollees => "Exported_Enrollees.xlsx",
    };
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

/// The export's columns, in order.
pub fn headers(list: List) -> &'static [&'static str] {
    match list {
        List::Quotes => &[
            "Name",
            "Email",
            "Started By",
            "Created Date (Michigan time)",
            "Effective Date",
            "Last Step",
            "Medical Plan",
            "Dental Plan",
            "Vision Plan",
        ],
        List::Enrollees => &[
            "Subscriber Name",
            "Email",
            "Submit Date (Michigan time)",
            "Effective Date",
            "OEP/SEP",
            "Contract Count",
            "Medical Plan",
            "Dental Plan",
            "Vision Plan",
        ],
    }
}

fn excel_date(d: Date) -> Result<ExcelDateTime, XlsxError> {
    let year = u16::try_from(d.year()).map_err(|_| XlsxError::DateTimeRangeError(d.to_string()))?;
    ExcelDateTime::from_ymd(year, u8::from(d.month()), d.day())
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
    let not_found = || ApiError::NotFound("No such application.".into());
    let row = crate::db::applications::replay_of(&app.pool, id, agent_id)
        .await?
        .ok_or_else(not_found)?;
    let agent = agents::by_id(&app.pool, agent_id)
        .await?
        .ok_or_else(not_found)?;
    let ctx = crate::impact::replay_context(&agent, row.updated_at, row.agent_started);
    let today = ctx.today;
    let current = app.rules.current();
    let saved_bundle;
    let engine = match (under.rules.as_deref(), row.rules_hash.as_deref()) {
        (Some("saved"), Some(hash)) if hash != current.engine.hash() => {
            let files = crate::db::rule_sets::files_by_engine_hash(&app.pool, hash)
                .await?
                .ok_or_else(|| {
                    ApiError::NotFound(
                        "The rules this application was saved under were never published.".into(),
                    )
                })?;
            saved_bundle = crate::rules::bundle_of(&crate::db::rule_sets::sources(&files))
                .map_err(|_| {
                    ApiError::NotFound(
                        "The rules this application was saved under no longer load.".into(),
                    )
                })?;
            &saved_bundle.engine
        }
        (Some("saved"), None) => {
            return Err(ApiError::NotFound(
                "This application records no rules it was saved under.".into(),
            ));
        }
        _ => &current.engine,
    };
    let data = row.data;
    let name = format!("an application last saved on {today}, replayed");
    let yaml = replay::scenario_of(engine, &name, &data, &ctx)
        .map_err(crate::app::applying::open::eval_error)?;
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
                engine.hash().to_string(),
            ),
        ],
        yaml,
    )
        .into_response())
}

/// The header naming the engine hash of the rules a replay ran under.
const RULES_HASH: &str = "x-rules-hash";

pub use crate::impact::AGENT_TIME_ZONE;

/// An instant as the agent's wall-clock time in Michigan (daylight saving included).
fn excel_time(t: OffsetDateTime) -> Result<ExcelDateTime, XlsxError> {
    let bad = || XlsxError::DateTimeRangeError(t.to_string());
    let local = crate::impact::michigan_datetime(t).ok_or_else(bad)?;
    let year = u16::try_from(local.year()).map_err(|_| bad())?;
    let month = u8::try_from(local.month()).map_err(|_| bad())?;
    let day = u8::try_from(local.day()).map_err(|_| bad())?;
    ExcelDateTime::from_ymd(year, month, day)?.and_hms(
        u16::try_from(local.hour()).map_err(|_| bad())?,
        u8::try_from(local.minute()).map_err(|_| bad())?,
        f64::from(local.second()),
    )
}

/// User text: always a string cell, so `=…`, `+…`, `-…` and `@…` stay text (never a formula).
fn text(ws: &mut Worksheet, row: u32, col: u16, s: &str) -> Result<(), XlsxError> {
    ws.write_string(row, col, s)?;
    Ok(())
}

/// The workbook of `rows`, written to `out`.
/// `steps`: each step's number and title (the Last Step column).
fn workbook(
    list: List,
    steps: &[(i16, String)],
    rows: impl Iterator<Item = ListRow>,
    out: impl Write + Send,
) -> Result<(), XlsxError> {
    let mut wb = Workbook::new();
    // Excel's own level: most of a large export's time is the worksheet's compression, and level 3
    // takes about two thirds of the default's for a file a few percent larger.
    wb.set_zip_compression_level(3);
    let ws = wb.add_worksheet_with_constant_memory()?;
    ws.set_name(match list {
        List::Quotes => "Quotes",
        List::Enrollees => "Enrollees",
    })?;
    let bold = Format::new().set_bold();
    let date = Format::new().set_num_format("mm/dd/yyyy");
    let stamp = Format::new().set_num_format("mm/dd/yyyy hh:mm");
    // Column widths first: a constant memory worksheet writes its rows as it goes.
    let last = u16::try_from(headers(list).len()).unwrap_or(u16::MAX);
    for c in 0..last {
        ws.set_column_width(c, 20)?;
    }
    for (c, h) in (0..last).zip(headers(list)) {
        ws.write_string_with_format(0, c, *h, &bold)?;
    }
    let mut n: u32 = 0;
    for r in rows {
        n = n.checked_add(1).ok_or(XlsxError::RowColumnLimitError)?;
        text(ws, n, 0, &r.primary_name())?;
        text(ws, n, 1, &r.email)?;
        let plans = [
            &r.medical_plan_name,
            &r.dental_plan_name,
            &r.vision_plan_name,
        ];
        match list {
            List::Quotes => {
                text(ws, n, 2, r.started_by.as_deref().unwrap_or(""))?;
                ws.write_datetime_with_format(n, 3, excel_time(r.created_at)?, &stamp)?;
                if let Some(d) = r.effective_date {
                    ws.write_datetime_with_format(n, 4, excel_date(d)?, &date)?;
                }
                match steps.iter().find(|(number, _)| *number == r.last_step) {
                    Some((_, title)) => text(ws, n, 5, title)?,
                    None => ws.write_number(n, 5, f64::from(r.last_step)).map(|_| ())?,
                }
            }
            List::Enrollees => {
                if let Some(t) = r.submission_time {
                    ws.write_datetime_with_format(n, 2, excel_time(t)?, &stamp)?;
                }
                if let Some(d) = r.effective_date {
                    ws.write_datetime_with_format(n, 3, excel_date(d)?, &date)?;
                }
                text(ws, n, 4, r.period_badge())?;
                ws.write_number(n, 5, f64::from(r.contract_count()))?;
            }
        }
        for (c, p) in [6u16, 7, 8].into_iter().zip(plans) {
            if let Some(p) = p {
                text(ws, n, c, p)?;
            }
        }
    }
    wb.save_to_writer(out)
}
