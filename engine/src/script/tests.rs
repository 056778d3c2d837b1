//! The sandbox's limits and budgets, records read like maps and copied on write, and the answers
//! remembered.

use std::time::{Duration, Instant};

use rhai::Engine;

use super::budget::SLICE_OVER_MESSAGE;
use super::*;

fn engine_with(path: &str, text: &str) -> Engine {
    let mut e = sandbox();
    let m = compile_module(&e, path, text).expect("module compiles");
    e.register_static_module("m", m.into());
    e
}

#[test]
fn an_endless_loop_stops_within_the_budget() {
    let e = engine_with("m.rhai", "fn spin() { let x = 0; loop { x += 1; } }");
    let expr = compile_expression(&e, "f.yaml", 3, "m::spin()").expect("compiles");
    let started = Instant::now();
    let err = expr.eval(&e, &[]).expect_err("must stop");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(err.message.contains("rule stopped"), "{}", err.message);
    assert_eq!(err.file, "f.yaml");
}

#[test]
fn work_in_a_slice_ends_with_it_and_says_so_and_work_within_it_keeps_its_answer() {
    let e = engine_with(
        "m.rhai",
        "fn spin() { let x = 0; loop { x += 1; } }\nfn caught() { let r = 7; try { [1].map(|x| spin()); } catch { r = 8; } r }",
    );
    let spin = compile_expression(&e, "f.yaml", 3, "m::spin()").expect("compiles");
    let sum = compile_expression(&e, "f.yaml", 4, "1 + 2").expect("compiles");
    // A loop stops at the slice's end, long before its budget or its operations run out.
    let stopped = in_slice(Duration::from_millis(1), || spin.eval(&e, &[]));
    assert!(stopped.is_none(), "{stopped:?}");
    // An evaluation begun after the slice's end stops before it starts.
    let late = in_slice(Duration::from_millis(1), || {
        std::thread::sleep(Duration::from_millis(5));
        sum.eval(&e, &[])
    });
    assert!(late.is_none(), "{late:?}");
    // Work within its slice keeps its answer, and nothing of a slice outlives it.
    let quick = in_slice(Duration::from_secs(60), || sum.eval(&e, &[]));
    assert_eq!(quick.map(|r| r.ok()), Some(Some(serde_json::json!(3))));
    assert_eq!(sum.eval(&e, &[]).ok(), Some(serde_json::json!(3)));
    // A rule that catches the stop gives no answer either, and none is remembered.
    let caught = compile_expression(&e, "f.yaml", 5, "m::caught()").expect("compiles");
    let stopped = in_slice(Duration::from_millis(1), || {
        caught.eval_remembered(&e, &[], 0)
    });
    assert!(stopped.is_none(), "{stopped:?}");
    assert!(caught.memo.constant.get().is_none());
    // A slice inside a slice ends alone: the outer one goes on as it was.
    let nested = in_slice(Duration::from_secs(60), || {
        let inner = in_slice(Duration::from_millis(1), || spin.eval(&e, &[]));
        assert!(inner.is_none());
        sum.eval(&e, &[])
    });
    assert_eq!(nested.map(|r| r.ok()), Some(Some(serde_json::json!(3))));
    // Outside a slice a loop runs until its own limits stop it.
    let err = spin.eval(&e, &[]).expect_err("must stop");
    assert!(err.message.contains("rule stopped"), "{}", err.message);
    assert!(!err.message.contains(SLICE_OVER_MESSAGE), "{}", err.message);
}

#[test]
fn evaluations_draw_on_the_hosts_budget_and_stop_when_it_is_spent() {
    let e = engine_with(
        "m.rhai",
        "fn count(n) { let x = 0; while x < n { x += 1; } x }",
    );
    let expr = compile_expression(&e, "f.yaml", 2, "m::count(5000)").expect("compiles");
    // No budget of the host's on this thread: the evaluation's own, and nothing spent.
    let request = Allowance::new(Duration::from_secs(60));
    assert_eq!(expr.eval(&e, &[]).expect("ample"), Value::from(5000));
    assert_eq!(request.left(), Duration::from_secs(60));
    // A request's budget: its evaluations spend from it.
    assert!(spending(&request, || expr.eval(&e, &[])).is_ok());
    assert!(
        request.left() < Duration::from_secs(60),
        "time spent is recorded"
    );
    // Spent: the same evaluation is stopped, and says whose budget ran out.
    let spent = Allowance::new(Duration::ZERO);
    let err = spending(&spent, || expr.eval(&e, &[])).expect_err("stopped");
    assert!(out_of_time(&err), "{}", err.message);
    assert!(err.message.contains("the request's"), "{}", err.message);
    assert!(expr.eval(&e, &[]).is_ok());
}

