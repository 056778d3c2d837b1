//! The repository's rule set loads cleanly, and every scenario suite in tests/scenarios passes.

mod common;

use common::{read_dir, repo, sources};
use enrollflow_engine::{load, scenario};

#[test]
fn the_rule_set_loads_without_problems() {
    if let Err(problems) = load(&sources()) {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        panic!("rule set problems:\n{}", list.join("\n"));
    }
}

#[test]
fn every_scenario_suite_passes() {
    let engine = load(&sources()).unwrap_or_else(|p| panic!("{p:?}"));
    let mut suites = Vec::new();
    read_dir(&repo(), "tests/scenarios", &mut suites);
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
fn a_changed_expectation_makes_a_scenario_fail() {
    let engine = load(&sources()).unwrap_or_else(|p| panic!("{p:?}"));
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
        vec!["step 2: went to `census`, expected `medical`"]
    );
    let wrong_options = run(suite("census", "[oe, qle]"));
    assert!(!wrong_options[0].passed());
    assert!(
        wrong_options[0].failures[0].contains("enrollment_type"),
        "{:?}",
        wrong_options[0].failures
    );
}
