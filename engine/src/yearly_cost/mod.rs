//! A medical plan's estimated total yearly cost for a household: twelve months of premium and
//! what the members are expected to pay for their care at their expected use (low, medium or
//! high), by CMS's out-of-pocket cost calculator (`calc`), with the worst case (the out-of-pocket
//! maximum).
//!
//! The data are the analysts': the expected use per service by age group, sex and use level
//! (`rules/yearly_cost/utilization.yaml`, `Utilization`) and each plan's cost sharing
//! (`rules/catalog/<year>/cost_sharing.yaml`, read by the catalog into `CostSharing`).

pub mod calc;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Money;
use crate::{Diagnostic, yaml};

/// A service category of the calculator's utilization table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Service {
    InpatientFacility,
    InpatientPhysician,
    Ambulance,
    Chiropractic,
    Imaging,
    DiagnosticCardiology,
    Dialysis,
    MedicalEquipment,
    EmergencyRoom,
    EyeExam,
    Chemotherapy,
    Lab,
    MentalHealth,
    OutpatientFacility,
    Other,
    Preventive,
    PrimaryCare,
    Rehabilitation,
    Specialist,
    OutpatientSurgery,
    Ultrasound,
    Xray,
    GenericDrugs,
    PreferredBrandDrugs,
    NonPreferredBrandDrugs,
    SpecialtyDrugs,
}

impl Service {
    pub const COUNT: usize = 26;
    pub const ALL: [Service; Service::COUNT] = [
        Service::InpatientFacility,
        Service::InpatientPhysician,
        Service::Ambulance,
        Service::Chiropractic,
        Service::Imaging,
        Service::DiagnosticCardiology,
        Service::Dialysis,
        Service::MedicalEquipment,
        Service::EmergencyRoom,
        Service::EyeExam,
        Service::Chemotherapy,
        Service::Lab,
        Service::MentalHealth,
        Service::OutpatientFacility,
        Service::Other,
        Service::Preventive,
        Service::PrimaryCare,
        Service::Rehabilitation,
        Service::Specialist,
        Service::OutpatientSurgery,
        Service::Ultrasound,
        Service::Xray,
        Service::GenericDrugs,
        Service::PreferredBrandDrugs,
        Service::NonPreferredBrandDrugs,
        Service::SpecialtyDrugs,
    ];

    /// The four drug tiers (what a plan's drug deductible covers).
    pub fn is_drug(self) -> bool {
        matches!(
            self,
            Service::GenericDrugs
                | Service::PreferredBrandDrugs
                | Service::NonPreferredBrandDrugs
                | Service::SpecialtyDrugs
        )
    }

    /// The key the files use (`primary_care`).
    pub fn key(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// A member's sex as the utilization table has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Sex {
    F,
    M,
}

impl Sex {
    /// The census's answer (`F`, `M`).
    pub fn parse(s: &str) -> Option<Sex> {
        match s {
            "F" => Some(Sex::F),
            "M" => Some(Sex::M),
            _ => None,
        }
    }
}

/// How much care a member expects to use in the year.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CareUse {
    Low,
    #[default]
    Medium,
    High,
}

impl CareUse {
    pub const ALL: [CareUse; 3] = [CareUse::Low, CareUse::Medium, CareUse::High];

    pub fn parse(s: &str) -> Option<CareUse> {
        match s {
            "low" => Some(CareUse::Low),
            "medium" => Some(CareUse::Medium),
            "high" => Some(CareUse::High),
            _ => None,
        }
    }
}

/// One service's expected use: the allowed cost of a unit (a visit, a day, a script) and the
/// units a year.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Usage {
    pub unit_cost: f64,
    pub per_year: f64,
}

impl<'de> Deserialize<'de> for Usage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (unit_cost, per_year) = <(f64, f64)>::deserialize(d)?;
        Ok(Usage {
            unit_cost,
            per_year,
        })
    }
}

