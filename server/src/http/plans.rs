//! Plans: quoted lists for the application's household, filter options, the stored selection,
//! saving a selection, and counties by ZIP (spec part 1, 2.7-2.11, 4.4 and 7 "Plans").
//! Rating is the engine's (`enrollflow_engine::rating`); what a selection sets is the flow's
//! `select` rule.
//!
//! The unfiltered list is kept per application version as JSON and gzip (`PreparedQuote`); the
//! filter options' price range follows the filtered list; also plan info, and billing counties by
//! state and ZIP.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use enrollflow_engine::catalog::{Catalog, Choice, Plan, PlanKind};
use enrollflow_engine::i18n::Languages;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{self, Filter, Rates};
use enrollflow_engine::yearly_cost::{MemberCare, YearlyCost};
use enrollflow_engine::zip::Zip;
use enrollflow_engine::{Selection as Chosen, StepInfo};

use super::application::ActiveApplication;
use super::error::eval_error;
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::language::Language;
use super::open::{open_application, open_step};
use super::prepared::{PreparedBody, once};
use super::revision::Wrote;
use super::wire::FilterOption;
use crate::app::applying::open::OpenStep;
use crate::app::applying::quotes::{household, household_and_care, quoted};
use crate::http::session::LiveSession;
use crate::http::state::AppState;
use crate::rules::quoting::{PlanSnapshot, selected_id};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(all_plans))
        .routes(routes!(filter_options))
        .routes(routes!(plan_info))
        .routes(routes!(stored_selection, save_selection))
        .routes(routes!(county_list))
        .routes(routes!(billing_state_zip))
}

fn kind_of(plan_type: u8) -> ApiResult<PlanKind> {
    match plan_type {
        1..=3 => PlanKind::from_type(plan_type)
            .ok_or_else(|| ApiError::NotFound("No such plan type.".into())),
        _ => Err(ApiError::NotFound("No such plan type.".into())),
    }
}

/// A plan as the plan pages show it (spec part 1, section 3 "Plan").
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanView {
    pub id: i64,
    /// May hold simple HTML.
    pub name: String,
    pub plan_type: u8,
    pub plan_year: i32,
    pub carrier: u8,
    pub carrier_name: String,
    pub network: Option<u8>,
    pub network_name: Option<String>,
    pub metal: Option<u8>,
    pub metal_name: Option<String>,
    pub is_hsa: bool,
    pub include_vision: bool,
    /// Interface flag (compare checkbox); always false from the server.
    pub compare: bool,
    pub selected: bool,
    pub sbc: Option<String>,
    pub baag: Option<String>,
    pub drug_list: Option<String>,
    /// The monthly premium for this household, member by member.
    pub rates: PlanRates,
    #[schema(value_type = Option<f64>)]
    pub ded_ind: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub ded_fam: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub ded_out_ind: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub ded_out_fam: Option<Money>,
    /// The plan covers no care outside its network (an HMO's or EPO's out-of-network deductibles
    /// of 0): shown as not covered, not as $0.
    pub out_of_network_not_covered: bool,
    pub coins: Option<f64>,
    #[schema(value_type = Option<f64>)]
    pub max_ind_oop: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub max_2p_oop: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub max_fam_oop: Option<Money>,
    /// The out-of-pocket maximum for this household's size (1, 2, more).
    #[schema(value_type = Option<f64>)]
    pub max_oop: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub annual_max: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub eye_exam_copay: Option<Money>,
    #[schema(value_type = Option<f64>)]
    pub frames_contact_allowance: Option<Money>,
    pub eye_exam_frequency: Option<String>,
    /// A medical plan's estimated total for the year; null for dental and vision plans, a plan
    /// without cost sharing in the catalog, or a member whose sex is not known.
    pub yearly_cost: Option<YearlyCostView>,
}

/// A medical plan's estimated total cost for the year for this household, each member at their
/// expected use of care (CMS's out-of-pocket cost method), in dollars: premium + deductible +
/// cost_sharing = total, exactly.
#[derive(Debug, Serialize, ToSchema)]
pub struct YearlyCostView {
    /// Twelve months of the premium.
    #[schema(value_type = f64)]
    pub premium: Money,
    /// Expected to be paid toward the deductible.
    #[schema(value_type = f64)]
    pub deductible: Money,
    /// Expected copays and coinsurance.
    #[schema(value_type = f64)]
    pub cost_sharing: Money,
    #[schema(value_type = f64)]
    pub total: Money,
    /// The premium and the out-of-pocket maximum: the most the year can cost.
    #[schema(value_type = f64)]
    pub worst_case: Money,
}

