//! Agent sites: the site the host names (landing state and footer), agent branding, agent logos.
//!
//! Agent-supplied text reaches the browser escaped: the branding address is built from plain lines.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use crate::app::sites::{self, AgentRow, Npn};
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(site))
        .routes(routes!(agent_branding))
        .routes(routes!(agent_logo))
}

/// The carrier flags the spec's branding API names (spec part 1, section 3: `display_bcbsm`,
/// `display_ph`), read from the agent's set of flags; a flag of a carrier added since is in the set
/// only.
const DISPLAY_BCBSM: &str = "display_bcbsm";
const DISPLAY_PH: &str = "display_ph";

/// An agent's branding (spec part 1, section 3).
#[derive(Debug, Serialize, ToSchema)]
pub struct Branding {
    pub agent_name: String,
    pub agency_name: String,
    /// The address as HTML: escaped lines joined by `<br>`.
    pub address: String,
    pub email: String,
    /// Ten digits, no punctuation.
    pub phone_number: String,
    pub fax_number: Option<String>,
    #[schema(value_type = String)]
    pub npn: Npn,
    /// The first one is the address shared with customers.
    pub subdomains: Vec<String>,
    pub display_bcbsm: bool,
    pub display_ph: bool,
    pub display_medicare: bool,
    #[serde(rename = "websiteUrl")]
    pub website_url: Option<String>,
    pub logo_url: String,
}

impl From<&AgentRow> for Branding {
    fn from(a: &AgentRow) -> Self {
        let logo_url = format!(
            "/api/agent_logo/{}",
            a.subdomains.first().map(String::as_str).unwrap_or("")
        );
        Branding {
            address: a
                .address_lines
                .iter()
                .map(|l| escape_html(l))
                .collect::<Vec<_>>()
                .join("<br>"),
            agent_name: a.agent_name.clone(),
            agency_name: a.agency_name.clone(),
            email: a.email.clone(),
            phone_number: a.phone_number.clone(),
            fax_number: a.fax_number.clone(),
            npn: a.npn.clone(),
            subdomains: a.subdomains.clone(),
            display_bcbsm: a.flag(DISPLAY_BCBSM),
            display_ph: a.flag(DISPLAY_PH),
            display_medicare: a.display_medicare,
            website_url: a.website_url.clone(),
            logo_url,
        }
    }
}

fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The site the request's host names: what the landing page, top bar and footer show.
#[derive(Debug, Serialize, ToSchema)]
pub struct Site {
    pub product_name: String,
    pub tool_owner: String,
    pub general_agent: String,
    /// The agent subdomain of the host, if the host has one.
    pub subdomain: Option<String>,
    /// The agent offers a Blue Cross family carrier or the Priority carrier.
    pub supported: bool,
    /// A demo agent: submitted applications will not be processed.
    pub demo: bool,
    /// The agent's branding; absent when the subdomain matches no agent.
    pub agent: Option<Branding>,
    /// The analysts' playground is on: the top bar shows the Misc menu.
    pub playground: bool,
    /// Idle seconds after which the session expires (the web app warns 60 seconds before).
    pub idle_seconds: u64,
}

#[utoipa::path(get, path = "/api/site", tag = "branding",
    responses((status = 200, description = "The site named by the Host header", body = Site)))]
async fn site(State(app): State<AppState>, SiteHost(subdomain): SiteHost) -> ApiResult<Json<Site>> {
    let agent = match &subdomain {
        Some(s) => {
            crate::app::applying::open::site_agent(&crate::app::applying::Handles::of(&app), s)
                .await?
        }
        None => None,
    };
    let demo = subdomain
        .as_ref()
        .is_some_and(|s| agent.is_some() && app.config.demo_subdomains.contains(s));
    Ok(Json(Site {
        product_name: crate::platform::config::PRODUCT_NAME.into(),
        tool_owner: app.config.tool_owner.clone(),
        general_agent: app.config.general_agent.clone(),
        // Supported: the agent offers at least one carrier of the catalog.
        supported: agent.as_ref().is_some_and(|a| {
            !app.rules
                .current()
                .engine
                .catalog()
                .offered_carriers(&a.offers)
                .is_empty()
        }),
        demo,
        agent: agent.as_deref().map(Branding::from),
        subdomain,
        playground: app.config.playground,
        idle_seconds: app.config.idle_timeout().as_secs(),
    }))
}

#[utoipa::path(get, path = "/api/agent_branding/{subdomain}", tag = "branding",
    params(("subdomain" = String, Path, description = "An agent site's subdomain")),
    responses((status = 200, body = Branding), (status = 404, description = "No such agent")))]
async fn agent_branding(
    State(app): State<AppState>,
    Path(subdomain): Path<String>,
) -> ApiResult<Json<Branding>> {
    crate::app::applying::open::site_agent(
        &crate::app::applying::Handles::of(&app),
        &subdomain.to_ascii_lowercase(),
    )
    .await?
    .map(|a| Json(a.as_ref().into()))
    .ok_or_else(|| ApiError::NotFound("Failed to fetch agent branding".into()))
}

#[utoipa::path(get, path = "/api/agent_logo/{subdomain}", tag = "branding",
    params(("subdomain" = String, Path, description = "An agent site's subdomain")),
    responses((status = 200, description = "The logo image", content_type = "image/svg+xml", body = super::wire::BinaryFile),
               (status = 404, description = "No logo")))]
async fn agent_logo(
    State(app): State<AppState>,
    Path(subdomain): Path<String>,
) -> ApiResult<Response> {
    let logo = sites::logo(&app.pool, &subdomain)
        .await?
        .ok_or_else(|| ApiError::NotFound("No logo for this agent.".into()))?;
    let content_type =
        HeaderValue::from_str(&logo.content_type).map_err(|e| ApiError::Internal(e.into()))?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
            // An SVG opened directly must not run anything.
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
            ),
        ],
        logo.bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_lines_are_escaped_then_joined() {
        assert_eq!(
            escape_html("Suite <5> & \"A\""),
            "Suite &lt;5&gt; &amp; &quot;A&quot;"
        );
    }
}