/// A service's cost sharing. Dollars and a share of 0 to 1 (the files write percent).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ServiceShare {
    pub copay: f64,
    pub coinsurance: f64,
    /// The member pays the whole cost until the deductible is met.
    pub deductible: bool,
    /// Before the deductible is met, the copay's part of the cost counts toward the out-of-pocket
    /// maximum only, the rest toward the deductible.
    pub copay_before_deductible: bool,
    /// A hospital stay's copay is per day (else per stay).
    pub per_day: bool,
    /// The days a per-day copay is charged for, at most.
    pub max_days: Option<f64>,
}

/// What a deductible or an out-of-pocket maximum covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Combined,
    Medical,
    Drugs,
}

/// A deductible or an out-of-pocket maximum, in dollars: one person's alone, each member's in a
/// family (None: the family's amount only, an aggregate one), the family's.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    pub scope: Scope,
    pub individual: f64,
    #[serde(default)]
    pub per_person: Option<f64>,
    pub family: f64,
}

/// A plan's cost sharing per service and what it pays before anything else
/// (`<year>/cost_sharing.yaml`, the plan's design with its own changes).
#[derive(Debug, Clone, PartialEq)]
pub struct CostSharing {
    pub services: [ServiceShare; Service::COUNT],
    pub free_primary_care_visits: f64,
    pub specialty_max_per_script: Option<f64>,
    /// A deductible of the drugs apart from the plan's (which then covers medical care only).
    pub drug_deductible: Option<(Money, Money)>,
}

/// The expected use per service by age group, sex and use level.
#[derive(Debug, Clone, Default)]
pub struct Utilization {
    pub source: String,
    /// (name, from age), youngest first.
    pub age_groups: Vec<(String, i64)>,
    table: BTreeMap<(usize, Sex, CareUse), [Usage; Service::COUNT]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UtilizationFile {
    source: String,
    age_groups: Vec<AgeGroupEntry>,
    services: BTreeMap<Service, serde_json::Value>,
    table: BTreeMap<String, BySex>,
}

/// A table's rows of an age group: by sex, then use level, each service's use.
type BySex = BTreeMap<Sex, BTreeMap<CareUse, BTreeMap<Service, Usage>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgeGroupEntry {
    name: String,
    from: i64,
}

/// How known prescriptions are priced (`rules/yearly_cost/drug_tiers.yaml`): the drug service an
/// issuer's formulary tier counts as (None: no cost to the member), and the fills a year.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrugTiers {
    pub fills_a_year: f64,
    otherwise: TierService,
    tiers: BTreeMap<String, TierService>,
}

/// A drug service, or `none`.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
enum TierService {
    Service(Service),
    None(NoneWord),
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum NoneWord {
    None,
}

impl Default for DrugTiers {
    fn default() -> Self {
        DrugTiers {
            fills_a_year: 0.0,
            otherwise: TierService::None(NoneWord::None),
            tiers: BTreeMap::new(),
        }
    }
}

/// The file of the drug tiers' pricing.
pub const DRUG_TIERS_FILE: &str = "rules/yearly_cost/drug_tiers.yaml";

impl DrugTiers {
    pub fn read(path: &str, text: &str) -> Result<DrugTiers, Diagnostic> {
        let t: DrugTiers = yaml::parse(path, text)?;
        let drug = |s: &TierService| match s {
            TierService::Service(s) => s.is_drug(),
            TierService::None(_) => true,
        };
        if !(t.fills_a_year >= 0.0 && t.fills_a_year <= 366.0) {
            return Err(Diagnostic::new(path, 1, 1, "fills_a_year is 0 to 366"));
        }
        if let Some((tier, _)) = t.tiers.iter().find(|(_, s)| !drug(s)) {
            return Err(Diagnostic::new(
                path,
                1,
                1,
                format!(
                    "tier {tier}: a drug service (generic_drugs, preferred_brand_drugs, non_preferred_brand_drugs, specialty_drugs) or none"
                ),
            ));
        }
        if !drug(&t.otherwise) {
            return Err(Diagnostic::new(
                path,
                1,
                1,
                "otherwise: a drug service or none",
            ));
        }
        Ok(t)
    }

