//! The household's care needs as the application stores them (its `care`: each member's expected
//! use, the doctors and the drugs), and the formulary tiers of its drugs on each plan, which the
//! yearly estimates price.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::coverage::lookup;
use crate::db::PgPool;

/// The key of the application's document that holds its care needs.
pub const CARE: &str = "care";

/// A part of the stored care needs (`doctors`, `drugs`), empty when there is none.
pub fn stored<T: for<'de> Deserialize<'de>>(data: &Value, key: &str) -> Vec<T> {
    data.get(CARE)
        .and_then(|c| c.get(key))
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}

#[derive(Deserialize)]
struct StoredDrug {
    rxnorm_id: String,
}

/// By catalog plan: the formulary tiers of the household's drugs the plan covers (empty when the
/// household lists none).
pub async fn drug_tiers(
    pool: &PgPool,
    data: &Value,
) -> crate::db::Result<BTreeMap<i64, Vec<String>>> {
    let drugs: Vec<StoredDrug> = stored(data, "drugs");
    if drugs.is_empty() {
        return Ok(BTreeMap::new());
    }
    let ids: Vec<String> = drugs.into_iter().map(|d| d.rxnorm_id).collect();
    let covering = lookup::covering(pool, &[], &ids).await?;
    let mut out: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for id in &ids {
        for (plan, listed) in covering.formularies.get(id).into_iter().flatten() {
            out.entry(*plan).or_default().push(listed.tier.clone());
        }
    }
    Ok(out)
}

/// The formulary tiers of the household's drugs on one plan, as `drug_tiers` gives them.
pub fn tiers_on(drug_tiers: &BTreeMap<i64, Vec<String>>, plan: i64) -> Vec<&str> {
    drug_tiers
        .get(&plan)
        .map(|t| t.iter().map(String::as_str).collect())
        .unwrap_or_default()
}
