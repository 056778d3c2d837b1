//! The printable sheets' HTTP answers (spec part 1, 7 "Plans": `printPdf`, `printSelectionPdf`):
//! which application and plan page, the filters, the PDF's headers. The sheets are `crate::app::printing`.

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::rating::Filter;

use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::language::Language;
use super::open::open_step;
use super::plans::open_plan_step;
use crate::app::printing as sheets;
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(print_pdf))
        .routes(routes!(print_pdf_filtered))
        .routes(routes!(print_selection_pdf))
}

#[utoipa::path(get, path = "/api/printPdf/{plan_type}/{flag}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision"),
           ("flag" = bool, Path, description = "true: the medical, dental and vision sheet; false: this plan type's")),
    responses((status = 200, description = "The comparison sheet, saved as compare.pdf", content_type = "application/pdf", body = [u8]),
              (status = 400, description = "The flag is not true or false"),
              (status = 403, description = "The application may not open this plan page"),
              (status = 409, description = "About You is not complete")))]
async fn print_pdf(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    language: Language,
    Path((plan_type, flag)): Path<(u8, String)>,
) -> ApiResult<Response> {
    comparison(&app, &session, &host, &language, plan_type, &flag, "").await
}

#[utoipa::path(get, path = "/api/printPdf/{plan_type}/{flag}/{filters}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision"),
           ("flag" = bool, Path, description = "true: the medical, dental and vision sheet; false: this plan type's"),
           ("filters" = String, Path, description = "Filter tokens, comma-separated: `car_{id}`, `net_{id}`, `m_{id}`, \
             `hsa`, `plan_{id}`, `minPrice:{n}`, `maxPrice:{n}`, `dental_only`, `dental_and_vision`; they narrow \
             this plan type's plans")),
    responses((status = 200, description = "The comparison sheet, saved as compare.pdf", content_type = "application/pdf", body = [u8]),
              (status = 400, description = "A filter token is not valid, or the flag is not true or false"),
              (status = 403, description = "The application may not open this plan page"),
              (status = 409, description = "About You is not complete")))]
async fn print_pdf_filtered(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    language: Language,
    Path((plan_type, flag, filters)): Path<(u8, String, String)>,
) -> ApiResult<Response> {
    comparison(&app, &session, &host, &language, plan_type, &flag, &filters).await
}

#[utoipa::path(get, path = "/api/printSelectionPdf", tag = "plans",
    responses((status = 200, description = "The benefit selection sheet, saved as benefits.pdf", content_type = "application/pdf", body = [u8]),
              (status = 403, description = "The application has not reached Review Selections"),
              (status = 409, description = "About You is not complete")))]
async fn print_selection_pdf(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    language: Language,
) -> ApiResult<Response> {
    // The benefit selection prints once the application may open the flow's review page.
    let review = app
        .rules
        .current()
        .engine
        .page_step(REVIEW_PAGE)
        .map(|s| s.id.clone())
        .ok_or(ApiError::Forbidden)?;
    let s = open_step(&app, &session, &host, &review).await?;
    let languages = s.bundle.engine.languages();
    let code = language.pick(languages);
    let sheet = sheets::selection(&sheets::Words::new(languages, &code), &s)?;
    Ok(pdf_response(sheet.finish(app.clock.now()), BENEFITS))
}

/// The hand-built page of Review Selections (a flow step's `page:`).
const REVIEW_PAGE: &str = "review";

const COMPARE: &str = "attachment; filename=\"compare.pdf\"";
const BENEFITS: &str = "attachment; filename=\"benefits.pdf\"";

fn pdf_response(bytes: Vec<u8>, disposition: &'static str) -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static(disposition),
            ),
            // The sheets name the household: never kept by a cache.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        bytes,
    )
        .into_response()
}

fn parse_flag(flag: &str) -> ApiResult<bool> {
    match flag {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(ApiError::BadRequest(
            "The flag is `true` (medical, dental and vision) or `false`.".into(),
        )),
    }
}

async fn comparison(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    language: &Language,
    plan_type: u8,
    flag: &str,
    filters: &str,
) -> ApiResult<Response> {
    let all = parse_flag(flag)?;
    let filter = Filter::parse(filters).map_err(ApiError::BadRequest)?;
    let (s, kind, _) = open_plan_step(app, session, host, plan_type).await?;
    // In the consumer's language.
    let languages = s.bundle.engine.languages();
    let code = language.pick(languages);
    let tiers = crate::app::applying::care::drug_tiers(&app.pool, &s.data)
        .await
        .map_err(anyhow::Error::new)?;
    let sheet = sheets::comparison(
        &sheets::Words::new(languages, &code),
        &s,
        kind,
        all,
        &filter,
        &tiers,
    )?;
    Ok(pdf_response(sheet.finish(app.clock.now()), COMPARE))
}
