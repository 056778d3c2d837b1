//! Unit tests of the engine's API on a small rule set written here (the repository's own rules
//! are exercised by the scenario suites in `tests/scenarios`): loading, navigation (skips,
//! previous, valid steps, reopen) and a step's submission (cleaning, validation, derived flags,
//! the next rule and its dialogs, the last step reached).

use serde_json::json;

use super::*;

const FLOW: &str = r#"
submitted_step: done
steps:
  - id: about
    number: 1
    route: /about
    title: About You
    form: about
    always_valid: true
    next: 'if input.age < 18 { #{ modal: "minor" } } else { "extra" }'
  - id: extra
    number: 2
    route: /extra
    title: Extra
    page: extra
    skip_when: app.skip_extra == true
    reopen: '#{ skip_extra: false }'
  - id: done
    number: 3
    route: /done
    title: Done
    form: done
"#;

const ABOUT: &str = r#"
title: About You
schema:
  type: object
  required: [name, age]
  properties:
    name: { type: string, title: Name }
    age: { type: integer, title: Age }
    nickname: { type: string, title: Nickname }
ui: {}
checks: 'if input.name == "Nobody" { #{ name: ["Please give your own name."] } } else { #{} }'
derive: '#{ skip_extra: input.age >= 65 }'
modals:
  minor: { title: Under 18, body: Ask a parent. }
"#;

const DONE: &str = r#"
title: Done
schema:
  type: object
  properties:
    agree: { type: boolean, title: I agree }
ui: {}
"#;

