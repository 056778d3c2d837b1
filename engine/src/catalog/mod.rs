//! The plan catalog (`rules/catalog/`): carriers, counties and ZIPs, age curves, and each plan
//! year's medical, dental and vision plans. Checked at load; see `rules/README.md` for the formats.
//!
//! Carriers, counties, ZIPs, age curves, and each year's plans, legal limits and crosswalk from
//! the year before (`crosswalk`), with their look-ups (`Catalog::names`: a plan's carrier,
//! network and metal names). `PlanKind` (`FromStr`, `Display`) is the one name of medical, dental
//! and vision for files, snapshots and the agents' product filter.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod crosswalk;
mod load;

pub use crosswalk::{Crosswalk, Crosswalked, Renewal, Successor};
pub use load::load;

use crate::money::Money;
use crate::zip::Zip;

/// Plan kinds as the API numbers them (spec: medical 1, dental 2, vision 3 — annual vision is 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanKind {
    Medical,
    Dental,
    Vision,
}

impl PlanKind {
    pub fn from_type(t: u8) -> Option<Self> {
        match t {
            1 => Some(Self::Medical),
            2 => Some(Self::Dental),
            3 | 4 => Some(Self::Vision),
            _ => None,
        }
    }
    pub fn type_id(self) -> u8 {
        match self {
            Self::Medical => 1,
            Self::Dental => 2,
            Self::Vision => 3,
        }
    }
    /// Every kind, in the wizard's order.
    pub const ALL: [PlanKind; 3] = [Self::Medical, Self::Dental, Self::Vision];

    /// The kind's one name: the catalog's file names, the application's `{key}_plan` snapshots,
    /// the agents' product filter (`filterProduct=dental`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Medical => "medical",
            Self::Dental => "dental",
            Self::Vision => "vision",
        }
    }
}

impl std::fmt::Display for PlanKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::str::FromStr for PlanKind {
    type Err = String;

    /// `medical`, `dental` or `vision`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|k| k.key() == s)
            .ok_or_else(|| format!("`{s}` is not medical, dental or vision"))
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct DrugList {
    pub older: String,
    pub newer: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Carrier {
    pub id: u8,
    pub name: String,
    #[serde(default)]
    pub short_name: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub drug_list: Option<DrugList>,
    #[serde(default)]
    pub provider_directory: Option<String>,
    /// The agent flag that makes the carrier quoted (`display_bcbsm`, `display_ph`); none: always.
    #[serde(default)]
    pub agent_flag: Option<String>,
    /// The carrier's own family rule and tobacco age; none: the catalog's (`rating.yaml`).
    #[serde(default)]
    pub rating: Option<RatingRule>,
}

/// Who of a household is charged and who pays the tobacco factor (`rules/catalog/rating.yaml`,
/// or a carrier's `rating:`): of the children under `child_age`, only the `children_charged`
/// oldest are charged (children of that age or older always are); members of `tobacco_age` or
/// older who use tobacco pay the plan's tobacco factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RatingRule {
    pub children_charged: usize,
    pub child_age: i64,
    pub tobacco_age: i64,
}

impl Default for RatingRule {
    /// What a catalog without rules charges: everyone, no tobacco factor. A catalog always has
    /// `rating.yaml` (a missing one is a load problem), so this serves only an empty catalog.
    fn default() -> Self {
        RatingRule {
            children_charged: usize::MAX,
            child_age: 0,
            tobacco_age: i64::MAX,
        }
    }
}

impl RatingRule {
    /// Who of the young children is charged: "the three oldest children".
    pub fn oldest_children(&self) -> String {
        self.oldest_children_in(&|t| t.to_string())
    }

    /// [`Self::oldest_children`], each text through `text` (a language's catalogs).
    pub fn oldest_children_in(&self, text: &dyn Fn(&str) -> String) -> String {
        match OLDEST_CHILDREN.get(self.children_charged) {
            Some(w) => text(w),
            None => text(OLDEST_N).replace("{n}", &self.children_charged.to_string()),
        }
    }

