//! The dashboard shell and home (spec part 2, sections 2, 3 and 7; calls in
//! `docs/dashboard-api.md`): the left navigation, the individual and Medicare countdowns (from
//! `rules/calendar.yaml`, on the injectable today), the year-to-date chart figures, the More Info
//! modal, and Enroll (a listed application becomes the session's and the wizard resumes it).
//! Everything is the logged-in agent's own: an admin not acting as an agent gets 403.
//!
//! The calls: `/api/dashboard/shell`, `countdownIndividual`, `countdownMedicare` (the `countdowns`
//! of `rules/calendar.yaml`), `enrollmentsYtd`, `carrierShare`, `getAppInfo/{id}`, and `POST
//! /api/dashboard/enroll/{id}`, which answers the route to resume at.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::{Date, Month, OffsetDateTime};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::CurrentUser;
use super::error::{ApiError, ApiResult};
use super::revision::Wrote;
use crate::app::applying::Handles;
use crate::app::applying::enroll::{self, EnrollError};
use crate::app::dashboard::home::{self as dashboard, Details};
use crate::app::sites::AgentRow;
use crate::http::state::AppState;
use enrollflow_engine::calendar::{Calendar, PlanYear};
use enrollflow_engine::summary::Summary;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(shell))
        .routes(routes!(countdown_individual))
        .routes(routes!(countdown_medicare))
        .routes(routes!(enrollments_ytd))
        .routes(routes!(carrier_share))
        .routes(routes!(app_info))
        .routes(routes!(enroll))
}

async fn agent_row(app: &AppState, user: &CurrentUser) -> ApiResult<AgentRow> {
    dashboard::agent(&app.pool, user.dashboard_agent()?)
        .await?
        .ok_or(ApiError::Forbidden)
}

