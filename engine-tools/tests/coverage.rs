//! Rule coverage (`enrollflow coverage`): what a scenario run reaches is what the report says is
//! reached, statement by statement, branch by branch, transition by transition.

mod common;

use enrollflow_engine::coverage::{Item, Report};
use enrollflow_engine::load_with_coverage;
use enrollflow_engine_tools::coverage::Floor;
use enrollflow_engine_tools::scenario;

/// The report after running `suite` (YAML) against the repository's rules.
fn run(suite: &str) -> Report {
    let engine = load_with_coverage(&common::sources()).expect("the rules load");
    let results = scenario::run_suite(&engine, "suite.yaml", suite).expect("the suite parses");
    for r in &results {
        assert!(r.passed(), "{}: {:?}", r.name, r.failures);
    }
    engine.coverage().expect("loaded for coverage")
}

fn find<'a>(r: &'a Report, kind: &str, what: &str) -> &'a Item {
    r.items
        .iter()
        .find(|i| i.kind == kind && i.what == what)
        .unwrap_or_else(|| panic!("no {kind} `{what}` in the report"))
}

/// Whether a script line shows up among the statements not reached.
/// The line of rules/scripts/plans.rhai that is `text` (the first).
fn plans_line(text: &str) -> usize {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/scripts/plans.rhai");
    let source = std::fs::read_to_string(path).expect("plans.rhai");
    source
        .lines()
        .position(|l| l == text)
        .map(|i| i + 1)
        .expect("the line")
}

fn missed(r: &Report, file: &str, line: usize) -> bool {
    r.items
        .iter()
        .any(|i| i.kind == "statement" && !i.reached && i.file == file && i.line == line)
}

fn branch_missed(r: &Report, file: &str, line: usize, way: &str) -> bool {
    r.items
        .iter()
        .any(|i| i.kind == "branch" && i.file == file && i.line == line && i.what.ends_with(way))
}

const CENSUS: &str = r#"
- name: why applying, then About You
  context: { today: 2024-11-20, applying: agent, agent: { offers: [display_bcbsm] } }
  steps:
    - submit: whyApplying
      with: { enrollment_type: oe }
    - submit: census
      with: { sub_first_name: Ann, sub_last_name: Lee, email: ann@example.com, sub_gender: F, sub_birth_date: 1990-05-01, sub_tobacco: 0, residential_zip: "48104", residential_county_id: 161 }
      expect: { next: medical }
"#;

const REFUSED: &str = r#"
- name: medical without a plan is refused
  context: { today: 2024-11-20, applying: consumer, agent: { offers: [display_bcbsm] } }
  app: { last_step: 3, effective_date: "2025-01-01", census: { sub_birth_date: "1990-05-01", sub_tobacco: 0, residential_zip: "48104", residential_county_id: 161 } }
  steps:
    - select: medical
      expect: { refused: Please choose a medical plan. }
"#;

#[test]
fn transitions_taken_are_reached_and_the_others_are_not() {
    let r = run(CENSUS);
    assert!(find(&r, "transition", "whyApplying → census").reached);
    assert!(find(&r, "transition", "census → medical").reached);
    // Read from census::next_step: the dialogs it may ask and the steps it may name.
    assert!(!find(&r, "transition", "census → dialog child_only").reached);
    assert!(!find(&r, "transition", "census → dental").reached);
    assert!(!find(&r, "transition", "medical → dental").reached);
    assert!(!find(&r, "modal", "census: subsidy").reached);
    let t = r.totals.transitions;
    assert!(t.reached == 2 && t.total > 20, "{t:?}");
}

#[test]
fn statements_and_branches_follow_what_ran() {
    // plans.rhai's medical_selected: `if plan == () {`, its refusal (the line after), the chosen
    // plan's flags (two lines further).
    let check = plans_line("    if plan == () {");
    let r = run(CENSUS);
    assert!(missed(&r, "rules/scripts/plans.rhai", check));
    let r = run(REFUSED);
    assert!(!missed(&r, "rules/scripts/plans.rhai", check));
    assert!(!missed(&r, "rules/scripts/plans.rhai", check + 1));
    assert!(missed(&r, "rules/scripts/plans.rhai", check + 3));
    assert!(!branch_missed(
        &r,
        "rules/scripts/plans.rhai",
        check,
        "never true"
    ));
    assert!(branch_missed(
        &r,
        "rules/scripts/plans.rhai",
        check,
        "never false"
    ));
    // The flow's `select` expression is one statement at its line in the flow.
    assert!(!r.items.iter().any(|i| i.kind == "expression"
        && i.what == "plans::medical_selected(app, plan, input)"
        && !i.reached));
}

#[test]
fn fields_and_carriers_are_counted_as_shown_and_quoted() {
    let r = run(CENSUS);
    assert!(find(&r, "field", "census: sub_birth_date shown").reached);
    assert!(!find(&r, "carrier", "2024 medical plans of Priority Health").reached);
    let r = run(r#"
- name: a December 2024 start quotes 2024 plans
  context: { today: 2024-11-20, applying: agent, agent: { offers: [display_ph] } }
  app: { last_step: 3, effective_date: "2024-12-01", census: { sub_birth_date: "1990-05-01", sub_tobacco: 0, residential_zip: "48104", residential_county_id: 161 } }
  steps:
    - quote: medical
"#);
    assert!(find(&r, "carrier", "2024 medical plans of Priority Health").reached);
    assert!(
        !find(
            &r,
            "carrier",
            "2024 medical plans of Blue Care Network of Michigan"
        )
        .reached
    );
}

#[test]
fn the_floor_names_each_kind_below_it() {
    let r = run(CENSUS);
    let floor = Floor::parse("statements: 95\ntransitions: 100\ncarriers: 0\n").expect("a floor");
    let short = floor.shortfalls(&r.totals);
    assert_eq!(short.len(), 2, "{short:?}");
    assert!(short[0].starts_with("statements ") && short[0].ends_with("below the floor of 95%"));
    assert!(short[1].starts_with("transitions "));
    assert!(
        Floor::parse("statments: 95\n").is_err(),
        "a misspelt kind is refused"
    );
}

#[test]
fn the_html_report_marks_lines_and_lists_what_was_missed() {
    let r = run(REFUSED);
    let html = enrollflow_engine_tools::coverage::html(&r, "coverage");
    let refusal = plans_line("    if plan == () {") + 1;
    assert!(html.contains(&format!("<tr class=\"hit\"><td class=\"n\">{refusal}</td>")));
    assert!(html.contains("census → medical"));
    assert!(html.contains("rules/scripts/plans.rhai"));
}
