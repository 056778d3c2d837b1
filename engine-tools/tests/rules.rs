//! The repository's rule set loads cleanly, and every scenario suite in tests/scenarios passes.

mod common;

use common::{sources, suites};
use enrollflow_engine_tools::scenario;

#[test]
fn the_rule_set_loads_without_problems() {
    common::engine(&sources());
}

#[test]
fn every_scenario_suite_passes() {
    let engine = common::engine(&sources());
    let suites = suites();
    assert!(!suites.is_empty(), "no scenario suites found");
    let mut failed = Vec::new();
    let mut passed = 0;
    for s in &suites {
        let results =
            scenario::run_suite(&engine, &s.path, &s.text).unwrap_or_else(|d| panic!("{d}"));
        for r in results {
            if r.passed() {
                passed += 1;
            } else {
                failed.push(format!(
                    "{} / {}:\n  {}",
                    s.path,
                    r.name,
                    r.failures.join("\n  ")
                ));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} scenarios failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert!(passed > 0);
}

#[test]
fn suites_run_side_by_side_give_each_files_results_in_order() {
    let engine = common::engine(&sources());
    let suites = suites();
    // A broken file among them is reported in its place, not lost.
    let broken = ("broken.yaml".to_string(), "- name: [".to_string());
    let mut texts: Vec<(&str, &str)> = suites
        .iter()
        .map(|s| (s.path.as_str(), s.text.as_str()))
        .collect();
    texts.insert(1, (broken.0.as_str(), broken.1.as_str()));
    let keep = |name: &str| !name.contains("dental");
    let side_by_side = scenario::run_suites(&engine, &texts, keep);
    assert_eq!(side_by_side.len(), texts.len());
    for ((path, text), got) in texts.iter().zip(&side_by_side) {
        let alone = scenario::run_suite_matching(&engine, path, text, keep);
        match (alone, got) {
            (Ok(a), Ok(b)) => {
                let names = |r: &[scenario::ScenarioResult]| {
                    r.iter()
                        .map(|r| (r.line, r.name.clone(), r.failures.clone()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(names(&a), names(b), "{path}");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{path}"),
            (a, b) => panic!("{path}: {a:?} alone, {b:?} side by side"),
        }
    }
    assert!(side_by_side[1].is_err(), "the broken file in its place");
}

#[test]
fn a_changed_expectation_makes_a_scenario_fail() {
    let engine = common::engine(&sources());
    let suite = |next: &str, option_ids: &str| {
        format!(
            "- name: open enrollment\n  context: {{ today: 2024-11-20, agent: {{ offers: [display_bcbsm] }} }}\n  steps:\n    - view: whyApplying\n      expect: {{ options: {{ enrollment_type: {option_ids} }} }}\n    - submit: whyApplying\n      with: {{ enrollment_type: oe }}\n      expect: {{ next: {next} }}\n"
        )
    };
    let run = |text: String| scenario::run_suite(&engine, "t.yaml", &text).expect("parses");
    assert!(run(suite("census", "[oe, qle, vision, dental]"))[0].passed());
    let wrong_next = run(suite("medical", "[oe, qle, vision, dental]"));
    assert_eq!(
        wrong_next[0].failures,
        vec!["t.yaml:6: step 2: went to `census`, expected `medical`"]
    );
    let wrong_options = run(suite("census", "[oe, qle]"));
    assert!(!wrong_options[0].passed());
    assert!(
        wrong_options[0].failures[0].contains("enrollment_type"),
        "{:?}",
        wrong_options[0].failures
    );
}

/// The flow's summary (what the dashboard, More Info and the printed household read): the
/// subscriber's answers in Subscriber Information over those of About You, the billing address
/// only when one was given, the household of About You.
#[test]
fn the_summary_reads_subscriber_information_over_about_you() {
    let engine = common::engine(&sources());
    let data = serde_json::json!({
        "census": {"sub_first_name": "Ann", "sub_last_name": "Lee", "email": "a@x.example",
                   "residential_zip": "48104", "spouse": {"birth_date": "1980-01-01"},
                   "dependents": [{"birth_date": "2010-01-01"}, {"birth_date": "2012-01-01"}]},
        "subInfo": {"sub_first_name": "Anne ", "sub_last_name": "", "primary_phone": "7345550100",
                    "residential_street": "1 Main", "billing_provided": false, "billing_street": "2 Oak"}
    });
    let s = engine.summary(&data).expect("a summary");
    assert_eq!(s.full_name(), "Anne Lee");
    assert_eq!(s.email.as_deref(), Some("a@x.example"));
    assert_eq!(s.residential_zip.as_deref(), Some("48104"));
    assert_eq!(s.primary_phone.as_deref(), Some("7345550100"));
    assert_eq!(s.billing_street, None, "no billing address was given");
    assert_eq!((s.dependents, s.has_spouse), (2, true));
    let billing =
        serde_json::json!({"subInfo": {"billing_provided": true, "billing_street": "2 Oak"}});
    let s = engine.summary(&billing).expect("a summary");
    assert!(s.billing_provided);
    assert_eq!(s.billing_street.as_deref(), Some("2 Oak"));
    assert_eq!(
        engine
            .summary(&serde_json::json!({}))
            .expect("empty")
            .full_name(),
        ""
    );
    assert_eq!(engine.upload_step(), Some("whyApplying"));
}

/// A scenario's failure names its file and the line of the failing step; a wrong premium or list
/// says what was quoted; `run_suite_matching` runs only the scenarios asked for.
#[test]
fn scenario_failures_name_the_line_and_what_was_quoted() {
    let engine = common::engine(&sources());
    let suite = r#"- name: wrong on purpose
  context: { today: 2024-11-20, agent: { offers: [display_bcbsm] } }
  app:
    effective_date: "2025-01-01"
    census: { sub_birth_date: "2003-06-01", sub_tobacco: 0, residential_county_id: 161 }
  steps:
    - quote: medical
      expect: { includes: [520] }
    - quote: medical
      filters: plan_520
      expect: { premiums: { 520: 1.00 }, plans: [521] }
- name: another
  context: { today: 2024-11-20 }
  steps:
    - valid: whyApplying
      expect: { allowed: true }
"#;
    let results = scenario::run_suite(&engine, "tests/scenarios/x.yaml", suite).expect("a suite");
    assert_eq!(results.len(), 2);
    let wrong = &results[0];
    assert_eq!(wrong.line, 1);
    assert!(results[1].passed(), "{:?}", results[1].failures);
    assert_eq!(wrong.failures.len(), 2, "{:?}", wrong.failures);
    assert_eq!(
        wrong.failures,
        [
            "tests/scenarios/x.yaml:9: step 2: medical plans quoted [520], expected [521]",
            "tests/scenarios/x.yaml:9: step 2: plan 520 costs $174.65 a month, expected $1.00"
        ]
    );
    let only = scenario::run_suite_matching(&engine, "x.yaml", suite, |n| n == "another")
        .expect("a suite");
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].name, "another");
}