impl From<YearlyCost> for YearlyCostView {
    fn from(y: YearlyCost) -> Self {
        YearlyCostView {
            premium: y.premium,
            deductible: y.deductible,
            cost_sharing: y.cost_sharing,
            total: y.total,
            worst_case: y.worst_case,
        }
    }
}

/// A plan's monthly premium for the household: the breakdown's figures without its sentences (a
/// family's list is a third of the size, and the sentences are on the printed sheets).
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanRates {
    /// The household's monthly total, in dollars.
    #[schema(value_type = f64)]
    pub total: Money,
    /// One entry per household member.
    pub members: Vec<PlanMemberRate>,
}

/// One member's part of a plan's monthly premium.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanMemberRate {
    /// "Subscriber", "Spouse", "Dependent 2".
    pub member: String,
    pub age: i64,
    /// What this member adds to the total (0 when not charged), in dollars.
    #[schema(value_type = f64)]
    pub amount: Money,
    /// The member's rate before the family rule, in dollars.
    #[schema(value_type = f64)]
    pub rate: Money,
    pub charged: bool,
}

impl From<Rates> for PlanRates {
    fn from(r: Rates) -> Self {
        PlanRates {
            total: r.total,
            members: r
                .members
                .iter()
                .map(|m| PlanMemberRate {
                    member: m.member(),
                    age: m.age,
                    amount: m.amount(),
                    rate: m.rate,
                    charged: m.charged,
                })
                .collect(),
        }
    }
}

pub(crate) fn plan_view(
    cat: &Catalog,
    p: &Plan,
    rates: Rates,
    household_size: usize,
    selected: Option<i64>,
    yearly_cost: Option<YearlyCost>,
) -> PlanView {
    let names = cat.names(p);
    PlanView {
        id: p.id,
        name: p.name.clone(),
        plan_type: p.plan_type,
        plan_year: p.plan_year,
        carrier: p.carrier,
        carrier_name: names.carrier.unwrap_or_default().to_string(),
        network: p.network,
        network_name: names.network.map(str::to_string),
        metal: p.metal,
        metal_name: names.metal.map(str::to_string),
        is_hsa: p.hsa,
        include_vision: p.includes_vision,
        compare: false,
        selected: selected == Some(p.id),
        sbc: p.sbc.clone(),
        baag: p.baag.clone(),
        drug_list: cat.drug_list(p).map(str::to_string),
        rates: rates.into(),
        ded_ind: p.ded_ind,
        ded_fam: p.ded_fam,
        ded_out_ind: p.ded_out_ind,
        ded_out_fam: p.ded_out_fam,
        out_of_network_not_covered: cat.not_covered_out_of_network(p),
        coins: p.coins,
        max_ind_oop: p.max_ind_oop,
        max_2p_oop: p.max_2p_oop,
        max_fam_oop: p.max_fam_oop,
        max_oop: rating::oop_for(p, household_size),
        annual_max: p.annual_max,
        eye_exam_copay: p.eye_exam_copay,
        frames_contact_allowance: p.frames_contact_allowance,
        eye_exam_frequency: p.eye_exam_frequency.clone(),
        yearly_cost: yearly_cost.map(Into::into),
    }
}

