//! The plan comparison sheet: the quoted plans of a kind (or of all three) in a table, narrowed
//! by the plan page's filters.

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind, choice_name};
use std::collections::BTreeMap;

use enrollflow_engine::rating::{self, Filter, Rates};
use enrollflow_engine::yearly_cost::YearlyCost;

use super::{
    Words, branding, carrier_name, dash, footer, household_block, kind_name, labels, money_or_dash,
    oop_title, out_of_network, pair, percent,
};
use crate::app::applying::open::OpenStep;
use crate::app::applying::quotes::{QuoteError, household_and_care, quoted};
use crate::documents::pdf::{self, Column, Orientation, Sheet, Style, Table};

/// The comparison of the plan page `kind` (narrowed by `filter`), or of every kind when `all`.
pub fn comparison(
    w: &Words,
    s: &OpenStep,
    kind: PlanKind,
    all: bool,
    filter: &Filter,
    drug_tiers: &BTreeMap<i64, Vec<String>>,
) -> Result<Sheet, QuoteError> {
    let (h, care) = household_and_care(s)?;
    let cat = s.bundle.engine.catalog();
    let kinds = if all {
        vec![PlanKind::Medical, PlanKind::Dental, PlanKind::Vision]
    } else {
        vec![kind]
    };
    let title = if all {
        w.t("Medical, Dental and Vision Plans")
    } else {
        w.f("{kind} Plan Comparison", &[("kind", &kind_name(w, kind))])
    };
    let mut sheet = Sheet::new(
        &title,
        branding(&s.agent),
        labels(w),
        &w.date(s.ctx.today),
        &footer(w),
        Orientation::Landscape,
    );
    household_block(w, &mut sheet, s, &h, kinds.contains(&PlanKind::Medical));
    for k in kinds {
        let list = quoted(s, k, &h)?;
        let narrowed = k == kind && *filter != Filter::default();
        let shown: Vec<(&Plan, Rates)> = list
            .into_iter()
            .filter(|(p, r)| !narrowed || filter.accepts(p, r.total))
            .collect();
        sheet.space(6.0);
        sheet.heading(&w.f(
            "{kind} plans ({count})",
            &[
                ("kind", &kind_name(w, k)),
                ("count", &shown.len().to_string()),
            ],
        ));
        if narrowed {
            sheet.field(&w.t("Filters"), &describe_filter(w, cat, filter));
        }
        if shown.is_empty() {
            sheet.paragraph(
                Style::BODY,
                &if narrowed {
                    w.t("No plans match these filters.")
                } else {
                    w.t("Sorry, there are no plans available in your area.")
                },
            );
            continue;
        }
        // A medical plan's yearly estimate, each member at their expected use of care.
        let yearly: Vec<Option<YearlyCost>> = shown
            .iter()
            .map(|(p, r)| {
                let tiers = crate::app::applying::care::tiers_on(drug_tiers, p.id);
                s.bundle.engine.yearly_cost_with(p, r, &care, &tiers)
            })
            .collect();
        sheet.table(&plan_table(w, cat, k, &shown, h.members.len()));
        if yearly.iter().any(Option::is_some) {
            sheet.space(6.0);
            sheet.heading(&w.t("Estimated yearly cost"));
            sheet.paragraph(
                Style::BODY,
                &w.t("Twelve months of premium and what the household is expected to pay for its care at each member's expected use; the worst case is the premiums and the out-of-pocket maximum."),
            );
            sheet.table(&yearly_table(w, &shown, &yearly));
        }
    }
    Ok(sheet)
}

/// Each plan's yearly estimate and its parts (medical plans).
fn yearly_table(w: &Words, plans: &[(&Plan, Rates)], yearly: &[Option<YearlyCost>]) -> Table {
    Table {
        columns: vec![
            Column::left(&w.t("Plan"), 230.0),
            Column::right(&w.t("Premiums for 12 months"), 84.0),
            Column::right(&w.t("Paid toward the deductible"), 84.0),
            Column::right(&w.t("Copays and coinsurance"), 84.0),
            Column::right(&w.t("Estimated total"), 84.0),
            Column::right(&w.t("Worst case"), 84.0),
        ],
        rows: plans
            .iter()
            .zip(yearly)
            .filter_map(|((p, _), y)| {
                let y = (*y)?;
                Some(vec![
                    pdf::plain_text(&p.name),
                    y.premium.to_string(),
                    y.deductible.to_string(),
                    y.cost_sharing.to_string(),
                    y.total.to_string(),
                    y.worst_case.to_string(),
                ])
            })
            .collect(),
    }
}

