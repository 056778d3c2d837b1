//! The benefit selection sheet: each chosen plan, its premium member by member, the total.

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{self, Rates};

use super::{
    Words, branding, carrier_name, footer, household_block, kind_name, labels, money_or_dash,
    out_of_network, percent,
};
use crate::app::applying::open::OpenStep;
use crate::app::applying::quotes::{QuoteError, household, quoted};
use crate::documents::pdf::{self, Column, Orientation, Sheet, Style, Table};
use crate::rules::quoting::PlanSnapshot;

/// The benefit selection sheet (spec 2.11): each selected plan, its premium by member, the total.
pub fn selection(w: &Words, s: &OpenStep) -> Result<Sheet, QuoteError> {
    let h = &household(s)?;
    let cat = s.bundle.engine.catalog();
    let mut sheet = Sheet::new(
        &w.t("Benefit Selection"),
        branding(&s.agent),
        labels(w),
        &w.date(s.ctx.today),
        &footer(w),
        Orientation::Portrait,
    );
    household_block(w, &mut sheet, s, h, false);
    let kinds = [PlanKind::Medical, PlanKind::Dental, PlanKind::Vision];
    let snapshot = |k: PlanKind| PlanSnapshot::stored(&s.data, k);
    if kinds.iter().all(|k| snapshot(*k).is_none()) {
        sheet.space(8.0);
        sheet.heading(&w.t("Your selections"));
        sheet.paragraph(
            Style::BODY,
            &w.t("No plans have been selected yet. Choose a medical, dental or vision plan, then print your benefit selection again."),
        );
        return Ok(sheet);
    }
    let mut total = Money::ZERO;
    for k in kinds {
        sheet.space(8.0);
        sheet.heading(&w.f("{kind} plan", &[("kind", &kind_name(w, k))]));
        let Some(snap) = snapshot(k) else {
            let included = k == PlanKind::Vision
                && snapshot(PlanKind::Dental).is_some_and(|d| d.includes_vision);
            sheet.paragraph(
                Style::BODY,
                &if included {
                    w.t("Vision coverage is included in the dental plan.")
                } else {
                    w.f(
                        "No {kind} plan selected.",
                        &[("kind", &kind_name(w, k).to_lowercase())],
                    )
                },
            );
            continue;
        };
        let id = snap.id;
        let plan = cat.plan(id);
        let name = pdf::plain_text(plan.map_or(snap.name.as_str(), |p| p.name.as_str()));
        sheet.paragraph(
            Style {
                size: 11.0,
                ..Style::STRONG
            },
            &name,
        );
        if let Some(p) = plan {
            plan_details(w, &mut sheet, cat, p, h.members.len());
        }
        let rates = quoted(s, k, h)?
            .into_iter()
            .find(|(p, _)| p.id == id)
            .map(|(_, r)| r);
        let premium = match &rates {
            Some(r) => {
                sheet.space(3.0);
                sheet.table(&breakdown(w, r));
                r.total
            }
            None => {
                sheet.paragraph(
                    Style::NOTE,
                    &w.t("This plan is no longer quoted for this household; the premium is the one shown when it was selected."),
                );
                snap.rate
            }
        };
        sheet.space(3.0);
        sheet.field(&w.t("Monthly premium"), &premium.to_string());
        total += premium;
    }
    sheet.space(10.0);
    sheet.ensure(20.0);
    sheet.paragraph(
        Style {
            size: 12.0,
            ..Style::STRONG
        },
        &w.f(
            "Your total cost: {total} per month",
            &[("total", &total.to_string())],
        ),
    );
    Ok(sheet)
}

fn plan_details(w: &Words, sheet: &mut Sheet, cat: &Catalog, p: &Plan, household_size: usize) {
    let deductibles = || {
        w.f(
            "{individual} individual / {family} family",
            &[
                ("individual", &money_or_dash(p.ded_ind)),
                ("family", &money_or_dash(p.ded_fam)),
            ],
        )
    };
    sheet.field(&w.t("Carrier"), &carrier_name(cat, p.carrier));
    match p.kind {
        PlanKind::Medical => {
            let names = cat.names(p);
            let mut kind: Vec<String> = names.network.map(str::to_string).into_iter().collect();
            kind.extend(names.metal.map(|m| w.t(m)));
            if p.hsa {
                kind.push(w.t("HSA eligible"));
            }
            sheet.field(&w.t("Network and metal"), &kind.join(", "));
            sheet.field(&w.t("In-network deductible"), &deductibles());
            sheet.field(
                &w.t("Out-of-network deductible"),
                &out_of_network(w, cat, p),
            );
            sheet.field(
                &w.t("Out-of-pocket maximum"),
                &money_or_dash(rating::oop_for(p, household_size)),
            );
            sheet.field(&w.t("Coinsurance"), &percent(p.coins));
        }
        PlanKind::Dental => {
            sheet.field(&w.t("Deductible"), &deductibles());
            sheet.field(&w.t("Annual maximum"), &money_or_dash(p.annual_max));
            sheet.field(&w.t("Coinsurance (major services)"), &percent(p.coins));
            sheet.field(
                &w.t("Includes vision"),
                &if p.includes_vision {
                    w.t("Yes")
                } else {
                    w.t("No")
                },
            );
        }
        PlanKind::Vision => {
            sheet.field(&w.t("Eye exam copay"), &money_or_dash(p.eye_exam_copay));
            sheet.field(
                &w.t("Frames / contacts allowance"),
                &money_or_dash(p.frames_contact_allowance),
            );
            sheet.field(
                &w.t("Adult eye exam frequency"),
                &p.eye_exam_frequency
                    .as_deref()
                    .map_or_else(|| "\u{2014}".to_string(), |f| w.t(f)),
            );
        }
    }
}

/// Each member's part of the premium, as the rating breakdown explains it.
fn breakdown(w: &Words, r: &Rates) -> Table {
    let text = w.text_fn();
    let rows = r
        .members
        .iter()
        .map(|m| {
            vec![
                w.t(&m.member()),
                m.age.to_string(),
                m.why_in(&text),
                m.amount().to_string(),
            ]
        })
        .collect();
    Table {
        columns: vec![
            Column::left(&w.t("Member"), 62.0),
            Column::right(&w.t("Age"), 30.0),
            Column::left(&w.t("How the premium is figured"), 372.0),
            Column::right(&w.t("Monthly amount"), 76.0),
        ],
        rows,
    }
}