pub(crate) async fn open_plan_step(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    plan_type: u8,
) -> ApiResult<(OpenStep, PlanKind, StepInfo)> {
    let kind = kind_of(plan_type)?;
    let bundle = app.rules.current();
    let step = bundle
        .engine
        .plan_step(plan_type)
        .cloned()
        .ok_or_else(|| ApiError::NotFound("No page shows these plans.".into()))?;
    let s = open_step(app, session, host, &step.id).await?;
    Ok((s, kind, step))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct PlanQuery {
    /// Filter tokens, comma-separated: `car_{id}`, `net_{id}`, `m_{id}`, `hsa`, `plan_{id}`,
    /// `minPrice:{n}`, `maxPrice:{n}`, `dental_only`, `dental_and_vision`.
    pub filters: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PriceRange {
    pub min: i64,
    pub max: i64,
    pub step: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlanList {
    pub plans: Vec<PlanView>,
    /// The slider's range over the list the other filters (carrier, network, metal, other)
    /// give, price aside: it follows the list (spec part 1, 4.4); null when that list is empty.
    pub price_range: Option<PriceRange>,
    pub household_size: usize,
    pub selected_plan_id: Option<i64>,
}

/// An application's quoted list of one kind, prepared once per version of the application (and of
/// the rules, the day and the agent's offer): each plan's JSON is written in advance, so answering
/// a request, whatever its filters, only picks and joins.
pub(crate) struct PreparedQuote {
    plans: Vec<PreparedPlan>,
    price_range: Option<PriceRange>,
    /// The price slider's step in dollars.
    price_step: i64,
    household_size: usize,
    selected: Option<i64>,
    /// The unfiltered answer (what a plan page asks first), written once, with its gzip copy for
    /// browsers (they all accept it): a tenth of the bytes.
    whole: OnceLock<Arc<PreparedBody>>,
}

struct PreparedPlan {
    plan: Plan,
    total: Money,
    json: Box<[u8]>,
}

/// A plan's texts in the consumer's language: the metal level, a vision plan's exam frequency and
/// the members' labels ("Spouse", "Dependent 2"); plan, carrier and network names stay as the
/// carriers publish them.
fn in_language(view: &mut PlanView, languages: &Languages, code: &str) {
    for text in [&mut view.metal_name, &mut view.eye_exam_frequency]
        .into_iter()
        .flatten()
    {
        *text = languages.text(code, text);
    }
    for member in &mut view.rates.members {
        member.member = languages.text(code, &member.member);
    }
}

impl PreparedQuote {
    fn new(
        s: &OpenStep,
        kind: PlanKind,
        code: &str,
        drug_tiers: &BTreeMap<i64, Vec<String>>,
    ) -> ApiResult<Self> {
        let languages = s.bundle.engine.languages();
        let (h, care) = household_and_care(s)?;
        let list = quoted(s, kind, &h)?;
        let cat = s.bundle.engine.catalog();
        let plan_type = kind.type_id();
        let step = cat.price_steps.get(&plan_type).copied().unwrap_or(1);
        let price_range = rating::price_bounds(list.iter().map(|(_, r)| r.total), step)
            .map(|(min, max)| PriceRange { min, max, step });
        let selected = selected_id(&s.data, kind);
        let plans = list
            .into_iter()
            .map(|(p, r)| {
                let total = r.total;
                let yearly = s.bundle.engine.yearly_cost_with(
                    p,
                    &r,
                    &care,
                    &crate::app::applying::care::tiers_on(drug_tiers, p.id),
                );
                let mut view = plan_view(cat, p, r, h.members.len(), selected, yearly);
                in_language(&mut view, languages, code);
                let json = serde_json::to_vec(&view).map_err(anyhow::Error::new)?;
                Ok(PreparedPlan {
                    plan: p.clone(),
                    total,
                    json: json.into_boxed_slice(),
                })
            })
            .collect::<ApiResult<Vec<_>>>()?;
        Ok(Self {
            plans,
            price_range,
            price_step: step,
            household_size: h.members.len(),
            selected,
            whole: OnceLock::new(),
        })
    }

    /// The answer for `filter` to a request with these headers: the unfiltered one from memory
    /// (gzip-compressed when the browser accepts it), a filtered one written now.
    fn answer(&self, filter: &Filter, headers: &HeaderMap) -> ApiResult<Response> {
        if *filter != Filter::default() {
            let body = Bytes::from(self.to_json(filter)?);
            return Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response());
        }
        let whole = once(&self.whole, || {
            Ok(Arc::new(PreparedBody::new(self.to_json(filter)?)))
        })?;
        whole.respond(headers)
    }

    /// The `PlanList` JSON of the plans the filter accepts.
    fn to_json(&self, filter: &Filter) -> ApiResult<Vec<u8>> {
        let accepted: Vec<&PreparedPlan> = self
            .plans
            .iter()
            .filter(|p| filter.accepts(&p.plan, p.total))
            .collect();
        let mut out =
            Vec::with_capacity(accepted.iter().map(|p| p.json.len() + 1).sum::<usize>() + 128);
        out.extend_from_slice(b"{\"plans\":[");
        for (i, p) in accepted.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&p.json);
        }
        out.extend_from_slice(b"],\"price_range\":");
        // The slider's range follows the list the other filters give (its own bounds aside, or
        // moving the slider would move its ends).
        let unpriced = Filter {
            min_price: None,
            max_price: None,
            ..filter.clone()
        };
        if unpriced == Filter::default() {
            serde_json::to_writer(&mut out, &self.price_range).map_err(anyhow::Error::new)?;
        } else {
            let totals = self
                .plans
                .iter()
                .filter(|p| unpriced.accepts(&p.plan, p.total))
                .map(|p| p.total);
            let range =
                rating::price_bounds(totals, self.price_step).map(|(min, max)| PriceRange {
                    min,
                    max,
                    step: self.price_step,
                });
            serde_json::to_writer(&mut out, &range).map_err(anyhow::Error::new)?;
        }
        out.extend_from_slice(b",\"household_size\":");
        serde_json::to_writer(&mut out, &self.household_size).map_err(anyhow::Error::new)?;
        out.extend_from_slice(b",\"selected_plan_id\":");
        serde_json::to_writer(&mut out, &self.selected).map_err(anyhow::Error::new)?;
        out.push(b'}');
        Ok(out)
    }
}

