//! The evidence packet of a purchase: what the person submitted, what they were
//! quoted, the exact texts they agreed to, their signatures (time and address), the documents they
//! uploaded with each file's SHA-256, and the rule set and form schemas in force.
//!
//! The packet is JSON, built in the purchase's transaction from the stored application and the
//! serving rules, and stored byte for byte with its SHA-256 (`evidence_packets`). Everything later
//! reads the stored packet: the agent's JSON download is those bytes, the PDF is drawn from them
//! alone (`pdf::evidence`), so both read the same a year later under newer rules. Both are
//! signed with the evidence key (`crate::documents::signing`), so `enrollflow verify-packet FILE` finds any
//! change offline, even one made in the database with the hash recomputed. Sensitive answers
//! (SSNs) are masked; nothing in the packet is encrypted or needs the data key.
//!
//! - Migration 19. The texts agreed to are the `const: true` boxes and the `terms` dialogs'
//!   `textExtra`, each with its SHA-256 as its version; `signature` fields carry time and address.
//! - The PDF is drawn by a background task (`spawn_pdf_maker`, woken by purchases) and kept with
//!   its own hash. `verify` (`enrollflow verify-packet FILE`) answers intact, altered (with the
//!   parts that differ), or unknown.
//! - The agent's calls: `GET /api/dashboard/evidence/{id}` (preparing or ready),
//!   `evidencePdf/{id}`, `evidenceJson/{id}`; the Submissions row menu's Evidence Packet dialog
//!   (`web/src/features/dashboard/components/evidence-modal.tsx`). `server/tests/api/evidence.rs`.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use uuid::Uuid;

use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::{Applying, Context, Engine, StepView};

use crate::db::PgPool;
use crate::db::agents::AgentRow;
use crate::db::evidence as evidence_db;
use crate::documents::signing::{EvidenceKeys, Signature};
use crate::rules::quoting::PlanSnapshot;
use crate::security::crypto::Cipher;
use crate::security::sensitive;

/// The packet format's name; a reader refuses any other.
pub const FORMAT: &str = "enrollflow-evidence-packet/1";

/// An uploaded document as the packet lists it.
#[derive(Debug, Clone)]
pub struct DocumentProof {
    pub file_name: String,
    pub size_bytes: i32,
    pub sha256: [u8; 32],
    pub uploaded_at: OffsetDateTime,
}

/// What a purchase is proven from.
pub struct Purchase<'a> {
    pub engine: &'a Engine,
    pub agent: &'a AgentRow,
    pub ctx: &'a Context,
    pub application_id: Uuid,
    /// The application's document as it is stored by the purchase (sensitive answers encrypted).
    pub data: &'a Value,
    /// The submitted step's view as the signer saw it (the agreed texts are read from it).
    pub view: &'a StepView,
    /// The submitted step's accepted answers.
    pub answers: &'a Value,
    /// The signer's address, where it is known.
    pub signer_address: Option<std::net::IpAddr>,
    pub documents: &'a [DocumentProof],
    pub submitted_at: OffsetDateTime,
}

/// A built packet: the bytes that are stored and hashed, and their hash.
pub struct Packet {
    pub bytes: Vec<u8>,
    pub sha256: [u8; 32],
}

pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

fn text_hash(text: &str) -> String {
    hex::encode(sha256(text.as_bytes()))
}

