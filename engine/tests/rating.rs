//! Hand-computed premiums over a small catalog written here (rules/catalog has the real one).
//! Base: plan 1's age-21 rate in rating area 4 is $300.00; federal age curve; tobacco × 1.2.

use enrollflow_engine::Source;
use enrollflow_engine::catalog::{self, Catalog, PlanKind};
use enrollflow_engine::rating::{self, Filter, Household, Member, QuoteError, Role};
use time::Date;
use time::macros::date;

const FEDERAL: &str = "curves:
  federal:
    - { from: 0, to: 14, factor: 0.765 }
    - { from: 15, to: 15, factor: 0.833 }
    - { from: 16, to: 16, factor: 0.859 }
    - { from: 17, to: 17, factor: 0.885 }
    - { from: 18, to: 18, factor: 0.913 }
    - { from: 19, to: 19, factor: 0.941 }
    - { from: 20, to: 20, factor: 0.970 }
    - { from: 21, to: 24, factor: 1.000 }
    - { from: 25, to: 25, factor: 1.004 }
    - { from: 26, to: 26, factor: 1.024 }
    - { from: 27, to: 37, factor: 1.100 }
    - { from: 38, to: 38, factor: 1.246 }
    - { from: 39, to: 39, factor: 1.262 }
    - { from: 40, to: 40, factor: 1.278 }
    - { from: 41, to: 49, factor: 1.500 }
    - { from: 50, to: 50, factor: 1.786 }
    - { from: 51, to: 63, factor: 2.000 }
    - { from: 64, factor: 3.000 }
";

/// Every medical plan states its out-of-pocket maxima; the loader checks them against these.
const OOP: &str = "max_ind_oop: 6000, max_2p_oop: 12000, max_fam_oop: 12000";

const LIMITS: &str = "plan_year: 2025
medical: { max_oop: { self_only: 9200, family: 18400 } }
hsa:
  min_deductible: { self_only: 1650, family: 3300 }
  max_oop: { self_only: 8300, family: 16600 }
";

