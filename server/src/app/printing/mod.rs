//! The printable sheets of the plan pages (spec part 1, 2.7, 2.8, 2.11 and 7 "Plans"): the plan
//! comparison ([`comparison`], one kind or medical, dental and vision together) and the benefit
//! selection ([`selection`]). Quotes and filters are quoting's own; the page layout is
//! `crate::documents::pdf`; the HTTP answers are `http/print.rs`.
//!
//! This module holds what both sheets share: the branding, the household block and the cell
//! formats; `words.rs` their texts, `evidence.rs` the evidence packet's PDF.

mod comparison;
mod selection;
mod words;

pub use comparison::comparison;
pub use selection::selection;
pub use words::Words;

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::dates;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{Household, Role};

use crate::app::applying::open::OpenStep;
use crate::db::agents::AgentRow;
use crate::documents::pdf::{Branding, Labels, Sheet, Style};

fn footer(w: &Words) -> String {
    w.t("Premiums are monthly for the household shown; the carrier confirms the final rate at enrollment.")
}

fn kind_name(w: &Words, kind: PlanKind) -> String {
    match kind {
        PlanKind::Medical => w.t("Medical"),
        PlanKind::Dental => w.t("Dental"),
        PlanKind::Vision => w.t("Vision"),
    }
}

/// The sheet frame's words in the sheet's language.
fn labels(w: &Words) -> Labels {
    Labels {
        agent: w.t("Agent: {name}"),
        npn: w.t("NPN {npn}"),
        page: w.t("Page {n} of {count}"),
    }
}

fn branding(a: &AgentRow) -> Branding {
    Branding {
        agency_name: a.agency_name.clone(),
        agent_name: a.agent_name.clone(),
        phone: a.phone_number.clone(),
        email: a.email.clone(),
        npn: a.npn.to_string(),
        address_lines: a.address_lines.clone(),
    }
}

fn dash() -> String {
    "\u{2014}".to_string()
}

fn money_or_dash(v: Option<Money>) -> String {
    v.map_or_else(dash, Money::whole_or_cents)
}

fn pair(a: Option<Money>, b: Option<Money>) -> String {
    match (a, b) {
        (None, None) => dash(),
        _ => format!("{} / {}", money_or_dash(a), money_or_dash(b)),
    }
}

fn percent(v: Option<f64>) -> String {
    v.map_or_else(dash, |c| {
        let c = (c * 100.0).round() / 100.0;
        format!("{c}%")
    })
}

fn carrier_name(cat: &Catalog, id: u8) -> String {
    cat.carrier(id)
        .map(|c| c.short_name.clone().unwrap_or_else(|| c.name.clone()))
        .unwrap_or_default()
}

/// Out-of-network deductibles, or "Not covered" on a network without out-of-network coverage.
fn out_of_network(w: &Words, cat: &Catalog, p: &Plan) -> String {
    if cat.not_covered_out_of_network(p) {
        w.t("Not covered")
    } else {
        pair(p.ded_out_ind, p.ded_out_fam)
    }
}

fn oop_title(w: &Words, household_size: usize) -> String {
    match household_size {
        0 | 1 => w.t("Out-of-pocket max (individual)"),
        2 => w.t("Out-of-pocket max (2 people)"),
        _ => w.t("Out-of-pocket max (family)"),
    }
}

/// The effective date, the household with ages at that date, and the premium rule.
fn household_block(w: &Words, sheet: &mut Sheet, s: &OpenStep, h: &Household, medical: bool) {
    sheet.field(&w.t("Coverage effective"), &w.date(h.effective_date));
    // The subscriber's name by the flow's summary; a failing summary rule (which a save would have
    // refused already) prints "Subscriber".
    let subscriber = s.bundle.engine.summary(&s.data).map_or_else(
        |e| {
            tracing::warn!(error = %e, "the flow's summary failed on a printed application");
            String::new()
        },
        |x| x.full_name(),
    );
    let mut dependent = 0;
    let people: Vec<String> = h
        .members
        .iter()
        .map(|m| {
            let age = dates::age_at(m.birth_date, h.effective_date);
            let who = match m.role {
                Role::Subscriber if !subscriber.is_empty() => {
                    w.f("{name} (subscriber)", &[("name", &subscriber)])
                }
                Role::Subscriber => w.t("Subscriber"),
                Role::Spouse => w.t("Spouse"),
                Role::Dependent => {
                    dependent += 1;
                    w.f("Dependent {n}", &[("n", &dependent.to_string())])
                }
            };
            let who = w.f(
                "{who}, age {age}",
                &[("who", &who), ("age", &age.to_string())],
            );
            if m.tobacco && age >= 18 {
                w.f("{who}, tobacco user", &[("who", &who)])
            } else {
                who
            }
        })
        .collect();
    sheet.field(
        &w.f(
            "Household ({count})",
            &[("count", &h.members.len().to_string())],
        ),
        &people.join("; "),
    );
    let rule = s.bundle.engine.catalog().rating;
    let mut note = w.f(
        "Premiums are charged for the subscriber, spouse, all children {age} and older, and {who} under {age}.",
        &[
            ("age", &rule.child_age.to_string()),
            ("who", &rule.oldest_children_in(&w.text_fn())),
        ],
    );
    if medical {
        note.push(' ');
        note.push_str(&w.t("Pediatric vision is included in all medical plans."));
    }
    sheet.paragraph(Style::NOTE, &note);
}