/// The comparison table of a plan kind (spec 2.8 and 2.10: the compare modal's columns).
fn plan_table(
    w: &Words,
    cat: &Catalog,
    kind: PlanKind,
    plans: &[(&Plan, Rates)],
    household_size: usize,
) -> Table {
    let premium = |width| Column::right(&w.t("Monthly premium"), width);
    let yes_no = |b: bool| if b { w.t("Yes") } else { w.t("No") };
    let name = |p: &Plan| pdf::plain_text(&p.name);
    match kind {
        PlanKind::Medical => Table {
            columns: vec![
                Column::left(&w.t("Plan"), 188.0),
                Column::left(&w.t("Carrier"), 78.0),
                Column::left(&w.t("Network"), 44.0),
                Column::left(&w.t("Metal"), 72.0),
                Column::right(&w.t("In-network deductible (ind / fam)"), 72.0),
                Column::right(&w.t("Out-of-network deductible (ind / fam)"), 72.0),
                Column::right(&oop_title(w, household_size), 60.0),
                Column::right(&w.t("Coinsurance"), 58.0),
                premium(76.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    let names = cat.names(p);
                    let mut metal = names.metal.map_or_else(dash, |m| w.t(m));
                    if p.hsa {
                        metal = w.f("{metal} (HSA)", &[("metal", &metal)]);
                    }
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        names.network.map_or_else(dash, str::to_string),
                        metal,
                        pair(p.ded_ind, p.ded_fam),
                        out_of_network(w, cat, p),
                        money_or_dash(rating::oop_for(p, household_size)),
                        percent(p.coins),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
        PlanKind::Dental => Table {
            columns: vec![
                Column::left(&w.t("Plan"), 210.0),
                Column::left(&w.t("Carrier"), 90.0),
                Column::left(&w.t("Includes vision"), 70.0),
                Column::right(&w.t("Deductible (ind / fam)"), 100.0),
                Column::right(&w.t("Annual maximum"), 80.0),
                Column::right(&w.t("Coinsurance (major services)"), 90.0),
                premium(80.0),
            ],
            rows: plans
                .iter()
                .map(|(p, r)| {
                    vec![
                        name(p),
                        carrier_name(cat, p.carrier),
                        yes_no(p.includes_vision),
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
                Column::left(&w.t("Plan"), 210.0),
                Column::left(&w.t("Carrier"), 100.0),
                Column::right(&w.t("Eye exam copay"), 80.0),
                Column::right(&w.t("Frames / contacts allowance"), 110.0),
                Column::left(&w.t("Adult eye exam frequency"), 140.0),
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
                        p.eye_exam_frequency
                            .as_deref()
                            .map_or_else(dash, |f| w.t(f)),
                        r.total.to_string(),
                    ]
                })
                .collect(),
        },
    }
}

/// The filters in words ("Carrier: Blue Care Network; HSA eligible").
fn describe_filter(w: &Words, cat: &Catalog, f: &Filter) -> String {
    let mut parts = Vec::new();
    let names = |list: &[u8], name: &dyn Fn(u8) -> Option<String>| {
        list.iter()
            .map(|id| name(*id).unwrap_or_else(|| format!("#{id}")))
            .reduce(|first, second| {
                w.f(
                    "{first} or {second}",
                    &[("first", &first), ("second", &second)],
                )
            })
            .unwrap_or_default()
    };
    if !f.carriers.is_empty() {
        let n = names(&f.carriers, &|id| {
            cat.carrier(id)
                .map(|_| carrier_name(cat, id))
                .filter(|s| !s.is_empty())
        });
        parts.push(w.f("carrier {names}", &[("names", &n)]));
    }
    if !f.networks.is_empty() {
        let n = names(&f.networks, &|id| {
            choice_name(&cat.networks, id).map(str::to_string)
        });
        parts.push(w.f("network {names}", &[("names", &n)]));
    }
    if !f.metals.is_empty() {
        let n = names(&f.metals, &|id| {
            choice_name(&cat.metals, id).map(|m| w.t(m))
        });
        parts.push(w.f("metal {names}", &[("names", &n)]));
    }
    if f.hsa {
        parts.push(w.t("HSA eligible"));
    }
    if f.dental_only && !f.dental_and_vision {
        parts.push(w.t("dental only"));
    }
    if f.dental_and_vision && !f.dental_only {
        parts.push(w.t("dental and vision"));
    }
    match f.plans.len() {
        0 => {}
        1 => parts.push(w.t("1 chosen plan")),
        n => parts.push(w.f("{count} chosen plans", &[("count", &n.to_string())])),
    }
    match (f.min_price, f.max_price) {
        (Some(lo), Some(hi)) => parts.push(w.f(
            "premium {low} to {high} a month",
            &[("low", &lo.to_string()), ("high", &hi.to_string())],
        )),
        (Some(lo), None) => {
            parts.push(w.f("premium from {low} a month", &[("low", &lo.to_string())]))
        }
        (None, Some(hi)) => {
            parts.push(w.f("premium up to {high} a month", &[("high", &hi.to_string())]))
        }
        (None, None) => {}
    }
    let text = parts.join("; ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}
