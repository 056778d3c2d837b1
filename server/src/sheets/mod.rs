//! The printable sheets of the plan pages (spec part 1, 2.7, 2.8, 2.11 and 7 "Plans"): the plan
//! comparison ([`comparison`], one kind or medical, dental and vision together) and the benefit
//! selection ([`selection`]). Quotes and filters are quoting's own; the page layout is
//! `crate::pdf`; the HTTP answers are `http/print.rs`.

mod comparison;
mod evidence;
mod selection;

pub use comparison::comparison;
pub use evidence::evidence;
pub use selection::selection;

use time::Date;

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::dates;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{Household, Role};

use crate::applications::OpenStep;
use crate::db::agents::AgentRow;
use crate::pdf::{Branding, Sheet, Style};

const FOOTER: &str = "Premiums are monthly for the household shown; the carrier confirms the \
                      final rate at enrollment.";

fn kind_name(kind: PlanKind) -> &'static str {
    match kind {
        PlanKind::Medical => "Medical",
        PlanKind::Dental => "Dental",
        PlanKind::Vision => "Vision",
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

/// "January 1, 2025".
fn long_date(d: Date) -> String {
    dates::long(d)
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

/// Out-of-network deductibles of 0 on a network without out-of-network coverage (HMO, EPO).
fn out_of_network(cat: &Catalog, p: &Plan) -> String {
    let covered = p
        .network
        .and_then(|id| cat.networks.iter().find(|n| n.id == id))
        .is_some_and(|n| n.out_of_network);
    if !covered && p.ded_out_ind == Some(Money::ZERO) && p.ded_out_fam == Some(Money::ZERO) {
        "Not covered".into()
    } else {
        pair(p.ded_out_ind, p.ded_out_fam)
    }
}

fn oop_title(household_size: usize) -> &'static str {
    match household_size {
        0 | 1 => "Out-of-pocket max (individual)",
        2 => "Out-of-pocket max (2 people)",
        _ => "Out-of-pocket max (family)",
    }
}

/// The effective date, the household with ages at that date, and the premium rule.
fn household_block(sheet: &mut Sheet, s: &OpenStep, h: &Household, medical: bool) {
    sheet.field("Coverage effective", &long_date(h.effective_date));
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
            let mut who = match m.role {
                Role::Subscriber if !subscriber.is_empty() => format!("{subscriber} (subscriber)"),
                Role::Subscriber => "Subscriber".into(),
                Role::Spouse => "Spouse".into(),
                Role::Dependent => {
                    dependent += 1;
                    format!("Dependent {dependent}")
                }
            };
            who.push_str(&format!(", age {age}"));
            if m.tobacco && age >= 18 {
                who.push_str(", tobacco user");
            }
            who
        })
        .collect();
    sheet.field(
        &format!("Household ({})", h.members.len()),
        &people.join("; "),
    );
    let rule = s.bundle.engine.catalog().rating;
    let mut note = format!(
        "Premiums are charged for the subscriber, spouse, all children {age} and older, and {who} \
         under {age}.",
        age = rule.child_age,
        who = rule.oldest_children()
    );
    if medical {
        note.push_str(" Pediatric vision is included in all medical plans.");
    }
    sheet.paragraph(Style::NOTE, &note);
}
