//! Agent messages (spec part 2, Notifications and Manage Agent Messages; calls in
//! `docs/dashboard-api.md`): an agent's current and recent messages and dismissal
//! (`/api/dashboard/getMessages`, `getOldMessages`, `dismissMessage/{id}`), and the admin's
//! list, save and delete (`/api/admin/messageList`, `manageMessage`). Content is HTML: it is
//! sanitized with ammonia when saved and again when served, so no script ever reaches a browser.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::Date;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use crate::app::messages::{self, MessageError, MessageRow, NewMessage};
use crate::http::state::AppState;

/// Recent notifications cover this many days (spec part 2, section 9).
pub const RECENT_DAYS: i64 = 30;
const TITLE_MAX: usize = 255;
const CODE_MAX: usize = 50;
const CONTENT_MAX: usize = 20_000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_messages))
        .routes(routes!(get_old_messages))
        .routes(routes!(dismiss_message))
        .routes(routes!(message_list))
        .routes(routes!(save_message))
        .routes(routes!(delete_message))
}

/// The HTML a message may hold: ammonia's defaults (formatting, lists, tables, links with
/// `rel="noopener noreferrer"`), no scripts, styles, event handlers or `javascript:` URLs.
pub fn sanitize(html: &str) -> String {
    ammonia::clean(html)
}

/// A message as an agent (or the admin's list) sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentMessage {
    pub id: Uuid,
    pub title: String,
    /// Sanitized HTML.
    pub content: String,
    pub is_sticky: bool,
    /// YYYY-MM-DD.
    pub publish_date: String,
    /// YYYY-MM-DD.
    pub expiration_date: Option<String>,
    pub code: Option<String>,
    /// MM/DD/YYYY.
    pub created_at_formatted: String,
    /// This user dismissed it (agents' lists).
    pub dismissed: bool,
    /// The agents it is addressed to (the admin's list; empty for agents).
    pub agents: Vec<Uuid>,
}

fn mdy(d: Date) -> String {
    format!("{:02}/{:02}/{}", u8::from(d.month()), d.day(), d.year())
}

impl From<MessageRow> for AgentMessage {
    fn from(m: MessageRow) -> Self {
        AgentMessage {
            id: m.id,
            title: m.title,
            content: sanitize(&m.content),
            is_sticky: m.is_sticky,
            publish_date: m.publish_date.to_string(),
            expiration_date: m.expires_at.map(|d| d.to_string()),
            code: m.code,
            created_at_formatted: mdy(m.created_at.date()),
            dismissed: m.dismissed,
            agents: m.agents,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Messages {
    pub messages: Vec<AgentMessage>,
}

fn listed(rows: Vec<MessageRow>) -> Json<Messages> {
    Json(Messages {
        messages: rows.into_iter().map(AgentMessage::from).collect(),
    })
}

#[utoipa::path(get, path = "/api/dashboard/getMessages", tag = "dashboard",
    description = "The agent's current messages: published, not expired, not dismissed by this user.",
    responses((status = 200, body = Messages), (status = 403), (status = 419)))]
async fn get_messages(State(app): State<AppState>, user: CurrentUser) -> ApiResult<Json<Messages>> {
    let (agent, me) = (user.dashboard_agent()?, user.user.id);
    Ok(listed(
        messages::current(&app.pool, agent, me, app.clock.today()).await?,
    ))
}

#[utoipa::path(get, path = "/api/dashboard/getOldMessages", tag = "dashboard",
    description = "The agent's messages of the past 30 days that are no longer current (dismissed or expired).",
    responses((status = 200, body = Messages), (status = 403), (status = 419)))]
async fn get_old_messages(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<Messages>> {
    let (agent, me) = (user.dashboard_agent()?, user.user.id);
    Ok(listed(
        messages::recent(&app.pool, agent, me, app.clock.today(), RECENT_DAYS).await?,
    ))
}

#[utoipa::path(put, path = "/api/dashboard/dismissMessage/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "The message")),
    responses((status = 204, description = "Dismissed (for this user)"),
              (status = 403, description = "A sticky message, or not an agent"),
              (status = 404, description = "No such message for this agent"), (status = 419)))]
async fn dismiss_message(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let (agent, me) = (user.dashboard_agent()?, user.user.id);
    messages::dismiss(&app.pool, id, agent, me, app.clock.now()).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/api/admin/messageList", tag = "admin",
    responses((status = 200, body = Messages), (status = 403, description = "Not an admin"), (status = 419)))]
async fn message_list(State(app): State<AppState>, user: CurrentUser) -> ApiResult<Json<Messages>> {
    user.require_admin()?;
    Ok(listed(messages::all(&app.pool).await?))
}

/// The Manage Messages form.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MessageForm {
    /// Absent (or null) to create.
    #[serde(default)]
    pub id: Option<Uuid>,
    #[serde(default)]
    pub title: Option<String>,
    /// YYYY-MM-DD (or MM/DD/YYYY).
    #[serde(default)]
    pub publish_date: Option<String>,
    #[serde(default)]
    pub expiration_date: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
    /// HTML; sanitized before it is stored.
    #[serde(default)]
    pub content: Option<String>,
    #[serde(default)]
    pub is_sticky: Option<bool>,
    #[serde(default)]
    pub agents: Vec<Uuid>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SavedMessage {
    pub message: AgentMessage,
}

