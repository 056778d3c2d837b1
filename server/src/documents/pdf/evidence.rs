//! The evidence packet's PDF, drawn from the stored packet alone (`crate::documents::evidence`): it reads the
//! same whatever the rules say today.

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{Branding, Column, Labels, Orientation, Sheet, Style, Table};

fn text<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn list<'v>(v: &'v Value, pointer: &str) -> &'v [Value] {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// "medical" → "Medical".
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The packet's PDF. `packet` is the stored JSON, `sha256` its hash (hex), printed on every page.
pub fn evidence(packet: &Value, sha256: &str) -> Sheet {
    let branding = Branding {
        agency_name: text(packet, "/agent/agency").to_string(),
        agent_name: text(packet, "/agent/name").to_string(),
        phone: text(packet, "/agent/phone").to_string(),
        email: text(packet, "/agent/email").to_string(),
        npn: text(packet, "/agent/npn").to_string(),
        address_lines: list(packet, "/agent/address_lines")
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    };
    let submitted = text(packet, "/application/submitted_at");
    let date = OffsetDateTime::parse(submitted, &Rfc3339)
        .map(|t| enrollflow_engine::dates::long(t.date()))
        .unwrap_or_else(|_| submitted.to_string());
    let footer = format!(
        "Evidence packet, SHA-256 {}",
        &sha256[..sha256.len().min(16)]
    );
    // The agent's document: English, as the agents' pages are.
    let mut sheet = Sheet::new(
        "Evidence Packet",
        branding,
        Labels::default(),
        &date,
        &footer,
        Orientation::Portrait,
    );

    sheet.heading("Submission");
    sheet.field(
        "Confirmation number",
        text(packet, "/application/confirmation"),
    );
    sheet.field("Application", text(packet, "/application/id"));
    sheet.field("Submitted at (UTC)", submitted);
    sheet.field("Applied by", text(packet, "/application/applied_by"));
    sheet.field("Rule set", text(packet, "/rules/rule_set"));
    sheet.field("Form schemas", text(packet, "/rules/forms_hash"));
    sheet.field("Packet SHA-256", sha256);
    sheet.field("Signed with key", text(packet, "/signature/key_id"));
    sheet.paragraph(
        Style::NOTE,
        "This packet and this PDF were signed when the application was purchased (Ed25519; the \
         public keys are at /.well-known/enrollflow-evidence-keys.json). `enrollflow \
         verify-packet` tells whether a copy of either is as it was signed.",
    );

    sheet.space(6.0);
    sheet.heading("Plans and premiums");
    for plan in list(packet, "/plans/list") {
        sheet.space(3.0);
        sheet.paragraph(
            Style::STRONG,
            &format!(
                "{}: {}",
                capitalized(text(plan, "/kind")),
                text(plan, "/name")
            ),
        );
        let about: Vec<&str> = ["/carrier", "/network", "/metal"]
            .iter()
            .map(|p| text(plan, p))
            .filter(|s| !s.is_empty())
            .collect();
        if !about.is_empty() {
            sheet.paragraph(Style::BODY, &about.join(", "));
        }
        let members = list(plan, "/members");
        if !members.is_empty() {
            sheet.table(&Table {
                columns: vec![
                    Column::left("Member", 62.0),
                    Column::right("Age", 30.0),
                    Column::left("How the premium is figured", 372.0),
                    Column::right("Monthly amount", 76.0),
                ],
                rows: members
                    .iter()
                    .map(|m| {
                        vec![
                            text(m, "/member").to_string(),
                            m.get("age").map(Value::to_string).unwrap_or_default(),
                            text(m, "/how").to_string(),
                            text(m, "/monthly").to_string(),
                        ]
                    })
                    .collect(),
            });
        }
        sheet.field("Monthly premium", text(plan, "/monthly_premium"));
    }
    sheet.space(3.0);
    sheet.field(
        "Total monthly premium",
        text(packet, "/plans/monthly_total"),
    );

    sheet.space(6.0);
    sheet.heading("What was agreed to");
    for a in list(packet, "/agreements") {
        sheet.space(3.0);
        sheet.paragraph(Style::STRONG, text(a, "/title"));
        sheet.paragraph(Style::NOTE, &format!("Version {}", text(a, "/version")));
        for para in text(a, "/text").split("\n\n") {
            sheet.paragraph(Style::BODY, para.trim());
            sheet.space(2.0);
        }
    }

    sheet.space(6.0);
    sheet.heading("Signatures");
    let signatures = list(packet, "/signatures");
    sheet.table(&Table {
        columns: vec![
            Column::left("Signature", 150.0),
            Column::left("Signed as", 150.0),
            Column::left("Time (UTC)", 130.0),
            Column::left("Address", 110.0),
        ],
        rows: signatures
            .iter()
            .map(|s| {
                vec![
                    text(s, "/title").to_string(),
                    text(s, "/signed_as").to_string(),
                    text(s, "/signed_at").to_string(),
                    text(s, "/address").to_string(),
                ]
            })
            .collect(),
    });

    sheet.space(6.0);
    sheet.heading("Documents");
    let documents = list(packet, "/documents");
    if documents.is_empty() {
        sheet.paragraph(Style::BODY, "No documents were uploaded.");
    } else {
        sheet.table(&Table {
            columns: vec![
                Column::left("File", 150.0),
                Column::right("Bytes", 50.0),
                Column::left("SHA-256", 340.0),
            ],
            rows: documents
                .iter()
                .map(|d| {
                    vec![
                        text(d, "/file_name").to_string(),
                        d.get("size_bytes")
                            .map(Value::to_string)
                            .unwrap_or_default(),
                        text(d, "/sha256").to_string(),
                    ]
                })
                .collect(),
        });
    }

    sheet.space(6.0);
    sheet.heading("Answers as submitted");
    sheet.paragraph(
        Style::NOTE,
        "Social Security numbers and other sensitive answers are masked.",
    );
    for step in list(packet, "/answers") {
        sheet.space(4.0);
        sheet.heading_keep(text(step, "/title"), 30.0);
        sheet.table(&Table {
            columns: vec![
                Column::left("Question", 260.0),
                Column::left("Answer", 280.0),
            ],
            rows: list(step, "/fields")
                .iter()
                .map(|f| vec![text(f, "/title").to_string(), text(f, "/value").to_string()])
                .collect(),
        });
    }
    sheet
}
