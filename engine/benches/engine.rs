//! Building a step view and validating a census submission with 15 dependents, over the
//! repository's rules. Run: `make bench` (or `cargo bench -p enrollflow-engine`).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::rating::{self, Household, Member, Role};
use enrollflow_engine::{AgentFlags, Applying, Context, Source, Submission, load};
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

fn bench(c: &mut Criterion) {
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

criterion_group!(benches, bench);
criterion_main!(benches);
