//! The crosswalk of a plan year (`rules/catalog/<year>/crosswalk.yaml`): the repository's 2024 to
//! 2025 crosswalk loads with its discontinued plan, its carrier leaving a county and its county
//! split; and `enrollflow check` refuses a crosswalk that leaves a plan without a successor where
//! it was sold, or gives it one not sold there, naming the file, the line and the counties.

mod common;

use enrollflow_engine::Source;
use enrollflow_engine::catalog::{self, Catalog, Successor};

const CROSSWALK: &str = "rules/catalog/2025/crosswalk.yaml";

/// The repository's catalog files with `edit` applied to the text of the file at `path`.
fn catalog_with(path: &str, edit: impl Fn(&str) -> String) -> Result<Catalog, Vec<String>> {
    let mut sources: Vec<Source> = common::sources()
        .into_iter()
        .filter(|s| s.path.starts_with("rules/catalog/"))
        .collect();
    let s = sources
        .iter_mut()
        .find(|s| s.path == path)
        .unwrap_or_else(|| panic!("{path} in the catalog"));
    s.text = edit(&s.text);
    let refs: Vec<&Source> = sources.iter().collect();
    catalog::load(&refs).map_err(|ds| ds.iter().map(ToString::to_string).collect())
}

fn refused(path: &str, edit: impl Fn(&str) -> String) -> Vec<String> {
    catalog_with(path, edit).expect_err("the loader refuses the edit")
}

/// The line of `text` that contains `needle` (1-based).
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("no `{needle}`"))
}

fn repository_text(path: &str) -> String {
    std::fs::read_to_string(common::repo().join(path)).expect("readable")
}

/// Where the plan `id` renews in `county`.
fn renewal(c: &Catalog, id: i64, county: u16) -> Option<Successor> {
    let plan = c.plan(id).expect("a plan of the catalog");
    c.renewal_of(plan, county).map(|r| r.successor.clone())
}

#[test]
fn the_repository_crosswalk_maps_every_2024_plan_into_2025() {
    let c = catalog_with(CROSSWALK, str::to_string).unwrap_or_else(|p| panic!("{p:?}"));
    let walk = c.crosswalk(2025).expect("a 2025 crosswalk");
    assert_eq!(walk.from_year, 2024);
    // Every 2024 plan of every kind has an entry.
    let plans_2024: usize = c.plans[&2024].values().map(Vec::len).sum();
    assert_eq!(walk.plans.len(), plans_2024);
    // Washtenaw (161), Calhoun (25), Monroe (115).
    assert_eq!(renewal(&c, 101, 161), Some(Successor::Plan(520)));
    assert_eq!(renewal(&c, 117, 161), Some(Successor::Discontinued));
    assert_eq!(renewal(&c, 104, 161), Some(Successor::Plan(523)));
    assert_eq!(renewal(&c, 137, 25), Some(Successor::Discontinued));
    assert_eq!(renewal(&c, 137, 161), Some(Successor::Plan(556)));
    assert_eq!(renewal(&c, 119, 115), Some(Successor::Plan(543)));
    assert_eq!(renewal(&c, 119, 161), Some(Successor::Plan(538)));
    assert_eq!(renewal(&c, 211, 25), Some(Successor::Plan(629)));
    // The discontinued plan says why.
    let plan = c.plan(117).expect("plan 117");
    let why = c.renewal_of(plan, 161).and_then(|r| r.reason.clone());
    assert!(why.is_some_and(|w| w.contains("retires")));
    // A 2025 plan has no 2026 crosswalk to renew by.
    assert_eq!(renewal(&c, 520, 161), None);
}