    /// The rule in words: "only the three oldest children under 21 are charged".
    pub fn family_rule_text(&self) -> String {
        self.family_rule_in(&|t| t.to_string())
    }

    /// [`Self::family_rule_text`], each text through `text` (a language's catalogs).
    pub fn family_rule_in(&self, text: &dyn Fn(&str) -> String) -> String {
        let rule = if self.children_charged == 1 {
            ONLY_ONE_CHARGED
        } else {
            ONLY_SOME_CHARGED
        };
        text(rule)
            .replace("{who}", &self.oldest_children_in(text))
            .replace("{age}", &self.child_age.to_string())
    }
}

const OLDEST_CHILDREN: [&str; 6] = [
    "no children",
    "the oldest child",
    "the two oldest children",
    "the three oldest children",
    "the four oldest children",
    "the five oldest children",
];
const OLDEST_N: &str = "the {n} oldest children";
const ONLY_ONE_CHARGED: &str = "only {who} under {age} is charged";
const ONLY_SOME_CHARGED: &str = "only {who} under {age} are charged";
/// The texts of the family rule in words, for the catalogs.
pub const RULE_TEXTS: [&str; 9] = [
    OLDEST_CHILDREN[0],
    OLDEST_CHILDREN[1],
    OLDEST_CHILDREN[2],
    OLDEST_CHILDREN[3],
    OLDEST_CHILDREN[4],
    OLDEST_CHILDREN[5],
    OLDEST_N,
    ONLY_ONE_CHARGED,
    ONLY_SOME_CHARGED,
];

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Choice {
    pub id: Value,
    pub name: String,
    /// Metals only: plans of this metal are quoted only when every member is this age or
    /// younger at the effective date (catastrophic plans: under 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_age: Option<i64>,
    /// Networks only: the network pays for care outside it (a PPO). Where it does not (an HMO, an
    /// EPO), out-of-network deductibles of 0 are shown as "Not covered".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub out_of_network: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct County {
    pub id: u16,
    #[serde(default)]
    pub fips: Option<String>,
    pub name: String,
    #[serde(default)]
    pub rating_area: Option<u8>,
}

/// Factors in thousandths by age band.
#[derive(Debug, Clone)]
pub struct AgeCurve(pub(crate) Vec<(i64, i64, i64)>);

impl AgeCurve {
    /// The factor (thousandths) for an age.
    pub fn factor(&self, age: i64) -> Option<i64> {
        self.0
            .iter()
            .find(|(from, to, _)| age >= *from && age <= *to)
            .map(|b| b.2)
    }
}

/// A plan as quoting uses it.
#[derive(Debug, Clone)]
pub struct Plan {
    pub id: i64,
    pub kind: PlanKind,
    pub plan_year: i32,
    pub name: String,
    pub carrier: u8,
    pub network: Option<u8>,
    pub metal: Option<u8>,
    pub hsa: bool,
    pub includes_vision: bool,
    pub plan_type: u8,
    pub ded_ind: Option<Money>,
    pub ded_fam: Option<Money>,
    pub ded_out_ind: Option<Money>,
    pub ded_out_fam: Option<Money>,
    pub coins: Option<f64>,
    pub max_ind_oop: Option<Money>,
    pub max_2p_oop: Option<Money>,
    pub max_fam_oop: Option<Money>,
    pub annual_max: Option<Money>,
    pub eye_exam_copay: Option<Money>,
    pub frames_contact_allowance: Option<Money>,
    pub eye_exam_frequency: Option<String>,
    pub sbc: Option<String>,
    pub baag: Option<String>,
    /// Thousandths.
    pub tobacco_factor: i64,
    pub age_curve: String,
    /// None: sold in every county.
    pub counties: Option<BTreeSet<u16>>,
    /// Age-21 rate by rating area (1-16), in cents.
    pub rates: BTreeMap<u8, Money>,
}

impl Plan {
    /// The deductible and out-of-pocket maximums the yearly estimate steps through (an HSA
    /// plan's deductible is the family's only).
    pub fn amounts(&self) -> crate::yearly_cost::PlanAmounts {
        crate::yearly_cost::PlanAmounts {
            ded_ind: self.ded_ind,
            ded_fam: self.ded_fam,
            max_ind_oop: self.max_ind_oop,
            max_2p_oop: self.max_2p_oop,
            max_fam_oop: self.max_fam_oop,
            aggregate_deductible: self.hsa,
        }
    }

