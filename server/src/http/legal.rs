//! The footer's legal texts, rendered from `templates/legal/*.html` (or a language's
//! `templates/<code>/legal/*.html`).

use axum::Json;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ApiResult};
use super::language::Language;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(legal_text))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LegalText {
    pub title: String,
    /// HTML rendered from the template (autoescaped values).
    pub html: String,
}

#[utoipa::path(get, path = "/api/legal/{kind}", tag = "site",
    params(("kind" = String, Path, description = "`privacy` or `terms`")),
    responses((status = 200, body = LegalText), (status = 404, description = "No such text")))]
async fn legal_text(
    State(app): State<AppState>,
    Path(kind): Path<String>,
    language: Language,
) -> ApiResult<Json<LegalText>> {
    let (title, template) = match kind.as_str() {
        "privacy" => ("Privacy Policy", "legal/privacy.html"),
        "terms" => ("Terms of Use", "legal/terms.html"),
        _ => return Err(ApiError::NotFound("No such text.".into())),
    };
    let bundle = app.rules.current();
    // In the consumer's language: the title from the catalogs, the text from its template.
    let languages = bundle.engine.languages();
    let code = language.pick(languages);
    let title = languages.text(&code, title);
    let template = bundle.template_for(&code, template);
    let html = bundle
        .templates
        .get_template(&template)
        .and_then(|t| {
            t.render(minijinja::context! {
                tool_owner => &app.config.tool_owner,
                general_agent => &app.config.general_agent,
            })
        })
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("template {template}: {e}")))?;
    Ok(Json(LegalText { title, html }))
}