/// Builds the packet of a purchase.
pub fn build(cipher: &Cipher, keys: &EvidenceKeys, p: &Purchase<'_>) -> anyhow::Result<Packet> {
    let engine = p.engine;
    let mut answers = Vec::new();
    let mut forms = Map::new();
    for step in engine.steps() {
        let (Some(schema), Some(given)) = (engine.form_schema(&step.id), p.data.get(&step.id))
        else {
            continue;
        };
        let mut shown = given.clone();
        let place = sensitive::Place {
            application: p.application_id,
            step: &step.id,
        };
        sensitive::mask(cipher, place, schema, &mut shown)?;
        let mut fields = Vec::new();
        let ui = engine.form_ui(&step.id).unwrap_or(&Value::Null);
        flatten(schema, ui, &shown, "", "", &mut fields);
        answers.push(json!({ "step": step.id, "title": step.title, "fields": fields }));
        forms.insert(
            step.id.clone(),
            Value::String(hex::encode(sha256(&serde_json::to_vec(schema)?))),
        );
    }
    let forms_hash = hex::encode(sha256(&serde_json::to_vec(&forms)?));
    let packet = json!({
        "format": FORMAT,
        "application": {
            "id": p.application_id.to_string(),
            "confirmation": confirmation(p.application_id),
            "submitted_at": rfc3339(p.submitted_at),
            "applied_by": match p.ctx.applying {
                Applying::Agent => "agent",
                Applying::Consumer => "consumer",
            },
        },
        "agent": {
            "npn": p.agent.npn.to_string(),
            "name": p.agent.agent_name,
            "agency": p.agent.agency_name,
            "email": p.agent.email,
            "phone": p.agent.phone_number,
            "address_lines": p.agent.address_lines,
        },
        "rules": {
            "rule_set": engine.hash(),
            "forms_hash": forms_hash,
            "forms": forms,
        },
        "answers": answers,
        "plans": plans(p)?,
        "agreements": agreements(p.view, p.answers),
        "signatures": signatures(p),
        "documents": p.documents.iter().map(|d| json!({
            "file_name": d.file_name,
            "size_bytes": d.size_bytes,
            "sha256": hex::encode(d.sha256),
            "uploaded_at": rfc3339(d.uploaded_at),
        })).collect::<Vec<_>>(),
    });
    let bytes = keys.sign_json(&serde_json::to_vec_pretty(&packet)?)?;
    let sha256 = sha256(&bytes);
    Ok(Packet { bytes, sha256 })
}

/// The confirmation number the subscriber and the agent quote: the application id's first twelve
/// hexadecimal digits, in groups of four.
pub fn confirmation(id: Uuid) -> String {
    let hex = id.simple().to_string().to_uppercase();
    format!("{}-{}-{}", &hex[0..4], &hex[4..8], &hex[8..12])
}