    pub fn sold_in(&self, county: u16) -> bool {
        self.counties.as_ref().is_none_or(|c| c.contains(&county))
    }
}

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub carriers: Vec<Carrier>,
    pub drug_list_newer_from: i64,
    pub metals: Vec<Choice>,
    pub networks: Vec<Choice>,
    pub medical_attributes: Vec<Choice>,
    pub dental_attributes: Vec<Choice>,
    /// Price-slider step by plan type (medical 10, dental 5, vision 1).
    pub price_steps: BTreeMap<u8, i64>,
    pub curves: BTreeMap<String, AgeCurve>,
    pub counties: BTreeMap<u16, County>,
    pub out_of_state: Option<County>,
    pub zips: HashMap<Zip, Vec<u16>>,
    /// By plan year, by kind: plans in id order.
    pub plans: BTreeMap<i32, BTreeMap<PlanKind, Vec<Plan>>>,
    /// The legal limits by plan year (`<year>/limits.yaml`).
    pub limits: BTreeMap<i32, Limits>,
    /// The family rule and tobacco age of every carrier without its own (`rating.yaml`).
    pub rating: RatingRule,
    /// By plan year: where each plan of the year before renews (`<year>/crosswalk.yaml`).
    pub crosswalks: BTreeMap<i32, Crosswalk>,
    /// By medical plan id: its cost sharing per service (`<year>/cost_sharing.yaml`), for the
    /// yearly estimate; a year without the file has none.
    pub cost_sharing: BTreeMap<i64, crate::yearly_cost::CostSharing>,
}

