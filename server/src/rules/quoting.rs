//! What quoting leaves in an application: the snapshot of a chosen plan, stored under
//! `{kind}_plan` (`medical_plan`, …) when a plan is selected and read back by the plan summary, the
//! printed summary and the dashboard. The snapshot keeps what the consumer saw (the name, the
//! monthly total) even when a later catalog no longer quotes the plan.
//!
//! The snapshot is written by the selection and by the demo data; what every quote starts from is
//! `app::applying::quotes`. Quoting runs in Rust over the in-memory catalog
//! (`enrollflow_engine::rating`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::money::Money;

/// A chosen plan as the application stores it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlanSnapshot {
    pub id: i64,
    pub name: String,
    /// The household's monthly total when the plan was chosen, in dollars.
    #[schema(value_type = f64)]
    pub rate: Money,
    pub carrier: u8,
    #[serde(default)]
    pub carrier_name: Option<String>,
    #[serde(default)]
    pub network: Option<u8>,
    #[serde(default)]
    pub network_name: Option<String>,
    #[serde(default)]
    pub metal: Option<u8>,
    #[serde(default)]
    pub metal_name: Option<String>,
    #[serde(default)]
    pub hsa: bool,
    #[serde(default)]
    pub includes_vision: bool,
    pub plan_type: u8,
    pub plan_year: i32,
    #[serde(default)]
    pub sbc: Option<String>,
}

impl PlanSnapshot {
    pub fn new(cat: &Catalog, p: &Plan, rate: Money) -> Self {
        let names = cat.names(p);
        PlanSnapshot {
            id: p.id,
            name: p.name.clone(),
            rate,
            carrier: p.carrier,
            carrier_name: names.carrier.map(str::to_string),
            network: p.network,
            network_name: names.network.map(str::to_string),
            metal: p.metal,
            metal_name: names.metal.map(str::to_string),
            hsa: p.hsa,
            includes_vision: p.includes_vision,
            plan_type: p.plan_type,
            plan_year: p.plan_year,
            sbc: p.sbc.clone(),
        }
    }

    /// The answer key the snapshot of a kind is stored under.
    pub fn key(kind: PlanKind) -> String {
        format!("{}_plan", kind.key())
    }

    /// The chosen plan of a kind in an application's answers; None when none is chosen (an absent,
    /// null or empty snapshot).
    pub fn stored(data: &Value, kind: PlanKind) -> Option<Self> {
        data.get(Self::key(kind))
            .filter(|v| v.get("id").is_some_and(|id| !id.is_null()))
            .and_then(|v| Self::deserialize(v).ok())
    }

    /// The answer to store.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// The selected plan id of a kind, from the application's snapshot.
pub fn selected_id(data: &Value, kind: PlanKind) -> Option<i64> {
    PlanSnapshot::stored(data, kind).map(|p| p.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_stored_snapshot_reads_back_and_an_empty_one_is_none() {
        let data = json!({
            "medical_plan": {"id": 7, "name": "Gold", "rate": 412.5, "carrier": 1,
                             "plan_type": 1, "plan_year": 2025},
            "dental_plan": {},
            "vision_plan": null,
        });
        let m = PlanSnapshot::stored(&data, PlanKind::Medical).expect("a medical plan");
        assert_eq!(m.rate, Money::from_cents(41250));
        assert_eq!(m.to_value()["rate"], json!(412.5));
        assert!(PlanSnapshot::stored(&data, PlanKind::Dental).is_none());
        assert!(PlanSnapshot::stored(&data, PlanKind::Vision).is_none());
    }
}
