//! Error keys, answers pruned, overlaid, normalized and removed, read-only fields, and a field
//! dropped from the schema.

use super::*;
use serde_json::json;

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "sub_first_name": { "type": "string", "title": "First Name", "maxLength": 30 },
            "spouse": { "type": "object", "x-error-prefix": "spouse_",
                        "properties": { "gender": { "type": "string" } } },
            "dependents": { "type": "array", "x-error-prefix": "dependent{n}_",
                            "items": { "type": "object", "properties": { "gender": {} } } },
            "members": { "type": "array", "x-error-prefix": "dependent_{member_id}_pcp_",
                         "items": { "type": "object", "properties": { "npi": {} } } }
        }
    })
}

#[test]
fn error_keys_follow_the_spec_naming() {
    let s = schema();
    let data = json!({ "members": [{ "member_id": 77 }] });
    let seg = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        error_key(&s, &data, &seg(&["sub_first_name"]), None),
        "sub_first_name"
    );
    assert_eq!(
        error_key(&s, &data, &seg(&["spouse"]), Some("gender")),
        "spouse_gender"
    );
    assert_eq!(
        error_key(&s, &data, &seg(&["dependents", "2", "gender"]), None),
        "dependent3_gender"
    );
    assert_eq!(
        error_key(&s, &data, &seg(&["dependents"]), None),
        "dependents"
    );
    assert_eq!(
        error_key(&s, &data, &seg(&["members", "0", "npi"]), None),
        "dependent_77_pcp_npi"
    );
    assert_eq!(error_key(&s, &data, &[], Some("email")), "email");
    assert_eq!(
        error_key(&s, &data, &seg(&["ethnicity", "0"]), None),
        "ethnicity"
    );
}

#[test]
fn pruning_and_overlaying_in_place_say_what_they_did() {
    let s = schema();
    let kept = json!({ "sub_first_name": "Ann", "spouse": { "gender": "F" },
                       "dependents": [{ "gender": "M" }, {}] });
    let mut v = kept.clone();
    assert!(!prune(&mut v, &s), "nothing undeclared: nothing removed");
    assert_eq!(v, kept);
    for (extra, pruned) in [
        (
            json!({ "sub_first_name": "Ann", "nickname": "A" }),
            json!({ "sub_first_name": "Ann" }),
        ),
        (
            json!({ "spouse": { "gender": "F", "age": 40 } }),
            json!({ "spouse": { "gender": "F" } }),
        ),
        (
            json!({ "dependents": [{ "gender": "M" }, { "gender": "F", "ssn": "x" }] }),
            json!({ "dependents": [{ "gender": "M" }, { "gender": "F" }] }),
        ),
    ] {
        let mut v = extra.clone();
        assert!(prune(&mut v, &s), "{extra}");
        assert_eq!(v, pruned, "{extra}");
    }
    let initial =
        json!({ "a": 1, "people": [{ "age": 40, "name": "x" }, { "age": 9 }], "z": true });
    for (saved, overlaid) in [
        (
            json!({ "people": [{ "name": "Ann" }], "b": "new" }),
            json!({ "a": 1, "b": "new", "people": [{ "age": 40, "name": "Ann" }, { "age": 9 }], "z": true }),
        ),
        (
            json!({ "people": [{ "name": "Ann" }, { "name": "Bo" }, { "name": "extra" }] }),
            json!({ "a": 1, "people": [{ "age": 40, "name": "Ann" }, { "age": 9, "name": "Bo" }], "z": true }),
        ),
        (
            json!({ "a": { "nested": 1 }, "z": false }),
            json!({ "a": { "nested": 1 }, "people": [{ "age": 40, "name": "x" }, { "age": 9 }], "z": false }),
        ),
        (json!({}), initial.clone()),
    ] {
        assert_eq!(overlay(initial.clone(), saved.clone()), overlaid, "{saved}");
    }
    let mut v = json!({ "spouse": { "gender": "F" } });
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(remove_answer(&mut v, &path(&["spouse", "gender"])));
    assert!(!remove_answer(&mut v, &path(&["spouse", "gender"])));
    assert!(!remove_answer(&mut v, &path(&["nobody", "gender"])));
}

#[test]
fn normalize_trims_and_forgets_empty_answers() {
    let v = json!({ "a": "  Ann ", "b": "", "c": null, "d": [ { "x": " " } ], "e": 0 });
    assert_eq!(
        normalize(&v),
        Some(json!({ "a": "Ann", "d": [ {} ], "e": 0 }))
    );
}

#[test]
fn saved_answers_overlay_the_initial_people() {
    let initial = json!({ "a": 1, "people": [{ "born": "2000" }, { "born": "2010" }] });
    let saved = json!({ "a": 2, "b": 3, "people": [{ "name": "Ann" }, { "name": "Bo" }, { "name": "Gone" }] });
    assert_eq!(
        overlay(initial, saved),
        json!({ "a": 2, "b": 3, "people": [{ "born": "2000", "name": "Ann" }, { "born": "2010", "name": "Bo" }] })
    );
}

#[test]
fn read_only_fields_are_never_taken_from_the_browser() {
    let schema = json!({ "properties": { "a": { "readOnly": true }, "b": {},
        "l": { "items": { "properties": { "c": { "readOnly": true }, "d": {} } } } } });
    let mut v = json!({ "a": 1, "b": 2, "l": [{ "c": 3, "d": 4 }] });
    strip_read_only(&mut v, &schema);
    assert_eq!(v, json!({ "b": 2, "l": [{ "d": 4 }] }));
}

#[test]
fn prune_keeps_declared_fields_only() {
    let v = json!({ "sub_first_name": "A", "hack": 1, "spouse": { "gender": "F", "x": 2 } });
    let mut pruned = v.clone();
    prune(&mut pruned, &schema());
    assert_eq!(
        pruned,
        json!({ "sub_first_name": "A", "spouse": { "gender": "F" } })
    );
}

#[test]
fn dropping_a_field_removes_it_from_required() {
    let mut s = json!({ "type": "object", "required": ["a", "b"],
                        "properties": { "a": {}, "b": {} } });
    drop_field(&mut s, &parse_path("b"));
    assert_eq!(
        s,
        json!({ "type": "object", "required": ["a"], "properties": { "a": {} } })
    );
}
