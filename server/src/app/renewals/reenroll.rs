//! The customer's side of a renewal: the `renewal` link starts the new plan year's application
//! with last year's answers (Why Are You Applying? as open enrollment, About You as given, walked
//! through the new year's rules), held by the customer's browser; the renewal page shows this
//! year, the renewal and the alternatives; the customer's choice is walked on through the plan
//! pages and last year's later answers (subscriber details, other questions, primary care
//! physicians; SSNs sealed again for the new application), stopping where the new rules want
//! another answer, and never past the signatures.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use uuid::Uuid;

use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::{Applying, Context, Engine};
use enrollflow_engine_tools::replay::carry;

use super::{RenewalError, RenewalView};
use crate::app::applying::Handles;
use crate::app::applying::open::{NewApplication, create, store_summarized, summarize};
use crate::app::applying::resume::{Rechecked, recheck};
use crate::db::agents::AgentRow;
use crate::db::renewals;
use crate::db::{applications, sessions};
use crate::security::crypto::Cipher;
use crate::security::sensitive;

/// The step the renewal page stands for in the browser (the web app's route).
pub const ROUTE: &str = "/renewal";

/// Last year's answers made this year's: every form step's stored answers (sensitive ones
/// decrypted from their place in `old`) with the steps `rules/renewals.yaml` answers anew
/// (`reenroll_with`: open enrollment), no signature.
fn source(
    engine: &Engine,
    cipher: &Cipher,
    old: Uuid,
    data: &Value,
) -> anyhow::Result<Map<String, Value>> {
    let mut out = Map::new();
    for step in engine.steps() {
        if step.id == engine.submitted_step() {
            continue;
        }
        let (Some(schema), Some(stored)) = (engine.form_schema(&step.id), data.get(&step.id))
        else {
            continue;
        };
        let mut answers = stored.clone();
        let place = sensitive::Place {
            application: old,
            step: &step.id,
        };
        sensitive::decrypt(cipher, place, schema, &mut answers)?;
        out.insert(step.id.clone(), answers);
    }
    // The household's care needs (expected use, doctors, drugs) are no step's: they come along.
    if let Some(care) = data.get(crate::app::applying::care::CARE) {
        out.insert(crate::app::applying::care::CARE.to_string(), care.clone());
    }
    // The steps the rules answer anew for the new plan year, over last year's answers.
    for (step, answers) in &engine.renewal_rules().reenroll_with {
        let mut merged = out.get(step).cloned().unwrap_or_else(|| json!({}));
        if let (Some(m), Some(new)) = (merged.as_object_mut(), answers.as_object()) {
            m.extend(new.clone());
        }
        out.insert(step.clone(), merged);
    }
    Ok(out)
}

/// Walks `source` (with the plan choices in it) under the rules in force and seals its sensitive
/// answers for the application `id`.
fn carried(
    engine: &Engine,
    cipher: &Cipher,
    id: Uuid,
    source: &Map<String, Value>,
    ctx: &Context,
) -> anyhow::Result<Value> {
    let mut given = |_: &str, stored: &Value, _: &Value| stored.clone();
    let mut doc = carry(engine, &Value::Object(source.clone()), ctx, &mut given)?;
    // The household's care needs (expected use, doctors, drugs) are no step's: they come along.
    if let Some(care) = source.get(crate::app::applying::care::CARE) {
        doc.insert(crate::app::applying::care::CARE.to_string(), care.clone());
    }
    for step in engine.steps() {
        if let (Some(schema), Some(answers)) = (engine.form_schema(&step.id), doc.get_mut(&step.id))
        {
            let place = sensitive::Place {
                application: id,
                step: &step.id,
            };
            sensitive::encrypt(cipher, place, schema, answers)?;
        }
    }
    Ok(Value::Object(doc))
}

/// The consumer's context on the agent's site today.
fn consumer(agent: &AgentRow, today: time::Date) -> Context {
    Context {
        today,
        applying: Applying::Consumer,
        agent: agent.engine_flags(),
    }
}

/// The link of the renewal of `old` (a submitted application of `agent`'s) was used in the
/// session `session`: the new year's application, started with last year's answers up to the
/// first plan page, or the one an earlier link started when it is not submitted, now the
/// session's; its id and revision.
pub async fn start(
    h: &Handles<'_>,
    session: &[u8; 32],
    agent: &AgentRow,
    old: Uuid,
) -> Result<(Uuid, i64), RenewalError> {
    let (_, _, earlier) = renewals::renewal_of(h.pool, old)
        .await?
        .ok_or(RenewalError::NotFound)?;
    if let Some(id) = earlier
        && let Some(row) = applications::by_id(h.pool, id).await?
    {
        if row.submission_time.is_some() {
            return Err(RenewalError::AlreadyReenrolled);
        }
        sessions::hand_over(h.pool, session, id).await?;
        h.caches.evict_session(session);
        return Ok((id, row.revision));
    }
    let (data, _) = applications::data_for_agent(h.pool, old, agent.id)
        .await?
        .ok_or(RenewalError::NotFound)?;
    let bundle = h.rules.current();
    let engine = &bundle.engine;
    let id = Uuid::new_v4();
    let ctx = consumer(agent, h.clock.today());
    let mut src = source(engine, h.cipher, old, &data)?;
    // Up to the first plan page: the customer chooses there.
    for kind in PlanKind::ALL {
        src.remove(&format!("{}_plan", kind.key()));
    }
    let doc = carried(engine, h.cipher, id, &src, &ctx)?;
    let saving = summarize(engine, &doc, None).map_err(|e| RenewalError::Failed(e.into()))?;
    let row = create(
        h,
        NewApplication {
            id,
            agent_id: agent.id,
            session,
            started_by: None,
            subdomain: None,
        },
        doc,
        &saving,
        applications::Save::Answers,
    )
    .await
    .map_err(|e| RenewalError::Failed(anyhow::anyhow!("{e}")))?;
    renewals::set_reenrolled(h.pool, old, id).await?;
    Ok((id, row.revision))
}