#[test]
fn deep_recursion_stops_with_a_clear_error() {
    let e = engine_with("m.rhai", "fn down(n) { down(n + 1) }");
    let expr = compile_expression(&e, "f.yaml", 1, "m::down(0)").expect("compiles");
    let err = expr.eval(&e, &[]).expect_err("must stop");
    assert!(err.message.contains("nest too deeply"), "{}", err.message);
}

#[test]
fn eval_is_not_available() {
    let e = sandbox();
    let err = compile_expression(&e, "f.yaml", 7, r#"eval("1 + 1")"#).expect_err("refused");
    assert_eq!(err.line, 7);
    assert!(err.message.starts_with("syntax error"), "{}", err.message);
}

#[test]
fn huge_strings_are_refused() {
    let e = engine_with("m.rhai", r#"fn grow() { let s = "x"; loop { s += s; } }"#);
    let expr = compile_expression(&e, "f.yaml", 1, "m::grow()").expect("compiles");
    let err = expr.eval(&e, &[]).expect_err("must stop");
    assert!(err.message.contains("too large"), "{}", err.message);
}

#[test]
fn a_syntax_error_in_a_script_names_its_line() {
    let e = sandbox();
    let err = compile_module(&e, "rules/scripts/x.rhai", "fn a() {\n  let = 1;\n}")
        .expect_err("bad script");
    assert_eq!(err.file, "rules/scripts/x.rhai");
    assert_eq!(err.line, 2);
}

#[test]
fn rules_cannot_change_the_data_they_are_given() {
    let e = engine_with(
        "m.rhai",
        "fn bump(d) { d.cal.x = 99; d.cal.x } \
         fn alias(d) { let c = d.cal; c.x = 98; c.x } \
         fn grow(d) { let l = d.list; l.push(4); l.len() } \
         fn swap(d) { d.list[0] = 7; d.list[0] } \
         fn top(d) { d.cal = 1; d.cal } \
         fn copy(d) { let c = #{ x: d.cal.x }; c.x = 5; c.x } \
         fn read(d) { [d.cal.x, d.list.len(), d.list[0]] }",
    );
    let data = to_dynamic(&serde_json::json!({"cal": {"x": 1}, "list": [1, 2, 3]}));
    let run = |src: &str| {
        compile_expression(&e, "f.yaml", 1, src)
            .expect("compiles")
            .eval(&e, &[("data", &data)])
    };
    // A write is made on the rule's own copy (a record is copied on write); it never
    // reaches the data the next rule is given.
    for (write, own) in [
        ("m::bump(data)", serde_json::json!(99)),
        ("m::alias(data)", serde_json::json!(98)),
        ("m::grow(data)", serde_json::json!(4)),
        ("m::swap(data)", serde_json::json!(7)),
        ("m::top(data)", serde_json::json!(1)),
    ] {
        assert_eq!(run(write).expect("a local copy"), own, "{write}");
        assert_eq!(
            run("m::read(data)").expect("runs"),
            serde_json::json!([1, 3, 1]),
            "after {write}"
        );
    }
    assert_eq!(
        run("m::copy(data)").expect("a new map"),
        serde_json::json!(5)
    );
    assert_eq!(
        run("m::read(data)").expect("runs"),
        serde_json::json!([1, 3, 1])
    );
}

#[test]
fn records_read_like_maps() {
    let e = sandbox();
    let data = to_dynamic(&serde_json::json!({
        "cal": {"x": 1, "y": "two"}, "list": [{"id": 1}, {"id": 2}], "n": 1.5, "none": null
    }));
    let run = |src: &str| {
        compile_expression(&e, "f.yaml", 1, src)
            .expect("compiles")
            .eval(&e, &[("data", &data)])
            .unwrap_or_else(|d| panic!("{src}: {}", d.message))
    };
    let cases = [
        ("type_of(data.cal)", serde_json::json!("map")),
        ("data.cal.y", serde_json::json!("two")),
        ("data[\"cal\"][\"x\"]", serde_json::json!(1)),
        ("data.cal.missing == ()", serde_json::json!(true)),
        ("data.none == ()", serde_json::json!(true)),
        ("data.cal == ()", serde_json::json!(false)),
        ("data.cal != ()", serde_json::json!(true)),
        ("data.cal.keys()", serde_json::json!(["x", "y"])),
        ("data.cal.len()", serde_json::json!(2)),
        ("\"x\" in data.cal", serde_json::json!(true)),
        ("data.cal.contains(\"z\")", serde_json::json!(false)),
        ("data.list.map(|v| v.id * 10)", serde_json::json!([10, 20])),
        (
            "data.list.filter(|v| v.id > 1)",
            serde_json::json!([{"id": 2}]),
        ),
        ("data.n", serde_json::json!(1.5)),
        ("data.cal", serde_json::json!({"x": 1, "y": "two"})),
        (
            "#{ a: data.cal, b: [data.list[0]] }",
            serde_json::json!({"a": {"x": 1, "y": "two"}, "b": [{"id": 1}]}),
        ),
    ];
    for (src, want) in cases {
        assert_eq!(run(src), want, "{src}");
    }
}

#[test]
fn answers_that_cannot_change_are_remembered() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = Arc::new(AtomicUsize::new(0));
    let mut e = sandbox();
    let counter = calls.clone();
    e.register_fn("count", move || {
        counter.fetch_add(1, Ordering::SeqCst);
        1_i64
    });
    let data = to_dynamic(&serde_json::json!({"x": 10}));
    let ctx_a = to_dynamic(&serde_json::json!({"n": 100}));
    let ctx_b = to_dynamic(&serde_json::json!({"n": 200}));
    let app = to_dynamic(&serde_json::json!({"n": 1000}));
    let compile = |src: &str| compile_expression(&e, "f.yaml", 1, src).expect("compiles");
    let ran = || calls.swap(0, Ordering::SeqCst);

    let constant = compile("count() + data.x");
    assert_eq!(constant.uses, Uses::default());
    for _ in 0..3 {
        let v = constant.eval_remembered(&e, &[("data", &data)], 1);
        assert_eq!(v.expect("runs"), serde_json::json!(11));
    }
    assert_eq!(ran(), 1, "once per rule set");

    let by_context = compile("count() + ctx.n + data.x");
    for (ctx, key, want) in [(&ctx_a, 1, 111), (&ctx_b, 2, 211), (&ctx_a, 1, 111)] {
        let v = by_context.eval_remembered(&e, &[("ctx", ctx), ("data", &data)], key);
        assert_eq!(v.expect("runs"), serde_json::json!(want));
    }
    assert_eq!(ran(), 2, "once per context");

    let per_application = compile("count() + app.n");
    for _ in 0..3 {
        let v = per_application.eval_remembered(&e, &[("app", &app)], 1);
        assert_eq!(v.expect("runs"), serde_json::json!(1001));
    }
    assert_eq!(
        ran(),
        3,
        "an expression over the application runs every time"
    );

    // A closure's body counts: this one reads the answers.
    let closure = compile("[1, 2].map(|v| v + input.x)");
    assert!(closure.uses.input && !closure.uses.app && !closure.uses.ctx);
    // An error is never remembered.
    let failing = compile("data.x.no_such_method()");
    assert!(failing.eval_remembered(&e, &[("data", &data)], 1).is_err());
    assert!(failing.eval_remembered(&e, &[("data", &data)], 1).is_err());
}

#[test]
fn scripts_see_variables_and_return_json() {
    let e = engine_with("m.rhai", "fn kids(app) { app.census.dependents.len() }");
    let expr = compile_expression(&e, "f.yaml", 1, "#{ n: m::kids(app), t: ctx.today }")
        .expect("compiles");
    let app = to_dynamic(&serde_json::json!({"census": {"dependents": [1, 2, 3]}}));
    let ctx = to_dynamic(&serde_json::json!({"today": "2024-11-20"}));
    let v = expr
        .eval(&e, &[("app", &app), ("ctx", &ctx)])
        .expect("runs");
    assert_eq!(v, serde_json::json!({"n": 3, "t": "2024-11-20"}));
}