fn rates(v: f64) -> String {
    (1..=16)
        .map(|a| format!("{a}: {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn catalog() -> Catalog {
    catalog_with("carriers:\n  - { id: 1, name: Blue }\n  - { id: 3, name: Priority }\n")
}

/// The rule of rules/catalog/rating.yaml: three oldest children under 21; tobacco from 18.
const RATING: &str = "children_charged: 3\nchild_age: 21\ntobacco_age: 18\n";

fn catalog_with(carriers: &str) -> Catalog {
    let medical = format!(
        "plan_year: 2025
plans:
  - {{ id: 1, name: Gold PPO, carrier: 1, network: 1, metal: 5, tobacco_factor: 1.2, {OOP}, rates: {{ {} }} }}
  - {{ id: 2, name: Silver HMO, carrier: 3, network: 2, metal: 4, hsa: true, ded_ind: 3000, ded_fam: 6000, {OOP}, rates: {{ {} }} }}
  - {{ id: 3, name: Bronze EPO Washtenaw, carrier: 1, network: 3, metal: 2, counties: [161], {OOP}, rates: {{ {} }} }}
  - {{ id: 4, name: Catastrophic, carrier: 1, network: 1, metal: 1, {OOP}, rates: {{ {} }} }}
",
        rates(300.0),
        rates(350.0).replacen("1: 350", "1: 305.12", 1),
        rates(200.0),
        rates(100.0)
    );
    let sources = [
        Source::new("rules/catalog/carriers.yaml", carriers),
        Source::new("rules/catalog/rating.yaml", RATING),
        Source::new(
            "rules/catalog/lists.yaml",
            "metals: [{ id: 1, name: Catastrophic, max_age: 29 }, { id: 2, name: Bronze }, { id: 4, name: Silver }, { id: 5, name: Gold }]\nnetworks: [{ id: 1, name: PPO }, { id: 2, name: HMO }, { id: 3, name: EPO }]\n",
        ),
        Source::new("rules/catalog/age_curves.yaml", FEDERAL),
        Source::new(
            "rules/catalog/counties.yaml",
            format!(
                "counties:\n{}\nout_of_state: {{ id: 999, name: Out of State }}\n",
                (1..=16)
                    .map(|a| format!(
                        "  - {{ id: {}, name: County {a}, rating_area: {a} }}",
                        if a == 4 { 161 } else { a }
                    ))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        ),
        Source::new(
            "rules/catalog/zips.yaml",
            "zips:\n  \"48104\": [161]\n  \"49938\": [1, 999]\n",
        ),
        Source::new("rules/catalog/2025/medical.yaml", medical),
        Source::new("rules/catalog/2025/limits.yaml", LIMITS),
    ];
    let refs: Vec<&Source> = sources.iter().collect();
    catalog::load(&refs).unwrap_or_else(|p| panic!("{p:?}"))
}

fn person(role: Role, birth: Date) -> Member {
    Member {
        role,
        birth_date: birth,
        tobacco: false,
    }
}

fn household(members: Vec<Member>) -> Household {
    Household {
        members,
        county: 161,
        effective_date: date!(2025 - 01 - 01),
    }
}

/// Plan 1's total for a household, in cents, and each member's amount.
fn gold(h: &Household) -> (i64, Vec<i64>) {
    let c = catalog();
    let plan = c.plan(1).expect("plan 1");
    let r = rating::rate_plan(&c, plan, 4, h).expect("rates");
    (
        r.total.cents(),
        r.members.iter().map(|m| m.amount().cents()).collect(),
    )
}

#[test]
fn a_single_adult_pays_the_age_factor_of_the_effective_date() {
    // 40 on 2025-01-01: 300.00 × 1.278 = 383.40
    let (total, parts) = gold(&household(vec![person(
        Role::Subscriber,
        date!(1984 - 06 - 15),
    )]));
    assert_eq!(total, 38340);
    assert_eq!(parts, vec![38340]);
}

#[test]
fn a_couple_pays_for_both() {
    // 40: 383.40; 38: 300 × 1.246 = 373.80
    let (total, _) = gold(&household(vec![
        person(Role::Subscriber, date!(1984 - 06 - 15)),
        person(Role::Spouse, date!(1986 - 03 - 01)),
    ]));
    assert_eq!(total, 38340 + 37380);
}

#[test]
fn only_the_three_oldest_children_under_21_are_charged() {
    // Two adults and five children 15, 12, 10, 8, 5: children 8 and 5 are free.
    // 383.40 + 373.80 + 249.90 (0.833) + 229.50 + 229.50 = 1,466.10
    let h = household(vec![
        person(Role::Subscriber, date!(1984 - 06 - 15)),
        person(Role::Spouse, date!(1986 - 03 - 01)),
        person(Role::Dependent, date!(2016 - 05 - 05)), // 8
        person(Role::Dependent, date!(2009 - 09 - 09)), // 15
        person(Role::Dependent, date!(2019 - 02 - 02)), // 5
        person(Role::Dependent, date!(2012 - 04 - 04)), // 12
        person(Role::Dependent, date!(2014 - 07 - 07)), // 10
    ]);
    let (total, parts) = gold(&h);
    assert_eq!(total, 146610);
    assert_eq!(parts, vec![38340, 37380, 0, 24990, 0, 22950, 22950]);
    let c = catalog();
    let r = rating::rate_plan(&c, c.plan(1).expect("plan"), 4, &h).expect("rates");
    assert!(!r.members[2].charged);
    assert!(
        r.members[2]
            .why()
            .starts_with("not charged: only the three oldest children under 21")
    );
    assert_eq!(r.members[2].rate.cents(), 22950, "the rate is still shown");
    assert_eq!(r.members.len(), 7, "one entry per member");
}

#[test]
fn children_21_and_over_are_always_charged() {
    // 50: 535.80; child 22: 300.00; children 17, 16, 14 charged (265.50, 257.70, 229.50); 9 free.
    let h = household(vec![
        person(Role::Subscriber, date!(1974 - 02 - 01)),
        person(Role::Dependent, date!(2002 - 10 - 10)),
        person(Role::Dependent, date!(2007 - 05 - 01)),
        person(Role::Dependent, date!(2008 - 05 - 01)),
        person(Role::Dependent, date!(2010 - 05 - 01)),
        person(Role::Dependent, date!(2015 - 05 - 01)),
    ]);
    let (total, parts) = gold(&h);
    assert_eq!(parts, vec![53580, 30000, 26550, 25770, 22950, 0]);
    assert_eq!(total, 158850);
}

#[test]
fn twins_at_the_boundary_charge_the_first_listed() {
    // Children 12, 10 and twins of 8: the first twin is third oldest; the second is free.
    let twins = date!(2016 - 07 - 07);
    let (total, parts) = gold(&household(vec![
        person(Role::Subscriber, date!(1984 - 06 - 15)),
        person(Role::Dependent, twins),
        person(Role::Dependent, date!(2012 - 01 - 01)),
        person(Role::Dependent, twins),
        person(Role::Dependent, date!(2014 - 01 - 01)),
    ]));
    assert_eq!(parts, vec![38340, 22950, 22950, 0, 22950]);
    assert_eq!(total, 38340 + 3 * 22950);
}

#[test]
fn from_64_the_factor_stays_at_three() {
    // 69 and 64: 900.00 each.
    let (total, _) = gold(&household(vec![
        person(Role::Subscriber, date!(1955 - 03 - 01)),
        person(Role::Spouse, date!(1960 - 12 - 31)),
    ]));
    assert_eq!(total, 180000);
}

#[test]
fn tobacco_raises_only_the_users_part_and_only_from_18() {
    // Smoker 40: 300 × 1.278 × 1.2 = 460.08; spouse 38: 373.80; smoking 17-year-old: 265.50.
    let h = household(vec![
        Member {
            role: Role::Subscriber,
            birth_date: date!(1984 - 06 - 15),
            tobacco: true,
        },
        person(Role::Spouse, date!(1986 - 03 - 01)),
        Member {
            role: Role::Dependent,
            birth_date: date!(2007 - 05 - 01),
            tobacco: true,
        },
    ]);
    let (total, parts) = gold(&h);
    assert_eq!(parts, vec![46008, 37380, 26550]);
    assert_eq!(total, 46008 + 37380 + 26550);
    let c = catalog();
    let r = rating::rate_plan(&c, c.plan(1).expect("plan"), 4, &h).expect("rates");
    assert!(
        r.members[0].why().contains("× 1.2 tobacco"),
        "{}",
        r.members[0].why()
    );
    assert!(!r.members[2].why().contains("tobacco"));
}

#[test]
fn age_is_measured_at_the_effective_date_across_a_birthday() {
    // Born 1985-01-01: 40 on 2025-01-01 (383.40). Born 1985-01-02: still 39 (300 × 1.262 = 378.60).
    let (on_birthday, _) = gold(&household(vec![person(
        Role::Subscriber,
        date!(1985 - 01 - 01),
    )]));
    let (day_after, _) = gold(&household(vec![person(
        Role::Subscriber,
        date!(1985 - 01 - 02),
    )]));
    assert_eq!(on_birthday, 38340);
    assert_eq!(day_after, 37860);
    // Someone 39 today (2024-11-20) but 40 on the effective date pays the 40 rate.
    let (older_by_then, _) = gold(&household(vec![person(
        Role::Subscriber,
        date!(1984 - 12 - 15),
    )]));
    assert_eq!(older_by_then, 38340);
}

#[test]
fn amounts_round_to_the_cent() {
    // Plan 2 in area 1: 305.12 × 1.278 = 389.94336 -> 389.94
    let c = catalog();
    let h = household(vec![person(Role::Subscriber, date!(1984 - 06 - 15))]);
    let r = rating::rate_plan(&c, c.plan(2).expect("plan"), 1, &h).expect("rates");
    assert_eq!(r.total.cents(), 38994);
}

#[test]
fn quotes_are_sorted_cheapest_first_and_limited_to_the_county_and_carriers() {
    let c = catalog();
    let h = household(vec![person(Role::Subscriber, date!(1984 - 06 - 15))]);
    let ids =
        |q: Vec<(&catalog::Plan, rating::Rates)>| q.iter().map(|(p, _)| p.id).collect::<Vec<_>>();
    // Washtenaw (161): 3 ($255.60), 1 ($383.40), 2 ($447.30)
    assert_eq!(
        ids(rating::quote(&c, PlanKind::Medical, &h, &[1, 3]).expect("quote")),
        vec![3, 1, 2]
    );
    assert_eq!(
        ids(rating::quote(&c, PlanKind::Medical, &h, &[3]).expect("quote")),
        vec![2]
    );
    let elsewhere = Household {
        county: 2,
        ..h.clone()
    };
    assert_eq!(
        ids(rating::quote(&c, PlanKind::Medical, &elsewhere, &[1, 3]).expect("quote")),
        vec![1, 2]
    );
    let next_year = Household {
        effective_date: date!(2026 - 01 - 01),
        ..h.clone()
    };
    assert_eq!(
        rating::quote(&c, PlanKind::Medical, &next_year, &[1]).err(),
        Some(QuoteError::NoPlanYear(2026))
    );
    assert!(
        rating::quote(&c, PlanKind::Dental, &h, &[1])
            .expect("quote")
            .is_empty()
    );
}

#[test]
fn filters_narrow_by_group_and_widen_within_one() {
    let c = catalog();
    let h = household(vec![person(Role::Subscriber, date!(1984 - 06 - 15))]);
    let q = rating::quote(&c, PlanKind::Medical, &h, &[1, 3]).expect("quote");
    assert_eq!(q.len(), 3, "the 40-year-old gets no catastrophic plan");
    let kept = |tokens: &str| {
        let f = Filter::parse(tokens).expect("filter");
        q.iter()
            .filter(|(p, r)| f.accepts(p, r.total))
            .map(|(p, _)| p.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(kept(""), vec![3, 1, 2]);
    assert_eq!(kept("car_1"), vec![3, 1]);
    assert_eq!(kept("net_1,net_2"), vec![1, 2]);
    assert_eq!(kept("car_1,net_2"), Vec::<i64>::new());
    assert_eq!(kept("hsa"), vec![2]);
    assert_eq!(kept("m_5,m_2"), vec![3, 1]);
    assert_eq!(kept("minPrice:300,maxPrice:400"), vec![1]);
    assert_eq!(kept("plan_2,plan_3"), vec![3, 2]);
}

#[test]
fn counties_come_from_the_zip() {
    let c = catalog();
    let names: Vec<u16> = c
        .counties_for_zip("49938".parse().expect("a ZIP"))
        .iter()
        .map(|c| c.id)
        .collect();
    assert_eq!(names, vec![1, 999]);
    assert!(
        c.counties_for_zip("00000".parse().expect("a ZIP"))
            .is_empty()
    );
}

#[test]
fn a_carrier_with_its_own_family_rule_and_tobacco_age_is_rated_by_it() {
    // Blue charges only the two oldest children under 19 and tobacco from 21 (its `rating:`);
    // Priority keeps the catalog's rule.
    let c = catalog_with(
        "carriers:\n  - { id: 1, name: Blue, rating: { children_charged: 2, child_age: 19, tobacco_age: 21 } }\n  - { id: 3, name: Priority }\n",
    );
    let h = household(vec![
        person(Role::Subscriber, date!(1984 - 06 - 15)),
        Member {
            role: Role::Dependent,
            birth_date: date!(2005 - 05 - 01), // 19: always charged under Blue's rule
            tobacco: true,                     // but under 21: no tobacco factor
        },
        person(Role::Dependent, date!(2009 - 09 - 09)), // 15
        person(Role::Dependent, date!(2012 - 04 - 04)), // 12
        person(Role::Dependent, date!(2016 - 05 - 05)), // 8: the third under 19, free
    ]);
    let blue = rating::rate_plan(&c, c.plan(1).expect("plan 1"), 4, &h).expect("rates");
    let charged: Vec<bool> = blue.members.iter().map(|m| m.charged).collect();
    assert_eq!(charged, [true, true, true, true, false]);
    assert_eq!(
        blue.members[1].tobacco_factor, 1000,
        "tobacco counts from 21 for Blue"
    );
    assert!(
        blue.members[4]
            .why()
            .starts_with("not charged: only the two oldest children under 19 are charged"),
        "{}",
        blue.members[4].why()
    );
    // Quoting prepares the household once per rule: Priority's plan charges all four children
    // (three under 21 and none over) and the 19-year-old smoker's tobacco factor.
    let quoted = rating::quote(&c, PlanKind::Medical, &h, &[1, 3]).expect("a quote");
    let priority = quoted
        .iter()
        .find(|(p, _)| p.id == 2)
        .map(|(_, r)| r)
        .expect("plan 2");
    let charged: Vec<bool> = priority.members.iter().map(|m| m.charged).collect();
    assert_eq!(charged, [true, true, true, true, false]);
    let gold_quoted = quoted
        .iter()
        .find(|(p, _)| p.id == 1)
        .map(|(_, r)| r)
        .expect("plan 1");
    assert_eq!(gold_quoted, &blue);
}

#[test]
fn the_catalogs_family_rule_is_read_from_rating_yaml() {
    let c = catalog();
    assert_eq!(c.rating.children_charged, 3);
    assert_eq!((c.rating.child_age, c.rating.tobacco_age), (21, 18));
}
