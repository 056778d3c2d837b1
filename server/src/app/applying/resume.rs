//! "Save and finish later": a consumer's application e-mailed to them as a
//! single-use link (the token's SHA-256 kept, valid 14 days, only on a site of the application's
//! agent) that opens it in any browser; what changed since is checked under the rules in force
//! before the person goes on.
//!
//! - Migration 20 (`db::links`). From the flow's `save_for_later_from` step on
//!   (`FlowView.save_for_later_from`), a consumer's `POST /api/application/saveForLater` mails the
//!   link to the address the application holds (`GET` shows the address): a private message
//!   (`templates/email/resume.txt`) with no text of the sender's; a newer link replaces the older;
//!   5 a day per application and 10 per address (by keyed digest).
//! - `POST /api/application/resume` uses a link once the person clicks on the link's page
//!   (`/resume/token/:token`, the token then out of the address bar), or says why it no longer
//!   works (not a link, another agent's site, used, replaced, expired, submitted). It hands the
//!   application over (`sessions::hand_over`: every other session lets go of it, on every instance
//!   through the sessions trigger), makes it the session's and `recheck`s it under the rules in
//!   force: each reached form step's stored answers submitted again without storing, each chosen
//!   plan quoted again (a changed premium, a plan no longer offered), into the route to go on at
//!   and the changes to tell.
//! - The web app's button sits under the step (`StepLayout`). `server/tests/api/resume.rs`
//!   (`a_saved_application_opens_once_in_another_browser_where_it_was_left`),
//!   `web/e2e/journeys.spec.ts`.

use serde::Serialize;
use serde_json::Value;
use time::{Duration, OffsetDateTime};
use utoipa::ToSchema;
use uuid::Uuid;

use enrollflow_engine::{Context, Engine, EvalError, Submission};

use super::Handles;
use crate::accounts::{new_token, token_hash};
use crate::app::applying::open::OpenStep;
use crate::db::agents::AgentRow;
pub use crate::db::links::Purpose;
use crate::db::{applications, links, sessions};
use crate::platform::mail;
use crate::rules::quoting::PlanSnapshot;
use crate::security::crypto::Cipher;
use crate::security::sensitive;

/// How long a resume or hand-off link works.
pub const VALID_FOR: Duration = Duration::days(14);
/// Resume links one application may send in a day.
pub const LINKS_PER_DAY: i64 = 5;
/// Links of any kind one address may be sent in a day, whatever the applications: a site cannot
/// be made to flood someone's mailbox.
pub const LINKS_PER_ADDRESS_PER_DAY: i64 = 10;
/// What the keyed digest of a link's recipient is for (`Cipher::digest`).
const RECIPIENT: &str = "link recipient";
/// The e-mail's template.
pub const TEMPLATE: &str = "email/resume.txt";

/// Why a link does not open an application: each a sentence for the person holding it.
pub const NOT_A_LINK: &str = "This link is not valid. Check that it was copied whole from the e-mail, or save your application again.";
pub const USED: &str = "This link has already been used. Each link opens your application once: \
                        save your application again to get a new one, or contact your agent.";
pub const REPLACED: &str = "This link was withdrawn or replaced by a newer one: please use the \
                            newest e-mail, or contact your agent.";
pub const EXPIRED: &str =
    "This link has expired: links work for 14 days. Please contact your agent, or start again.";
pub const OTHER_SITE: &str = "This link belongs to another agent's site: open it from the e-mail, \
                              on the site where you started your application.";
pub const SUBMITTED: &str =
    "This application has already been submitted: there is nothing left to finish.";