/// A rules table (`rules/<name>.yaml`) read into `T`; a table an analyst broke reads as `None`
/// (the card is not drawn) and is reported by `enrollflow check` and the rule status.
fn table<T: for<'de> Deserialize<'de>>(app: &AppState, name: &str) -> Option<T> {
    let bundle = app.rules.current();
    let v = bundle.engine.tables().get(name)?.clone();
    match serde_json::from_value(v) {
        Ok(t) => Some(t),
        Err(e) => {
            tracing::warn!(table = name, error = %e, "rules table does not have the expected shape");
            None
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct AccountManager {
    pub name: String,
    pub email: String,
    pub phone: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
pub struct Link {
    pub title: String,
    pub url: String,
    /// The agent display flag that shows the link (`rules/marketplace.yaml`); none: always.
    #[serde(default, skip_serializing)]
    pub agent_flag: Option<String>,
}

/// `rules/dashboard.yaml`.
#[derive(Debug, Deserialize)]
struct DashboardTable {
    #[serde(default)]
    account_manager: Option<AccountManager>,
    #[serde(default)]
    medicare_quote_url: Option<String>,
}

/// `rules/marketplace.yaml` (the part the dashboard uses).
#[derive(Debug, Deserialize)]
struct MarketplaceTable {
    #[serde(default)]
    agent_links: BTreeMap<String, Link>,
}

/// The left navigation.
#[derive(Debug, Serialize, ToSchema)]
pub struct Shell {
    pub agent_full_name: String,
    pub user_full_name: String,
    pub display_medicare: bool,
    pub medicare_url: Option<String>,
    /// On Marketplace: the carriers' quote pages, by the agent's carrier flags.
    pub marketplace_links: Vec<Link>,
    pub account_manager: Option<AccountManager>,
    pub subdomains: Vec<String>,
    /// The session holds an application not yet submitted (Continue Quote).
    pub has_application: bool,
}

#[utoipa::path(get, path = "/api/dashboard/shell", tag = "dashboard",
    responses((status = 200, body = Shell), (status = 403), (status = 419)))]
async fn shell(State(app): State<AppState>, user: CurrentUser) -> ApiResult<Json<Shell>> {
    let agent = agent_row(&app, &user).await?;
    let dash: Option<DashboardTable> = table(&app, "dashboard");
    let market: Option<MarketplaceTable> = table(&app, "marketplace");
    let marketplace_links: Vec<Link> = market
        .map(|m| m.agent_links.into_values())
        .into_iter()
        .flatten()
        .filter(|l| l.agent_flag.as_deref().is_none_or(|f| agent.flag(f)))
        .collect();
    let has_application = match user.session.application_id {
        Some(id) => dashboard::is_open(&app.pool, id, agent.id).await?,
        None => false,
    };
    let (account_manager, medicare_quote_url) = match dash {
        Some(d) => (d.account_manager, d.medicare_quote_url),
        None => (None, None),
    };
    Ok(Json(Shell {
        agent_full_name: agent.agent_name.clone(),
        user_full_name: user.user.full_name(),
        display_medicare: agent.display_medicare,
        medicare_url: medicare_quote_url.filter(|_| agent.display_medicare),
        marketplace_links,
        account_manager,
        subdomains: agent.subdomains,
        has_application,
    }))
}

/// A countdown card: `days` is null when there is nothing to count to (the card is not drawn).
#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct Countdown {
    pub days: Option<i64>,
    pub message: Option<String>,
}

const NONE: Countdown = Countdown {
    days: None,
    message: None,
};

fn say(template: &str, days: i64, year: i32) -> String {
    template
        .replace("{days}", &days.to_string())
        .replace("{year}", &year.to_string())
}

/// Days to the next open enrollment's start, or left in the one that is open (the last day
/// counts); `None` after the last plan year the calendar knows.
fn individual(cal: &Calendar, today: Date) -> Countdown {
    let Some(texts) = cal.countdowns.as_ref().map(|c| &c.individual) else {
        return NONE;
    };
    let mut years: Vec<&PlanYear> = cal.plan_years.iter().collect();
    years.sort_by_key(|p| p.open_enrollment.start);
    for py in years {
        let oe = &py.open_enrollment;
        if today < oe.start {
            let days = (oe.start - today).whole_days();
            return Countdown {
                days: Some(days),
                message: Some(say(&texts.before, days, py.year)),
            };
        }
        if today <= oe.end {
            let days = (oe.end - today).whole_days() + 1;
            return Countdown {
                days: Some(days),
                message: Some(say(&texts.during, days, py.year)),
            };
        }
    }
    NONE
}

fn month_day(year: i32, md: &str) -> Option<Date> {
    let (m, d) = md.split_once('-')?;
    let month = Month::try_from(m.parse::<u8>().ok()?).ok()?;
    Date::from_calendar_date(year, month, d.parse().ok()?).ok()
}

/// The Medicare annual enrollment period recurs every year on the same days.
fn medicare(cal: &Calendar, today: Date) -> Countdown {
    let Some(m) = cal.countdowns.as_ref().map(|c| &c.medicare) else {
        return NONE;
    };
    for year in [today.year(), today.year() + 1] {
        let (Some(start), Some(end)) = (month_day(year, &m.start), month_day(year, &m.end)) else {
            return NONE;
        };
        let coverage_year = year + m.coverage_year_offset;
        if today < start {
            let days = (start - today).whole_days();
            return Countdown {
                days: Some(days),
                message: Some(say(&m.messages.before, days, coverage_year)),
            };
        }
        if today <= end {
            let days = (end - today).whole_days() + 1;
            return Countdown {
                days: Some(days),
                message: Some(say(&m.messages.during, days, coverage_year)),
            };
        }
    }
    NONE
}

#[utoipa::path(get, path = "/api/dashboard/countdownIndividual", tag = "dashboard",
    description = "Days to the individual market's next open enrollment, or left in the open one.",
    responses((status = 200, body = Countdown), (status = 403), (status = 419)))]
async fn countdown_individual(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<Countdown>> {
    user.dashboard_agent()?;
    let bundle = app.rules.current();
    Ok(Json(individual(
        bundle.engine.calendar(),
        app.clock.today(),
    )))
}

#[utoipa::path(get, path = "/api/dashboard/countdownMedicare", tag = "dashboard",
    description = "Days to the Medicare annual enrollment period, or left in it; null days for \
                   agents without the Medicare flag.",
    responses((status = 200, body = Countdown), (status = 403), (status = 419)))]
