//! The purchase (the submitted step's accepted save) and what commits with it: the evidence packet
//! (`evidence`) and the subscriber's receipt (`templates/email/receipt.txt`). One
//! transaction: a purchase is never stored without its packet, and its receipt is in the outbox
//! when it commits.
//!
//! A purchase is the flow's `submitted_step` accepted with no dialog pending (`save_step`). The
//! receipt holds the confirmation, the plans, the premiums, the effective date and the agent's
//! contact; no SSN, no birth date.

use std::net::IpAddr;

use serde_json::Value;
use time::Date;
use uuid::Uuid;

use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::{Context, StepView};

use super::Handles;
use super::open::{StoreError, not_saved, saved, saving};
use crate::db::agents::AgentRow;
use crate::db::{applications, evidence as evidence_db};
use crate::documents::evidence::{self, DocumentProof, Purchase};
use crate::platform::mail;
use crate::rules::Bundle;
use crate::rules::quoting::PlanSnapshot;

/// What the purchase saves and proves.
pub struct Buying<'a> {
    pub bundle: &'a Bundle,
    pub agent: &'a AgentRow,
    pub ctx: &'a Context,
    pub id: Uuid,
    /// The application's document with the submitted step's answers (sensitive ones encrypted).
    pub data: Value,
    /// The submitted step's view as the signer saw it.
    pub view: &'a StepView,
    /// The submitted step's accepted answers.
    pub answers: &'a Value,
    pub signer_address: Option<IpAddr>,
    /// The revision the signer's answers were given against (`If-Match`), if given.
    pub expected_revision: Option<i64>,
    /// The signer's language (the receipt is written in it).
    pub language: &'a str,
    /// The rule time the purchase may still spend.
    pub budget: &'a crate::rules::evaluation::RuleBudget,
}

/// Stores the purchase with its evidence packet and the subscriber's receipt; refused when the
/// application was submitted or changed meanwhile (nothing is written then).
pub async fn purchase(
    h: &Handles<'_>,
    b: Buying<'_>,
) -> Result<applications::ApplicationRow, StoreError> {
    let engine = &b.bundle.engine;
    let saving = saving(b.budget, engine, &b.data, b.expected_revision).await?;
    let now = h.clock.now();
    let mut tx = h.pool.begin().await?;
    let mut documents = Vec::new();
    for d in evidence_db::documents_of(&mut *tx, b.id).await? {
        let sha256 = match d
            .sha256
            .as_deref()
            .and_then(|h| <[u8; 32]>::try_from(h).ok())
        {
            Some(h) => h,
            None => {
                // Uploaded before hashes were kept: hashed from the store now.
                let bytes = h
                    .documents
                    .get_decrypted(h.cipher, b.id, &d.storage_key)
                    .await?
                    .ok_or_else(|| {
                        anyhow::anyhow!("an uploaded document is missing from the store")
                    })?;
                let h = evidence::sha256(&bytes);
                evidence_db::set_document_sha256(&mut *tx, d.id, &h).await?;
                h
            }
        };
        documents.push(DocumentProof {
            file_name: d.file_name,
            size_bytes: d.size_bytes,
            sha256,
            uploaded_at: d.created_at,
        });
    }
    let packet = evidence::build(
        h.cipher,
        h.evidence_keys,
        &Purchase {
            engine,
            agent: b.agent,
            ctx: b.ctx,
            application_id: b.id,
            data: &b.data,
            view: b.view,
            answers: b.answers,
            signer_address: b.signer_address,
            documents: &documents,
            submitted_at: now,
        },
    )?;
    let row = applications::save_data(
        &mut *tx,
        b.id,
        &b.data,
        &saving,
        now,
        applications::Save::Purchase,
    )
    .await?;
    let Some(row) = row else {
        return Err(not_saved(h.pool, b.id, b.expected_revision).await);
    };
    evidence_db::insert(&mut *tx, b.id, &packet.bytes, &packet.sha256, now).await?;
    if let Some(to) = saving.summary.email.as_deref().filter(|e| e.contains('@')) {
        let context = receipt_context(&b, &saving.summary, row.columns.effective_date);
        let template = b.bundle.template_for(b.language, RECEIPT);
        match mail::render(&b.bundle.templates, &template, context) {
            Ok(email) => {
                mail::enqueue_private(&mut *tx, h.cipher, to, &email, now).await?;
            }
            // A broken template never stops a purchase; the operator sees why.
            Err(e) => tracing::error!(error = %e, "the receipt could not be written"),
        }
    }
    tx.commit().await?;
    saved(h, &row, b.data);
    h.evidence_waiting.notify_one();
    Ok(row)
}

/// The receipt's template.
pub const RECEIPT: &str = "email/receipt.txt";

/// What the receipt template is given: the confirmation, the subscriber's first name, the plans
/// and premiums, the effective date and the agent's contact; never an SSN or a birth date.
fn receipt_context(
    b: &Buying<'_>,
    summary: &enrollflow_engine::summary::Summary,
    effective: Option<Date>,
) -> minijinja::Value {
    let mut total = enrollflow_engine::money::Money::ZERO;
    let plans: Vec<minijinja::Value> = PlanKind::ALL
        .into_iter()
        .filter_map(|k| PlanSnapshot::stored(&b.data, k).map(|p| (k, p)))
        .map(|(k, p)| {
            total += p.rate;
            // The kind in words, in the receipt's language ("Medical" is "Médico").
            let kind = k.key();
            let title = format!("{}{}", kind[..1].to_uppercase(), &kind[1..]);
            minijinja::context! {
                kind => kind,
                kind_title => b.bundle.engine.languages().text(b.language, &title),
                name => crate::documents::pdf::plain_text(&p.name),
                carrier => p.carrier_name,
                monthly_premium => p.rate.to_string(),
            }
        })
        .collect();
    minijinja::context! {
        first_name => summary.first_name,
        confirmation => evidence::confirmation(b.id),
        plans => plans,
        monthly_total => total.to_string(),
        effective_date => effective.map(|d| b.bundle.engine.languages().long_date(b.language, d)),
        agent_name => b.agent.agent_name,
        agency_name => b.agent.agency_name,
        agent_phone => crate::documents::pdf::format_phone(&b.agent.phone_number),
        agent_email => b.agent.email,
    }
}
