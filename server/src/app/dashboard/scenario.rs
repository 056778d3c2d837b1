//! An application replayed as a scenario suite (YAML): its steps run again through the engine,
//! every personal detail made up, each outcome the expectation. Under the rules serving now, or
//! under the published rule set the application was last saved under.

use uuid::Uuid;

use crate::db::{PgPool, agents, applications, rule_sets};
use crate::rules::Rules;
use enrollflow_engine::EvalError;
use enrollflow_engine_tools::replay;

/// The suite, and the engine hash of the rules it ran under.
pub struct Replayed {
    pub yaml: String,
    pub rules_hash: String,
}

/// Why there is no suite.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("No such application.")]
    NotFound,
    #[error("The rules this application was saved under were never published.")]
    NeverPublished,
    #[error("The rules this application was saved under no longer load.")]
    NoLongerLoads,
    #[error("This application records no rules it was saved under.")]
    NoRulesRecorded,
    #[error(transparent)]
    Rules(EvalError),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(ScenarioError);

/// Replays the agent's application `id`; `saved`: under the rules it was last saved under.
pub async fn replay(
    pool: &PgPool,
    rules: &Rules,
    agent_id: Uuid,
    id: Uuid,
    saved: bool,
) -> Result<Replayed, ScenarioError> {
    let row = applications::replay_of(pool, id, agent_id)
        .await?
        .ok_or(ScenarioError::NotFound)?;
    let agent = agents::by_id(pool, agent_id)
        .await?
        .ok_or(ScenarioError::NotFound)?;
    let ctx = crate::rules::impact::replay_context(&agent, row.updated_at, row.agent_started);
    let today = ctx.today;
    let current = rules.current();
    let saved_bundle;
    let engine = match (saved, row.rules_hash.as_deref()) {
        (true, Some(hash)) if hash != current.engine.hash() => {
            let files = rule_sets::files_by_engine_hash(pool, hash)
                .await?
                .ok_or(ScenarioError::NeverPublished)?;
            saved_bundle = crate::rules::bundle_of(&rule_sets::sources(&files))
                .map_err(|_| ScenarioError::NoLongerLoads)?;
            &saved_bundle.engine
        }
        (true, None) => return Err(ScenarioError::NoRulesRecorded),
        _ => &current.engine,
    };
    let name = format!("an application last saved on {today}, replayed");
    let yaml = replay::scenario_of(engine, &name, &row.data, &ctx).map_err(ScenarioError::Rules)?;
    Ok(Replayed {
        yaml,
        rules_hash: engine.hash().to_string(),
    })
}