/// Why a link was not sent, or does not open an application (nothing was changed).
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// Past the day's links for the application, or for the address.
    #[error("too many links today")]
    TooMany,
    /// Not a link, or not one of this agent's sites: the sentence for the person holding it.
    #[error("{0}")]
    NotALink(&'static str),
    /// A link that worked once and no longer does: why.
    #[error("{0}")]
    NoLonger(&'static str),
    #[error(transparent)]
    Rules(#[from] EvalError),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

crate::app::database_errors_fail!(LinkError);

/// The address a resume link goes to: the e-mail the application holds (About You's), never one
/// typed with the request, so a link can only reach the person the application names.
pub fn resume_address(s: &OpenStep) -> Result<Option<String>, LinkError> {
    let summary = s.bundle.engine.summary(&s.data)?;
    Ok(summary
        .email
        .as_deref()
        .and_then(crate::accounts::normalize_email))
}

/// E-mails the consumer a new resume link (older ones stop working) at `email`, the application's
/// own address ([`resume_address`]), and answers when it expires.
pub async fn save_for_later(
    h: &Handles<'_>,
    s: &OpenStep,
    id: Uuid,
    email: &str,
    origin: &str,
    language: &str,
) -> Result<OffsetDateTime, LinkError> {
    let link = Link {
        purpose: Purpose::Resume,
        plan_year: None,
        template: TEMPLATE,
        per_day: LINKS_PER_DAY,
        email,
        origin,
        language,
    };
    email_link(h, &s.bundle, &s.agent, id, &link).await
}

/// A link to e-mail: what for, with which text, how many a day, to whom. The mail carries no text
/// of whoever asked for it (not even the name typed in the application): only the rules' template,
/// the link and the agent's own details.
pub struct Link<'a> {
    pub purpose: Purpose,
    pub template: &'a str,
    pub per_day: i64,
    pub email: &'a str,
    /// The agent's site the link opens on (`https://acme.example.com`).
    pub origin: &'a str,
    /// The language the e-mail is written in.
    pub language: &'a str,
    /// The plan year a renewal link is for (its template's `plan_year`).
    pub plan_year: Option<i32>,
}

/// Makes a single-use link to an application (its token's SHA-256 kept, valid [`VALID_FOR`];
/// earlier unused links of the same purpose stop working) and e-mails it as a private message, in
/// one transaction; answers when it expires. 429 past `per_day` links a day for the application, or
/// [`LINKS_PER_ADDRESS_PER_DAY`] for the address.
pub async fn email_link(
    h: &Handles<'_>,
    bundle: &crate::rules::Bundle,
    agent: &AgentRow,
    id: Uuid,
    l: &Link<'_>,
) -> Result<OffsetDateTime, LinkError> {
    let now = h.clock.now();
    let day_ago = now - Duration::days(1);
    if links::count_since(h.pool, id, l.purpose, day_ago).await? >= l.per_day {
        return Err(LinkError::TooMany);
    }
    let recipient = h.cipher.digest(RECIPIENT, &l.email.to_lowercase());
    if links::count_to_since(h.pool, &recipient, day_ago).await? >= LINKS_PER_ADDRESS_PER_DAY {
        return Err(LinkError::TooMany);
    }
    let (token, hash) = new_token();
    let expires_at = now + VALID_FOR;
    let template = bundle.template_for(l.language, l.template);
    let message = mail::render(
        &bundle.templates,
        &template,
        minijinja::context! {
            // The set's template places the link; only the server writes it (`protected`).
            link => crate::rules::protected::LINK_PLACE,
            valid_until => bundle.engine.languages().long_date(l.language, expires_at.date()),
            agent_name => agent.agent_name,
            agency_name => agent.agency_name,
            agent_phone => crate::documents::pdf::format_phone(&agent.phone_number),
            agent_email => agent.email,
            plan_year => l.plan_year,
        },
    )?;
    let message = mail::Email {
        body: crate::rules::protected::place_link(
            &message.body,
            &format!("{}/resume/token/{token}", l.origin),
        )?,
        ..message
    };
    let mut tx = h.pool.begin().await?;
    links::insert(
        &mut tx,
        &links::NewLink {
            token_hash: &hash,
            application_id: id,
            agent_id: agent.id,
            purpose: l.purpose,
            recipient_digest: &recipient,
            now,
            expires_at,
        },
    )
    .await?;
    mail::enqueue_private(&mut *tx, h.cipher, l.email, &message, now).await?;
    tx.commit().await?;
    Ok(expires_at)
}

/// A link's application and what the link was for, once the link is used (it then no longer
/// works): a consumer's resume link or an agent's hand-off.
pub async fn use_link(
    h: &Handles<'_>,
    agent: &AgentRow,
    token: &str,
) -> Result<(Uuid, Purpose), LinkError> {
    let hash = token_hash(token);
    let now = h.clock.now();
    let link = links::find(h.pool, &hash)
        .await?
        .ok_or(LinkError::NotALink(NOT_A_LINK))?;
    let purpose = link.purpose().ok_or(LinkError::NotALink(NOT_A_LINK))?;
    if link.agent_id != agent.id {
        return Err(LinkError::NotALink(OTHER_SITE));
    }
    // A renewal's link is sent on the submitted application it renews.
    if link.submitted && purpose != Purpose::Renewal {
        return Err(LinkError::NoLonger(SUBMITTED));
    }
    if link.used_at.is_some() {
        return Err(LinkError::NoLonger(USED));
    }
    if link.revoked_at.is_some() {
        return Err(LinkError::NoLonger(REPLACED));
    }
    if link.expires_at <= now {
        return Err(LinkError::NoLonger(EXPIRED));
    }
    if !links::use_once(h.pool, &hash, now).await? {
        // Used by another request just now.
        return Err(LinkError::NoLonger(USED));
    }
    Ok((link.application_id, purpose))
}

/// The application a used link names, taken over by the session `session`: the browser that
/// asked for the link (and any other) lets go of it, on every instance (the sessions trigger
/// announces each). Its document and revision, read now.
pub async fn take_over(
    h: &Handles<'_>,
    session: &[u8; 32],
    agent: &AgentRow,
    id: Uuid,
) -> Result<(Value, i64), LinkError> {
    let released = sessions::hand_over(h.pool, session, id).await?;
    if released > 0 {
        tracing::info!(application = %id, sessions = released, "a link handed an application over");
    }
    h.caches.evict_session(session);
    applications::data_for_agent(h.pool, id, agent.id)
        .await?
        .ok_or(LinkError::NotALink(NOT_A_LINK))
}

/// What the application looks like under the rules in force: where to go on, and what changed.
#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct Rechecked {
    /// The wizard route to continue at: the first step that needs another look, else the furthest
    /// step reached.
    pub route: String,
    /// What changed since the application was saved, a sentence each (empty: nothing).
    pub changes: Vec<String>,
    /// The agent who prepared the application, when the link was their hand-off.
    pub from_agent: Option<String>,
}

/// Checks every step the application reached again under the rules in force: each form step's
/// stored answers as if submitted again (nothing is stored), each chosen plan quoted again.
pub fn recheck(
    engine: &Engine,
    cipher: &Cipher,
    id: Uuid,
    data: &Value,
    ctx: &Context,
) -> Result<Rechecked, LinkError> {
    let flow = engine.flow_view(data, ctx)?;
    let mut changes = Vec::new();
    let mut first_problem: Option<String> = None;
    let mut furthest: Option<String> = None;
    for step in flow.steps.iter().filter(|s| s.reached && !s.skipped) {
        furthest = Some(step.route.clone());
        let mut problem = None;
        if let (Some(schema), Some(stored)) = (engine.form_schema(&step.id), data.get(&step.id)) {
            let mut answers = stored.clone();
            let place = sensitive::Place {
                application: id,
                step: &step.id,
            };
            sensitive::decrypt(cipher, place, schema, &mut answers)?;
            if let Submission::Invalid { .. } = engine.submit(&step.id, &answers, data, ctx)? {
                problem = Some(format!(
                    "{step}: some answers need another look under today's rules.",
                    step = step.title
                ));
            }
        }
        if let Some(kind) = step.plan_kind()
            && let Some(chosen) = PlanSnapshot::stored(data, kind)
        {
            let name = crate::documents::pdf::plain_text(&chosen.name);
            let now = engine
                .quote(kind, data, ctx)
                .ok()
                .and_then(|q| q.into_iter().find(|(p, _)| p.id == chosen.id))
                .map(|(_, r)| r.total);
            match now {
                None => {
                    problem = Some(format!(
                        "{name} is no longer offered for your household: please choose another {kind} plan.",
                        kind = kind.key()
                    ));
                }
                Some(total) if total != chosen.rate => changes.push(format!(
                    "The monthly premium of {name} is now {total} (it was {was}).",
                    was = chosen.rate
                )),
                Some(_) => {}
            }
        }
        if let Some(p) = problem {
            changes.push(p);
            first_problem.get_or_insert_with(|| step.route.clone());
        }
    }
    let route = first_problem
        .or(furthest)
        .or_else(|| engine.steps().next().map(|s| s.route.clone()))
        .unwrap_or_else(|| "/".into());
    Ok(Rechecked {
        route,
        changes,
        from_agent: None,
    })
}