async fn countdown_medicare(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<Countdown>> {
    let agent = agent_row(&app, &user).await?;
    if !agent.display_medicare {
        return Ok(Json(NONE));
    }
    let bundle = app.rules.current();
    Ok(Json(medicare(bundle.engine.calendar(), app.clock.today())))
}

/// This year's first instant and tomorrow's (UTC), for the year-to-date figures.
fn year_to_date(today: Date) -> ApiResult<(OffsetDateTime, OffsetDateTime)> {
    let jan1 = Date::from_calendar_date(today.year(), Month::January, 1)
        .map_err(|e| ApiError::Internal(e.into()))?;
    let tomorrow = today
        .next_day()
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("no day after {today}")))?;
    Ok((
        jan1.midnight().assume_utc(),
        tomorrow.midnight().assume_utc(),
    ))
}

#[utoipa::path(get, path = "/api/dashboard/enrollmentsYtd", tag = "dashboard",
    description = "Submissions per month of this year up to this month (`YYYY-MM` keys, every month present).",
    responses((status = 200, body = BTreeMap<String, i64>), (status = 403), (status = 419)))]
async fn enrollments_ytd(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<BTreeMap<String, i64>>> {
    let agent = user.dashboard_agent()?;
    let today = app.clock.today();
    let rows = dashboard::submissions_by_month(&app.pool, agent, year_to_date(today)?).await?;
    let mut out = BTreeMap::new();
    for m in 1..=u8::from(today.month()) {
        let n = rows
            .iter()
            .find(|(k, _)| *k == i32::from(m))
            .map_or(0, |(_, n)| *n);
        out.insert(format!("{}-{m:02}", today.year()), n);
    }
    Ok(Json(out))
}

/// The medical carriers of this year's submissions.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarrierShare {
    pub carrier_counts: BTreeMap<String, i64>,
    pub carrier_names: BTreeMap<String, String>,
    pub carrier_colors: BTreeMap<String, String>,
}

#[utoipa::path(get, path = "/api/dashboard/carrierShare", tag = "dashboard",
    responses((status = 200, body = CarrierShare), (status = 403), (status = 419)))]
async fn carrier_share(
    State(app): State<AppState>,
    user: CurrentUser,
) -> ApiResult<Json<CarrierShare>> {
    let agent = user.dashboard_agent()?;
    let year = year_to_date(app.clock.today())?;
    let rows = dashboard::submissions_by_medical_carrier(&app.pool, agent, year).await?;
    let bundle = app.rules.current();
    let cat = bundle.engine.catalog();
    let mut share = CarrierShare {
        carrier_counts: BTreeMap::new(),
        carrier_names: BTreeMap::new(),
        carrier_colors: BTreeMap::new(),
    };
    for (id, n) in rows {
        let key = id.to_string();
        let carrier = u8::try_from(id).ok().and_then(|c| cat.carrier(c));
        share.carrier_counts.insert(key.clone(), n);
        share.carrier_names.insert(
            key.clone(),
            carrier.map_or_else(|| format!("Carrier {id}"), |c| c.name.clone()),
        );
        if let Some(color) = carrier.and_then(|c| c.color.clone()) {
            share.carrier_colors.insert(key, color);
        }
    }
    Ok(Json(share))
}

/// The More Info modal (spec part 2, section 3 "App info").
#[derive(Debug, Serialize, ToSchema, Default)]
pub struct AppInfo {
    pub primary_name: String,
    pub primary_phone: Option<String>,
    pub email: Option<String>,
    pub residential_street: Option<String>,
    pub residential_street2: Option<String>,
    pub residential_city: Option<String>,
    pub residential_state: Option<String>,
    pub residential_zip: Option<String>,
    pub billing_provided: bool,
    pub billing_street: Option<String>,
    pub billing_street2: Option<String>,
    pub billing_city: Option<String>,
    pub billing_state: Option<String>,
    pub billing_zip: Option<String>,
    /// The household's doctors, prescriptions and expected use of care, and the chosen medical
    /// plan's yearly estimate; null when there are none, or once the application is handed to
    /// the customer.
    pub care: Option<CareInfo>,
}

