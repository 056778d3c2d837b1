//! The sandboxed Rhai engine a rule set starts from: its limits, no `eval` and no file modules,
//! the time budget checked as it runs, and the built-in `date::` helpers.

use std::time::Instant;

use rhai::{Dynamic, Engine};

use super::budget::{DEADLINE, SLICE_OVER_MESSAGE, rest_if_due, slice_is_on, slice_over};
use super::record::register_record;
use crate::dates;

const MAX_OPERATIONS: u64 = 2_000_000;

/// Builds the sandboxed engine (without the rule set's modules).
pub fn sandbox() -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(48)
        .set_max_expr_depths(64, 48)
        .set_max_string_size(64 * 1024)
        .set_max_array_size(10_000)
        .set_max_map_size(10_000)
        .set_max_variables(1_000)
        .set_max_functions(2_000)
        .set_max_modules(100)
        // No shared interner: it is a lock every request takes, and it would keep the text of
        // answers (names, addresses) in memory after the request.
        .set_max_strings_interned(0)
        .set_strict_variables(false)
        .set_fail_on_invalid_map_property(false);
    engine.disable_symbol("eval");
    // No file is ever read as a module: a rule set's scripts reach each other by name
    // (`subscriber::check`), and `import` finds only the set's own scripts (`load` installs them).
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.on_progress(|ops| {
        // Every 64 operations within a slice (a slice is short, and one operation may be a long
        // built-in call), every 512 otherwise.
        if ops % 64 != 0 || (ops % 512 != 0 && !slice_is_on()) {
            return None;
        }
        let now = Instant::now();
        rest_if_due(now);
        if slice_over(now) {
            return Some(Dynamic::from(SLICE_OVER_MESSAGE));
        }
        let late = DEADLINE.with(|d| d.get().is_some_and(|t| now > t));
        late.then(|| Dynamic::from("time budget exceeded"))
    });
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.register_static_module("date", dates::module().into());
    register_record(&mut engine);
    engine
}