/// An answer's value as a person reads it: the title of a chosen option, Yes/No, the text.
fn display(schema: &Value, v: &Value) -> String {
    let titled = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
        .and_then(|options| {
            options
                .iter()
                .find(|o| o.get("const") == Some(v))
                .and_then(|o| o.get("title"))
                .and_then(Value::as_str)
        });
    if let Some(t) = titled {
        return t.to_string();
    }
    match v {
        Value::Bool(true) => "Yes".into(),
        Value::Bool(false) => "No".into(),
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Every answer under `v` as `{key, title, value}`, titles from the schema ("Dependents 2 /
/// First Name"); keys in the form's `ui:order`, then the schema's others, then answers the schema
/// does not name.
fn flatten(schema: &Value, ui: &Value, v: &Value, key: &str, title: &str, out: &mut Vec<Value>) {
    let join = |a: &str, b: &str, sep: &str| {
        if a.is_empty() {
            b.to_string()
        } else {
            format!("{a}{sep}{b}")
        }
    };
    match v {
        Value::Object(m) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let listed = ui.get("ui:order").and_then(Value::as_array);
            let mut keys: Vec<&String> = listed
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter_map(|k| m.get_key_value(k).map(|(k, _)| k))
                .collect();
            let mut rest: Vec<&String> = props
                .map(|p| p.keys().filter(|k| m.contains_key(*k)).collect())
                .unwrap_or_default();
            rest.extend(
                m.keys()
                    .filter(|k| props.is_none_or(|p| !p.contains_key(*k))),
            );
            for k in rest {
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            for k in keys {
                let Some(value) = m.get(k) else { continue };
                let sub = props.and_then(|p| p.get(k)).unwrap_or(&Value::Null);
                let sub_ui = ui.get(k).unwrap_or(&Value::Null);
                let t = sub.get("title").and_then(Value::as_str).unwrap_or(k);
                flatten(
                    sub,
                    sub_ui,
                    value,
                    &join(key, k, "."),
                    &join(title, t, " / "),
                    out,
                );
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            let item_schema = schema.get("items").unwrap_or(&Value::Null);
            let item_ui = ui.get("items").unwrap_or(&Value::Null);
            for (i, item) in items.iter().enumerate() {
                let n = i + 1;
                flatten(
                    item_schema,
                    item_ui,
                    item,
                    &join(key, &i.to_string(), "."),
                    &format!("{title} {n}"),
                    out,
                );
            }
        }
        Value::Array(items) => {
            let item_schema = schema.get("items").unwrap_or(&Value::Null);
            let values: Vec<String> = items.iter().map(|i| display(item_schema, i)).collect();
            out.push(json!({ "key": key, "title": title, "value": values.join(", ") }));
        }
        scalar => out.push(json!({ "key": key, "title": title, "value": display(schema, scalar) })),
    }
}

/// Each chosen plan with its premium member by member (as quoted at the purchase under the rules
/// in force; the premium shown when it was chosen where it is no longer quoted).
fn plans(p: &Purchase<'_>) -> anyhow::Result<Value> {
    let mut list = Vec::new();
    let mut total = enrollflow_engine::money::Money::ZERO;
    for kind in PlanKind::ALL {
        let Some(snap) = PlanSnapshot::stored(p.data, kind) else {
            continue;
        };
        let rates = p
            .engine
            .quote(kind, p.data, p.ctx)
            .ok()
            .and_then(|q| q.into_iter().find(|(plan, _)| plan.id == snap.id))
            .map(|(_, r)| r);
        let (premium, members) = match &rates {
            Some(r) => (
                r.total,
                r.members
                    .iter()
                    .map(|m| {
                        json!({
                            "member": m.member(),
                            "age": m.age,
                            "how": m.why(),
                            "monthly": m.amount().to_string(),
                        })
                    })
                    .collect(),
            ),
            None => (snap.rate, Vec::new()),
        };
        total += premium;
        list.push(json!({
            "kind": kind.key(),
            "id": snap.id,
            "name": snap.name,
            "carrier": snap.carrier_name,
            "network": snap.network_name,
            "metal": snap.metal_name,
            "plan_year": snap.plan_year,
            "monthly_premium": premium.to_string(),
            "members": members,
        }));
    }
    Ok(json!({ "list": list, "monthly_total": total.to_string() }))
}

/// The value at a dotted path of the view's extras (`terms.text`).
fn extra<'v>(extras: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(extras, |v, k| v.get(k))
}

/// A text as rules give it: a string, or a list of paragraphs (joined by blank lines).
fn paragraphs(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n\n"),
        ),
        _ => None,
    }
}

/// The texts the signer agreed to: each ticked agreement of the submitted step (a `const: true`
/// box: its title and wording) and each text a dialog made them read and agree to (a `terms`
/// widget's `textExtra`), each with its version (the text's SHA-256).
fn agreements(view: &StepView, answers: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let Some(props) = view.schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    for (key, field) in props {
        if answers.get(key) != Some(&Value::Bool(true)) {
            continue;
        }
        let ui = view.ui.get(key);
        let title = field.get("title").and_then(Value::as_str).unwrap_or(key);
        let dialog_text = ui
            .and_then(|u| u.pointer("/ui:options/textExtra"))
            .and_then(Value::as_str)
            .and_then(|path| extra(&view.extras, path))
            .and_then(paragraphs);
        let text = match (
            dialog_text,
            field.get("description").and_then(Value::as_str),
        ) {
            (Some(t), _) => t,
            (None, Some(d)) => format!("{title}. {d}"),
            (None, None) if field.get("const") == Some(&Value::Bool(true)) => title.to_string(),
            _ => continue,
        };
        out.push(json!({
            "key": key,
            "title": title,
            "version": text_hash(&text),
            "text": text,
        }));
    }
    out
}

/// The signatures of the submitted step (its `signature` fields), with the time and address they
/// were given from.
fn signatures(p: &Purchase<'_>) -> Vec<Value> {
    let mut out = Vec::new();
    let Some(props) = p.view.schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    for (key, field) in props {
        let widget = p
            .view
            .ui
            .get(key)
            .and_then(|u| u.get("ui:widget"))
            .and_then(Value::as_str);
        let Some(name) = p.answers.get(key).and_then(Value::as_str) else {
            continue;
        };
        if widget != Some("signature") {
            continue;
        }
        out.push(json!({
            "key": key,
            "title": field.get("title").and_then(Value::as_str).unwrap_or(key),
            "signed_as": name,
            "signed_at": rfc3339(p.submitted_at),
            "address": p.signer_address.map(|a| a.to_string()),
        }));
    }
    out
}

/// What draws the packets' PDFs: the database, the clock, the keys that sign them, and the signal a
/// purchase on this instance gives.
pub struct PdfMaker {
    pub pool: PgPool,
    pub clock: std::sync::Arc<dyn crate::platform::clock::Clock>,
    pub keys: crate::documents::signing::EvidenceKeys,
    pub waiting: std::sync::Arc<tokio::sync::Notify>,
}

/// Draws a stored packet's PDF (on the blocking pool: a long packet takes some milliseconds)
/// and keeps it. A packet that cannot be drawn keeps its problem, and is tried again when an agent
/// asks for it.
pub async fn make_pdf(m: &PdfMaker, application_id: Uuid) -> anyhow::Result<()> {
    let Some(row) = evidence_db::packet(&m.pool, application_id).await? else {
        return Ok(());
    };
    if row.pdf.is_some() {
        return Ok(());
    }
    let now = m.clock.now();
    let keys = m.keys.clone();
    let drawn = tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<u8>> {
        let packet: Value = serde_json::from_slice(&row.packet)?;
        let created = packet
            .pointer("/application/submitted_at")
            .and_then(Value::as_str)
            .and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok())
            .unwrap_or(row.created_at);
        let pdf =
            crate::documents::pdf::evidence(&packet, &hex::encode(&row.sha256)).finish(created);
        keys.sign_pdf(&pdf)
    })
    .await?;
    match drawn {
        Ok(pdf) => {
            let sha = sha256(&pdf);
            evidence_db::set_pdf(&m.pool, application_id, &pdf, &sha, now).await?;
        }
        Err(e) => {
            tracing::error!(error = %e, "an evidence packet's PDF could not be drawn");
            evidence_db::set_problem(&m.pool, application_id, Some(&e.to_string())).await?;
        }
    }
    Ok(())
}

