//! A plan's checks: its fields against the rest of the catalog (carrier, network, metal, age
//! curve, rating areas, counties), and against its plan year's legal limits.

use std::collections::BTreeSet;

use super::{Counties, LIMITS_FILE, PlanEntry, to_milli};
use crate::catalog::{Catalog, Limits, Plan, PlanKind};
use crate::diagnostic::Diagnostic;
use crate::money::Money;

/// Every way a plan exceeds its plan year's legal limits, each naming the plan, the field, the
/// value and the limit. Medical plans must state their out-of-pocket maxima (individual and
/// family); HSA-eligible plans also their deductibles.
pub(super) fn check_limits(file: &str, plan: &Plan, l: &Limits) -> Vec<Diagnostic> {
    let year = plan.plan_year;
    // Amounts are named as the files write them (dollars, `9300`), not as the screens show them.
    let above = |field: &str, value: Option<Money>, limit: Money, what: &str, key: &str| {
        value.filter(|v| *v > limit).map(|v| {
            let (v, limit) = (v.dollars(), limit.dollars());
            format!("{field} {v} is above the {year} {what}, {limit} ({LIMITS_FILE} {key})")
        })
    };
    // The individual, two-person and family out-of-pocket maxima against a one-person limit and a
    // limit for more people (`one_key`, `more_key` name them in the limits file).
    let oop = |one: Money, more: Money, what: &str, one_key: &str, more_key: &str| {
        [
            above("max_ind_oop", plan.max_ind_oop, one, what, one_key),
            above("max_2p_oop", plan.max_2p_oop, more, what, more_key),
            above("max_fam_oop", plan.max_fam_oop, more, what, more_key),
        ]
    };
    let mut found: Vec<String> = Vec::new();
    match plan.kind {
        PlanKind::Medical => {
            for (field, value) in [
                ("max_ind_oop", plan.max_ind_oop),
                ("max_fam_oop", plan.max_fam_oop),
            ] {
                if value.is_none() {
                    found.push(format!(
                        "needs {field} (checked against the {year} out-of-pocket maximum)"
                    ));
                }
            }
            let aca = l.medical.max_oop;
            let what = "ACA out-of-pocket maximum";
            let (ind, fam) = ("medical.max_oop.self_only", "medical.max_oop.family");
            found.extend(
                oop(aca.self_only, aca.family, what, ind, fam)
                    .into_iter()
                    .flatten(),
            );
            // In-network deductibles count toward the out-of-pocket maximum.
            found.extend(above("ded_ind", plan.ded_ind, aca.self_only, what, ind));
            found.extend(above("ded_fam", plan.ded_fam, aca.family, what, fam));
            match (&l.hsa, plan.hsa) {
                (_, false) => {}
                (None, true) => found.push(format!(
                    "is HSA-eligible but the {year} {LIMITS_FILE} has no `hsa` limits"
                )),
                (Some(h), true) => {
                    let (ind, fam) = ("hsa.max_oop.self_only", "hsa.max_oop.family");
                    let (one, more) = (h.max_oop.self_only, h.max_oop.family);
                    found.extend(
                        oop(one, more, "HSA out-of-pocket maximum", ind, fam)
                            .into_iter()
                            .flatten(),
                    );
                    let min = h.min_deductible;
                    for (field, value, limit, key) in [
                        ("ded_ind", plan.ded_ind, min.self_only, "self_only"),
                        ("ded_fam", plan.ded_fam, min.family, "family"),
                    ] {
                        match value {
                            None => found.push(format!("is HSA-eligible and needs {field}")),
                            Some(v) if v < limit => found.push(format!(
                                "{field} {} is below the {year} HSA minimum deductible, {} \
                                 ({LIMITS_FILE} hsa.min_deductible.{key})",
                                v.dollars(),
                                limit.dollars()
                            )),
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        PlanKind::Dental => {
            if let Some(d) = &l.dental {
                let (one, more) = (d.max_oop.one_child, d.max_oop.two_or_more);
                let (k1, k2) = ("dental.max_oop.one_child", "dental.max_oop.two_or_more");
                let what = "pediatric dental out-of-pocket cap";
                found.extend(oop(one, more, what, k1, k2).into_iter().flatten());
            }
        }
        PlanKind::Vision => {}
    }
    found
        .into_iter()
        .map(|m| Diagnostic::file(file, format!("plan `{}` ({}): {m}", plan.id, plan.name)))
        .collect()
}

pub(super) fn check_plan(
    cat: &Catalog,
    file: &str,
    year: i32,
    kind: PlanKind,
    p: PlanEntry,
) -> Result<Plan, Diagnostic> {
    let bad = |m: String| Diagnostic::file(file, format!("plan `{}`: {m}", p.id));
    if !cat.carriers.iter().any(|c| c.id == p.carrier) {
        return Err(bad(format!(
            "carrier `{}` is not in carriers.yaml",
            p.carrier
        )));
    }
    if kind == PlanKind::Medical {
        if !p
            .network
            .is_some_and(|n| cat.networks.iter().any(|c| c.id == n))
        {
            return Err(bad("needs a network from lists.yaml".into()));
        }
        if !p
            .metal
            .is_some_and(|m| cat.metals.iter().any(|c| c.id == m))
        {
            return Err(bad("needs a metal from lists.yaml".into()));
        }
    }
    if !(1.0..=1.5).contains(&p.tobacco_factor) {
        return Err(bad(format!(
            "tobacco_factor `{}` must be between 1 and 1.5",
            p.tobacco_factor
        )));
    }
    let curve = p.age_curve.clone().unwrap_or_else(|| "federal".into());
    if !cat.curves.contains_key(&curve) {
        return Err(bad(format!(
            "age curve `{curve}` is not in age_curves.yaml"
        )));
    }
    let areas: BTreeSet<u8> = cat
        .counties
        .values()
        .filter_map(|c| c.rating_area)
        .collect();
    for a in &areas {
        if !p.rates.contains_key(a) {
            return Err(bad(format!("has no rate for rating area {a}")));
        }
    }
    if p.rates.values().any(|r| *r <= Money::ZERO) {
        return Err(bad("rates must be above zero".into()));
    }
    let counties = match p.counties {
        None => None,
        Some(Counties::All(s)) if s == "all" => None,
        Some(Counties::All(s)) => {
            return Err(bad(format!(
                "counties must be `all` or a list of county ids, not `{s}`"
            )));
        }
        Some(Counties::List(list)) => {
            if let Some(c) = list.iter().find(|c| !cat.counties.contains_key(c)) {
                return Err(bad(format!("county `{c}` is not in counties.yaml")));
            }
            Some(list.into_iter().collect())
        }
    };
    let plan_type = match (kind, p.plan_type) {
        (PlanKind::Vision, Some(t @ (3 | 4))) => t,
        (PlanKind::Vision, None) => 3,
        (PlanKind::Vision, Some(t)) => {
            return Err(bad(format!(
                "vision plan_type `{t}` must be 3 (monthly) or 4 (annual)"
            )));
        }
        (k, _) => k.type_id(),
    };
    Ok(Plan {
        id: p.id,
        kind,
        plan_year: year,
        name: p.name,
        carrier: p.carrier,
        network: p.network,
        metal: p.metal,
        hsa: p.hsa,
        includes_vision: p.includes_vision,
        plan_type,
        ded_ind: p.ded_ind,
        ded_fam: p.ded_fam,
        ded_out_ind: p.ded_out_ind,
        ded_out_fam: p.ded_out_fam,
        coins: p.coins,
        max_ind_oop: p.max_ind_oop,
        max_2p_oop: p.max_2p_oop,
        max_fam_oop: p.max_fam_oop,
        annual_max: p.annual_max,
        eye_exam_copay: p.eye_exam_copay,
        frames_contact_allowance: p.frames_contact_allowance,
        eye_exam_frequency: p.eye_exam_frequency,
        sbc: p.sbc,
        baag: p.baag,
        tobacco_factor: to_milli(p.tobacco_factor),
        age_curve: curve,
        counties,
        rates: p.rates,
    })
}
