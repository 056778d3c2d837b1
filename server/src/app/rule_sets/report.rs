//! The scenario suites' results and the rule coverage they reach, for a set: the serving set's
//! (the workbench's report, kept until the rules or the suites change) and a proposed one's (its
//! evidence).

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use utoipa::ToSchema;

use super::RuleSetError;
use super::draft::server_suites;
use crate::rules::Rules;

/// A scenario's result under the serving set.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ScenarioOutcome {
    /// `file:line`.
    pub at: String,
    pub name: String,
    pub passed: bool,
    pub failures: Vec<String>,
}

/// The scenario suites' results and the rule coverage they reach, for the set serving now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RulesReport {
    /// The engine hash of the set it was made for.
    pub rules: String,
    pub scenarios: Vec<ScenarioOutcome>,
    #[schema(value_type = Object)]
    pub coverage: enrollflow_engine::coverage::Report,
    /// The floor of `rules/coverage.yaml` not met, if any ("statements 93.2% is below …").
    pub below_floor: Vec<String>,
}

/// The last report made, by a digest of the rules and the suites it was made from.
static REPORT: Mutex<Option<(String, Arc<RulesReport>)>> = Mutex::new(None);

/// The report of the set serving now, with the suites under `root`.
pub async fn serving(rules: &Rules, root: &Path) -> Result<Arc<RulesReport>, RuleSetError> {
    let bundle = rules.current();
    let suites = server_suites(root)?;
    // The same rules and the same suites give the same report.
    let key = format!(
        "{}:{}",
        bundle.engine.hash(),
        crate::rules::set_hash(&suites)
    );
    let cached = REPORT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
        .filter(|(k, _)| *k == key);
    if let Some((_, r)) = cached {
        return Ok(r);
    }
    let made = tokio::task::spawn_blocking(move || make(&bundle, &suites))
        .await
        .map_err(|e| anyhow::anyhow!("report: {e}"))??;
    let made = Arc::new(made);
    *REPORT.lock().unwrap_or_else(PoisonError::into_inner) = Some((key, made.clone()));
    Ok(made)
}

/// The report of `bundle` with `suites`.
pub fn make(
    bundle: &crate::rules::Bundle,
    suites: &[enrollflow_engine::Source],
) -> anyhow::Result<RulesReport> {
    let sources: Vec<enrollflow_engine::Source> = bundle
        .files
        .iter()
        .filter(|f| !f.path.starts_with("templates/"))
        .cloned()
        .collect();
    let engine = crate::rules::load_engine(&sources, true)
        .map_err(|p| anyhow::anyhow!("the serving rules do not load for coverage: {}", p.len()))?;
    let mut scenarios = Vec::new();
    for suite in suites {
        let path = &suite.path;
        match enrollflow_engine_tools::scenario::run_suite(&engine, path, &suite.text) {
            Ok(results) => scenarios.extend(results.into_iter().map(|r| ScenarioOutcome {
                at: format!("{path}:{}", r.line),
                passed: r.passed(),
                name: r.name,
                failures: r.failures,
            })),
            Err(d) => scenarios.push(ScenarioOutcome {
                at: path.clone(),
                name: "the suite".into(),
                passed: false,
                failures: vec![d.to_string()],
            }),
        }
    }
    let coverage = engine
        .coverage()
        .ok_or_else(|| anyhow::anyhow!("the rules were not loaded for coverage"))?;
    let below_floor = sources
        .iter()
        .find(|f| f.path == enrollflow_engine::COVERAGE_FLOOR)
        .and_then(|f| enrollflow_engine_tools::coverage::Floor::parse(&f.text).ok())
        .map(|floor| floor.shortfalls(&coverage.totals))
        .unwrap_or_default();
    Ok(RulesReport {
        rules: bundle.engine.hash().to_string(),
        scenarios,
        coverage,
        below_floor,
    })
}