/// The application's prepared quote of a kind: kept with the cached application, made afresh when
/// there is none (no application yet, or caching is off).
pub(crate) fn prepared_quote(
    s: &OpenStep,
    kind: PlanKind,
    language: &Language,
    drug_tiers: &BTreeMap<i64, Vec<String>>,
) -> ApiResult<Arc<PreparedQuote>> {
    let code = language.pick(s.bundle.engine.languages());
    let Some(cached) = &s.cached else {
        return PreparedQuote::new(s, kind, &code, drug_tiers).map(Arc::new);
    };
    // The rules, the day, the agent's flags (hence the carriers offered) and the language are in
    // the key.
    let key = format!("quote:{}:{code}:{}", kind.type_id(), s.prepared_key);
    cached.prepared(key, || PreparedQuote::new(s, kind, &code, drug_tiers))
}

#[utoipa::path(get, path = "/api/plans/{plan_type}/allPlans", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision"), PlanQuery),
    responses((status = 200, body = PlanList), (status = 400, description = "A filter token is not valid"),
              (status = 403, description = "The application may not open this page"),
              (status = 409, description = "About You is not complete")))]
async fn all_plans(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(plan_type): Path<u8>,
    Query(q): Query<PlanQuery>,
    language: Language,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let filter = Filter::parse(q.filters.as_deref().unwrap_or("")).map_err(ApiError::BadRequest)?;
    let (s, kind, _) = open_plan_step(&app, &session, &host, plan_type).await?;
    let tiers = crate::app::applying::care::drug_tiers(&app.pool, &s.data)
        .await
        .map_err(anyhow::Error::new)?;
    prepared_quote(&s, kind, &language, &tiers)?.answer(&filter, &headers)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct OptionPath {
    pub plan_type: u8,
    /// `carriers`, `metals`, `networks` or `attributes`.
    pub list: String,
}

#[utoipa::path(get, path = "/api/plans/{plan_type}/{list}", tag = "plans",
    params(OptionPath),
    responses((status = 200, description = "`[{id, name}]` options of a filter group", body = Vec<FilterOption>)))]
