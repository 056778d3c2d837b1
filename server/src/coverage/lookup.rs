//! What the plan pages ask of the loaded files: the typeahead's matches, a household's doctors
//! and drugs by id, and which quoted plans cover them.

use std::collections::{BTreeMap, BTreeSet};

use crate::db::PgPool;
use time::Date;

use crate::db::coverage as db;
pub use crate::db::coverage::{Drug, Provider};

/// At most this many matches a search.
const MATCHES: i64 = 10;

/// What a search's words may be: at least two characters, at most 60.
fn usable(q: &str) -> Option<&str> {
    let q = q.trim();
    (q.chars().count() >= 2 && q.chars().count() <= 60).then_some(q)
}

pub async fn search_providers(pool: &PgPool, q: &str) -> crate::db::Result<Vec<Provider>> {
    match usable(q) {
        Some(q) => db::search_providers(pool, q, MATCHES).await,
        None => Ok(Vec::new()),
    }
}

pub async fn search_drugs(pool: &PgPool, q: &str) -> crate::db::Result<Vec<Drug>> {
    match usable(q) {
        Some(q) => db::search_drugs(pool, q, MATCHES).await,
        None => Ok(Vec::new()),
    }
}

/// The providers of these NPIs, in the order given; None when one is not loaded.
pub async fn providers(pool: &PgPool, npis: &[String]) -> crate::db::Result<Option<Vec<Provider>>> {
    let found = db::providers_by_npi(pool, npis).await?;
    Ok(npis
        .iter()
        .map(|n| found.iter().find(|p| p.npi == *n).cloned())
        .collect())
}

/// The drugs of these ids, in the order given; None when one is not loaded.
pub async fn drugs(pool: &PgPool, ids: &[String]) -> crate::db::Result<Option<Vec<Drug>>> {
    let found = db::drugs_by_id(pool, ids).await?;
    Ok(ids
        .iter()
        .map(|i| found.iter().find(|d| d.rxnorm_id == *i).cloned())
        .collect())
}

/// A drug on a plan's formulary, and its limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub tier: String,
    pub prior_authorization: bool,
    pub step_therapy: bool,
    pub quantity_limit: bool,
}

/// Which catalog plans have the household's doctors in network and its drugs on formulary.
#[derive(Debug, Clone, Default)]
pub struct Covering {
    /// By NPI: the catalog plans whose networks have the provider.
    pub networks: BTreeMap<String, BTreeSet<i64>>,
    /// By RxNorm id, by catalog plan: the drug's listing.
    pub formularies: BTreeMap<String, BTreeMap<i64, Listed>>,
    /// Each issuer's "as of" date and its catalog plans.
    pub as_of: Vec<(Date, BTreeSet<i64>)>,
}

impl Covering {
    pub fn in_network(&self, npi: &str, plan: i64) -> bool {
        self.networks.get(npi).is_some_and(|p| p.contains(&plan))
    }

    pub fn listing(&self, rxnorm_id: &str, plan: i64) -> Option<&Listed> {
        self.formularies.get(rxnorm_id).and_then(|p| p.get(&plan))
    }
}

pub async fn covering(
    pool: &PgPool,
    npis: &[String],
    drugs: &[String],
) -> crate::db::Result<Covering> {
    let mut c = Covering::default();
    if !npis.is_empty() {
        for r in db::networks_of(pool, npis).await? {
            c.networks.entry(r.npi).or_default().insert(r.plan_id);
        }
    }
    if !drugs.is_empty() {
        for r in db::formularies_of(pool, drugs).await? {
            c.formularies.entry(r.rxnorm_id).or_default().insert(
                r.plan_id,
                Listed {
                    tier: r.drug_tier,
                    prior_authorization: r.prior_authorization,
                    step_therapy: r.step_therapy,
                    quantity_limit: r.quantity_limit,
                },
            );
        }
    }
    c.as_of = db::issuers(pool)
        .await?
        .into_iter()
        .map(|i| (i.as_of, i.plan_ids.into_iter().collect()))
        .collect();
    Ok(c)
}
