//! Impact before publishing counts how a draft moves the stored renewals: a submitted
//! application's renewal is observed under the published set and the draft, and only the status
//! it moves to (one of six names) is shown, never a premium.

mod common;

use common::{engine, sources};
use enrollflow_engine::{AgentFlags, Applying, Context};
use enrollflow_engine_tools::impact::{Vocabulary, count, observe};
use serde_json::json;

fn ctx() -> Context {
    Context {
        today: time::macros::date!(2024 - 11 - 20),
        applying: Applying::Agent,
        agent: AgentFlags {
            offers: vec!["display_bcbsm".into(), "display_ph".into()],
            ..AgentFlags::default()
        },
    }
}

#[test]
fn a_draft_that_raises_the_notable_change_moves_premium_changes_to_the_same_plan() {
    let base_sources = sources();
    let base = engine(&base_sources);
    // The draft: a premium change is notable from 10 % only.
    let draft_sources: Vec<_> = base_sources
        .iter()
        .cloned()
        .map(|mut s| {
            if s.path == "rules/renewals.yaml" {
                s.text = s
                    .text
                    .replace("notable_change_percent: 5", "notable_change_percent: 10");
            }
            s
        })
        .collect();
    let draft = engine(&draft_sources);
    // A submission of 2024 on the Blue Cross Premier PPO Silver, whose premium renews 8.8 % up
    // (tests/scenarios/renewals.yaml).
    let app = json!({
        "last_step": 11,
        "effective_date": "2024-03-01",
        "census": { "sub_birth_date": "1984-06-01", "sub_tobacco": 0, "residential_zip": "48104",
                    "residential_county_id": 161 },
        "medical_plan": { "id": 106 },
        "rap": { "signed": true }
    });
    let before = observe(&base, &app, &ctx());
    let after = observe(&draft, &app, &ctx());
    assert_eq!(
        before.get("renewal: status").map(String::as_str),
        Some("premium_change")
    );
    assert_eq!(
        after.get("renewal: status").map(String::as_str),
        Some("same_plan")
    );
    assert_eq!(
        before.get("renewal: medical successor").map(String::as_str),
        Some("525")
    );

    let vocabulary = Vocabulary::of(&base, &base_sources);
    let (changed, counts) = count(vec![(&before, &after); 5], &vocabulary);
    assert_eq!(changed, 5);
    let groups: Vec<&str> = counts.iter().map(|c| c.what.as_str()).collect();
    assert_eq!(groups, ["renewals: status becomes same_plan"]);

    // An application not submitted has no renewal to move.
    let mut quote = app.clone();
    quote.as_object_mut().expect("an object").remove("rap");
    assert!(!observe(&base, &quote, &ctx()).contains_key("renewal: status"));
}
