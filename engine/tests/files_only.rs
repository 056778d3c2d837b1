//! "A new carrier, a new step, a new plan year: files only" at the engine: the
//! repository's rules and forms with the changes of `tests/files-only/changes.txt` (Great Lakes,
//! carrier 5, with its own flag, age curve, family rule, Other Questions and HMO plans; a Payment
//! Method step between Other Questions and PCP Selection; plan year 2026) load cleanly, route, list
//! and quote as the files say. No engine code knows any of them; the browser test
//! (web/e2e/files-only.spec.ts) walks the same changes in the product.

mod common;

use enrollflow_engine::rating::{self, Household, Member, Role};
use enrollflow_engine::{AgentFlags, Applying, Context, Submission, catalog::PlanKind};
use serde_json::json;
use time::macros::date;

fn ctx(offers: &[&str]) -> Context {
    Context {
        today: date!(2024 - 11 - 20),
        applying: Applying::Consumer,
        agent: AgentFlags {
            offers: offers.iter().map(|f| f.to_string()).collect(),
            ..AgentFlags::default()
        },
    }
}

#[test]
fn a_new_step_and_a_new_carrier_are_files_only() {
    let engine = common::engine(&common::sources_with_changes());
    let lakes_agent = ctx(&["display_lakes"]);

    // The flow lists the new step after Other Questions, and routes to it.
    let app = json!({
        "last_step": 9, "enrollment_type": "oe", "effective_date": "2025-01-01",
        "medical_carrier_id": 5, "medical_network_type_id": 2,
    });
    let flow = engine.flow_view(&app, &lakes_agent).expect("a flow");
    let ids: Vec<&str> = flow.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(&ids[7..], ["other", "payment", "pcp", "rap"]);
    let payment = &flow.steps[8];
    assert_eq!(
        (payment.route.as_str(), payment.nav.as_str()),
        ("/payment", "Payment")
    );
    assert_eq!(payment.section.as_deref(), Some("Apply for Coverage"));
    assert!(payment.listed && payment.valid && !payment.skipped);
    assert!(
        flow.steps[9].listed,
        "PCP Selection is listed for the HMO plan"
    );
    assert_eq!(
        engine
            .next_after("other", &app, &lakes_agent)
            .expect("next")
            .id,
        "payment"
    );

    // Its form validates by the file, and a save goes on to PCP Selection (an HMO plan).
    match engine
        .submit("payment", &json!({}), &app, &lakes_agent)
        .expect("a verdict")
    {
        Submission::Invalid { errors } => {
            assert!(errors.contains_key("payment_method"), "{errors:?}")
        }
        Submission::Accepted(_) => panic!("an empty payment method was accepted"),
    }
    match engine
        .submit(
            "payment",
            &json!({"payment_method": "card"}),
            &app,
            &lakes_agent,
        )
        .expect("a verdict")
    {
        Submission::Accepted(t) => assert_eq!(t.next.id, "pcp"),
        Submission::Invalid { errors } => panic!("{errors:?}"),
    }
    // Great Lakes' own Other Questions: asked of its applications only.
    let asks = |app: &serde_json::Value| {
        engine
            .step_view("other", app, &lakes_agent)
            .expect("a view")
            .schema["properties"]
            .get("lakes_wellness")
            .is_some()
    };
    assert!(asks(&app));
    assert!(!asks(
        &json!({"last_step": 9, "medical_carrier_id": 1, "medical_network_type_id": 1})
    ));

    // Its skip rule passes it by for the other carriers, and it is not listed for them.
    let skipping = json!({"last_step": 9, "medical_carrier_id": 1, "medical_network_type_id": 2});
    let blue = engine.flow_view(&skipping, &lakes_agent).expect("a flow");
    assert!(!blue.steps.iter().any(|s| s.id == "payment" && s.listed));
    assert_eq!(
        engine
            .next_after("other", &skipping, &lakes_agent)
            .expect("next")
            .id,
        "pcp"
    );

    // The new carrier is quoted only where its flag is on, by its own curve and family rule.
    let cat = engine.catalog();
    let h = Household {
        members: vec![
            Member {
                role: Role::Subscriber,
                birth_date: date!(1984 - 06 - 15),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: date!(2012 - 04 - 04),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: date!(2014 - 07 - 07),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: date!(2016 - 05 - 05),
                tobacco: false,
            },
        ],
        county: 161,
        effective_date: date!(2025 - 01 - 01),
    };
    let offered = cat.offered_carriers(&lakes_agent.agent.offers);
    assert_eq!(offered, [5]);
    let quoted = rating::quote(cat, PlanKind::Medical, &h, &offered).expect("a quote");
    assert_eq!(quoted.len(), 1);
    let (plan, rates) = &quoted[0];
    assert_eq!(plan.id, 9001);
    // $400.00 for the adult, $200.00 (0.5) for each of the two oldest children; the third is free.
    assert_eq!(rates.total.cents(), 80_000);
    let blue_agent = cat.offered_carriers(&["display_bcbsm"]);
    assert!(!blue_agent.contains(&5));
    let blue_quote = rating::quote(cat, PlanKind::Medical, &h, &blue_agent).expect("a quote");
    assert!(blue_quote.iter().all(|(p, _)| p.carrier != 5));

    // Plan year 2026: its own plan at its own rates, by the same rule.
    let h2026 = Household {
        effective_date: date!(2026 - 01 - 01),
        ..h
    };
    let quoted = rating::quote(cat, PlanKind::Medical, &h2026, &offered).expect("a quote");
    assert_eq!(
        quoted
            .iter()
            .map(|(p, r)| (p.id, r.total.cents()))
            .collect::<Vec<_>>(),
        [(9101, 84_000)]
    );
}
