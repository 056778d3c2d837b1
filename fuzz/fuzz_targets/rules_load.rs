//! The rule-set loader: `enrollflow_engine::load(&[Source])` over the repository's real `rules/`
//! and `forms/` files (flow, forms, Rhai scripts, data tables, catalog) with one file fuzzed.
//!
//! Input: byte 0 picks what to fuzz: `n` = `byte % (files + extra paths)`; below the number of
//! real files (sorted by path, see `SOURCES`) it replaces that file's text, otherwise it adds a new
//! file at one of `EXTRA` (a second flow, a new form, script, table or catalog file). The rest of
//! the input is the text (lossy UTF-8: the server reads files as UTF-8 strings).
//!
//! A crash is a panic (or overflow, with debug assertions) anywhere in loading; diagnostics are the
//! expected answer to a broken file. When the set still loads, every step is viewed with an empty
//! application (the fuzzed rules run), which must not panic either.
#![no_main]

use std::sync::LazyLock;

use enrollflow_engine::{Context, Source};
use enrollflow_fuzz::SOURCES;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

const EXTRA: &[&str] = &[
    "rules/flows/extra.flow.yaml",
    "forms/extra.form.yaml",
    "rules/scripts/extra.rhai",
    "rules/extra.yaml",
    "rules/catalog/extra.yaml",
    "rules/catalog/2025/extra.yaml",
];

fn ctx() -> Context {
    serde_json::from_value(json!({
        "today": "2024-11-20",
        "applying": "consumer",
        "agent": { "offers": ["display_bcbsm", "display_ph"] },
    }))
    .expect("context")
}

/// `ENROLLFLOW_FUZZ_WRITE_SEEDS=<dir>`: one seed per real file (its index, then its text).
fn write_seeds() {
    let Some(dir) = std::env::var_os("ENROLLFLOW_FUZZ_WRITE_SEEDS") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("seed directory");
    for (i, s) in SOURCES.iter().enumerate() {
        let mut bytes = vec![i as u8];
        bytes.extend_from_slice(s.text.as_bytes());
        let name = format!("real-{i:02}-{}", s.path.replace('/', "_"));
        std::fs::write(dir.join(name), bytes).expect("seed written");
    }
}

fuzz_target!(
    init: {
        LazyLock::force(&SOURCES);
        write_seeds();
    },
    |data: &[u8]| {
        let Some((&pick, text)) = data.split_first() else {
            return;
        };
        let text = String::from_utf8_lossy(text).into_owned();
        let mut sources = SOURCES.clone();
        let n = pick as usize % (sources.len() + EXTRA.len());
        match sources.get_mut(n) {
            Some(s) => s.text = text,
            None => sources.push(Source::new(EXTRA[n - SOURCES.len()], text)),
        }
        if let Ok(engine) = enrollflow_engine::load(&sources) {
            let ctx = ctx();
            let app = json!({});
            let ids: Vec<String> = engine.steps().map(|s| s.id.clone()).collect();
            for id in ids {
                let _ = engine.step_view(&id, &app, &ctx);
            }
        }
    }
);