fn trimmed(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The form, trimmed, checked and sanitized; or the errors map by the spec's field keys.
pub fn check(form: &MessageForm) -> Result<NewMessage, BTreeMap<String, Vec<String>>> {
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut err = |k: &str, m: &str| errors.entry(k.into()).or_default().push(m.into());
    let title = trimmed(&form.title);
    match &title {
        None => err("title", "The title field is required."),
        Some(t) if t.chars().count() > TITLE_MAX => {
            err("title", "The title may not be greater than 255 characters.")
        }
        _ => {}
    }
    let date = |s: &Option<String>| trimmed(s).map(|s| enrollflow_engine::dates::parse(&s));
    let publish = match date(&form.publish_date) {
        None => {
            err("publish_date", "The publish date field is required.");
            None
        }
        Some(None) => {
            err("publish_date", "The publish date is not a valid date.");
            None
        }
        Some(d) => d,
    };
    let expires = match date(&form.expiration_date) {
        None => None,
        Some(None) => {
            err(
                "expiration_date",
                "The expiration date is not a valid date.",
            );
            None
        }
        Some(Some(e)) => {
            if publish.is_some_and(|p| e < p) {
                err(
                    "expiration_date",
                    "The expiration date must be on or after the publish date.",
                );
            }
            Some(e)
        }
    };
    let code = trimmed(&form.code);
    if code.as_ref().is_some_and(|c| c.chars().count() > CODE_MAX) {
        err(
            "code",
            "The message code may not be greater than 50 characters.",
        );
    }
    let content = trimmed(&form.content).map(|c| sanitize(&c).trim().to_string());
    match &content {
        None => err("content", "The content field is required."),
        Some(c) if c.is_empty() => err("content", "The content has no text that can be shown."),
        Some(c) if c.chars().count() > CONTENT_MAX => err(
            "content",
            "The content may not be greater than 20000 characters.",
        ),
        _ => {}
    }
    let mut agents = form.agents.clone();
    agents.sort();
    agents.dedup();
    match (title, publish, content) {
        (Some(title), Some(publish_date), Some(content)) if errors.is_empty() => Ok(NewMessage {
            title,
            content,
            is_sticky: form.is_sticky.unwrap_or(false),
            publish_date,
            expires_at: expires,
            code,
            agents,
        }),
        _ => Err(errors),
    }
}

#[utoipa::path(put, path = "/api/admin/manageMessage", tag = "admin",
    request_body = MessageForm,
    responses((status = 200, body = SavedMessage),
              (status = 403, description = "Not an admin"),
              (status = 404, description = "No message with that id"),
              (status = 422, description = "`{errors}` keyed title, publish_date, expiration_date, code, content, sticky, agents"),
              (status = 419)))]
async fn save_message(
    State(app): State<AppState>,
    user: CurrentUser,
    Json(form): Json<MessageForm>,
) -> ApiResult<Json<SavedMessage>> {
    user.require_admin()?;
    let m = check(&form).map_err(ApiError::Validation)?;
    let saved = messages::save(&app.pool, form.id, &m, user.actor_id(), app.clock.now()).await?;
    Ok(Json(SavedMessage {
        message: saved.into(),
    }))
}

#[utoipa::path(post, path = "/api/admin/manageMessage/{id}", tag = "admin",
    description = "Deletes the message (the spec's shape: a POST to the message).",
    params(("id" = Uuid, Path, description = "The message")),
    responses((status = 204, description = "Deleted"), (status = 403, description = "Not an admin"),
              (status = 404, description = "No such message"), (status = 419)))]
async fn delete_message(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    user.require_admin()?;
    messages::delete(&app.pool, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

impl From<MessageError> for ApiError {
    fn from(e: MessageError) -> Self {
        match e {
            MessageError::NotFound => ApiError::NotFound(e.to_string()),
            MessageError::Sticky => ApiError::Forbidden,
            MessageError::UnknownAgents => ApiError::invalid("agents", vec![e.to_string()]),
            MessageError::Failed(e) => e.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(title: &str, publish: &str, content: &str) -> MessageForm {
        MessageForm {
            id: None,
            title: Some(title.into()),
            publish_date: Some(publish.into()),
            expiration_date: None,
            code: None,
            content: Some(content.into()),
            is_sticky: None,
            agents: vec![],
        }
    }

    #[test]
    fn scripts_and_handlers_are_removed() {
        let clean = sanitize(
            "<p onclick=\"x()\">Hi <b>there</b></p><script>alert(1)</script>\
             <a href=\"javascript:alert(1)\">x</a><img src=x onerror=alert(1)>",
        );
        assert!(!clean.contains("script"), "{clean}");
        assert!(!clean.contains("onclick"), "{clean}");
        assert!(!clean.contains("onerror"), "{clean}");
        assert!(!clean.contains("javascript:"), "{clean}");
        assert!(clean.contains("<b>there</b>"), "{clean}");
    }

    #[test]
    fn the_form_is_trimmed_and_checked() {
        let m = check(&form("  Rates  ", "2024-11-20", "  <p>New rates</p> ")).expect("valid");
        assert_eq!(m.title, "Rates");
        assert_eq!(m.content, "<p>New rates</p>");
        let e = check(&form(" ", "", "<script>x</script>")).expect_err("invalid");
        assert!(e.contains_key("title"));
        assert!(e.contains_key("publish_date"));
        assert!(e.contains_key("content"));
        let mut f = form("T", "2024-11-20", "c");
        f.expiration_date = Some("2024-11-19".into());
        f.code = Some("x".repeat(51));
        let e = check(&f).expect_err("invalid");
        assert!(e.contains_key("expiration_date"));
        assert!(e.contains_key("code"));
    }
}