/// What More Info shows of the household's care needs.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct CareInfo {
    /// Each member's expected use of care (`low`, `medium`, `high`), in the household's order.
    pub uses: Vec<String>,
    /// "Name (specialty, city)".
    pub doctors: Vec<String>,
    pub drugs: Vec<String>,
    /// The chosen medical plan's name and its estimated yearly cost in dollars.
    pub medical_plan: Option<String>,
    pub yearly_cost: Option<f64>,
}

impl CareInfo {
    fn of(care: Option<&Value>, plan: Option<&Value>) -> Option<CareInfo> {
        let list = |key: &str| -> Vec<&Value> {
            care.and_then(|c| c.get(key))
                .and_then(Value::as_array)
                .map(|a| a.iter().collect())
                .unwrap_or_default()
        };
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let info = CareInfo {
            uses: list("uses")
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            doctors: list("doctors")
                .iter()
                .filter_map(|d| {
                    let name = text(d, "name")?;
                    let more: Vec<String> = [text(d, "specialty"), text(d, "city")]
                        .into_iter()
                        .flatten()
                        .collect();
                    Some(if more.is_empty() {
                        name
                    } else {
                        format!("{name} ({})", more.join(", "))
                    })
                })
                .collect(),
            drugs: list("drugs")
                .iter()
                .filter_map(|d| text(d, "name"))
                .collect(),
            medical_plan: plan.and_then(|p| text(p, "name")),
            yearly_cost: plan
                .and_then(|p| p.get("yearly_cost"))
                .and_then(|y| y.get("total"))
                .and_then(Value::as_f64),
        };
        let empty = info.uses.is_empty()
            && info.doctors.is_empty()
            && info.drugs.is_empty()
            && info.yearly_cost.is_none();
        (!empty).then_some(info)
    }
}

/// More Info is the application's summary (the flow's `summary:`, stored at each save).
impl From<Summary> for AppInfo {
    fn from(s: Summary) -> Self {
        AppInfo {
            primary_name: s.full_name(),
            primary_phone: s.primary_phone,
            email: s.email,
            residential_street: s.residential_street,
            residential_street2: s.residential_street2,
            residential_city: s.residential_city,
            residential_state: s.residential_state,
            residential_zip: s.residential_zip,
            billing_provided: s.billing_provided,
            billing_street: s.billing_street,
            billing_street2: s.billing_street2,
            billing_city: s.billing_city,
            billing_state: s.billing_state,
            billing_zip: s.billing_zip,
            care: None,
        }
    }
}

#[utoipa::path(get, path = "/api/dashboard/getAppInfo/{id}", tag = "dashboard",
    params(("id" = Uuid, Path, description = "One of the agent's applications")),
    responses((status = 200, body = AppInfo), (status = 403), (status = 404), (status = 419)))]
