//! Saving a step of the wizard: the caller's answers to one form step, checked by the step's rules,
//! their sensitive values encrypted, stored with the application's new summary; the first save
//! creates the application, and the submitted step's accepted save is the purchase (`purchase`).
//!
//! - A submitted application is never changed: the save is refused before its rules are asked
//!   anything.
//! - Answers given against an older revision are not stored over a newer one
//!   ([`SaveError::ChangedElsewhere`]); without an expected revision the save is made whatever
//!   the revision.
//! - A mask sent back unchanged keeps the stored sensitive value (`sensitive::unmask`).
//! - Answers the rules refuse are answered field by field, in the caller's language; nothing is
//!   stored.
//! - The submission, the encryption and the new summary run in one hand-over to the rules'
//!   threads (`evaluation::run`): each hand-over costs about as much as the summary itself.

use std::collections::BTreeMap;
use std::net::IpAddr;

use enrollflow_engine::{Applying, EvalError, StepInfo, Submission};
use serde_json::{Map, Value};
use uuid::Uuid;

use super::Handles;
use super::open::{
    Caller, NewApplication, OpenError, OpenStep, StoreError, create, open_step, store_summarized,
    summarize,
};
use super::purchase::{Buying, purchase};
use crate::db::applications::{self, ApplicationRow, Save, Saving};
use crate::rules::evaluation::run;
use crate::security::sensitive;

/// A step's answers to save, and who gives them.
pub struct SaveStep<'a> {
    pub caller: Caller<'a>,
    /// The session (its id hash) a new application is bound to.
    pub session: &'a [u8; 32],
    pub step: &'a str,
    /// The answers, a JSON object keyed by the step's fields.
    pub answers: Value,
    /// The revision the answers were given against, if the caller said.
    pub expected_revision: Option<i64>,
    /// The caller's languages, most wanted first: field errors and the signed view are in the first
    /// the rules speak.
    pub languages: &'a [String],
    /// Where the caller is (recorded in a purchase's evidence).
    pub address: Option<IpAddr>,
}

/// A stored save: where the wizard goes next, a dialog to show first, and the application as
/// stored (its revision is what the caller's next save is made against).
#[derive(Debug)]
pub struct StepSaved {
    pub next: StepInfo,
    pub modal: Option<String>,
    pub application: ApplicationRow,
}

/// Why a step's answers were not saved (nothing was stored).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The site, the application or the step could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The answers are not a JSON object.
    #[error("The answers must be a JSON object.")]
    NotAnObject,
    /// The step is a page the wizard saves through its own call (a plan page, Review Selections).
    #[error("step {0} is saved by its own page")]
    SavedByItsPage(String),
    /// The rules refused the answers: the problems of each field (`submit_error` for the
    /// submission as a whole), in the caller's language.
    #[error("the answers were refused")]
    Invalid(BTreeMap<String, Vec<String>>),
    /// The submitted step's answers for an application that does not exist yet: a purchase is
    /// the last of several steps.
    #[error("a new application cannot be purchased")]
    PurchaseFirst,
    /// The application was changed or submitted since, or could not be stored.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<EvalError> for SaveError {
    fn from(e: EvalError) -> Self {
        SaveError::Open(OpenError::Rules(e))
    }
}

impl From<anyhow::Error> for SaveError {
    fn from(e: anyhow::Error) -> Self {
        SaveError::Store(StoreError::Failed(e))
    }
}

/// What the rules made of accepted answers.
struct Submitted<'e> {
    next: StepInfo,
    modal: Option<String>,
    /// The application's next document (the step's answers encrypted where sensitive).
    data: Value,
    store: Store<'e>,
}

/// How an accepted submission is stored.
enum Store<'e> {
    /// The purchase, with its signed answers.
    Purchase { signed: Value },
    /// A save, with what it writes besides the document (the summary).
    Save(Box<Saving<'e>>),
}