#[test]
fn a_plan_left_without_a_successor_is_refused_with_its_counties() {
    // The entry of 102 (sold everywhere) dropped.
    let problems = refused(CROSSWALK, |t| {
        t.replace(
            "  - { from: 102, to: 521 }   # Blue Cross Premier PPO Bronze\n",
            "",
        )
    });
    assert!(
        problems.iter().any(|p| p.starts_with(CROSSWALK)
            && p.contains(
                "2024 medical plan `102` (Blue Cross Premier PPO Bronze) is not in the crosswalk"
            )),
        "{problems:?}"
    );
    // 119 mapped only in Lenawee and Monroe: said the short way round.
    let edit = |t: &str| {
        t.replacen(
            "  - from: 119   # Blue Cross Select HMO Silver\n    to: 538\n",
            "  - from: 119   # Blue Cross Select HMO Silver\n",
            1,
        )
    };
    let line = line_of(&edit(&repository_text(CROSSWALK)), "in: [91, 115]");
    let problems = refused(CROSSWALK, edit);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with(&format!("{CROSSWALK}:{line}:"))
                && p.contains(
                    "plan `119` (Blue Cross Select HMO Silver) was sold in 77 counties in 2024"
                )
                && p.contains("has a successor only in Lenawee (91), Monroe (115)")),
        "{problems:?}"
    );
    // A plan sold in a few counties names each one without a successor.
    let edit = |t: &str| {
        t.replacen(
            "      - in: [25]   # Calhoun\n        to: 629",
            "      - in: [25, 37, 45, 49, 65, 77, 81, 87]\n        to: 629",
            1,
        )
        .replacen(
            "  - from: 211   # UnitedHealthcare Dental Premier\n    to: 630\n",
            "  - from: 211   # UnitedHealthcare Dental Premier\n",
            1,
        )
    };
    let problems = refused(CROSSWALK, edit);
    assert!(
        problems.iter().any(|p| p
            .contains("plan `211` (UnitedHealthcare Dental Premier) was sold in")
            && p.contains("Washtenaw (161)")
            && !p.contains("Calhoun (25)")
            && p.contains("in 2024 and has no successor there")),
        "{problems:?}"
    );
}

#[test]
fn a_successor_not_sold_in_a_county_it_takes_is_refused() {
    // Without the Calhoun line, UnitedHealthcare's 137 would renew into 556, which is not sold in
    // Calhoun in 2025.
    let text = repository_text(CROSSWALK);
    let problems = refused(CROSSWALK, |t| {
        t.replacen(
            "  - from: 137   # UnitedHealthcare Bronze Value EPO\n    to: 556\n    counties:\n      - in: [25]   # Calhoun\n",
            "  - from: 137   # UnitedHealthcare Bronze Value EPO\n    to: 556\n    counties:\n      - in: [37]   # Clinton\n",
            1,
        )
    });
    let line = line_of(&text, "from: 137");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with(&format!("{CROSSWALK}:{line}:"))
                && p.contains(
                    "plan `556`, where plan `137` renews, is not sold in Calhoun (25) in 2025"
                )),
        "{problems:?}"
    );
}

#[test]
fn a_mapping_must_name_plans_and_counties_of_the_right_years() {
    let cases: [(&str, &str, &str); 5] = [
        (
            "{ from: 101, to: 520 }",
            "{ from: 999, to: 520 }",
            "`from: 999` is not a 2024 medical plan",
        ),
        (
            "{ from: 101, to: 520 }",
            "{ from: 101, to: 620 }",
            "`to: 620` is not a 2025 medical plan",
        ),
        (
            "{ from: 101, to: 520 }",
            "{ from: 101, to: 520, discontinued: \"gone\" }",
            "says both `to` and `discontinued`",
        ),
        (
            "{ from: 101, to: 520 }",
            "{ from: 101 }",
            "says neither `to`",
        ),
        (
            "in: [91, 115]",
            "in: [91, 115, 131]",
            "plan `119` was not sold in Ontonagon (131) in 2024",
        ),
    ];
    for (from, to, said) in cases {
        let problems = refused(CROSSWALK, |t| t.replacen(from, to, 1));
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(CROSSWALK) && p.contains(said)),
            "{to}: {problems:?}"
        );
    }
    let problems = refused(CROSSWALK, |t| {
        t.replacen("from_year: 2024", "from_year: 2023", 1)
    });
    assert!(
        problems
            .iter()
            .any(|p| p.contains("from_year `2023` is not the year before 2025")),
        "{problems:?}"
    );
}

#[test]
fn a_plan_year_without_a_crosswalk_still_loads() {
    let sources: Vec<Source> = common::sources()
        .into_iter()
        .filter(|s| s.path.starts_with("rules/catalog/") && s.path != CROSSWALK)
        .collect();
    let refs: Vec<&Source> = sources.iter().collect();
    let c = catalog::load(&refs).unwrap_or_else(|p| panic!("{p:?}"));
    assert!(c.crosswalk(2025).is_none());
    let plan = c.plan(101).expect("plan 101");
    assert!(c.renewal_of(plan, 161).is_none());
}