/// What the customer's renewal page shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RenewalOffer {
    pub agent_name: String,
    pub renewal: RenewalView,
}

/// The renewal the session's application was started from.
pub async fn offer(
    h: &Handles<'_>,
    agent: &AgentRow,
    application: Uuid,
) -> Result<RenewalOffer, RenewalError> {
    let (_, stored) = renewals::of_reenrollment(h.pool, application)
        .await?
        .ok_or(RenewalError::NotFound)?;
    let renewal: RenewalView =
        serde_json::from_value(stored.0).map_err(|e| RenewalError::Failed(e.into()))?;
    Ok(RenewalOffer {
        agent_name: agent.agent_name.clone(),
        renewal,
    })
}

/// The customer's choice: a plan id for each kind the renewal holds (the renewal's or an
/// alternative's), or none for no plan of that kind next year.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct Choice {
    pub medical: Option<i64>,
    pub dental: Option<i64>,
    pub vision: Option<i64>,
}

impl Choice {
    fn of(&self, kind: PlanKind) -> Option<i64> {
        match kind {
            PlanKind::Medical => self.medical,
            PlanKind::Dental => self.dental,
            PlanKind::Vision => self.vision,
        }
    }
}

/// Why a choice is refused (nothing is stored).
#[derive(Debug, thiserror::Error)]
pub enum ChoiceError {
    #[error("Choose one of the plans shown for your {0} coverage.")]
    NotOffered(String),
    #[error("Choose at least one plan.")]
    Nothing,
    #[error(transparent)]
    Renewal(#[from] RenewalError),
}

impl From<crate::db::Error> for ChoiceError {
    fn from(e: crate::db::Error) -> Self {
        ChoiceError::Renewal(e.into())
    }
}

/// Takes the customer's choice for the session's application `application` (started from a
/// renewal): last year's answers walked on through the chosen plans and the later steps under
/// the rules in force, stored; where the wizard goes on and what changed.
pub async fn choose(
    h: &Handles<'_>,
    agent: &AgentRow,
    application: Uuid,
    choice: &Choice,
) -> Result<Rechecked, ChoiceError> {
    let (old, stored) = renewals::of_reenrollment(h.pool, application)
        .await?
        .ok_or(RenewalError::NotFound)?;
    let renewal: RenewalView =
        serde_json::from_value(stored.0).map_err(|e| RenewalError::Failed(e.into()))?;
    // Each chosen plan must be one the renewal shows for its kind.
    for kind in PlanKind::ALL {
        let Some(id) = choice.of(kind) else { continue };
        let offered = renewal.plans.iter().any(|p| {
            p.kind == kind.key()
                && (p.renewal.as_ref().is_some_and(|t| t.plan_id == id)
                    || p.alternatives.iter().any(|t| t.plan_id == id))
        });
        if !offered {
            return Err(ChoiceError::NotOffered(kind.key().to_string()));
        }
    }
    if PlanKind::ALL.iter().all(|k| choice.of(*k).is_none()) {
        return Err(ChoiceError::Nothing);
    }
    let (data, _) = applications::data_for_agent(h.pool, old, agent.id)
        .await?
        .ok_or(RenewalError::NotFound)?;
    let bundle = h.rules.current();
    let engine = &bundle.engine;
    let ctx = consumer(agent, h.clock.today());
    let mut src = source(engine, h.cipher, old, &data).map_err(RenewalError::from)?;
    for kind in PlanKind::ALL {
        let plan = choice
            .of(kind)
            .map_or(Value::Null, |id| json!({ "id": id }));
        src.insert(format!("{}_plan", kind.key()), plan);
    }
    // The add-HSA answer of the plan pages, as last year.
    if let Some(hsa) = data.get("add_hsa") {
        src.insert("add_hsa".into(), hsa.clone());
    }
    let doc = carried(engine, h.cipher, application, &src, &ctx).map_err(RenewalError::from)?;
    let saving = summarize(engine, &doc, None).map_err(|e| RenewalError::Failed(e.into()))?;
    store_summarized(
        h,
        application,
        doc.clone(),
        &saving,
        applications::Save::Answers,
    )
    .await
    .map_err(|e| RenewalError::Failed(anyhow::anyhow!("{e}")))?;
    let mut checked = recheck(engine, h.cipher, application, &doc, &ctx)
        .map_err(|e| RenewalError::Failed(anyhow::anyhow!("{e}")))?;
    checked.from_agent = Some(agent.agent_name.clone());
    Ok(checked)
}