fn engine() -> Engine {
    load(&[
        Source::new("rules/flows/test.flow.yaml", FLOW),
        Source::new("forms/about.form.yaml", ABOUT),
        Source::new("forms/done.form.yaml", DONE),
    ])
    .unwrap_or_else(|p| {
        panic!(
            "{}",
            p.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

fn ctx() -> Context {
    Context {
        today: time::macros::date!(2025 - 01 - 15),
        applying: Applying::Consumer,
        agent: AgentFlags::default(),
    }
}

fn accepted(s: Submission) -> Transition {
    match s {
        Submission::Accepted(t) => t,
        Submission::Invalid { errors } => panic!("refused: {errors:?}"),
    }
}

#[test]
fn a_rule_set_without_a_flow_is_refused_with_the_reason() {
    let Err(problems) = load(&[Source::new("forms/about.form.yaml", ABOUT)]) else {
        panic!("accepted without a flow");
    };
    assert!(
        problems
            .iter()
            .any(|p| p.to_string().contains("no flow file")),
        "{problems:?}"
    );
}

#[test]
fn a_broken_expression_names_its_file() {
    let broken = FLOW.replace("app.skip_extra == true", "app.skip_extra ==");
    let Err(problems) = load(&[
        Source::new("rules/flows/test.flow.yaml", broken),
        Source::new("forms/about.form.yaml", ABOUT),
        Source::new("forms/done.form.yaml", DONE),
    ]) else {
        panic!("accepted a broken expression");
    };
    assert!(
        problems
            .iter()
            .any(|p| p.to_string().contains("rules/flows/test.flow.yaml")),
        "{problems:?}"
    );
}

#[test]
fn steps_keep_the_flows_order_and_numbers() {
    let e = engine();
    let ids: Vec<(&str, u8)> = e.steps().map(|s| (s.id.as_str(), s.number)).collect();
    assert_eq!(ids, [("about", 1), ("extra", 2), ("done", 3)]);
    assert_eq!(e.submitted_step(), "done");
    assert_eq!(
        e.step_info("extra").map(|s| s.route.as_str()),
        Some("/extra")
    );
}

#[test]
fn a_step_is_valid_once_the_application_reached_it_and_a_submitted_one_opens_only_its_last() {
    let e = engine();
    assert!(
        e.valid_step("about", &json!({}), &ctx())
            .expect("evaluates")
    );
    assert!(!e.valid_step("done", &json!({}), &ctx()).expect("evaluates"));
    assert!(
        e.valid_step("done", &json!({ "last_step": 3 }), &ctx())
            .expect("evaluates")
    );
    let submitted = json!({ "last_step": 3, "submitted": true });
    assert!(e.valid_step("done", &submitted, &ctx()).expect("evaluates"));
    assert!(
        !e.valid_step("about", &submitted, &ctx())
            .expect("evaluates")
    );
}

#[test]
fn submitting_cleans_validates_derives_and_moves_on() {
    let e = engine();
    // Required fields and the schema's types, keyed by field.
    let refused = e
        .submit("about", &json!({ "age": "old" }), &json!({}), &ctx())
        .expect("evaluates");
    let Submission::Invalid { errors } = refused else {
        panic!("accepted")
    };
    assert!(
        errors.contains_key("name") && errors.contains_key("age"),
        "{errors:?}"
    );
    // The form's checks speak after the schema.
    let refused = e
        .submit(
            "about",
            &json!({ "name": "Nobody", "age": 30 }),
            &json!({}),
            &ctx(),
        )
        .expect("evaluates");
    let Submission::Invalid { errors } = refused else {
        panic!("accepted")
    };
    assert_eq!(
        errors.get("name"),
        Some(&vec!["Please give your own name.".to_string()])
    );
    // Accepted: unknown fields dropped, flags derived, the next rule followed.
    let t = accepted(
        e.submit(
            "about",
            &json!({ "name": "Ann", "age": 30, "hacker": true }),
            &json!({}),
            &ctx(),
        )
        .expect("evaluates"),
    );
    assert_eq!(t.answers, json!({ "name": "Ann", "age": 30 }));
    assert_eq!(t.updates.get("skip_extra"), Some(&json!(false)));
    assert_eq!(t.updates.get("last_step"), Some(&json!(2)));
    assert_eq!(t.next.id, "extra");
    assert_eq!(t.modal, None);
}

#[test]
fn a_next_rule_may_ask_a_dialog_first_and_a_skipped_target_is_passed_by() {
    let e = engine();
    let t = accepted(
        e.submit(
            "about",
            &json!({ "name": "Ann", "age": 12 }),
            &json!({}),
            &ctx(),
        )
        .expect("evaluates"),
    );
    assert_eq!(
        (t.next.id.as_str(), t.modal.as_deref()),
        ("about", Some("minor"))
    );
    assert_eq!(t.updates.get("last_step"), Some(&json!(1)));
    // 65 and over: the derived flag skips `extra`, so the answers lead to `done`.
    let t = accepted(
        e.submit(
            "about",
            &json!({ "name": "Al", "age": 70 }),
            &json!({}),
            &ctx(),
        )
        .expect("evaluates"),
    );
    assert_eq!(
        (t.next.id.as_str(), t.updates.get("last_step")),
        ("done", Some(&json!(3)))
    );
}

#[test]
fn previous_passes_skipped_steps_and_next_after_a_page_and_reopen() {
    let e = engine();
    let skipping = json!({ "skip_extra": true, "last_step": 3 });
    assert_eq!(
        e.next_after("extra", &skipping, &ctx())
            .expect("evaluates")
            .id,
        "done"
    );
    assert_eq!(
        e.previous("done", &skipping, &ctx())
            .expect("evaluates")
            .map(|s| s.id),
        Some("about".into())
    );
    let open = json!({ "skip_extra": false, "last_step": 3 });
    assert_eq!(
        e.previous("done", &open, &ctx())
            .expect("evaluates")
            .map(|s| s.id),
        Some("extra".into())
    );
    assert_eq!(
        e.reopen("extra", &skipping, &ctx()).expect("evaluates"),
        Some(json!({ "skip_extra": false }))
    );
}

#[test]
fn a_step_view_carries_the_form_its_neighbours_and_the_saved_answers() {
    let e = engine();
    let app = json!({ "about": { "name": "Ann", "age": 30 }, "last_step": 2 });
    let view = e.step_view("about", &app, &ctx()).expect("evaluates");
    assert_eq!(view.kind, "form");
    assert_eq!(view.data, json!({ "name": "Ann", "age": 30 }));
    assert_eq!(view.previous, None);
    assert_eq!(view.next.map(|s| s.id), Some("extra".into()));
    assert!(view.schema.pointer("/properties/nickname").is_some());
    assert!(view.modals.get("minor").is_some());
    let page = e.step_view("extra", &app, &ctx()).expect("evaluates");
    assert_eq!(page.kind, "extra");
    assert!(matches!(
        e.step_view("nowhere", &app, &ctx()),
        Err(EvalError::UnknownStep(_))
    ));
    assert!(matches!(
        e.submit("extra", &json!({}), &app, &ctx()),
        Err(EvalError::NotAForm(_))
    ));
}

#[test]
fn the_flow_view_lists_routes_labels_and_what_this_application_may_open() {
    let e = engine();
    let fresh = e.flow_view(&json!({}), &ctx()).expect("a flow");
    let ids: Vec<&str> = fresh.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["about", "extra", "done"]);
    assert_eq!(fresh.submitted_step, "done");
    assert_eq!(fresh.last_step, 1);
    let about = &fresh.steps[0];
    // Without `nav:` the label is the title; without `section:` no group heading.
    assert_eq!(
        (about.nav.as_str(), about.section.as_deref()),
        ("About You", None)
    );
    assert_eq!(
        (about.kind.as_str(), about.route.as_str()),
        ("form", "/about")
    );
    assert!(about.always_valid && about.valid && about.reached && about.listed);
    assert!(fresh.steps[1..].iter().all(|s| !s.valid && !s.reached));
    assert_eq!(fresh.steps[1].kind, "extra");

    let skipping = e
        .flow_view(&json!({"last_step": 3, "skip_extra": true}), &ctx())
        .expect("a flow");
    let extra = &skipping.steps[1];
    assert!(extra.skipped && extra.reached && !extra.valid);
    assert_eq!(skipping.steps[2].previous.as_deref(), Some("about"));
    assert!(skipping.steps[2].valid);

    let done = e
        .flow_view(&json!({"last_step": 3, "submitted": true}), &ctx())
        .expect("a flow");
    assert!(done.submitted);
    let valid: Vec<&str> = done
        .steps
        .iter()
        .filter(|s| s.valid)
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(valid, ["done"]);
}

#[test]
fn nav_section_and_listed_when_come_from_the_flow() {
    let flow = FLOW
        .replace(
            "    title: Extra\n",
            "    title: Extra\n    nav: More\n    section: Later\n    listed_when: app.show_extra == true\n",
        );
    let e = load(&[
        Source::new("rules/flows/test.flow.yaml", flow),
        Source::new("forms/about.form.yaml", ABOUT),
        Source::new("forms/done.form.yaml", DONE),
    ])
    .unwrap_or_else(|p| panic!("{p:?}"));
    let hidden = e.flow_view(&json!({}), &ctx()).expect("a flow");
    assert_eq!(hidden.steps[1].nav, "More");
    assert_eq!(hidden.steps[1].section.as_deref(), Some("Later"));
    assert!(!hidden.steps[1].listed);
    let shown = e
        .flow_view(&json!({"show_extra": true}), &ctx())
        .expect("a flow");
    assert!(shown.steps[1].listed);
}

#[test]
fn a_step_route_must_be_one_word_of_its_own() {
    for (route, says) in [
        ("extra", "must start with `/`"),
        ("/a/b", "one word"),
        ("/login", "a page of the app"),
        ("/ABOUT", "another step's"),
    ] {
        let flow = FLOW.replace("route: /extra", &format!("route: {route}"));
        let problems = load(&[
            Source::new("rules/flows/test.flow.yaml", flow),
            Source::new("forms/about.form.yaml", ABOUT),
            Source::new("forms/done.form.yaml", DONE),
        ])
        .err()
        .unwrap_or_default();
        assert!(
            problems.iter().any(|p| p.to_string().contains(says)),
            "{route}: {problems:?}"
        );
    }
}

/// The summary block of FLOW with `first_name` given by `first` and every other name by its
/// neutral value.
fn flow_with_summary(first: &str, skip: &str) -> String {
    let mut block = String::from("summary:\n");
    for (name, kind) in summary::NAMES {
        if name == skip {
            continue;
        }
        let e = match (name, kind) {
            ("first_name", _) => first.to_string(),
            (_, summary::Kind::Text) => "()".into(),
            (_, summary::Kind::Count) => "0".into(),
            (_, summary::Kind::Flag) => "false".into(),
        };
        block.push_str(&format!("  {name}: '{e}'\n"));
    }
    FLOW.replace("steps:\n", &format!("upload_step: about\n{block}steps:\n"))
}

fn load_flow(flow: String) -> Result<Engine, Vec<Diagnostic>> {
    load_with_last_form(flow, "done", DONE)
}

/// The test's rule set with this flow, and `text` as the form of its last step.
fn load_with_last_form(flow: String, name: &str, text: &str) -> Result<Engine, Vec<Diagnostic>> {
    load(&[
        Source::new("rules/flows/test.flow.yaml", flow),
        Source::new("forms/about.form.yaml", ABOUT),
        Source::new(format!("forms/{name}.form.yaml"), text),
    ])
}

#[test]
fn the_summary_is_the_flows_expressions_typed() {
    let e = load_flow(flow_with_summary("app.about.name", "")).expect("loads");
    assert_eq!(e.upload_step(), Some("about"));
    let s = e
        .summary(&json!({"about": {"name": "  Ann  "}}))
        .expect("a summary");
    assert_eq!(s.first_name.as_deref(), Some("Ann"), "text is trimmed");
    assert_eq!(s.dependents, 0);
    // An empty answer is none; a value of the wrong kind names the expression.
    let none = e
        .summary(&json!({"about": {"name": " "}}))
        .expect("a summary");
    assert_eq!(none.first_name, None);
    let err = e
        .summary(&json!({"about": {"name": 7}}))
        .expect_err("a number is not a name");
    assert!(err.to_string().contains("summary `first_name`"), "{err}");
    // A flow without a summary gives an empty one.
    assert_eq!(
        engine().summary(&json!({})).expect("empty"),
        summary::Summary::default()
    );
}

#[test]
fn a_summary_gives_every_name_the_server_reads_and_no_other() {
    let missing = load_flow(flow_with_summary("app.about.name", "email"))
        .err()
        .unwrap_or_default();
    assert!(
        missing
            .iter()
            .any(|p| p.to_string().contains("summary has no `email`")),
        "{missing:?}"
    );
    let unknown = load_flow(
        flow_with_summary("app.about.name", "")
            .replace("summary:\n", "summary:\n  nickname: app.about.nickname\n"),
    )
    .err()
    .unwrap_or_default();
    assert!(
        unknown
            .iter()
            .any(|p| p.to_string().contains("summary `nickname` is not a name")),
        "{unknown:?}"
    );
    let upload = load_flow(
        flow_with_summary("()", "").replace("upload_step: about", "upload_step: nowhere"),
    )
    .err()
    .unwrap_or_default();
    assert!(
        upload.iter().any(|p| p
            .to_string()
            .contains("upload_step `nowhere` is not a step")),
        "{upload:?}"
    );
}

#[test]
fn save_for_later_starts_at_the_flows_step_and_must_name_one() {
    let e =
        load_flow(FLOW.replace("steps:\n", "save_for_later_from: extra\nsteps:\n")).expect("loads");
    assert_eq!(e.save_for_later_from(), Some(2));
    let view = e.flow_view(&json!({}), &ctx()).expect("a flow");
    assert_eq!(view.save_for_later_from, Some(2));
    let none = load_flow(FLOW.to_string()).expect("loads");
    assert_eq!(none.save_for_later_from(), None);
    let bad = load_flow(FLOW.replace("steps:\n", "save_for_later_from: later\nsteps:\n"))
        .err()
        .unwrap_or_default();
    assert!(
        bad.iter().any(|p| p
            .to_string()
            .contains("save_for_later_from `later` is not a step")),
        "{bad:?}"
    );
}

const GREETING: &str = r#"
title: Greeting
schema:
  type: object
  properties:
    name: { type: string, title: Name }
    age: { type: integer, title: Age }
ui: {}
extras:
  greeting: '`Hello ${input.name ?? "there"}`'
  adult: input.age >= 18
  about_name: app.about.name
  agent: ctx.agent.name
  tobacco_age: 18
"#;

fn engine_with(form: &str) -> Result<Engine, Vec<Diagnostic>> {
    load_with_last_form(
        FLOW.replace("form: done", "form: greeting"),
        "greeting",
        form,
    )
}

#[test]
fn extras_given_a_rule_per_key_answer_each_key_for_this_application_and_context() {
    let e = engine_with(GREETING).expect("loads");
    // The extras of the last step's view with these answers, application and agent.
    let extras = |input: Value, about: Value, agent: &str| {
        let ctx = Context {
            agent: AgentFlags {
                name: agent.into(),
                ..AgentFlags::default()
            },
            ..ctx()
        };
        let app = json!({ "about": about, "last_step": 3 });
        e.preview("done", &input, &app, &ctx)
            .expect("evaluates")
            .extras
    };
    let ann = json!({ "name": "Ann", "age": 30 });
    assert_eq!(
        extras(json!({ "name": "Bo", "age": 17 }), ann.clone(), "Pat"),
        json!({ "greeting": "Hello Bo", "adult": false, "about_name": "Ann", "agent": "Pat", "tobacco_age": 18 })
    );
    // What depends on the answers, the application or the context is never one view's answer
    // shown in another.
    assert_eq!(
        extras(
            json!({ "name": "Di", "age": 30 }),
            json!({ "name": "Cy", "age": 40 }),
            "Lee"
        ),
        json!({ "greeting": "Hello Di", "adult": true, "about_name": "Cy", "agent": "Lee", "tobacco_age": 18 })
    );
    assert_eq!(
        extras(json!({ "name": "Bo", "age": 17 }), ann, "Pat")["agent"],
        json!("Pat")
    );
}

#[test]
fn a_broken_rule_of_the_extras_names_its_file_and_line() {
    let broken = GREETING.replace("adult: input.age >= 18", "adult: input.age >=");
    let Err(problems) = engine_with(&broken) else {
        panic!("accepted a broken rule");
    };
    let line = broken
        .lines()
        .position(|l| l.contains("adult:"))
        .map(|i| i + 1)
        .expect("the line");
    assert!(
        problems
            .iter()
            .any(|p| p.file == "forms/greeting.form.yaml" && p.line == line),
        "{problems:?}"
    );
    let twice = GREETING.replace("  tobacco_age: 18", "  tobacco_age: 18\n  agent: ctx.today");
    assert!(engine_with(&twice).is_err(), "a key given twice is refused");
}

/// The test's rule set with these scripts, and `derive` as the About You form's derived flags.
fn load_with_scripts(scripts: &[(&str, &str)], derive: &str) -> Result<Engine, Vec<Diagnostic>> {
    let about = ABOUT.replace(
        "derive: '#{ skip_extra: input.age >= 65 }'",
        &format!("derive: '{derive}'"),
    );
    let mut sources = vec![
        Source::new("rules/flows/test.flow.yaml", FLOW),
        Source::new("forms/about.form.yaml", about),
        Source::new("forms/done.form.yaml", DONE),
    ];
    for (name, text) in scripts {
        sources.push(Source::new(format!("rules/scripts/{name}.rhai"), *text));
    }
    load(&sources)
}

/// The flag `n` About You derives for an adult named Ann.
fn derived_n(e: &Engine) -> Option<Value> {
    let t = accepted(
        e.submit(
            "about",
            &json!({"name": "Ann", "age": 30}),
            &json!({}),
            &ctx(),
        )
        .expect("runs"),
    );
    t.updates.get("n").cloned()
}

// Rhai remembers, for the rest of an evaluation, which function an unqualified call reached, by
// name and number of arguments whichever script it is written in: with `a` and `b` below both
// calling their own `f(x)`, `#{ n: a::a(0) + b::b(0) }` gave 5 (b's calls ran a's `f`) instead of
// 7. Such rule sets are refused, with the way out.
const SCRIPT_A: &str = "fn f(x) { 1 }\nfn a(x) { f(x) + f(x) + f(x) }";
const SCRIPT_B: &str = "fn f(x) { 2 }\n\nfn b(x) { f(x) + f(x) }";

#[test]
fn two_scripts_calling_their_own_function_of_one_name_unqualified_are_refused() {
    let problems = load_with_scripts(
        &[("a", SCRIPT_A), ("b", SCRIPT_B)],
        "#{ n: a::a(0) + b::b(0) }",
    )
    .err()
    .expect("refused");
    let text = problems.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(problems.len(), 2, "{text:?}");
    assert_eq!(problems[0].file, "rules/scripts/a.rhai");
    assert_eq!(problems[0].line, 2);
    assert!(text[0].contains("`f` with 1 argument(s)"), "{text:?}");
    assert!(text[0].contains("several scripts (a, b)"), "{text:?}");
    assert!(text[0].contains("call it as `a::f(…)`"), "{text:?}");
    assert_eq!(problems[1].file, "rules/scripts/b.rhai");
    assert_eq!(problems[1].line, 3);
    assert!(text[1].contains("call it as `b::f(…)`"), "{text:?}");
}

#[test]
fn with_the_calls_named_each_script_runs_its_own_function() {
    let a = SCRIPT_A.replace(
        "fn a(x) { f(x) + f(x) + f(x) }",
        "fn a(x) { a::f(x) + a::f(x) + a::f(x) }",
    );
    let b = SCRIPT_B.replace("fn b(x) { f(x) + f(x) }", "fn b(x) { b::f(x) + b::f(x) }");
    let e = load_with_scripts(&[("a", &a), ("b", &b)], "#{ n: a::a(0) + b::b(0) }").expect("loads");
    assert_eq!(derived_n(&e), Some(json!(7)));
    // A function of one name in two scripts is fine while only one of them calls it unqualified.
    let e = load_with_scripts(&[("a", SCRIPT_A), ("b", &b)], "#{ n: a::a(0) + b::b(0) }")
        .expect("loads");
    assert_eq!(derived_n(&e), Some(json!(7)));
}

#[test]
fn another_scripts_function_must_be_called_with_its_scripts_name() {
    // From a script: `g` is b's, not a's.
    let problems = load_with_scripts(
        &[("a", "fn a(x) { g(x) }"), ("b", "fn g(x) { 2 }")],
        "#{ n: a::a(0) }",
    )
    .err()
    .expect("refused");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].file, "rules/scripts/a.rhai");
    assert!(
        problems[0]
            .message
            .contains("not a function of this script but of b"),
        "{problems:?}"
    );
    assert!(problems[0].message.contains("`b::g(…)`"), "{problems:?}");
    // From a form's expression, which has no script of its own (method style included).
    for derive in ["#{ n: g(1) }", "#{ n: 1.g() }"] {
        let problems = load_with_scripts(&[("b", "fn g(x) { 2 }")], derive)
            .err()
            .expect("refused");
        // (The form not loading, the flow's step names a missing form too.)
        assert_eq!(
            problems[0].file, "forms/about.form.yaml",
            "{derive}: {problems:?}"
        );
        assert!(
            problems[0].message.contains("`g` is a function of b"),
            "{problems:?}"
        );
    }
    // Native functions and the script's own functions are called as they are.
    load_with_scripts(
        &[("b", "fn g(x) { h(x).len() }\nfn h(x) { [x] }")],
        "#{ n: b::g(1) }",
    )
    .expect("loads");
}

#[test]
fn an_edited_script_runs_its_new_functions_on_the_same_thread_as_the_old_rule_set() {
    // What an evaluation resolved is kept for the next on the same thread, per rule set: a rule
    // set loaded after an edit (the workbench, a live reload) must never run the old one's.
    let before = load_with_scripts(
        &[("a", "fn g(x) { 1 }\nfn a(x) { g(x) + g(x) + g(x) }")],
        "#{ n: a::a(0) }",
    )
    .expect("loads");
    let after = load_with_scripts(
        &[("a", "fn g(x) { 2 }\nfn a(x) { g(x) + g(x) + g(x) }")],
        "#{ n: a::a(0) }",
    )
    .expect("loads");
    for _ in 0..3 {
        assert_eq!(derived_n(&before), Some(json!(3)));
        assert_eq!(derived_n(&after), Some(json!(6)));
    }
}

/// The small rule set with one script added under `rules/scripts/`.
fn engine_with_script(name: &str, text: &str) -> Result<Engine, Vec<Diagnostic>> {
    load(&[
        Source::new("rules/flows/test.flow.yaml", FLOW),
        Source::new("forms/about.form.yaml", ABOUT),
        Source::new("forms/done.form.yaml", DONE),
        Source::new("rules/scripts/helper.rhai", "fn twice(n) { n * 2 }"),
        Source::new(format!("rules/scripts/{name}"), text),
    ])
}

#[test]
fn a_script_imports_only_scripts_of_its_own_set() {
    // A file the server can read, outside the set: `import` must not load it.
    let outside = std::env::temp_dir().join(format!("outside-{}.rhai", std::process::id()));
    std::fs::write(&outside, "fn secret() { 42 }").expect("write");
    let path = outside.with_extension("");
    let text = format!(
        "import \"{}\" as o;\nfn leak() {{ o::secret() }}",
        path.display()
    );
    let refused = engine_with_script("reader.rhai", &text);
    std::fs::remove_file(&outside).ok();
    let problems = refused.err().expect("a script importing a file is refused");
    assert!(
        problems
            .iter()
            .any(|p| p.file == "rules/scripts/reader.rhai"
                && p.message.to_lowercase().contains("module")),
        "{problems:?}"
    );
    // A function that imports at call time cannot reach the file either.
    std::fs::write(&outside, "fn secret() { 42 }").expect("write");
    let late = format!(
        "fn leak() {{ import \"{}\" as o; o::secret() }}",
        path.display()
    );
    let e =
        engine_with_script("late.rhai", &late).expect("loads: the import runs only when called");
    let expr = script::compile_expression(&e.rhai, "f.yaml", 1, "late::leak()").expect("compiles");
    let err = expr
        .eval(&e.rhai, &[])
        .expect_err("the file is not a module of the set");
    std::fs::remove_file(&outside).ok();
    assert!(
        err.message.to_lowercase().contains("module"),
        "{}",
        err.message
    );
    // The set's own script is found by name.
    let e = engine_with_script(
        "own.rhai",
        "fn four() { import \"helper\" as h; h::twice(2) }",
    )
    .expect("loads");
    let expr = script::compile_expression(&e.rhai, "f.yaml", 1, "own::four()").expect("compiles");
    let four = expr.eval(&e.rhai, &[]).expect("runs");
    assert_eq!(four, json!(4));
}
