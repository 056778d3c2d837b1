//! "A new carrier, a new step: files only" at the engine (issue 17, item 6, in part): the
//! repository's rules and forms, with a fifth carrier (its own flag, age curve, family rule and an
//! HMO plan) and a Payment Method step between Other Questions and PCP Selection added as files
//! only, load cleanly, route, list and quote as the files say. No engine code knows either.

mod common;

use enrollflow_engine::rating::{self, Household, Member, Role};
use enrollflow_engine::{
    AgentFlags, Applying, Context, Source, Submission, catalog::PlanKind, load,
};
use serde_json::json;
use time::macros::date;

/// Edits a file of the set as an analyst would.
fn edit(sources: &mut [Source], path: &str, f: impl Fn(&str) -> String) {
    let s = sources
        .iter_mut()
        .find(|s| s.path == path)
        .unwrap_or_else(|| panic!("{path} is in the rule set"));
    let new = f(&s.text);
    assert_ne!(new, s.text, "{path} changed");
    s.text = new;
}

const PAYMENT_STEP: &str = "  - id: payment
    number: 9
    route: /payment
    title: Payment Method
    nav: Payment
    section: Apply for Coverage
    form: payment
    skip_when: app.skip_payment == true

  - id: pcp
    number: 10";

const PAYMENT_FORM: &str = "title: Payment Method
schema:
  type: object
  required: [payment_method]
  properties:
    payment_method:
      title: How will you pay the first premium?
      type: string
      oneOf:
        - { const: bank, title: Bank draft }
        - { const: card, title: Card }
ui: {}
";

const LAKES: &str = "  - id: 5
    name: Great Lakes Health Plan
    short_name: Great Lakes
    color: \"#205493\"
    agent_flag: display_lakes
    rating: { children_charged: 2, child_age: 21, tobacco_age: 21 }
    provider_directory: https://www.lakes.example.com/find-a-doctor
";

fn lakes_plan() -> String {
    let rates: Vec<String> = (1..=16).map(|a| format!("{a}: 400.00")).collect();
    format!(
        "  - id: 9001
    name: \"Great Lakes Silver HMO\"
    carrier: 5
    network: 2
    metal: 4
    ded_ind: 3000
    ded_fam: 6000
    max_ind_oop: 9000
    max_2p_oop: 18000
    max_fam_oop: 18000
    age_curve: lakes
    rates: {{ {} }}
",
        rates.join(", ")
    )
}

fn with_lakes_and_payment() -> Vec<Source> {
    let mut s = common::sources();
    edit(&mut s, "rules/flows/enrollment.flow.yaml", |t| {
        t.replace("  - id: pcp\n    number: 9", PAYMENT_STEP)
            .replace(
                "    number: 10\n    route: /rap",
                "    number: 11\n    route: /rap",
            )
    });
    s.push(Source::new("forms/payment.form.yaml", PAYMENT_FORM));
    edit(&mut s, "rules/catalog/carriers.yaml", |t| {
        format!("{t}{LAKES}")
    });
    edit(&mut s, "rules/catalog/age_curves.yaml", |t| {
        format!(
            "{t}  lakes:\n    - {{ from: 0, to: 20, factor: 0.5 }}\n    - {{ from: 21, factor: 1.0 }}\n"
        )
    });
    edit(&mut s, "rules/catalog/2025/medical.yaml", |t| {
        format!("{t}{}", lakes_plan())
    });
    s
}

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
    let engine = load(&with_lakes_and_payment()).unwrap_or_else(|p| {
        panic!(
            "{}",
            p.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
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
    // Its skip rule passes it by.
    let skipping = json!({"last_step": 9, "skip_payment": true, "medical_network_type_id": 2});
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
}