async fn app_info(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<AppInfo>> {
    let agent = user.dashboard_agent()?;
    let Details {
        summary,
        entered_by_agent,
        care,
        medical_plan,
    } = dashboard::details(&app.pool, agent, id)
        .await?
        .ok_or_else(|| ApiError::NotFound("No such application.".into()))?;
    let mut info = AppInfo::from(summary);
    // Handed to the customer: what they entered since is shown masked, their care needs not at
    // all.
    if let Some(entered) = entered_by_agent {
        info.mask_unless(&AppInfo::from(entered));
    } else {
        info.care = CareInfo::of(care.as_ref(), medical_plan.as_ref());
    }
    Ok(Json(info))
}

impl AppInfo {
    /// Masks every detail that differs from `entered` (what the agent had entered when the
    /// customer opened the hand-off).
    fn mask_unless(&mut self, entered: &AppInfo) {
        let mask = |v: &mut Option<String>, was: &Option<String>| {
            if let Some(v) = v {
                crate::security::crypto::mask_unless(v, was.as_deref());
            }
        };
        crate::security::crypto::mask_unless(&mut self.primary_name, Some(&entered.primary_name));
        mask(&mut self.primary_phone, &entered.primary_phone);
        mask(&mut self.email, &entered.email);
        mask(&mut self.residential_street, &entered.residential_street);
        mask(&mut self.residential_street2, &entered.residential_street2);
        mask(&mut self.residential_city, &entered.residential_city);
        mask(&mut self.residential_state, &entered.residential_state);
        mask(&mut self.residential_zip, &entered.residential_zip);
        mask(&mut self.billing_street, &entered.billing_street);
        mask(&mut self.billing_street2, &entered.billing_street2);
        mask(&mut self.billing_city, &entered.billing_city);
        mask(&mut self.billing_state, &entered.billing_state);
        mask(&mut self.billing_zip, &entered.billing_zip);
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Resume {
    /// The wizard route to open (the last step reached; Review and Purchase once submitted).
    pub route: String,
}

#[utoipa::path(post, path = "/api/dashboard/enroll/{id}", tag = "dashboard",
    description = "Makes one of the agent's listed applications the session's; answers where the \
                   wizard resumes it.",
    params(("id" = Uuid, Path, description = "One of the agent's applications")),
    responses((status = 200, body = Resume), (status = 403), (status = 404), (status = 419)))]
async fn enroll(
    State(app): State<AppState>,
    user: CurrentUser,
    Path(id): Path<Uuid>,
) -> ApiResult<(Wrote, Json<Resume>)> {
    let agent = user.dashboard_agent()?;
    let enrolled = enroll::enroll(&Handles::of(&app), agent, &user.session.id_hash, id)
        .await
        .map_err(|e| match e {
            EnrollError::NotFound => ApiError::NotFound(e.to_string()),
            EnrollError::TheCustomers => ApiError::Conflict(e.to_string()),
            EnrollError::Failed(e) => e.into(),
        })?;
    Ok((
        Wrote::application(id, enrolled.revision),
        Json(Resume {
            route: enrolled.route,
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn calendar() -> Calendar {
        serde_json::from_value(serde_json::json!({
            "plan_years": [
                {"year": 2025, "open_enrollment": {"start": "2024-11-01", "end": "2025-01-15"}},
                {"year": 2024, "open_enrollment": {"start": "2023-11-01", "end": "2024-01-15"}}
            ],
            "countdowns": {
                "individual": {"before": "{days} days until {year}", "during": "{days} left for {year}"},
                "medicare": {"start": "10-15", "end": "12-07", "coverage_year_offset": 1, "before": "b {year}", "during": "d {year}"}
            }
        }))
        .expect("calendar")
    }

    #[test]
    fn individual_counts_to_the_start_then_down_to_the_end() {
        let c = calendar();
        let before = individual(&c, date!(2024 - 10 - 20));
        assert_eq!(before.days, Some(12));
        assert_eq!(before.message.as_deref(), Some("12 days until 2025"));
        let during = individual(&c, date!(2024 - 11 - 20));
        // Nov 20 to Jan 15 inclusive: 11 + 31 + 15.
        assert_eq!(during.days, Some(57));
        assert_eq!(individual(&c, date!(2025 - 01 - 15)).days, Some(1));
        assert_eq!(individual(&c, date!(2025 - 01 - 16)), NONE);
    }

    #[test]
    fn medicare_recurs_every_fall() {
        let c = calendar();
        assert_eq!(medicare(&c, date!(2024 - 10 - 14)).days, Some(1));
        let during = medicare(&c, date!(2024 - 11 - 20));
        assert_eq!(during.days, Some(18));
        assert_eq!(during.message.as_deref(), Some("d 2025"));
        let after = medicare(&c, date!(2024 - 12 - 08));
        assert_eq!(after.days, Some(311));
        assert_eq!(after.message.as_deref(), Some("b 2026"));
    }
}
