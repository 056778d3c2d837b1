//! The JSON Schemas of the analysts' and testers' files (`schemas/`, named in each file's
//! `yaml-language-server` header so an editor completes and checks them) accept every file of the
//! repository, and of the files-only example, and refuse a misspelt key.

mod common;

use std::path::Path;

use enrollflow_engine::Source;
use serde_json::Value;

fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(common::repo().join(format!("schemas/{name}.schema.json")))
        .unwrap_or_else(|e| panic!("schemas/{name}.schema.json: {e}"));
    let s: Value = serde_json::from_str(&text).expect("a schema is JSON");
    jsonschema::draft202012::new(&s).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Which schema a file of the rule set answers to, if any.
fn kind(path: &str) -> Option<&'static str> {
    let name = Path::new(path).file_name()?.to_str()?;
    match () {
        _ if path.starts_with("forms/locales/") || path.starts_with("rules/locales/") => {
            Some("catalog")
        }
        _ if path.starts_with("rules/flows/") => Some("flow"),
        _ if path.starts_with("forms/") => Some("form"),
        _ if path.starts_with("tests/scenarios/") => Some("scenarios"),
        _ if path == "rules/catalog/carriers.yaml" => Some("carriers"),
        _ if path.starts_with("rules/catalog/20") && name == "crosswalk.yaml" => Some("crosswalk"),
        _ if path.starts_with("rules/catalog/20") && name == "cost_sharing.yaml" => {
            Some("cost_sharing")
        }
        _ if path.starts_with("rules/catalog/20") && name != "limits.yaml" => Some("plans"),
        _ => None,
    }
}

fn problems(validator: &jsonschema::Validator, s: &Source) -> Vec<String> {
    let doc: Value = serde_saphyr::from_str(&s.text).unwrap_or_else(|e| panic!("{}: {e}", s.path));
    validator
        .iter_errors(&doc)
        .map(|e| format!("{}: {} at {}", s.path, e, e.instance_path()))
        .collect()
}

/// Checks every file that has a schema; `headers`: each also names it for editors.
fn check_all(sources: &[Source], headers: bool) -> usize {
    let mut checked = 0;
    let mut found = Vec::new();
    for s in sources {
        let Some(k) = kind(&s.path) else { continue };
        assert!(
            !headers || s.text.starts_with("# yaml-language-server: $schema="),
            "{} names no schema for editors",
            s.path
        );
        found.extend(problems(&schema(k), s));
        checked += 1;
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    checked
}

#[test]
fn every_file_of_the_repository_matches_its_schema() {
    let mut sources = common::sources();
    common::read_dir(&common::repo(), "tests/scenarios", &mut sources);
    assert!(check_all(&sources, true) >= 20);
}

#[test]
fn the_files_only_example_matches_too() {
    assert!(check_all(&common::sources_with_changes(), false) >= 10);
}

#[test]
fn a_misspelt_key_is_refused() {
    let flow = common::sources()
        .into_iter()
        .find(|s| s.path.starts_with("rules/flows/"))
        .expect("a flow");
    let typo = Source::new(
        flow.path.clone(),
        flow.text.replacen("    skip_when:", "    skip_wehn:", 1),
    );
    let found = problems(&schema("flow"), &typo);
    assert!(found.iter().any(|p| p.contains("skip_wehn")), "{found:?}");
    let scenario = Source::new(
        "tests/scenarios/x.yaml",
        "- name: x\n  context: { today: 2024-11-20 }\n  steps:\n    - submit: census\n      expect: { nxt: dental }\n",
    );
    assert!(!problems(&schema("scenarios"), &scenario).is_empty());
}
