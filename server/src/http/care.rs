//! The household's care needs on the medical plan page: each member's expected use of care (low,
//! medium or high), which the plans' yearly estimates follow, and the household's doctors and
//! prescriptions, listed once (found by the typeahead's searches) and checked against each plan.
//! Stored with the application (its `care`), so they travel wherever the application goes
//! (resume and hand-off links).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::yearly_cost::CareUse;

use super::application::ActiveApplication;
use super::error::{ApiError, ApiResult};
use super::host::SiteHost;
use super::plans::open_plan_step;
use super::revision::Wrote;
use crate::app::applying::care::{self, CARE};
use crate::app::applying::open::OpenStep;
use crate::app::applying::quotes::{household_and_care, quoted};
use crate::coverage::lookup::{self, Drug, Provider};
use crate::http::session::LiveSession;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(care_needs, save_care_needs))
        .routes(routes!(search_providers))
        .routes(routes!(search_drugs))
        .routes(routes!(plan_coverage))
}

/// A provider as the typeahead finds it and the household's list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProviderHit {
    /// The National Provider Identifier (10 digits).
    pub npi: String,
    pub name: String,
    pub specialty: Option<String>,
    pub city: Option<String>,
    /// `individual`, `facility` or `group`.
    pub kind: String,
}

impl From<Provider> for ProviderHit {
    fn from(p: Provider) -> Self {
        ProviderHit {
            npi: p.npi,
            name: p.name,
            specialty: p.specialty,
            city: p.city,
            kind: p.kind,
        }
    }
}

/// A drug as the typeahead finds it and the household's list shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DrugHit {
    pub rxnorm_id: String,
    pub name: String,
}

impl From<Drug> for DrugHit {
    fn from(d: Drug) -> Self {
        DrugHit {
            rxnorm_id: d.rxnorm_id,
            name: d.name,
        }
    }
}

/// The household's care needs.
#[derive(Debug, Serialize, ToSchema)]
pub struct CareNeeds {
    /// Each member's expected use of care, in the household's order (subscriber, spouse,
    /// dependents).
    #[schema(value_type = Vec<String>, example = json!(["medium", "high"]))]
    pub uses: Vec<CareUse>,
    pub doctors: Vec<ProviderHit>,
    pub drugs: Vec<DrugHit>,
}

/// The household's care needs to store: the doctors and drugs by id.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CareInput {
    #[schema(value_type = Vec<String>, example = json!(["medium", "high"]))]
    pub uses: Vec<CareUse>,
    /// NPIs (from the provider search).
    #[serde(default)]
    pub doctors: Vec<String>,
    /// RxNorm ids (from the drug search).
    #[serde(default)]
    pub drugs: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CareSaved {
    pub care: CareNeeds,
    pub application: ActiveApplication,
}

/// The doctors or drugs stored with an application.
fn stored<T: for<'de> Deserialize<'de>>(s: &OpenStep, key: &str) -> Vec<T> {
    care::stored(&s.data, key)
}

#[utoipa::path(get, path = "/api/care", tag = "plans",
    responses((status = 200, body = CareNeeds),
              (status = 409, description = "About You is not complete")))]
async fn care_needs(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
) -> ApiResult<Json<CareNeeds>> {
    let (s, _, _) = open_plan_step(&app, &session, &host, PlanKind::Medical.type_id()).await?;
    let (_, care) = crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
    Ok(Json(CareNeeds {
        uses: care.iter().map(|c| c.care_use).collect(),
        doctors: stored(&s, "doctors"),
        drugs: stored(&s, "drugs"),
    }))
}

/// The most doctors, and the most drugs, a household lists.
const MOST_LISTED: usize = 20;

fn refuse(field: &str, message: &str) -> ApiError {
    let mut errors = BTreeMap::new();
    errors.insert(field.to_string(), vec![message.to_string()]);
    ApiError::Validation(errors)
}