/// Draws the PDFs of new packets in the background, for as long as the server runs: woken by a
/// purchase on this instance, and every minute for those of other instances.
pub fn spawn_pdf_maker(m: PdfMaker) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match evidence_db::without_pdf(&m.pool, 20).await {
                Ok(ids) => {
                    let full = ids.len() == 20;
                    for id in ids {
                        if let Err(e) = make_pdf(&m, id).await {
                            tracing::warn!(error = %e, "evidence PDF not made; tried again later");
                        }
                    }
                    if full {
                        continue;
                    }
                }
                Err(e) => tracing::warn!(error = %e, "could not look for evidence PDFs to make"),
            }
            let _ = tokio::time::timeout(std::time::Duration::from_secs(60), m.waiting.notified())
                .await;
        }
    })
}

/// What `verify` found.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Signed by this trusted key, and unchanged since: checked without the database.
    Signed {
        key_id: String,
        application_id: Option<Uuid>,
    },
    /// Unsigned (stored before evidence was signed), and byte for byte the packet or PDF stored
    /// at the purchase.
    Intact { application_id: Uuid },
    /// Changed since it was made: its signature does not match its content (`key_id`), or,
    /// unsigned, it differs from the stored packet. What differs, where the stored copy tells.
    Altered {
        key_id: Option<String>,
        application_id: Option<Uuid>,
        differs: Vec<String>,
    },
    /// Signed with a key that is not among the trusted ones.
    UnknownKey { key_id: String },
    /// Unsigned, and nothing stored matches it.
    Unknown,
}

