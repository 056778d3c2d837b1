//! What the fuzz targets share: the repository's real rule set (read once), the engine built from
//! it, and real application states to submit answers against (replayed from `tests/scenarios`).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use enrollflow_engine::{Context, Engine, Source, Submission};
use serde_json::{Map, Value};

/// The repository root: `ENROLLFLOW_REPO`, or the parent of this crate.
pub fn repo() -> PathBuf {
    std::env::var_os("ENROLLFLOW_REPO")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

/// The YAML and Rhai files under these folders of the repository, read as the server reads them.
fn read_folders(folders: &[&str]) -> Vec<Source> {
    enrollflow_server::rules::read_folders(&repo(), folders)
        .unwrap_or_else(|d| panic!("cannot read {folders:?}: {d:?}"))
}

/// `rules/` and `forms/` as the server reads them (YAML and Rhai files), sorted by path so that a
/// fuzz input's file index always names the same file.
pub static SOURCES: LazyLock<Vec<Source>> = LazyLock::new(|| {
    let mut out = read_folders(&["rules", "forms"]);
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(
        out.len() > 10,
        "rule set not found under {}",
        repo().display()
    );
    out
});

/// The engine of the repository's rule set.
pub static ENGINE: LazyLock<Engine> = LazyLock::new(|| match enrollflow_engine::load(&SOURCES) {
    Ok(e) => e,
    Err(p) => panic!("the repository's rule set does not load: {p:?}"),
});

/// A real moment to submit a step at: the application as it was, who applies, and the answers the
/// scenario gave (the seed of the fuzzed answers).
#[derive(Debug, Clone)]
pub struct Moment {
    pub step: String,
    pub app: Value,
    pub ctx: Context,
    pub answers: Value,
}

/// Every step id that has a form (the steps answers are submitted to), in flow order.
pub static FORM_STEPS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ENGINE
        .steps()
        .filter(|s| ENGINE.form_schema(&s.id).is_some())
        .map(|s| s.id.clone())
        .collect()
});

/// Per form step (same order as [`FORM_STEPS`]): every moment of the scenario suites at which that
/// step was submitted, replayed the way the scenario runner does (accepted answers stored under the
/// step id, flags merged, `set` flags of plan pages merged). A step no scenario submits gets one
/// moment with an empty application.
pub static MOMENTS: LazyLock<Vec<Vec<Moment>>> = LazyLock::new(|| {
    let mut suites = read_folders(&["tests/scenarios"]);
    suites.sort_by(|a, b| a.path.cmp(&b.path));
    let mut by_step: Vec<Vec<Moment>> = vec![Vec::new(); FORM_STEPS.len()];
    let mut default_ctx = None;
    for suite in &suites {
        let Ok(scenarios) = serde_saphyr::from_str::<Vec<Value>>(&suite.text) else {
            continue;
        };
        for sc in scenarios {
            let Some(ctx) = sc
                .get("context")
                .and_then(|c| serde_json::from_value::<Context>(c.clone()).ok())
            else {
                continue;
            };
            default_ctx.get_or_insert_with(|| ctx.clone());
            let mut app = sc
                .get("app")
                .cloned()
                .filter(Value::is_object)
                .unwrap_or_else(|| Value::Object(Map::new()));
            for action in sc
                .get("steps")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(set) = action.get("set").and_then(Value::as_object) {
                    if let Value::Object(m) = &mut app {
                        m.extend(set.clone());
                    }
                }
                let Some(step) = action.get("submit").and_then(Value::as_str) else {
                    continue;
                };
                let answers = action.get("with").cloned().unwrap_or(Value::Null);
                if let Some(i) = FORM_STEPS.iter().position(|s| s == step) {
                    by_step[i].push(Moment {
                        step: step.to_string(),
                        app: app.clone(),
                        ctx: ctx.clone(),
                        answers: answers.clone(),
                    });
                }
                if let Ok(Submission::Accepted(t)) = ENGINE.submit(step, &answers, &app, &ctx) {
                    if let Value::Object(m) = &mut app {
                        m.insert(step.to_string(), t.answers);
                        m.extend(t.updates);
                    }
                }
            }
        }
    }
    let ctx = default_ctx.expect("tests/scenarios has a scenario with a context");
    for (i, moments) in by_step.iter_mut().enumerate() {
        if moments.is_empty() {
            moments.push(Moment {
                step: FORM_STEPS[i].clone(),
                app: Value::Object(Map::new()),
                ctx: ctx.clone(),
                answers: Value::Null,
            });
        }
    }
    by_step
});