fn unique(ids: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

#[utoipa::path(put, path = "/api/care", tag = "plans",
    request_body = CareInput,
    responses((status = 200, body = CareSaved),
              (status = 422, description = "`{errors: {uses|doctors|drugs: [...]}}`: not one use for each member, an unknown doctor or drug, too many"),
              (status = 409, description = "About You is not complete")))]
async fn save_care_needs(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Json(input): Json<CareInput>,
) -> ApiResult<(Wrote, Json<CareSaved>)> {
    let (s, _, _) = open_plan_step(&app, &session, &host, PlanKind::Medical.type_id()).await?;
    let id = s.id.ok_or(ApiError::Forbidden)?;
    let (h, _) = crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
    if input.uses.len() != h.members.len() {
        return Err(refuse(
            "uses",
            "Please choose the expected use of care of each member.",
        ));
    }
    let (npis, drug_ids) = (unique(&input.doctors), unique(&input.drugs));
    if npis.len() > MOST_LISTED || drug_ids.len() > MOST_LISTED {
        return Err(refuse(
            if npis.len() > MOST_LISTED {
                "doctors"
            } else {
                "drugs"
            },
            "Please list at most 20 doctors and 20 prescriptions.",
        ));
    }
    let doctors = lookup::providers(&app.pool, &npis)
        .await
        .map_err(anyhow::Error::new)?
        .ok_or_else(|| refuse("doctors", "Please choose each doctor from the list."))?;
    let drugs = lookup::drugs(&app.pool, &drug_ids)
        .await
        .map_err(anyhow::Error::new)?
        .ok_or_else(|| refuse("drugs", "Please choose each prescription from the list."))?;
    let doctors: Vec<ProviderHit> = doctors.into_iter().map(Into::into).collect();
    let drugs: Vec<DrugHit> = drugs.into_iter().map(Into::into).collect();
    let mut care = s
        .data
        .get(CARE)
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    care.insert("uses".into(), to_json(&input.uses)?);
    care.insert("doctors".into(), to_json(&doctors)?);
    care.insert("drugs".into(), to_json(&drugs)?);
    let row =
        super::open::store_updates(&app, &s, id, [(CARE.to_string(), Value::Object(care))]).await?;
    Ok((
        Wrote::row(&row),
        Json(CareSaved {
            care: CareNeeds {
                uses: input.uses,
                doctors,
                drugs,
            },
            application: row.into(),
        }),
    ))
}

fn to_json<T: Serialize>(v: &T) -> ApiResult<Value> {
    Ok(serde_json::to_value(v).map_err(anyhow::Error::new)?)
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SearchQuery {
    /// A name, a specialty or a city (words in any order), or a 10-digit NPI; two characters at
    /// least.
    pub q: String,
}

#[utoipa::path(get, path = "/api/coverage/providers", tag = "plans", params(SearchQuery),
    responses((status = 200, body = Vec<ProviderHit>, description = "At most 10 providers")))]
async fn search_providers(
    State(app): State<AppState>,
    _session: LiveSession,
    Query(q): Query<SearchQuery>,
) -> ApiResult<Json<Vec<ProviderHit>>> {
    let found = lookup::search_providers(&app.pool, &q.q)
        .await
        .map_err(anyhow::Error::new)?;
    Ok(Json(found.into_iter().map(Into::into).collect()))
}

#[utoipa::path(get, path = "/api/coverage/drugs", tag = "plans", params(SearchQuery),
    responses((status = 200, body = Vec<DrugHit>, description = "At most 10 drugs")))]
async fn search_drugs(
    State(app): State<AppState>,
    _session: LiveSession,
    Query(q): Query<SearchQuery>,
) -> ApiResult<Json<Vec<DrugHit>>> {
    let found = lookup::search_drugs(&app.pool, &q.q)
        .await
        .map_err(anyhow::Error::new)?;
    Ok(Json(found.into_iter().map(Into::into).collect()))
}

/// Whether a plan has one of the household's doctors in its network.
#[derive(Debug, Serialize, ToSchema)]
pub struct DoctorCovered {
    pub npi: String,
    pub covered: bool,
}

