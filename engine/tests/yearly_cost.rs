//! The yearly estimate's out-of-pocket calculation reproduces the worked cases of CMS's
//! out-of-pocket cost calculator (`fixtures/oopc_cases.yaml`: the workbook's own case, and cases
//! worked by a reading of its method that reproduces that case) within a dollar, on the
//! repository's utilization table; and a plan's estimate adds up exactly to its total.

mod common;

use std::collections::BTreeMap;

use enrollflow_engine::money::Money;
use enrollflow_engine::yearly_cost::calc::{PlanTerms, calculate};
use enrollflow_engine::yearly_cost::{
    CareUse, Limit, MemberCare, Service, ServiceShare, Sex, UTILIZATION_FILE, Utilization,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    plans: BTreeMap<String, FixturePlan>,
    households: BTreeMap<String, Vec<FixturePerson>>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct FixturePlan {
    deductibles: Vec<Limit>,
    maximums: Vec<Limit>,
    #[serde(default)]
    free_primary_care_visits: f64,
    #[serde(default)]
    specialty_max_per_script: Option<f64>,
    services: BTreeMap<Service, FixtureShare>,
}

#[derive(Deserialize)]
struct FixtureShare {
    #[serde(default)]
    copay: f64,
    #[serde(default)]
    coinsurance: f64,
    deductible: bool,
    #[serde(default)]
    copay_before_deductible: bool,
    #[serde(default)]
    per: Option<String>,
    #[serde(default)]
    max_days: Option<f64>,
}

#[derive(Deserialize)]
struct FixturePerson {
    age: i64,
    sex: Sex,
    #[serde(rename = "use")]
    care_use: CareUse,
}

#[derive(Deserialize)]
struct Case {
    plan: String,
    household: String,
    source: String,
    total_cost: f64,
    deductible: f64,
    cost_sharing: f64,
    out_of_pocket: f64,
    plan_after_maximum: f64,
    drugs_out_of_pocket: f64,
}

fn utilization() -> Utilization {
    let path = common::repo().join(UTILIZATION_FILE);
    let text = std::fs::read_to_string(&path).expect("the utilization table");
    Utilization::read(UTILIZATION_FILE, &text).expect("a valid table")
}

fn fixture() -> Fixture {
    let path = common::repo().join("engine/tests/fixtures/oopc_cases.yaml");
    let text = std::fs::read_to_string(path).expect("the worked cases");
    serde_saphyr::from_str(&text).expect("the worked cases' format")
}

fn services(p: &FixturePlan) -> [ServiceShare; Service::COUNT] {
    let mut out = [ServiceShare::default(); Service::COUNT];
    for s in Service::ALL {
        let w = p
            .services
            .get(&s)
            .unwrap_or_else(|| panic!("{} given", s.key()));
        out[s as usize] = ServiceShare {
            copay: w.copay,
            coinsurance: w.coinsurance / 100.0,
            deductible: w.deductible,
            copay_before_deductible: w.copay_before_deductible,
            per_day: w.per.as_deref() == Some("day"),
            max_days: w.max_days,
        };
    }
    out
}

#[test]
fn the_calculators_worked_cases_are_reproduced_within_a_dollar() {
    let table = utilization();
    let f = fixture();
    assert!(f.cases.len() >= 20, "at least twenty worked cases");
    assert!(
        f.cases.iter().any(|c| c.source == "workbook"),
        "the workbook's own case is among them"
    );
    let mut wrong = Vec::new();
    for c in &f.cases {
        let plan = &f.plans[&c.plan];
        let shares = services(plan);
        let terms = PlanTerms {
            services: &shares,
            deductibles: &plan.deductibles,
            maximums: &plan.maximums,
            free_primary_care_visits: plan.free_primary_care_visits,
            specialty_max_per_script: plan.specialty_max_per_script,
        };
        let uses: Vec<_> = f.households[&c.household]
            .iter()
            .map(|p| table.of(p.age, p.sex, p.care_use).expect("a row"))
            .collect();
        let out = calculate(&terms, &uses).expect("the spending settles");
        let checks = [
            ("total cost", out.total_cost, c.total_cost),
            ("deductible", out.deductible, c.deductible),
            ("copays and coinsurance", out.cost_sharing, c.cost_sharing),
            ("out of pocket", out.out_of_pocket(), c.out_of_pocket),
            (
                "paid by the plan after the maximum",
                out.plan_after_maximum,
                c.plan_after_maximum,
            ),
            ("drugs", out.drugs_out_of_pocket, c.drugs_out_of_pocket),
        ];
        for (what, got, want) in checks {
            if (got - want).abs() > 1.0 {
                wrong.push(format!(
                    "plan {} household {}: {what} {got:.2}, expected {want:.2}",
                    c.plan, c.household
                ));
            }
        }
        let by_member: f64 = out.members.iter().sum();
        assert!((by_member - out.out_of_pocket()).abs() < 1e-6);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_plan_of_the_catalog_has_an_estimate_that_adds_up() {
    let engine = common::engine(&common::sources());
    let cat = engine.catalog();
    let mut estimated = 0;
    for (year, kinds) in &cat.plans {
        for (kind, plans) in kinds {
            for p in plans {
                if kind.key() != "medical" {
                    assert!(!cat.cost_sharing.contains_key(&p.id));
                    continue;
                }
                assert!(
                    cat.cost_sharing.contains_key(&p.id),
                    "medical plan {} of {year} has cost sharing",
                    p.id
                );
                let monthly = p.rates.values().next().copied().unwrap_or_default();
                let members = [
                    (40, Sex::F, CareUse::Medium),
                    (42, Sex::M, CareUse::High),
                    (8, Sex::M, CareUse::Low),
                ];
                for n in 1..=members.len() {
                    let people: Vec<_> = members[..n]
                        .iter()
                        .map(
                            |&(age, sex, care_use)| enrollflow_engine::yearly_cost::Person {
                                age,
                                sex,
                                care_use,
                            },
                        )
                        .collect();
                    let cs = &cat.cost_sharing[&p.id];
                    let amounts = p.amounts();
                    let e = enrollflow_engine::yearly_cost::estimate(
                        engine.utilization(),
                        &amounts,
                        cs,
                        monthly,
                        &people,
                    )
                    .expect("an estimate");
                    assert_eq!(e.premium, Money::from_cents(monthly.cents() * 12));
                    assert_eq!(e.total, e.premium + e.deductible + e.cost_sharing);
                    // Never more than the out-of-pocket maximum.
                    assert!(
                        e.deductible + e.cost_sharing
                            <= Money::from_cents(e.worst_case.cents() - e.premium.cents()),
                        "plan {}: {e:?}",
                        p.id
                    );
                    estimated += 1;
                }
            }
        }
    }
    assert!(estimated > 200);
    // A member's care use and sex come from the household; without a sex there is no estimate.
    assert_eq!(MemberCare::default().care_use, CareUse::Medium);
}

#[test]
fn known_prescriptions_are_priced_by_their_tier() {
    use enrollflow_engine::rating::{Household, Member, Role, rate_plan};
    let engine = common::engine(&common::sources());
    let cat = engine.catalog();
    let plan = cat
        .plans(2025, enrollflow_engine::catalog::PlanKind::Medical)
        .iter()
        .find(|p| p.metal == Some(4) && !p.hsa && p.sold_in(161))
        .expect("a silver plan in Washtenaw");
    let date = |s: &str| enrollflow_engine::dates::parse(s).expect("a date");
    let h = Household {
        members: vec![Member {
            role: Role::Subscriber,
            birth_date: date("1984-06-15"),
            tobacco: false,
        }],
        county: 161,
        effective_date: date("2025-01-01"),
    };
    let area = cat.rating_area(161).expect("an area");
    let rates = rate_plan(cat, plan, area, &h).expect("rates");
    let care = [MemberCare {
        sex: Some(Sex::F),
        care_use: CareUse::Medium,
    }];
    let none = engine
        .yearly_cost(plan, &rates, &care)
        .expect("an estimate");
    let with = |tiers: &[&str]| {
        engine
            .yearly_cost_with(plan, &rates, &care, tiers)
            .expect("an estimate")
    };
    // A generic or a specialty drug a month costs something; a drug with no cost sharing
    // (preventive) costs nothing; the premium never changes.
    let generic = with(&["GENERIC"]);
    let specialty = with(&["SPECIALTY"]);
    assert!(generic.total > none.total, "{generic:?} vs {none:?}");
    assert!(specialty.total > none.total, "{specialty:?} vs {none:?}");
    assert_eq!(with(&["ZERO-COST-SHARE-PREVENTIVE"]), none);
    // A tier the table does not name is priced as a non-preferred brand.
    assert_eq!(with(&["TIER-9"]), with(&["NON-PREFERRED-BRAND"]));
    assert_eq!(specialty.premium, none.premium);
    assert_eq!(
        specialty.total,
        specialty.premium + specialty.deductible + specialty.cost_sharing
    );
}
