//! Step submission validation: `Engine::submit` (and `Engine::preview`, which gets the same
//! browser input) of the repository's real rule set, at real application states replayed from
//! `tests/scenarios`, with fuzzed answers.
//!
//! Input: byte 0 picks the form step (`FORM_STEPS`), byte 1 one of the moments at which the
//! scenarios submit that step (its application and context), the rest is the request body: JSON
//! text as the browser sends it (not JSON: nothing to do, the server answers 400).
//!
//! A crash is a panic (or overflow, with debug assertions); a rule failing at run time
//! (`EvalError`) is the server's handled 500 and not a crash. An accepted submission must name a
//! step of the flow, and the view of the step it goes to must not panic either.
//!
//! `ENROLLFLOW_FUZZ_WRITE_SEEDS=<dir>` writes one seed per scenario submission into <dir> first.
#![no_main]

use enrollflow_engine::Submission;
use enrollflow_fuzz::{ENGINE, FORM_STEPS, MOMENTS};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn write_seeds() {
    let Some(dir) = std::env::var_os("ENROLLFLOW_FUZZ_WRITE_SEEDS") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("seed directory");
    for (i, moments) in MOMENTS.iter().enumerate() {
        for (k, m) in moments.iter().enumerate() {
            let mut bytes = vec![i as u8, k as u8];
            bytes.extend(serde_json::to_vec(&m.answers).expect("json"));
            let name = format!("{}-{k:03}.bin", FORM_STEPS[i]);
            std::fs::write(dir.join(name), bytes).expect("seed written");
        }
    }
}

fuzz_target!(
    init: {
        LazyLock::force(&MOMENTS);
        write_seeds();
    },
    |data: &[u8]| {
        let [s, k, body @ ..] = data else {
            return;
        };
        let moments = &MOMENTS[*s as usize % MOMENTS.len()];
        let m = &moments[*k as usize % moments.len()];
        let Ok(input) = serde_json::from_slice::<Value>(body) else {
            return;
        };
        let _ = ENGINE.preview(&m.step, &input, &m.app, &m.ctx);
        match ENGINE.submit(&m.step, &input, &m.app, &m.ctx) {
            Ok(Submission::Accepted(t)) => {
                assert!(
                    ENGINE.step_info(&t.next.id).is_some(),
                    "accepted `{}` goes to `{}`, which is not a step",
                    m.step,
                    t.next.id
                );
                let mut app = m.app.clone();
                if let Value::Object(a) = &mut app {
                    a.insert(m.step.clone(), t.answers);
                    a.extend(t.updates);
                }
                let _ = ENGINE.valid_step(&t.next.id, &app, &m.ctx);
                let _ = ENGINE.step_view(&t.next.id, &app, &m.ctx);
            }
            Ok(Submission::Invalid { .. }) | Err(_) => {}
        }
    }
);

use std::sync::LazyLock;