/// The legal limits of a plan year (`rules/catalog/<year>/limits.yaml`): yearly amounts in
/// dollars. Every plan of the year is checked against them at load.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub plan_year: i32,
    /// The ACA annual limit on cost sharing, for every medical plan.
    pub medical: MedicalLimits,
    /// HSA-qualifying high-deductible plans (`hsa: true`); needed when the year has one.
    #[serde(default)]
    pub hsa: Option<HsaLimits>,
    /// Stand-alone dental plans' pediatric out-of-pocket cap; checked when given.
    #[serde(default)]
    pub dental: Option<DentalLimits>,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MedicalLimits {
    pub max_oop: SelfFamily,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HsaLimits {
    pub min_deductible: SelfFamily,
    pub max_oop: SelfFamily,
}

#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DentalLimits {
    pub max_oop: Children,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SelfFamily {
    pub self_only: Money,
    pub family: Money,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Children {
    pub one_child: Money,
    pub two_or_more: Money,
}

/// The name of an option of a list (a network, a metal) by its id.
pub fn choice_name(list: &[Choice], id: u8) -> Option<&str> {
    list.iter().find(|c| c.id == id).map(|c| c.name.as_str())
}

/// What [`Catalog::names`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanNames<'c> {
    pub carrier: Option<&'c str>,
    pub network: Option<&'c str>,
    pub metal: Option<&'c str>,
}

impl Catalog {
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    pub fn carrier(&self, id: u8) -> Option<&Carrier> {
        self.carriers.iter().find(|c| c.id == id)
    }

    /// A carrier's family rule and tobacco age: its own, or the catalog's.
    pub fn rating_rule(&self, carrier: u8) -> RatingRule {
        self.carrier(carrier)
            .and_then(|c| c.rating)
            .unwrap_or(self.rating)
    }

    /// The carriers an agent with these flags on offers: those whose `agent_flag` is among them,
    /// and those without one.
    pub fn offered_carriers<S: AsRef<str>>(&self, flags: &[S]) -> Vec<u8> {
        self.carriers
            .iter()
            .filter(|c| {
                c.agent_flag
                    .as_deref()
                    .is_none_or(|f| flags.iter().any(|x| x.as_ref() == f))
            })
            .map(|c| c.id)
            .collect()
    }

    /// A plan's carrier, network and metal names (None where the plan has none or the catalog
    /// does not name it).
    /// A chosen plan as rules see it and applications store it under `{kind}_plan` (the
    /// server's `PlanSnapshot` has these fields): the household's monthly `rate` when chosen.
    pub fn snapshot(&self, p: &Plan, rate: crate::money::Money) -> serde_json::Value {
        let names = self.names(p);
        serde_json::json!({
            "id": p.id,
            "name": p.name,
            "rate": rate,
            "carrier": p.carrier,
            "carrier_name": names.carrier,
            "network": p.network,
            "network_name": names.network,
            "metal": p.metal,
            "metal_name": names.metal,
            "hsa": p.hsa,
            "includes_vision": p.includes_vision,
            "plan_type": p.plan_type,
            "plan_year": p.plan_year,
            "sbc": p.sbc,
        })
    }

    pub fn names(&self, plan: &Plan) -> PlanNames<'_> {
        let name = |list, id: Option<u8>| id.and_then(|id| choice_name(list, id));
        PlanNames {
            carrier: self.carrier(plan.carrier).map(|c| c.name.as_str()),
            network: name(&self.networks, plan.network),
            metal: name(&self.metals, plan.metal),
        }
    }

    /// The counties of a ZIP, in the catalog's order (out of state last).
    pub fn counties_for_zip(&self, zip: Zip) -> Vec<&County> {
        let Some(ids) = self.zips.get(&zip) else {
            return Vec::new();
        };
        ids.iter()
            .filter_map(|id| {
                self.counties
                    .get(id)
                    .or_else(|| self.out_of_state.as_ref().filter(|o| o.id == *id))
            })
            .collect()
    }

    pub fn rating_area(&self, county: u16) -> Option<u8> {
        self.counties.get(&county).and_then(|c| c.rating_area)
    }

    /// The oldest age a plan's metal allows, if it limits ages.
    pub fn max_age(&self, plan: &Plan) -> Option<i64> {
        let metal = plan.metal?;
        self.metals
            .iter()
            .find(|m| m.id == metal)
            .and_then(|m| m.max_age)
    }

    pub fn plan(&self, id: i64) -> Option<&Plan> {
        self.plans
            .values()
            .flat_map(|k| k.values())
            .flatten()
            .find(|p| p.id == id)
    }

    pub fn plans(&self, year: i32, kind: PlanKind) -> &[Plan] {
        self.plans
            .get(&year)
            .and_then(|k| k.get(&kind))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether a plan has no out-of-network coverage: its network pays for no care outside it (an
    /// HMO, an EPO) and its out-of-network deductibles are the catalog's 0 for that. Shown as "Not
    /// covered", never as "$0 / $0", which reads as free care.
    pub fn not_covered_out_of_network(&self, plan: &Plan) -> bool {
        let covered = plan
            .network
            .and_then(|id| self.networks.iter().find(|n| n.id == id))
            .is_some_and(|n| n.out_of_network);
        !covered && plan.ded_out_ind == Some(Money::ZERO) && plan.ded_out_fam == Some(Money::ZERO)
    }

    /// The drug-list link of a plan (older lists below the split id).
    pub fn drug_list(&self, plan: &Plan) -> Option<&str> {
        let c = self.carrier(plan.carrier)?.drug_list.as_ref()?;
        Some(if plan.id < self.drug_list_newer_from {
            &c.older
        } else {
            &c.newer
        })
    }
}
