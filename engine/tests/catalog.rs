//! The catalog loader checks each plan year's legal limits (`<year>/limits.yaml`) and links drug
//! lists by the plan-id split; over a small catalog written here and over the repository's own.

use std::path::Path;

use enrollflow_engine::Source;
use enrollflow_engine::catalog::{self, Catalog, PlanKind};
use enrollflow_engine::money::Money;

const CARRIERS: &str = "drug_list_newer_from_plan_id: 520
carriers:
  - { id: 1, name: Blue, drug_list: { older: https://blue/2024.pdf, newer: https://blue/2025.pdf } }
  - { id: 4, name: United }
";

const LIMITS_2025: &str = "plan_year: 2025
medical: { max_oop: { self_only: 9200, family: 18400 } }
hsa:
  min_deductible: { self_only: 1650, family: 3300 }
  max_oop: { self_only: 8300, family: 16600 }
dental: { max_oop: { one_child: 425, two_or_more: 850 } }
";

fn rates() -> String {
    (1..=16)
        .map(|a| format!("{a}: 300"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A medical plan line: `extra` holds its benefit fields.
fn medical(id: i64, carrier: u8, extra: &str) -> String {
    format!(
        "  - {{ id: {id}, name: Plan {id}, carrier: {carrier}, network: 1, metal: 4, {extra}, rates: {{ {} }} }}\n",
        rates()
    )
}

const OOP: &str =
    "ded_ind: 2000, ded_fam: 4000, max_ind_oop: 9200, max_2p_oop: 18400, max_fam_oop: 18400";
const HSA: &str = "hsa: true, ded_ind: 1650, ded_fam: 3300, max_ind_oop: 8300, max_2p_oop: 16600, max_fam_oop: 16600";

/// The shared files of a small catalog, plus the given year files (path under rules/catalog/).
fn load(year_files: &[(&str, String)]) -> Result<Catalog, Vec<String>> {
    let mut sources = vec![
        Source::new("rules/catalog/carriers.yaml", CARRIERS),
        Source::new(
            "rules/catalog/rating.yaml",
            "children_charged: 3\nchild_age: 21\ntobacco_age: 18\n",
        ),
        Source::new(
            "rules/catalog/lists.yaml",
            "metals: [{ id: 4, name: Silver }]\nnetworks: [{ id: 1, name: PPO }]\n",
        ),
        Source::new(
            "rules/catalog/age_curves.yaml",
            "curves:\n  federal: [{ from: 0, factor: 1.0 }]\n",
        ),
        Source::new(
            "rules/catalog/counties.yaml",
            format!(
                "counties:\n{}",
                (1..=16)
                    .map(|a| format!("  - {{ id: {a}, name: County {a}, rating_area: {a} }}\n"))
                    .collect::<String>()
            ),
        ),
        Source::new("rules/catalog/zips.yaml", "zips:\n  \"48104\": [1]\n"),
    ];
    for (path, text) in year_files {
        sources.push(Source::new(format!("rules/catalog/{path}"), text.clone()));
    }
    let refs: Vec<&Source> = sources.iter().collect();
    catalog::load(&refs).map_err(|ds| ds.iter().map(ToString::to_string).collect())
}

fn medical_2025(plans: &[String]) -> (&'static str, String) {
    (
        "2025/medical.yaml",
        format!("plan_year: 2025\nplans:\n{}", plans.concat()),
    )
}

fn limits_2025() -> (&'static str, String) {
    ("2025/limits.yaml", LIMITS_2025.to_string())
}

fn refused(files: &[(&str, String)]) -> Vec<String> {
    match load(files) {
        Ok(_) => panic!("the catalog loaded"),
        Err(problems) => problems,
    }
}

#[test]
fn plans_at_the_limits_load() {
    let c = load(&[
        medical_2025(&[medical(1, 1, OOP), medical(2, 1, HSA)]),
        limits_2025(),
    ])
    .unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(c.plans(2025, PlanKind::Medical).len(), 2);
    assert_eq!(
        c.limits[&2025].medical.max_oop.self_only,
        Money::from_cents(920_000)
    );
}

#[test]
fn a_plan_over_the_out_of_pocket_maximum_is_refused_naming_plan_field_value_and_limit() {
    let over = OOP.replace("max_ind_oop: 9200", "max_ind_oop: 9300");
    let over = over.replace("max_fam_oop: 18400", "max_fam_oop: 18500");
    let problems = refused(&[medical_2025(&[medical(7, 1, &over)]), limits_2025()]);
    assert_eq!(
        problems,
        vec![
            "rules/catalog/2025/medical.yaml:1:1: plan `7` (Plan 7): max_ind_oop 9300 is above the \
             2025 ACA out-of-pocket maximum, 9200 (limits.yaml medical.max_oop.self_only)",
            "rules/catalog/2025/medical.yaml:1:1: plan `7` (Plan 7): max_fam_oop 18500 is above the \
             2025 ACA out-of-pocket maximum, 18400 (limits.yaml medical.max_oop.family)",
        ]
    );
}

#[test]
fn a_medical_plan_without_its_out_of_pocket_maxima_is_refused() {
    let problems = refused(&[medical_2025(&[medical(7, 1, "coins: 20")]), limits_2025()]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].ends_with(
        "plan `7` (Plan 7): needs max_ind_oop (checked against the 2025 out-of-pocket maximum)"
    ));
    assert!(problems[1].contains("needs max_fam_oop"));
}

#[test]
fn an_hsa_plan_over_the_hsa_limits_is_refused() {
    // Within the ACA maximum (9200) but above the HSA one (8300); deductible under the HSA minimum.
    let over = HSA
        .replace("max_ind_oop: 8300", "max_ind_oop: 8500")
        .replace("ded_fam: 3300", "ded_fam: 3000");
    let problems = refused(&[medical_2025(&[medical(8, 1, &over)]), limits_2025()]);
    assert_eq!(
        problems,
        vec![
            "rules/catalog/2025/medical.yaml:1:1: plan `8` (Plan 8): max_ind_oop 8500 is above the \
             2025 HSA out-of-pocket maximum, 8300 (limits.yaml hsa.max_oop.self_only)",
            "rules/catalog/2025/medical.yaml:1:1: plan `8` (Plan 8): ded_fam 3000 is below the 2025 \
             HSA minimum deductible, 3300 (limits.yaml hsa.min_deductible.family)",
        ]
    );
    // A year whose limits have no `hsa` section cannot hold an HSA plan.
    let no_hsa = (
        "2025/limits.yaml",
        "plan_year: 2025\nmedical: { max_oop: { self_only: 9200, family: 18400 } }\n".to_string(),
    );
    let problems = refused(&[medical_2025(&[medical(2, 1, HSA)]), no_hsa]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].ends_with(
        "plan `2` (Plan 2): is HSA-eligible but the 2025 limits.yaml has no `hsa` limits"
    ));
}

#[test]
fn a_dental_plan_over_the_pediatric_cap_is_refused() {
    let dental = format!(
        "plan_year: 2025\nplans:\n  - {{ id: 9, name: Dental 9, carrier: 1, max_ind_oop: 425, max_2p_oop: 900, max_fam_oop: 850, rates: {{ {} }} }}\n",
        rates()
    );
    let problems = refused(&[("2025/dental.yaml", dental), limits_2025()]);
    assert_eq!(
        problems,
        vec![
            "rules/catalog/2025/dental.yaml:1:1: plan `9` (Dental 9): max_2p_oop 900 is above the \
             2025 pediatric dental out-of-pocket cap, 850 (limits.yaml dental.max_oop.two_or_more)"
        ]
    );
}

#[test]
fn a_plan_year_without_limits_is_refused() {
    let plans_2026 = (
        "2026/medical.yaml",
        format!("plan_year: 2026\nplans:\n{}", medical(800, 1, OOP)),
    );
    let problems = refused(&[
        medical_2025(&[medical(1, 1, OOP)]),
        limits_2025(),
        plans_2026,
    ]);
    assert_eq!(
        problems,
        vec![
            "rules/catalog/2026/limits.yaml:1:1: plan year 2026 has plans but no legal limits: add \
             limits.yaml to its folder (out-of-pocket maximum, HSA deductible and out-of-pocket \
             limits; see rules/README.md)"
        ]
    );
    // Limits ahead of the plans are fine; a limits file naming another year, or a typo, is not.
    load(&[limits_2025()]).unwrap_or_else(|p| panic!("{p:?}"));
    let wrong_year = (
        "2025/limits.yaml",
        LIMITS_2025.replace("plan_year: 2025", "plan_year: 2024"),
    );
    assert!(
        refused(&[wrong_year])[0].contains("plan_year `2024` does not match the folder `2025`")
    );
    let typo = (
        "2025/limits.yaml",
        LIMITS_2025.replace("self_only: 9200", "self: 9200"),
    );
    assert!(refused(&[typo])[0].starts_with("rules/catalog/2025/limits.yaml:"));
}

#[test]
fn drug_lists_follow_the_plan_id_split() {
    let c = load(&[
        medical_2025(&[
            medical(519, 1, OOP),
            medical(520, 1, OOP),
            medical(521, 4, OOP),
        ]),
        limits_2025(),
    ])
    .unwrap_or_else(|p| panic!("{p:?}"));
    let link = |id: i64| c.drug_list(c.plan(id).expect("plan"));
    assert_eq!(
        link(519),
        Some("https://blue/2024.pdf"),
        "below 520: the older list"
    );
    assert_eq!(
        link(520),
        Some("https://blue/2025.pdf"),
        "520 and up: the newer list"
    );
    assert_eq!(link(521), None, "a carrier without drug lists links none");
}

// --- the repository's catalog -------------------------------------------------------------------

fn real_sources() -> Vec<Source> {
    fn walk(root: &Path, dir: &str, out: &mut Vec<Source>) {
        let entries = std::fs::read_dir(root.join(dir)).expect("rules/catalog readable");
        for e in entries.flatten() {
            let rel = format!("{dir}/{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                walk(root, &rel, out);
            } else if rel.ends_with(".yaml") {
                out.push(Source::new(
                    rel,
                    std::fs::read_to_string(e.path()).expect("readable"),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
        "rules/catalog",
        &mut out,
    );
    out
}

/// The repository's catalog with `edit` applied to the text of one file.
fn real_with(path: &str, edit: impl Fn(&str) -> String) -> Result<Catalog, Vec<String>> {
    let mut sources = real_sources();
    let s = sources
        .iter_mut()
        .find(|s| s.path == path)
        .expect("file in the catalog");
    s.text = edit(&s.text);
    let refs: Vec<&Source> = sources.iter().collect();
    catalog::load(&refs).map_err(|ds| ds.iter().map(ToString::to_string).collect())
}

#[test]
fn the_real_catalog_has_limits_for_every_plan_year_and_links_drug_lists_by_year() {
    let c = real_with("rules/catalog/carriers.yaml", str::to_string)
        .unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(
        c.limits.keys().copied().collect::<Vec<_>>(),
        vec![2024, 2025]
    );
    assert_eq!(
        c.limits[&2024].medical.max_oop.family,
        Money::from_cents(1_890_000)
    );
    assert_eq!(
        c.limits[&2025]
            .hsa
            .as_ref()
            .expect("hsa")
            .min_deductible
            .self_only,
        Money::from_cents(165_000)
    );
    let link = |id: i64| c.drug_list(c.plan(id).expect("plan"));
    assert!(
        link(101).expect("blue 2024").contains("2024"),
        "plan 101 (2024, Blue Cross)"
    );
    assert!(
        link(520).expect("blue 2025").contains("2025"),
        "plan 520 (2025, Blue Cross)"
    );
    assert_eq!(
        link(137),
        None,
        "plan 137 is UnitedHealthcare's: no drug list"
    );
    assert_eq!(
        link(556),
        None,
        "plan 556 is UnitedHealthcare's: no drug list"
    );
}

#[test]
fn edits_to_the_real_catalog_are_what_the_loader_checks() {
    // A plan's out-of-pocket maximum raised past the limit (plan 522 is the first at 7000).
    let problems = real_with("rules/catalog/2025/medical.yaml", |t| {
        t.replacen("max_ind_oop: 7000", "max_ind_oop: 9300", 1)
    })
    .expect_err("refused");
    assert!(
        problems.iter().any(|p| p.contains("plan `522`")
            && p.contains("max_ind_oop 9300 is above the 2025 ACA out-of-pocket maximum, 9200")),
        "{problems:?}"
    );
    // The limit lowered in limits.yaml: the plans at the old limit are refused.
    let problems = real_with("rules/catalog/2025/limits.yaml", |t| {
        t.replace("self_only: 9200", "self_only: 9000")
    })
    .expect_err("refused");
    assert!(
        problems.iter().any(|p| p.contains("plan `520`")
            && p.contains("9200 is above the 2025 ACA out-of-pocket maximum, 9000")),
        "{problems:?}"
    );
    // The drug-list split moved in carriers.yaml: plan 520 now links the older list.
    let c = real_with("rules/catalog/carriers.yaml", |t| {
        t.replace(
            "drug_list_newer_from_plan_id: 520",
            "drug_list_newer_from_plan_id: 521",
        )
    })
    .unwrap_or_else(|p| panic!("{p:?}"));
    assert!(
        c.drug_list(c.plan(520).expect("plan"))
            .expect("link")
            .contains("2024")
    );
}

#[test]
fn a_new_plan_year_needs_only_data() {
    // 2026 = 2025's medical plans with new ids, and 2025's limits under the new year.
    let mut sources = real_sources();
    let text = |p: &str| {
        sources
            .iter()
            .find(|s| s.path == p)
            .map(|s| s.text.replace("plan_year: 2025", "plan_year: 2026"))
            .expect("2025 file")
    };
    let medical = text("rules/catalog/2025/medical.yaml").replace("  - id: 5", "  - id: 8");
    let limits = text("rules/catalog/2025/limits.yaml");
    sources.push(Source::new("rules/catalog/2026/medical.yaml", medical));
    let refs: Vec<&Source> = sources.iter().collect();
    let problems = catalog::load(&refs).expect_err("no 2026 limits yet");
    assert!(
        problems[0]
            .message
            .starts_with("plan year 2026 has plans but no legal limits")
    );
    sources.push(Source::new("rules/catalog/2026/limits.yaml", limits));
    let refs: Vec<&Source> = sources.iter().collect();
    let c = catalog::load(&refs).unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(
        c.plans(2026, PlanKind::Medical).len(),
        c.plans(2025, PlanKind::Medical).len()
    );
    assert!(c.limits.contains_key(&2026));
}