async fn filter_options(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(OptionPath { plan_type, list }): Path<OptionPath>,
    language: Language,
) -> ApiResult<Json<Vec<FilterOption>>> {
    let (s, kind, _) = open_plan_step(&app, &session, &host, plan_type).await?;
    let cat = s.bundle.engine.catalog();
    let h = crate::rules::evaluation::run(&s.budget, || household(&s)).await?;
    let quoted = quoted(&s, kind, &h)?;
    let present = |f: &dyn Fn(&Plan) -> Option<u8>, c: &Choice| {
        quoted.iter().any(|(p, _)| f(p).is_some_and(|v| c.id == v))
    };
    let out: Vec<Choice> = match list.as_str() {
        "carriers" => cat
            .carriers
            .iter()
            .filter(|c| quoted.iter().any(|(p, _)| p.carrier == c.id))
            .map(|c| Choice {
                id: json!(c.id),
                name: c.name.clone(),
                max_age: None,
                out_of_network: false,
            })
            .collect(),
        "metals" => cat
            .metals
            .iter()
            .filter(|c| present(&|p| p.metal, c))
            .cloned()
            .collect(),
        "networks" => cat
            .networks
            .iter()
            .filter(|c| present(&|p| p.network, c))
            .cloned()
            .collect(),
        "attributes" => match kind {
            PlanKind::Medical => cat.medical_attributes.clone(),
            PlanKind::Dental => cat.dental_attributes.clone(),
            PlanKind::Vision => Vec::new(),
        },
        _ => return Err(ApiError::NotFound("No such option list.".into())),
    };
    // Metal levels and attributes in the consumer's language; carrier and network names as published.
    let languages = s.bundle.engine.languages();
    let code = language.pick(languages);
    Ok(Json(
        out.into_iter()
            .map(|mut c| {
                c.name = languages.text(&code, &c.name);
                FilterOption::from(c)
            })
            .collect(),
    ))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlanInfo {
    pub medical_plan: Option<PlanSnapshot>,
    pub dental_plan: Option<PlanSnapshot>,
    pub vision_plan: Option<PlanSnapshot>,
    pub skip_medical: bool,
    pub skip_dental: bool,
    pub skip_vision: bool,
    /// Sum of the chosen plans' monthly totals, in dollars.
    #[schema(value_type = f64)]
    pub total: Money,
    /// The date coverage starts (`YYYY-MM-DD`); null before About You is complete.
    pub effective_date: Option<String>,
    /// Each chosen plan as the plan pages show it today, rated for the household: who it covers
    /// (each member with their age at the start date and their part of the premium), its
    /// deductibles and out-of-pocket maximum. A plan the catalog no longer holds is left out.
    pub details: Vec<PlanView>,
}

fn flag(data: &Value, k: &str) -> bool {
    data.get(k).and_then(Value::as_bool).unwrap_or(false)
}

/// The chosen plans of an application as the plan pages would show them now, for `h`.
fn chosen_details(
    s: &OpenStep,
    h: &rating::Household,
    care: &[MemberCare],
    drug_tiers: &BTreeMap<i64, Vec<String>>,
    chosen: &[Option<PlanSnapshot>],
    code: &str,
) -> Vec<PlanView> {
    let cat = s.bundle.engine.catalog();
    let Some(area) = cat.rating_area(h.county) else {
        return Vec::new();
    };
    chosen
        .iter()
        .flatten()
        .filter_map(|snap| {
            let p = cat.plan(snap.id)?;
            let rates = rating::rate_plan(cat, p, area, h).ok()?;
            let yearly = s.bundle.engine.yearly_cost_with(
                p,
                &rates,
                care,
                &crate::app::applying::care::tiers_on(drug_tiers, p.id),
            );
            let mut view = plan_view(cat, p, rates, h.members.len(), Some(p.id), yearly);
            in_language(&mut view, s.bundle.engine.languages(), code);
            Some(view)
        })
        .collect()
}

#[utoipa::path(get, path = "/api/plans/planInfo", tag = "plans",
    responses((status = 200, body = PlanInfo)))]
