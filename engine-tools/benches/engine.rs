//! The engine over the repository's rules: step views, every step's submission, a census of 15
//! dependents, the quote, the scenario suites and renewals. Run: `make bench`, which also checks the targets
//! (`tools/bench/engine_targets.py`); or `cargo bench -p enrollflow-engine-tools --bench engine`.

use std::hint::black_box;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::rating::{self, Household, Member, Role};
use enrollflow_engine::{AgentFlags, Applying, Context, Source, Submission, load};
use enrollflow_engine_tools::scenario;
use serde_json::{Value, json};

fn sources() -> Vec<Source> {
    fn walk(root: &Path, rel: &str, out: &mut Vec<Source>) {
        let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
            return;
        };
        for e in entries.flatten() {
            let name = format!("{rel}/{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                walk(root, &name, out);
            } else if name.ends_with(".yaml") || name.ends_with(".rhai") {
                out.push(Source::new(
                    name,
                    std::fs::read_to_string(e.path()).unwrap_or_default(),
                ));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    walk(&root, "rules", &mut out);
    walk(&root, "forms", &mut out);
    out
}

fn census_with_15_dependents() -> Value {
    let dependents: Vec<Value> = (0..15)
        .map(|i| json!({ "gender": if i % 2 == 0 { "M" } else { "F" }, "birth_date": format!("20{:02}-0{}-1{}", 5 + i, 1 + i % 9, i % 9), "tobacco": 0 }))
        .collect();
    json!({
        "sub_first_name": "Ann", "sub_last_name": "Lee", "email": "ann@example.com",
        "sub_gender": "F", "sub_birth_date": "1980-03-02", "sub_tobacco": 0,
        "residential_zip": "48104", "residential_county_id": 161,
        "spouse": { "gender": "M", "birth_date": "1979-07-21", "tobacco": 1 },
        "dependents": dependents, "medicare_eligible": 0, "wants_subsidy": 0
    })
}

/// A family of three on a Blue PPO with dental, with every step answered, at Review and Purchase
/// (the answers of tests/scenarios/review_purchase.yaml and other_questions.yaml).
fn journey() -> Value {
    json!({
        "enrollment_type": "oe", "effective_date": "2025-01-01", "enrollment_reason_id": 1,
        "medical_carrier_id": 1, "dental_carrier_id": 1, "medical_network_type_id": 1,
        "skip_vision": true, "last_step": 10,
        "medical_plan": { "name": "Blue Cross Premier PPO Gold Extra", "network": "PPO", "rate": 612.5 },
        "dental_plan": { "name": "Blue Dental Plus", "rate": 35 },
        "whyApplying": { "enrollment_type": "oe" },
        "census": {
            "sub_first_name": "Ann", "sub_last_name": "Lee", "email": "ann@example.com",
            "sub_gender": "F", "sub_birth_date": "1985-03-02", "sub_tobacco": 0,
            "residential_zip": "48104", "residential_county_id": 161,
            "spouse": { "gender": "M", "birth_date": "1984-07-09", "tobacco": 1 },
            "dependents": [{ "gender": "F", "birth_date": "2012-05-01" }],
            "medicare_eligible": 0
        },
        "subInfo": {
            "sub_first_name": "Ann", "sub_middle": "B", "sub_last_name": "Lee",
            "email": "ann.lee@example.com", "primary_phone": "3135550100", "primary_phone_type_id": 4,
            "residential_street": "1 Main St", "residential_city": "Ann Arbor", "residential_state": "MI",
            "sub_ssn": "123456789", "sub_us_citizen": 1,
            "spouse": { "first_name": "Bob", "last_name": "Lee", "ssn": "123456780", "us_citizen": 1 },
            "dependents": [{ "first_name": "Cy", "last_name": "Lee", "relationship": 1, "ssn": "123456781", "us_citizen": 1 }]
        },
        "other": {
            "bcbsm_dental_confirmation": 1, "bcbsm_signature": "Ann Leigh",
            "bcbsm_signature_date": "2024-11-20", "has_previous_coverage": 0,
            "ethnicity_type": [2, 5], "hispanic_ethnicity_type": [22],
            "yearly_household_income": 3, "who_is_paying": 1
        },
        "rap": {
            "agree_tc": true, "who_is_applying": 1, "agree_subscriber_applying": true,
            "subscriber_signature": "Ann B Lee", "subscriber_signature_confirm": "Ann B Lee",
            "subscriber_signature_date": "2024-11-20",
            "spouse_signature": "Bob Lee", "spouse_signature_confirm": "Bob Lee",
            "spouse_signature_date": "2024-11-20"
        }
    })
}

/// The form steps of [`journey`], in order.
const JOURNEY: [&str; 5] = ["whyApplying", "census", "subInfo", "other", "rap"];

/// The scenario suites of tests/scenarios: (path, text).
fn suites() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
                .map(|e| {
                    (
                        format!("tests/scenarios/{}", e.file_name().to_string_lossy()),
                        std::fs::read_to_string(e.path()).unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The repository's rules, and a consumer on an agent's site offering Blue Cross and Priority
/// Health on the demo's day.
fn engine_and_context() -> (enrollflow_engine::Engine, Context) {
    let engine = match load(&sources()) {
        Ok(e) => e,
        Err(p) => panic!("rules: {p:?}"),
    };
    let ctx = Context {
        today: time::macros::date!(2024 - 11 - 20),
        applying: Applying::Consumer,
        agent: AgentFlags {
            offers: vec!["display_bcbsm".into(), "display_ph".into()],
            ..AgentFlags::default()
        },
    };
    (engine, ctx)
}

fn bench(c: &mut Criterion) {
    let (engine, ctx) = engine_and_context();
    let census = census_with_15_dependents();
    let app = json!({
        "last_step": 2, "enrollment_type": "oe", "effective_date": "2025-01-01",
        "whyApplying": { "enrollment_type": "oe" }, "census": census
    });
    match engine.submit("census", &census, &app, &ctx) {
        Ok(Submission::Accepted(t)) => assert_eq!(t.next.id, "medical"),
        other => panic!("the benchmark's census must be accepted: {other:?}"),
    }
    c.bench_function("step_view census (15 dependents)", |b| {
        b.iter(|| engine.step_view(black_box("census"), black_box(&app), &ctx))
    });
    c.bench_function("submit census (15 dependents)", |b| {
        b.iter(|| {
            engine.submit(
                black_box("census"),
                black_box(&census),
                black_box(&app),
                &ctx,
            )
        })
    });
    c.bench_function("step_view whyApplying", |b| {
        b.iter(|| engine.step_view(black_box("whyApplying"), black_box(&app), &ctx))
    });

    // Every form step of a whole application, submitted with its answers, and the Review and
    // Purchase view.
    let family = journey();
    let signing = Context {
        agent: AgentFlags {
            offers: vec!["display_bcbsm".into()],
            name: "Pat Agent".into(),
            npn: "1234567".into(),
            ..AgentFlags::default()
        },
        ..ctx.clone()
    };
    for step in JOURNEY {
        let answers = &family[step];
        match engine.submit(step, answers, &family, &signing) {
            Ok(Submission::Accepted(_)) => {}
            other => panic!("the journey's {step} must be accepted: {other:?}"),
        }
        c.bench_function(&format!("submit {step} (family of 3)"), |b| {
            b.iter(|| {
                engine.submit(
                    black_box(step),
                    black_box(answers),
                    black_box(&family),
                    &signing,
                )
            })
        });
    }
    c.bench_function("step_view rap (family of 3)", |b| {
        b.iter(|| engine.step_view(black_box("rap"), black_box(&family), &signing))
    });
    // What every save works out besides its submission: the flow's summary.
    c.bench_function("summary (family of 3)", |b| {
        b.iter(|| engine.summary(black_box(&family)))
    });

    // The scenario suites, as scenarios per second.
    let suites = suites();
    let count: usize = suites
        .iter()
        .map(
            |(path, text)| match scenario::run_suite(&engine, path, text) {
                Ok(results) => {
                    let failed: Vec<_> = results.iter().filter(|r| !r.passed()).collect();
                    assert!(failed.is_empty(), "{path}: {failed:?}");
                    results.len()
                }
                Err(d) => panic!("{path}: {d:?}"),
            },
        )
        .sum();
    let mut group = c.benchmark_group("scenarios");
    group.throughput(Throughput::Elements(count as u64));
    group.sample_size(10);
    // One suite file after another, on one thread; then as `enrollflow scenarios`, the
    // workbench's impact and the server's replay run them: side by side, a thread per core.
    group.bench_function(format!("one thread: all suites ({count} scenarios)"), |b| {
        b.iter(|| {
            for (path, text) in &suites {
                let _ = black_box(scenario::run_suite(&engine, path, text));
            }
        })
    });
    let texts: Vec<(&str, &str)> = suites
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    group.bench_function(format!("all suites ({count} scenarios)"), |b| {
        b.iter(|| black_box(scenario::run_suites(&engine, &texts, |_| true)))
    });
    group.finish();

    // Quoting a household of 6 over the whole 2025 medical catalog in Washtenaw (county 161).
    let d = |y, m, day| {
        time::Date::from_calendar_date(
            y,
            time::Month::try_from(m).unwrap_or(time::Month::January),
            day,
        )
        .unwrap_or(time::Date::MIN)
    };
    let household = Household {
        county: 161,
        effective_date: d(2025, 1, 1),
        members: vec![
            Member {
                role: Role::Subscriber,
                birth_date: d(1980, 3, 2),
                tobacco: true,
            },
            Member {
                role: Role::Spouse,
                birth_date: d(1982, 7, 21),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: d(2008, 1, 5),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: d(2011, 4, 9),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: d(2014, 8, 30),
                tobacco: false,
            },
            Member {
                role: Role::Dependent,
                birth_date: d(2018, 11, 2),
                tobacco: false,
            },
        ],
    };
    let catalog = engine.catalog();
    let plans = catalog.plans(2025, PlanKind::Medical).len();
    let quoted = rating::quote(catalog, PlanKind::Medical, &household, &[1, 2, 3, 4])
        .map(|q| q.len())
        .unwrap_or(0);
    assert!(
        quoted > 10,
        "the benchmark must quote real plans ({quoted} of {plans})"
    );
    c.bench_function(
        &format!("quote 6 people, 2025 medical ({quoted} of {plans} plans)"),
        |b| {
            b.iter(|| {
                rating::quote(
                    catalog,
                    PlanKind::Medical,
                    black_box(&household),
                    &[1, 2, 3, 4],
                )
            })
        },
    );
}

/// `n` made-up 2024 submissions, each holding a 2024 medical plan (and every other one a dental
/// plan) in a county where it was sold, with one to four members.
fn submissions_2024(engine: &enrollflow_engine::Engine, n: usize) -> Vec<Value> {
    let catalog = engine.catalog();
    let medical = catalog.plans(2024, PlanKind::Medical);
    let dental = catalog.plans(2024, PlanKind::Dental);
    let zip_of = |county: u16| {
        let mut zips: Vec<_> = catalog
            .zips
            .iter()
            .filter(|(_, c)| c.as_slice() == [county])
            .map(|(z, _)| z.to_string())
            .collect();
        zips.sort();
        zips.into_iter().next()
    };
    let mut out = Vec::new();
    for i in 0..n {
        let plan = &medical[i % medical.len()];
        let counties: Vec<u16> = match &plan.counties {
            Some(c) => c.iter().copied().collect(),
            None => catalog.counties.keys().copied().collect(),
        };
        let county = counties[i % counties.len()];
        let Some(zip) = zip_of(county) else { continue };
        let dependents: Vec<Value> = (0..i % 4)
            .map(|d| json!({ "birth_date": format!("{}-05-0{}", 1999 + 3 * d + i % 3, 1 + d), "tobacco": 0 }))
            .collect();
        let mut app = json!({
            "last_step": 11,
            "effective_date": "2024-03-01",
            "census": {
                "sub_birth_date": format!("{}-06-01", 1960 + i % 35),
                "sub_tobacco": i % 5 == 0,
                "residential_zip": zip,
                "residential_county_id": county,
                "dependents": dependents,
            },
            "medical_plan": { "id": plan.id },
        });
        if i % 2 == 0 {
            app["dental_plan"] = json!({ "id": dental[i % dental.len()].id });
        }
        out.push(app);
    }
    out
}

/// Renewing 2024 submissions into 2025, as renewals per second on one thread (100,000 within a
/// minute is at least 1,667 a second).
fn renewals(c: &mut Criterion) {
    let (engine, ctx) = engine_and_context();
    let apps = submissions_2024(&engine, 1_000);
    for app in &apps {
        match engine.renew(app, &ctx) {
            Ok(Some(r)) => assert!(!r.plans.is_empty()),
            other => panic!("every made-up submission renews: {other:?} for {app}"),
        }
    }
    let mut group = c.benchmark_group("renewals");
    group.throughput(Throughput::Elements(apps.len() as u64));
    group.sample_size(10);
    group.bench_function(
        format!("one thread: {} submissions of 2024", apps.len()),
        |b| {
            b.iter(|| {
                for app in &apps {
                    let _ = black_box(engine.renew(app, &ctx));
                }
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench, renewals);
criterion_main!(benches);
