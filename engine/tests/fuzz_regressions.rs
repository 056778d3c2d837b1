//! Inputs the fuzz targets of `fuzz/` once crashed on (see fuzz/README.md): each stays a test.

use enrollflow_engine::script;
use rhai::{Dynamic, Scope};

/// Evaluates one expression in the rules' sandbox with `a` and `n` in scope.
fn eval(expr: &str, a: &str, n: i64) -> Result<Dynamic, String> {
    let engine = script::sandbox();
    let mut scope = Scope::new();
    scope.push("a", a.to_string());
    scope.push("n", n);
    engine
        .eval_with_scope::<Dynamic>(&mut scope, expr)
        .map_err(|e| e.to_string())
}

/// masked_fields: `date::add_days(a, n)` panicked ("overflow constructing `time::Duration`") when
/// `n` days did not fit in a duration (|n| > i64::MAX / 86400), so a rule adding a large count
/// of days took its request thread down instead of failing the rule.
#[test]
fn add_days_with_a_huge_count_is_a_rule_error_not_a_panic() {
    for n in [
        i64::MAX,
        i64::MIN,
        i64::MAX / 86_400 + 1,
        -(i64::MAX / 86_400) - 1,
    ] {
        let r = eval("date::add_days(a, n)", "2024-11-20", n);
        let e = r.expect_err("out of range");
        assert!(e.contains("out of range"), "{e}");
    }
    // In range, still a date; just past the calendar's end, an error.
    let d = eval("date::add_days(a, n)", "2024-11-20", 41).expect("a date");
    assert_eq!(d.into_string().expect("a string"), "2024-12-31");
    assert!(eval("date::add_days(a, n)", "9999-12-31", 1).is_err());
}