async fn plan_info(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    language: Language,
) -> ApiResult<Json<PlanInfo>> {
    let s = open_application(&app, &session, &host).await?;
    let chosen = PlanKind::ALL.map(|k| PlanSnapshot::stored(&s.data, k));
    let total = chosen.iter().flatten().map(|p| p.rate).sum();
    // Before About You is complete there is no household: the plans alone.
    let h = crate::rules::evaluation::run(&s.budget, || household_and_care(&s))
        .await
        .ok();
    let code = language.pick(s.bundle.engine.languages());
    let tiers = crate::app::applying::care::drug_tiers(&app.pool, &s.data)
        .await
        .map_err(anyhow::Error::new)?;
    let details = h
        .as_ref()
        .map(|(h, care)| chosen_details(&s, h, care, &tiers, &chosen, &code))
        .unwrap_or_default();
    let [m, d, v] = chosen;
    Ok(Json(PlanInfo {
        medical_plan: m,
        dental_plan: d,
        vision_plan: v,
        skip_medical: flag(&s.data, "skip_medical"),
        skip_dental: flag(&s.data, "skip_dental"),
        skip_vision: flag(&s.data, "skip_vision"),
        total,
        effective_date: h.map(|(h, _)| h.effective_date.to_string()),
        details,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoredSelection {
    #[serde(rename = "medical_product_id")]
    pub medical_product_id: Option<i64>,
    #[serde(rename = "dental_product_id")]
    pub dental_product_id: Option<i64>,
    #[serde(rename = "vision_product_id")]
    pub vision_product_id: Option<i64>,
    #[serde(rename = "add_hsa")]
    pub add_hsa: bool,
    pub enrollment_type: Option<String>,
    pub enrollment_reason_id: Option<i64>,
}

#[utoipa::path(get, path = "/api/plans/{plan_type}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision")),
    responses((status = 200, body = StoredSelection)))]
async fn stored_selection(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(plan_type): Path<u8>,
) -> ApiResult<Json<StoredSelection>> {
    let (s, _, _) = open_plan_step(&app, &session, &host, plan_type).await?;
    Ok(Json(StoredSelection {
        medical_product_id: selected_id(&s.data, PlanKind::Medical),
        dental_product_id: selected_id(&s.data, PlanKind::Dental),
        vision_product_id: selected_id(&s.data, PlanKind::Vision),
        add_hsa: flag(&s.data, "add_hsa"),
        enrollment_type: s
            .data
            .get("enrollment_type")
            .and_then(Value::as_str)
            .map(str::to_string),
        enrollment_reason_id: s.data.get("enrollment_reason_id").and_then(Value::as_i64),
    }))
}

/// A plan selection (spec part 1, 3 "Plan selection (save)").
#[derive(Debug, Deserialize, ToSchema)]
pub struct Selection {
    /// The chosen plan; null to go on without a plan of this type.
    pub selected_plan_id: Option<i64>,
    /// Medical: add a health savings account (HSA-eligible plans).
    #[serde(default)]
    pub add_hsa: Option<bool>,
    /// Dental: accepted for compatibility; a plan that includes vision decides it.
    #[serde(default)]
    pub skip_vision: Option<bool>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Selected {
    pub next: super::wire::Step,
    pub application: ActiveApplication,
}

#[utoipa::path(put, path = "/api/plans/{plan_type}", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical, 2 dental, 3 vision")),
    request_body = Selection,
    responses((status = 200, body = Selected),
              (status = 422, description = "`{errors: {selected_plan_id: [...]}}`: not a plan quoted here, or going on without one is not allowed")))]
async fn save_selection(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(plan_type): Path<u8>,
    Json(sel): Json<Selection>,
) -> ApiResult<(Wrote, Json<Selected>)> {
    let (s, kind, step) = open_plan_step(&app, &session, &host, plan_type).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let refuse = |m: &str| {
        let mut errors = std::collections::BTreeMap::new();
        errors.insert("selected_plan_id".to_string(), vec![m.to_string()]);
        ApiError::Validation(errors)
    };
    let snapshot = match sel.selected_plan_id {
        None => Value::Null,
        Some(plan_id) => {
            let tiers = crate::app::applying::care::drug_tiers(&app.pool, &s.data)
                .await
                .map_err(anyhow::Error::new)?;
            let (h, care) =
                crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
            let list = quoted(&s, kind, &h)?;
            let (p, r) = list
                .iter()
                .find(|(p, _)| p.id == plan_id)
                .ok_or_else(|| refuse(enrollflow_engine::PLAN_NOT_QUOTED))?;
            let mut snapshot = PlanSnapshot::new(s.bundle.engine.catalog(), p, r.total).to_value();
            // The chosen plan's yearly estimate as the household saw it (More Info shows it).
            if let (Some(y), Some(m)) = (
                s.bundle.engine.yearly_cost_with(
                    p,
                    r,
                    &care,
                    &crate::app::applying::care::tiers_on(&tiers, p.id),
                ),
                snapshot.as_object_mut(),
            ) {
                m.insert(
                    "yearly_cost".into(),
                    serde_json::to_value(YearlyCostView::from(y)).map_err(anyhow::Error::new)?,
                );
            }
            snapshot
        }
    };
    let mut input = Map::new();
    if let Some(v) = sel.add_hsa {
        input.insert("add_hsa".into(), Value::Bool(v));
    }
    if let Some(v) = sel.skip_vision {
        input.insert("skip_vision".into(), Value::Bool(v));
    }
    let input = Value::Object(input);
    let (updates, next) = match crate::rules::evaluation::run(&s.budget, || {
        s.bundle
            .engine
            .select(&step.id, &snapshot, &input, &s.data, &s.ctx)
    })
    .await
    .map_err(eval_error)?
    {
        Chosen::Done { updates, next } => (updates, next),
        Chosen::Refused(message) => return Err(refuse(&message)),
    };
    let row = super::open::store_updates(&app, &s, id, updates).await?;
    Ok((
        Wrote::row(&row),
        Json(Selected {
            next: next.into(),
            application: row.into(),
        }),
    ))
}

/// A county choice (spec part 1, 3 "County option").
#[derive(Debug, Serialize, ToSchema)]
pub struct CountyOption {
    pub id: u16,
    pub description: String,
}

#[utoipa::path(get, path = "/api/application/{application_id}/countyList/{zip}", tag = "application",
    params(("application_id" = Uuid, Path, description = "The session's application"),
           ("zip" = String, Path, description = "A 5-digit ZIP code")),
    responses((status = 200, description = "The ZIP's counties; empty for an unknown ZIP", body = Vec<CountyOption>),
              (status = 400, description = "Not a 5-digit ZIP")))]