/// Whether a file is a packet or packet PDF as it was made (`enrollflow verify-packet`): a signed
/// file by its signature alone, offline; an unsigned one (made before evidence was signed) against
/// the stored copy, when the database is given.
pub async fn verify(
    keys: &EvidenceKeys,
    pool: Option<&crate::db::PgPool>,
    file: &[u8],
) -> anyhow::Result<Verdict> {
    let application_id = application_of(file);
    match keys.verify(file) {
        Signature::Valid { key_id } => {
            return Ok(Verdict::Signed {
                key_id,
                application_id,
            });
        }
        Signature::UnknownKey { key_id } => return Ok(Verdict::UnknownKey { key_id }),
        Signature::Altered { key_id } => {
            let mut differs = Vec::new();
            if let (Some(pool), Some(id)) = (pool, application_id)
                && let Some(stored) = evidence_db::packet(pool, id).await?
            {
                differs = if stored.packet == file {
                    vec!["nothing from the stored copy, which was changed as well".into()]
                } else {
                    differences(&stored.packet, file)
                };
            }
            return Ok(Verdict::Altered {
                key_id: Some(key_id),
                application_id,
                differs,
            });
        }
        Signature::Unsigned => {}
    }
    let Some(pool) = pool else {
        anyhow::bail!(
            "the file carries no signature: it is checked against the stored packets, which \
             needs DATABASE_URL"
        );
    };
    if let Some((application_id, _)) = evidence_db::by_hash(pool, &sha256(file)).await? {
        return Ok(Verdict::Intact { application_id });
    }
    let Some(application_id) = application_id else {
        return Ok(Verdict::Unknown);
    };
    Ok(match evidence_db::packet(pool, application_id).await? {
        Some(stored) => Verdict::Altered {
            key_id: None,
            application_id: Some(application_id),
            differs: differences(&stored.packet, file),
        },
        None => Verdict::Unknown,
    })
}

/// The top-level parts of two packets that differ (`answers`, `plans`, …), for the report.
pub fn differences(stored: &[u8], given: &[u8]) -> Vec<String> {
    let (Ok(a), Ok(b)) = (
        serde_json::from_slice::<Value>(stored),
        serde_json::from_slice::<Value>(given),
    ) else {
        return vec!["the file is not a packet's JSON".into()];
    };
    let mut keys: Vec<&String> = a
        .as_object()
        .into_iter()
        .chain(b.as_object())
        .flat_map(|m| m.keys())
        .collect();
    keys.sort();
    keys.dedup();
    let mut out: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect();
    if out.is_empty() {
        out.push("the bytes (the same content, written differently)".into());
    }
    out
}

/// The application a packet's JSON names, if it is one.
pub fn application_of(bytes: &[u8]) -> Option<Uuid> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    if v.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return None;
    }
    v.pointer("/application/id")
        .and_then(Value::as_str)
        .and_then(|s| Uuid::parse_str(s).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_flatten_with_the_schemas_titles_and_option_names() {
        let schema = json!({"properties": {
            "who": {"type": "integer", "title": "Who", "oneOf": [{"const": 1, "title": "Subscriber"}]},
            "kids": {"title": "Dependents", "items": {"properties": {
                "first_name": {"title": "First Name"}, "smoker": {"title": "Tobacco"}}}},
        }});
        let v = json!({"kids": [{"first_name": "Ann", "smoker": false}], "who": 1, "extra": "x"});
        let ui = json!({"ui:order": ["who", "*"], "kids": {"items": {"ui:order": ["smoker", "first_name"]}}});
        let mut out = Vec::new();
        flatten(&schema, &ui, &v, "", "", &mut out);
        assert_eq!(
            out,
            vec![
                json!({"key": "who", "title": "Who", "value": "Subscriber"}),
                json!({"key": "kids.0.smoker", "title": "Dependents 1 / Tobacco", "value": "No"}),
                json!({"key": "kids.0.first_name", "title": "Dependents 1 / First Name", "value": "Ann"}),
                json!({"key": "extra", "title": "extra", "value": "x"}),
            ]
        );
    }

    #[test]
    fn a_confirmation_is_the_ids_first_twelve_digits() {
        let id = Uuid::parse_str("0b9f3c2e-41aa-4c1d-9e55-6f1d2a3b4c5d").expect("uuid");
        assert_eq!(confirmation(id), "0B9F-3C2E-41AA");
    }

    #[test]
    fn differences_name_the_changed_parts() {
        let a = br#"{"format": "f", "plans": {"total": "1"}, "answers": []}"#;
        let b = br#"{"format": "f", "plans": {"total": "2"}, "answers": []}"#;
        assert_eq!(differences(a, b), vec!["plans".to_string()]);
        assert_eq!(
            differences(a, br#"{"answers":[],"format":"f","plans":{"total":"1"}}"#),
            vec!["the bytes (the same content, written differently)".to_string()]
        );
        assert_eq!(
            differences(a, b"%PDF-1.7"),
            vec!["the file is not a packet's JSON".to_string()]
        );
    }
}
