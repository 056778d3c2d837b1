//! The benefit selection sheet: each chosen plan, its premium member by member, the total.

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{self, Rates};

use super::{
    FOOTER, branding, carrier_name, household_block, kind_name, long_date, money_or_dash,
    out_of_network, percent,
};
use crate::applications::OpenStep;
use crate::error::ApiResult;
use crate::pdf::{self, Column, Orientation, Sheet, Style, Table};
use crate::quoting::{PlanSnapshot, household, quoted};

/// The benefit selection sheet (spec 2.11): each selected plan, its premium by member, the total.
pub fn selection(s: &OpenStep) -> ApiResult<Sheet> {
    let h = &household(s)?;
    let cat = s.bundle.engine.catalog();
    let mut sheet = Sheet::new(
        "Benefit Selection",
        branding(&s.agent),
        &long_date(s.ctx.today),
        FOOTER,
        Orientation::Portrait,
    );
    household_block(&mut sheet, s, h, false);
    let kinds = [PlanKind::Medical, PlanKind::Dental, PlanKind::Vision];
    let snapshot = |k: PlanKind| PlanSnapshot::stored(&s.data, k);
    if kinds.iter().all(|k| snapshot(*k).is_none()) {
        sheet.space(8.0);
        sheet.heading("Your selections");
        sheet.paragraph(
            Style::BODY,
            "No plans have been selected yet. Choose a medical, dental or vision plan, then print \
             your benefit selection again.",
        );
        return Ok(sheet);
    }
    let mut total = Money::ZERO;
    for k in kinds {
        sheet.space(8.0);
        sheet.heading(&format!("{} plan", kind_name(k)));
        let Some(snap) = snapshot(k) else {
            let included = k == PlanKind::Vision
                && snapshot(PlanKind::Dental).is_some_and(|d| d.includes_vision);
            sheet.paragraph(
                Style::BODY,
                &if included {
                    "Vision coverage is included in the dental plan.".to_string()
                } else {
                    format!("No {} plan selected.", k.key())
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
            plan_details(&mut sheet, cat, p, h.members.len());
        }
        let rates = quoted(s, k, h)?
            .into_iter()
            .find(|(p, _)| p.id == id)
            .map(|(_, r)| r);
        let premium = match &rates {
            Some(r) => {
                sheet.space(3.0);
                sheet.table(&breakdown(r));
                r.total
            }
            None => {
                sheet.paragraph(
                    Style::NOTE,
                    "This plan is no longer quoted for this household; the premium is the one \
                     shown when it was selected.",
                );
                snap.rate
            }
        };
        sheet.space(3.0);
        sheet.field("Monthly premium", &premium.to_string());
        total += premium;
    }
    sheet.space(10.0);
    sheet.ensure(20.0);
    sheet.paragraph(
        Style {
            size: 12.0,
            ..Style::STRONG
        },
        &format!("Your total cost: {} per month", total),
    );
    Ok(sheet)
}

fn plan_details(sheet: &mut Sheet, cat: &Catalog, p: &Plan, household_size: usize) {
    sheet.field("Carrier", &carrier_name(cat, p.carrier));
    match p.kind {
        PlanKind::Medical => {
            let names = cat.names(p);
            let mut kind: Vec<String> = [names.network, names.metal]
                .into_iter()
                .flatten()
                .map(str::to_string)
                .collect();
            if p.hsa {
                kind.push("HSA eligible".into());
            }
            sheet.field("Network and metal", &kind.join(", "));
            sheet.field(
                "In-network deductible",
                &format!(
                    "{} individual / {} family",
                    money_or_dash(p.ded_ind),
                    money_or_dash(p.ded_fam)
                ),
            );
            sheet.field("Out-of-network deductible", &out_of_network(cat, p));
            sheet.field(
                "Out-of-pocket maximum",
                &money_or_dash(rating::oop_for(p, household_size)),
            );
            sheet.field("Coinsurance", &percent(p.coins));
        }
        PlanKind::Dental => {
            sheet.field(
                "Deductible",
                &format!(
                    "{} individual / {} family",
                    money_or_dash(p.ded_ind),
                    money_or_dash(p.ded_fam)
                ),
            );
            sheet.field("Annual maximum", &money_or_dash(p.annual_max));
            sheet.field("Coinsurance (major services)", &percent(p.coins));
            sheet.field(
                "Includes vision",
                if p.includes_vision { "Yes" } else { "No" },
            );
        }
        PlanKind::Vision => {
            sheet.field("Eye exam copay", &money_or_dash(p.eye_exam_copay));
            sheet.field(
                "Frames / contacts allowance",
                &money_or_dash(p.frames_contact_allowance),
            );
            sheet.field(
                "Adult eye exam frequency",
                p.eye_exam_frequency.as_deref().unwrap_or("\u{2014}"),
            );
        }
    }
}

/// Each member's part of the premium, as the rating breakdown explains it.
fn breakdown(r: &Rates) -> Table {
    let rows = r
        .members
        .iter()
        .map(|m| {
            vec![
                m.member(),
                m.age.to_string(),
                m.why(),
                m.amount().to_string(),
            ]
        })
        .collect();
    Table {
        columns: vec![
            Column::left("Member", 62.0),
            Column::right("Age", 30.0),
            Column::left("How the premium is figured", 372.0),
            Column::right("Monthly amount", 76.0),
        ],
        rows,
    }
}