async fn county_list(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path((id, zip)): Path<(Uuid, String)>,
) -> ApiResult<Json<Vec<CountyOption>>> {
    let (s, zip) = zip_lookup(&app, &session, &host, id, &zip).await?;
    Ok(Json(county_options(s.bundle.engine.catalog(), zip)))
}

/// A look-up by ZIP for the session's own application: a 5-digit ZIP (else 400) and the
/// application the path names (else 403).
async fn zip_lookup(
    app: &AppState,
    session: &LiveSession,
    host: &SiteHost,
    id: Uuid,
    zip: &str,
) -> ApiResult<(OpenStep, Zip)> {
    let zip: Zip = zip
        .parse()
        .map_err(|_| ApiError::BadRequest("A ZIP code has 5 digits.".into()))?;
    let s = open_application(app, session, host).await?;
    if s.id != Some(id) {
        return Err(ApiError::Forbidden);
    }
    Ok((s, zip))
}

/// The catalog's counties of a ZIP as the spec's county options (none for a ZIP outside the
/// catalog's state).
fn county_options(cat: &Catalog, zip: Zip) -> Vec<CountyOption> {
    cat.counties_for_zip(zip)
        .into_iter()
        .map(|c| CountyOption {
            id: c.id,
            description: c.name.clone(),
        })
        .collect()
}

#[utoipa::path(get, path = "/api/application/{application_id}/billingStateZip/{state}/{zip}", tag = "application",
    params(("application_id" = Uuid, Path, description = "The session's application"),
           ("state" = String, Path, description = "A two-letter state code (DC included)"),
           ("zip" = String, Path, description = "A 5-digit ZIP code")),
    responses((status = 200, description = "The counties to choose for a Michigan billing ZIP; empty for another state's ZIP (no county is chosen)", body = Vec<CountyOption>),
              (status = 400, description = "Not a 5-digit ZIP or not a state code"),
              (status = 422, description = "`{\"errors\": {\"billing_zip\": [message]}}`: the ZIP is not one of the state's")))]
/// The billing address's counties (spec part 1, 7 `billingStateZip/{state}/{zip}`): a billing
/// address may be outside Michigan, but its ZIP must belong to its state
/// (`rules/zip_states.yaml`).
async fn billing_state_zip(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path((id, state, zip)): Path<(Uuid, String, String)>,
) -> ApiResult<Json<Vec<CountyOption>>> {
    if state.len() != 2 || !state.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(ApiError::BadRequest(
            "A state is its two-letter code, e.g. MI.".into(),
        ));
    }
    let (s, zip) = zip_lookup(&app, &session, &host, id, &zip).await?;
    let engine = &s.bundle.engine;
    let Some(prefixes) = engine.tables()["zip_states"]["states"][state.as_str()].as_array() else {
        return Err(ApiError::BadRequest(format!(
            "`{state}` is not a state code."
        )));
    };
    if !prefixes.iter().any(|p| p.as_str() == Some(zip.prefix())) {
        return Err(ApiError::Validation(
            [(
                "billing_zip".to_string(),
                vec![format!("{zip} is not a ZIP code of {state}.")],
            )]
            .into(),
        ));
    }
    // The catalog's counties are its state's (Michigan's): another state's ZIP has none.
    Ok(Json(county_options(engine.catalog(), zip)))
}