    /// The drug service a formulary tier is priced as; None: not priced.
    pub fn service(&self, tier: &str) -> Option<Service> {
        match self.tiers.get(tier).unwrap_or(&self.otherwise) {
            TierService::Service(s) => Some(*s),
            TierService::None(_) => None,
        }
    }
}

/// The file of the expected use.
pub const UTILIZATION_FILE: &str = "rules/yearly_cost/utilization.yaml";

impl Utilization {
    /// Reads the table; every age group, sex and use level must give every service.
    pub fn read(path: &str, text: &str) -> Result<Utilization, Diagnostic> {
        let f: UtilizationFile = yaml::parse(path, text)?;
        let bad = |m: String| Diagnostic::new(path, 1, 1, m);
        let mut age_groups: Vec<(String, i64)> =
            f.age_groups.into_iter().map(|g| (g.name, g.from)).collect();
        age_groups.sort_by_key(|g| g.1);
        if age_groups.first().map(|g| g.1) != Some(0) {
            return Err(bad("the youngest age group must start at 0".into()));
        }
        if let Some(s) = Service::ALL.iter().find(|s| !f.services.contains_key(s)) {
            return Err(bad(format!("`services` lacks {}", s.key())));
        }
        let mut table = BTreeMap::new();
        for (gi, (name, _)) in age_groups.iter().enumerate() {
            for sex in [Sex::F, Sex::M] {
                for level in CareUse::ALL {
                    let row = f
                        .table
                        .get(name)
                        .and_then(|by_sex| by_sex.get(&sex))
                        .and_then(|by_level| by_level.get(&level))
                        .ok_or_else(|| {
                            bad(format!(
                                "`table` lacks age group {name}, sex {sex:?}, use {level:?}"
                            ))
                        })?;
                    let mut uses = [Usage::default(); Service::COUNT];
                    for s in Service::ALL {
                        let u = row.get(&s).ok_or_else(|| {
                            bad(format!(
                                "`table` {name} {sex:?} {level:?} lacks {}",
                                s.key()
                            ))
                        })?;
                        if u.unit_cost.is_nan()
                            || u.per_year.is_nan()
                            || u.unit_cost < 0.0
                            || u.per_year < 0.0
                        {
                            return Err(bad(format!(
                                "`table` {name} {sex:?} {level:?} {}: a cost and a use are never negative",
                                s.key()
                            )));
                        }
                        uses[s as usize] = *u;
                    }
                    table.insert((gi, sex, level), uses);
                }
            }
        }
        Ok(Utilization {
            source: f.source,
            age_groups,
            table,
        })
    }

    /// A member's expected use; None when the table is empty.
    pub fn of(&self, age: i64, sex: Sex, level: CareUse) -> Option<&[Usage; Service::COUNT]> {
        let group = self.age_groups.iter().rposition(|g| age >= g.1)?;
        self.table.get(&(group, sex, level))
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

/// A member's sex (None when not known) and expected use of care, from the flow's household.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemberCare {
    pub sex: Option<Sex>,
    pub care_use: CareUse,
}

/// A member as the estimate needs them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Person {
    pub age: i64,
    pub sex: Sex,
    pub care_use: CareUse,
}

/// A plan's estimated yearly cost for a household, in cents; its parts sum exactly to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct YearlyCost {
    /// Twelve months of the premium.
    pub premium: Money,
    /// Expected to be paid toward the deductible.
    pub deductible: Money,
    /// Expected copays and coinsurance.
    pub cost_sharing: Money,
    /// premium + deductible + cost_sharing.
    pub total: Money,
    /// Twelve months of the premium and the out-of-pocket maximum.
    pub worst_case: Money,
}

/// A plan's deductible and out-of-pocket maximums as its catalog entry gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanAmounts {
    pub ded_ind: Option<Money>,
    pub ded_fam: Option<Money>,
    pub max_ind_oop: Option<Money>,
    pub max_2p_oop: Option<Money>,
    pub max_fam_oop: Option<Money>,
    /// The family's deductible only, none of each member's (an HSA plan's: a member alone may not
    /// meet less than the family minimum of a high-deductible plan).
    pub aggregate_deductible: bool,
}