/// Saves a step's answers (see the module's comment).
pub async fn save_step(h: &Handles<'_>, req: SaveStep<'_>) -> Result<StepSaved, SaveError> {
    let SaveStep {
        caller,
        session,
        step,
        answers: mut input,
        expected_revision: expected,
        languages: wanted,
        address,
    } = req;
    let OpenStep {
        bundle,
        agent,
        ctx,
        id: existing,
        data,
        cached,
        ..
    } = open_step(h, &caller, step).await?;
    let engine = &bundle.engine;
    // A submitted application is never changed: say so before its rules are asked anything.
    if data.get("submitted").and_then(Value::as_bool) == Some(true) {
        return Err(StoreError::AlreadySubmitted.into());
    }
    if let (Some(expected), Some(c)) = (expected, &cached)
        && c.revision != expected
    {
        return Err(StoreError::ChangedElsewhere.into());
    }
    if !input.is_object() {
        return Err(SaveError::NotAnObject);
    }
    // Which answers are sensitive is a property of the form's full schema; no need to resolve a view.
    let schema = engine
        .form_schema(step)
        .ok_or_else(|| SaveError::SavedByItsPage(step.to_string()))?;
    // A new application's id is chosen now: its encrypted answers are bound to it.
    let id = existing.unwrap_or_else(Uuid::new_v4);
    let place = sensitive::Place {
        application: id,
        step,
    };
    sensitive::unmask(h.cipher, place, schema, &mut input, data.get(step))?;
    let budget = &caller.budget;
    let submitted = run(budget, || -> Result<Submitted, SaveError> {
        let t = match engine.submit(step, &input, &data, &ctx)? {
            Submission::Invalid { errors } => return Err(SaveError::Invalid(errors)),
            Submission::Accepted(t) => t,
        };
        let mut answers = t.answers;
        sensitive::encrypt(h.cipher, place, schema, &mut answers)?;
        // The submitted step's accepted answers (no dialog pending) are the purchase.
        let purchase = step == engine.submitted_step() && t.modal.is_none();
        let signed = purchase.then(|| answers.clone());
        let mut next_data: Map<String, Value> = data.as_object().cloned().unwrap_or_default();
        next_data.insert(step.to_string(), answers);
        next_data.extend(t.updates);
        if purchase {
            next_data.insert("submitted".into(), Value::Bool(true));
        }
        let next_data = Value::Object(next_data);
        // The purchase works out its own summary (`purchase`).
        let store = match signed {
            Some(signed) => Store::Purchase { signed },
            // A new application has no revision to expect.
            None => Store::Save(Box::new(
                summarize(engine, &next_data, existing.and(expected)).map_err(StoreError::Rule)?,
            )),
        };
        Ok(Submitted {
            next: t.next,
            modal: t.modal,
            data: next_data,
            store,
        })
    })
    .await;
    let languages = engine.languages();
    let language = languages.pick(wanted);
    let Submitted {
        next,
        modal,
        data: next_data,
        store,
    } = match submitted {
        Ok(s) => s,
        Err(SaveError::Invalid(mut errors)) => {
            languages.errors(&language, &mut errors);
            return Err(SaveError::Invalid(errors));
        }
        Err(SaveError::Store(StoreError::Rule(e))) => {
            if let EvalError::Rule(d) = &e {
                crate::rules::evaluation::note_failure(d);
            }
            return Err(StoreError::Rule(e).into());
        }
        Err(e) => return Err(e),
    };
    let application = match (existing, store) {
        (Some(id), Store::Purchase { signed }) => {
            // What the signer saw: the step's view before the purchase (the texts agreed to, in
            // the signer's language).
            let mut view = run(budget, || engine.step_view(step, &data, &ctx)).await?;
            languages.step_view(&language, &mut view);
            purchase(
                h,
                Buying {
                    bundle: &bundle,
                    agent: &agent,
                    ctx: &ctx,
                    id,
                    data: next_data,
                    view: &view,
                    answers: &signed,
                    signer_address: address,
                    expected_revision: expected,
                    language: &language,
                    budget,
                },
            )
            .await?
        }
        (Some(id), Store::Save(saving)) => {
            store_summarized(h, id, next_data, &saving, Save::Answers).await?
        }
        (None, Store::Purchase { .. }) => return Err(SaveError::PurchaseFirst),
        (None, Store::Save(saving)) => {
            // The context already decided: the session's user applies as the agent.
            let started_by = match ctx.applying {
                Applying::Agent => caller.user_id,
                Applying::Consumer => None,
            };
            let new = NewApplication {
                id,
                agent_id: agent.id,
                session,
                started_by,
                subdomain: caller.subdomain,
            };
            create(h, new, next_data, &saving, applications::Save::Answers).await?
        }
    };
    Ok(StepSaved {
        next,
        modal,
        application,
    })
}