/// Whether a plan's formulary lists one of the household's drugs, its tier and its limits.
#[derive(Debug, Serialize, ToSchema)]
pub struct DrugCovered {
    pub rxnorm_id: String,
    pub covered: bool,
    /// The issuer's tier (`GENERIC`, `PREFERRED-BRAND`, …); null when not covered.
    pub tier: Option<String>,
    pub prior_authorization: bool,
    pub step_therapy: bool,
    pub quantity_limit: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PlanCoverage {
    pub plan_id: i64,
    pub doctors: Vec<DoctorCovered>,
    pub drugs: Vec<DrugCovered>,
    /// Every doctor in network and every drug on the formulary.
    pub covers_all: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CoverageAsOf {
    pub carrier_name: String,
    /// YYYY-MM-DD: the date the carrier's files are as of.
    pub as_of: String,
}

/// The household's doctors and drugs against each plan quoted now.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanCoverageList {
    pub as_of: Vec<CoverageAsOf>,
    pub plans: Vec<PlanCoverage>,
}

#[utoipa::path(get, path = "/api/plans/{plan_type}/coverage", tag = "plans",
    params(("plan_type" = u8, Path, description = "1 medical")),
    responses((status = 200, body = PlanCoverageList),
              (status = 409, description = "About You is not complete")))]
async fn plan_coverage(
    State(app): State<AppState>,
    session: LiveSession,
    host: SiteHost,
    Path(plan_type): Path<u8>,
) -> ApiResult<Json<PlanCoverageList>> {
    let (s, kind, _) = open_plan_step(&app, &session, &host, plan_type).await?;
    let doctors: Vec<ProviderHit> = stored(&s, "doctors");
    let drugs: Vec<DrugHit> = stored(&s, "drugs");
    let npis: Vec<String> = doctors.iter().map(|d| d.npi.clone()).collect();
    let ids: Vec<String> = drugs.iter().map(|d| d.rxnorm_id.clone()).collect();
    let covering = lookup::covering(&app.pool, &npis, &ids)
        .await
        .map_err(anyhow::Error::new)?;
    let (h, _) = crate::rules::evaluation::run(&s.budget, || household_and_care(&s)).await?;
    let list = quoted(&s, kind, &h)?;
    let cat = s.bundle.engine.catalog();
    let mut as_of = Vec::new();
    for (date, plans) in &covering.as_of {
        let mut carriers: Vec<u8> = list
            .iter()
            .filter(|(p, _)| plans.contains(&p.id))
            .map(|(p, _)| p.carrier)
            .collect();
        carriers.sort_unstable();
        carriers.dedup();
        for c in carriers {
            if let Some(carrier) = cat.carrier(c) {
                as_of.push(CoverageAsOf {
                    carrier_name: carrier.name.clone(),
                    as_of: date.to_string(),
                });
            }
        }
    }
    let plans = list
        .iter()
        .map(|(p, _)| {
            let doctors: Vec<DoctorCovered> = npis
                .iter()
                .map(|n| DoctorCovered {
                    npi: n.clone(),
                    covered: covering.in_network(n, p.id),
                })
                .collect();
            let drugs: Vec<DrugCovered> = ids
                .iter()
                .map(|d| match covering.listing(d, p.id) {
                    Some(l) => DrugCovered {
                        rxnorm_id: d.clone(),
                        covered: true,
                        tier: Some(l.tier.clone()),
                        prior_authorization: l.prior_authorization,
                        step_therapy: l.step_therapy,
                        quantity_limit: l.quantity_limit,
                    },
                    None => DrugCovered {
                        rxnorm_id: d.clone(),
                        covered: false,
                        tier: None,
                        prior_authorization: false,
                        step_therapy: false,
                        quantity_limit: false,
                    },
                })
                .collect();
            let covers_all = doctors.iter().all(|d| d.covered) && drugs.iter().all(|d| d.covered);
            PlanCoverage {
                plan_id: p.id,
                doctors,
                drugs,
                covers_all,
            }
        })
        .collect();
    Ok(Json(PlanCoverageList { as_of, plans }))
}