/// The plan's terms for the calculation: its deductible (of everything, or of medical care when
/// the plan has a drug deductible) and out-of-pocket maximum from its catalog entry, each
/// member's own where the plan gives a family's (embedded; an HSA plan's deductible is the
/// family's only), and the drug deductible if any.
pub fn limits(plan: &PlanAmounts, cs: &CostSharing, members: usize) -> (Vec<Limit>, Vec<Limit>) {
    let mut deductibles = Vec::new();
    if let (Some(ind), fam) = (plan.ded_ind, plan.ded_fam) {
        deductibles.push(Limit {
            scope: if cs.drug_deductible.is_some() {
                Scope::Medical
            } else {
                Scope::Combined
            },
            individual: ind.dollars(),
            per_person: (!plan.aggregate_deductible).then(|| ind.dollars()),
            family: fam.map_or(ind.dollars(), Money::dollars),
        });
    }
    if let Some((ind, fam)) = cs.drug_deductible {
        deductibles.push(Limit {
            scope: Scope::Drugs,
            individual: ind.dollars(),
            per_person: Some(ind.dollars()),
            family: fam.dollars(),
        });
    }
    let mut maximums = Vec::new();
    if let Some(ind) = plan.max_ind_oop {
        let family = if members == 2 {
            plan.max_2p_oop.or(plan.max_fam_oop)
        } else {
            plan.max_fam_oop
        };
        maximums.push(Limit {
            scope: Scope::Combined,
            individual: ind.dollars(),
            per_person: Some(ind.dollars()),
            family: family.map_or(ind.dollars(), Money::dollars),
        });
    }
    (deductibles, maximums)
}

/// The estimate of a plan for a household: the premium a month (the quote's), each member's
/// expected use. None when the table has no row for a member.
pub fn estimate(
    utilization: &Utilization,
    plan: &PlanAmounts,
    cs: &CostSharing,
    monthly_premium: Money,
    people: &[Person],
) -> Option<YearlyCost> {
    estimate_with(utilization, plan, cs, monthly_premium, people, &[])
}

/// The estimate with known prescriptions: fills a year of a drug service each, added to the
/// first member's (the subscriber's) expected use at that member's average cost per fill (at high
/// use where the member's own level has none).
pub fn estimate_with(
    utilization: &Utilization,
    plan: &PlanAmounts,
    cs: &CostSharing,
    monthly_premium: Money,
    people: &[Person],
    prescriptions: &[(Service, f64)],
) -> Option<YearlyCost> {
    let mut uses = people
        .iter()
        .map(|p| utilization.of(p.age, p.sex, p.care_use).copied())
        .collect::<Option<Vec<_>>>()?;
    if let (Some(first), Some(p)) = (uses.first_mut(), people.first()) {
        // Where the member's own level has no fills of a tier (no cost per fill to go by), a
        // fill costs what it does at high use.
        let high = utilization.of(p.age, p.sex, CareUse::High);
        for (service, fills) in prescriptions {
            let u = &mut first[*service as usize];
            if u.unit_cost <= 0.0
                && let Some(h) = high
            {
                u.unit_cost = h[*service as usize].unit_cost;
            }
            u.per_year += fills;
        }
    }
    let uses: Vec<&[Usage; Service::COUNT]> = uses.iter().collect();
    let (deductibles, maximums) = limits(plan, cs, people.len());
    let terms = calc::PlanTerms {
        services: &cs.services,
        deductibles: &deductibles,
        maximums: &maximums,
        free_primary_care_visits: cs.free_primary_care_visits,
        specialty_max_per_script: cs.specialty_max_per_script,
    };
    let out = calc::calculate(&terms, &uses)?;
    let premium = Money::from_cents(monthly_premium.cents() * 12);
    let deductible = Money::from_dollars(out.deductible);
    let cost_sharing = Money::from_dollars(out.cost_sharing);
    let maximum = maximums
        .first()
        .map(|m| {
            if people.len() <= 1 {
                m.individual
            } else {
                m.family
            }
        })
        .map_or(Money::ZERO, Money::from_dollars);
    Some(YearlyCost {
        premium,
        deductible,
        cost_sharing,
        total: premium + deductible + cost_sharing,
        worst_case: premium + maximum,
    })
}
