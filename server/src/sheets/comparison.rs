//! The plan comparison sheet: the quoted plans of a kind (or of all three) in a table, narrowed
//! by the plan page's filters.

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind, choice_name};
use enrollflow_engine::rating::{self, Filter, Rates};

use super::{
    FOOTER, branding, carrier_name, dash, household_block, kind_name, long_date, money_or_dash,
    oop_title, out_of_network, pair, percent,
};
use crate::applications::OpenStep;
use crate::error::ApiResult;
use crate::pdf::{self, Column, Orientation, Sheet, Style, Table};
use crate::quoting::{household, quoted};

/// The comparison of the plan page `kind` (narrowed by `filter`), or of every kind when `all`.
pub fn comparison(s: &OpenStep, kind: PlanKind, all: bool, filter: &Filter) -> ApiResult<Sheet> {
    let h = household(s)?;
    let cat = s.bundle.engine.catalog();
    let kinds = if all {
        vec![PlanKind::Medical, PlanKind::Dental, PlanKind::Vision]
    } else {
        vec![kind]
    };
    let title = if all {
        "Medical, Dental and Vision Plans".to_string()
    } else {
        format!("{} Plan Comparison", kind_name(kind))
    };
    let mut sheet = Sheet::new(
        &title,
        branding(&s.agent),
        &long_date(s.ctx.today),
        FOOTER,
        Orientation::Landscape,
    );
    household_block(&mut sheet, s, &h, kinds.contains(&PlanKind::Medical));
    for k in kinds {
        let list = quoted(s, k, &h)?;
        let narrowed = k == kind && *filter != Filter::default();
        let shown: Vec<(&Plan, Rates)> = list
            .into_iter()
            .filter(|(p, r)| !narrowed || filter.accepts(p, r.total))
            .collect();
        sheet.space(6.0);
        sheet.heading(&format!("{} plans ({})", kind_name(k), shown.len()));
        if narrowed {
            sheet.field("Filters", &describe_filter(cat, filter));
        }
        if shown.is_empty() {
            sheet.paragraph(
                Style::BODY,
                if narrowed {
                    "No plans match these filters."
                } else {
                    "Sorry, there are no plans available in your area."
                },
            );
            continue;
        }
        sheet.table(&plan_table(cat, k, &shown, h.members.len()));
    }
    Ok(sheet)
}

/// The comparison table of a plan kind (spec 2.8 and 2.10: the compare modal's columns).
fn plan_table(
    cat: &Catalog,
    kind: PlanKind,
    plans: &[(&Plan, Rates)],
    household_size: usize,
) -> Table {
    let premium = |w| Column::right("Monthly premium", w);
    let name = |p: &Plan| pdf::plain_text(&p.name);
    match kind {
        PlanKind::Medical => Table {
            columns: vec![
                Column::left("Plan", 188.0),
                Column::left("Carrier", 78.0),
                Column::left("Network", 44.0),
                Column::left("Metal", 72.0),
                Column::right("In-network deductible (ind / fam)", 72.0),
                Column::right("Out-of-network deductible (ind / fam)", 72.0),
                Column::right(oop_title(household_size), 60.0),
                Column::right("Coinsurance", 58.0),
                premium(76.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    let names = cat.names(p);
                    let mut metal = names.metal.map_or_else(dash, str::to_string);
                    if p.hsa {
                        metal.push_str(" (HSA)");
                    }
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        names.network.map_or_else(dash, str::to_string),
                        metal,
                        pair(p.ded_ind, p.ded_fam),
                        out_of_network(cat, p),
                        money_or_dash(rating::oop_for(p, household_size)),
                        percent(p.coins),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
        PlanKind::Dental => Table {
            columns: vec![
                Column::left("Plan", 210.0),
                Column::left("Carrier", 90.0),
                Column::left("Includes vision", 70.0),
                Column::right("Deductible (ind / fam)", 100.0),
                Column::right("Annual maximum", 80.0),
                Column::right("Coinsurance (major services)", 90.0),
                premium(80.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        if p.includes_vision { "Yes" } else { "No" }.into(),
                        pair(p.ded_ind, p.ded_fam),
                        money_or_dash(p.annual_max),
                        percent(p.coins),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
        PlanKind::Vision => Table {
            columns: vec![
                Column::left("Plan", 210.0),
                Column::left("Carrier", 100.0),
                Column::right("Eye exam copay", 80.0),
                Column::right("Frames / contacts allowance", 110.0),
                Column::left("Adult eye exam frequency", 140.0),
                premium(80.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        money_or_dash(p.eye_exam_copay),
                        money_or_dash(p.frames_contact_allowance),
                        p.eye_exam_frequency.clone().unwrap_or_else(dash),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
    }
}

/// The filters in words ("Carrier: Blue Care Network; HSA eligible").
fn describe_filter(cat: &Catalog, f: &Filter) -> String {
    let mut parts = Vec::new();
    let names = |list: &[u8], name: &dyn Fn(u8) -> Option<String>| {
        list.iter()
            .map(|id| name(*id).unwrap_or_else(|| format!("#{id}")))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if !f.carriers.is_empty() {
        let n = names(&f.carriers, &|id| {
            cat.carrier(id)
                .map(|_| carrier_name(cat, id))
                .filter(|s| !s.is_empty())
        });
        parts.push(format!("carrier {n}"));
    }
    if !f.networks.is_empty() {
        let n = names(&f.networks, &|id| {
            choice_name(&cat.networks, id).map(str::to_string)
        });
        parts.push(format!("network {n}"));
    }
    if !f.metals.is_empty() {
        let n = names(&f.metals, &|id| {
            choice_name(&cat.metals, id).map(str::to_string)
        });
        parts.push(format!("metal {n}"));
    }
    if f.hsa {
        parts.push("HSA eligible".into());
    }
    if f.dental_only && !f.dental_and_vision {
        parts.push("dental only".into());
    }
    if f.dental_and_vision && !f.dental_only {
        parts.push("dental and vision".into());
    }
    if !f.plans.is_empty() {
        parts.push(format!(
            "{} chosen plan{}",
            f.plans.len(),
            if f.plans.len() == 1 { "" } else { "s" }
        ));
    }
    match (f.min_price, f.max_price) {
        (Some(lo), Some(hi)) => parts.push(format!("premium {} to {} a month", lo, hi)),
        (Some(lo), None) => parts.push(format!("premium from {} a month", lo)),
        (None, Some(hi)) => parts.push(format!("premium up to {} a month", hi)),
        (None, None) => {}
    }
    let text = parts.join("; ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}
