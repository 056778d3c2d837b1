//! Reading a plan year's cost sharing (`<year>/cost_sharing.yaml`): named designs, each giving
//! every service's copay, coinsurance and whether the deductible applies, and the design of every
//! medical plan of the year (with the services where the plan differs). Checked against the
//! year's medical plans: each has one, and no other plan does. Every problem names the line.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::catalog::{Catalog, PlanKind};
use crate::diagnostic::Diagnostic;
use crate::money::Money;
use crate::yaml::{self, line_of};
use crate::yearly_cost::{CostSharing, Service, ServiceShare};

/// The cost-sharing file, next to the plan year's plan files.
pub(super) const COST_SHARING_FILE: &str = "cost_sharing.yaml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    plan_year: i32,
    #[serde(default)]
    #[allow(dead_code)]
    sources: Vec<String>,
    designs: BTreeMap<String, Spanned<Design>>,
    plans: BTreeMap<i64, Spanned<PlanEntry>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Design {
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default)]
    free_primary_care_visits: f64,
    #[serde(default)]
    specialty_max_per_script: Option<f64>,
    #[serde(default)]
    drug_deductible: Option<DrugDeductible>,
    services: BTreeMap<Service, Share>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct DrugDeductible {
    individual: f64,
    family: f64,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Per {
    Day,
    Stay,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct Share {
    #[serde(default)]
    copay: f64,
    /// Percent.
    #[serde(default)]
    coinsurance: f64,
    deductible: bool,
    #[serde(default)]
    copay_before_deductible: bool,
    #[serde(default)]
    per: Option<Per>,
    #[serde(default)]
    max_days: Option<f64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum PlanEntry {
    Design(String),
    Changed {
        design: String,
        #[serde(default)]
        services: BTreeMap<Service, Share>,
    },
}

fn check_share(s: Service, sh: &Share) -> Option<String> {
    let key = s.key();
    if sh.copay.is_nan() || sh.copay < 0.0 {
        return Some(format!("{key}: a copay is never negative"));
    }
    if !(0.0..=100.0).contains(&sh.coinsurance) {
        return Some(format!("{key}: coinsurance is a percent, 0 to 100"));
    }
    if s != Service::InpatientFacility && (sh.per.is_some() || sh.max_days.is_some()) {
        return Some(format!(
            "{key}: `per` and `max_days` are for inpatient_facility only"
        ));
    }
    if s == Service::InpatientFacility && sh.copay > 0.0 && sh.per.is_none() {
        return Some(format!(
            "{key}: say whether the copay is `per: day` or `per: stay`"
        ));
    }
    if s == Service::Other && (sh.copay > 0.0 || sh.coinsurance > 0.0) {
        return Some(
            "other: no copay or coinsurance (it is shared at the average rate of the rest)".into(),
        );
    }
    if sh.copay_before_deductible && !sh.deductible {
        return Some(format!(
            "{key}: `copay_before_deductible` is for a service the deductible applies to"
        ));
    }
    None
}

fn to_share(sh: &Share) -> ServiceShare {
    ServiceShare {
        copay: sh.copay,
        coinsurance: sh.coinsurance / 100.0,
        deductible: sh.deductible,
        copay_before_deductible: sh.copay_before_deductible,
        per_day: sh.per == Some(Per::Day),
        max_days: sh.max_days,
    }
}

/// Each medical plan's cost sharing of the year `year`, or every problem found.
pub(super) fn read(
    cat: &Catalog,
    path: &str,
    text: &str,
    year: i32,
) -> Result<BTreeMap<i64, CostSharing>, Vec<Diagnostic>> {
    let f: File = yaml::parse(path, text).map_err(|d| vec![d])?;
    let mut problems = Vec::new();
    let at = |line: usize, m: String| Diagnostic::new(path, line, 1, m);
    if f.plan_year != year {
        problems.push(at(
            1,
            format!("plan_year {} is not the folder's year {year}", f.plan_year),
        ));
    }
    for (name, d) in &f.designs {
        let line = line_of(d);
        for s in Service::ALL {
            match d.value.services.get(&s) {
                None => problems.push(at(
                    line,
                    format!("design `{name}` does not give {}", s.key()),
                )),
                Some(sh) => {
                    if let Some(m) = check_share(s, sh) {
                        problems.push(at(line, format!("design `{name}`: {m}")));
                    }
                }
            }
        }
        if let Some(dd) = &d.value.drug_deductible
            && (dd.individual.is_nan() || dd.individual < 0.0 || dd.family < dd.individual)
        {
            problems.push(at(
                line,
                format!(
                    "design `{name}`: the drug deductible's family amount is at least the individual one"
                ),
            ));
        }
    }
    let medical: Vec<i64> = cat
        .plans
        .get(&year)
        .and_then(|k| k.get(&PlanKind::Medical))
        .map(|ps| ps.iter().map(|p| p.id).collect())
        .unwrap_or_default();
    let mut out = BTreeMap::new();
    for (id, e) in &f.plans {
        let line = line_of(e);
        if !medical.contains(id) {
            problems.push(at(
                line,
                format!("plan {id} is not a medical plan of {year}"),
            ));
            continue;
        }
        let (name, changes) = match &e.value {
            PlanEntry::Design(n) => (n, None),
            PlanEntry::Changed { design, services } => (design, Some(services)),
        };
        let Some(design) = f.designs.get(name) else {
            problems.push(at(line, format!("plan {id}: there is no design `{name}`")));
            continue;
        };
        let d = &design.value;
        let mut services = [ServiceShare::default(); Service::COUNT];
        for s in Service::ALL {
            let written = changes
                .and_then(|c| c.get(&s))
                .or_else(|| d.services.get(&s));
            if let Some(sh) = written {
                if let Some(m) = check_share(s, sh) {
                    problems.push(at(line, format!("plan {id}: {m}")));
                }
                services[s as usize] = to_share(sh);
            }
        }
        out.insert(
            *id,
            CostSharing {
                services,
                free_primary_care_visits: d.free_primary_care_visits.max(0.0),
                specialty_max_per_script: d.specialty_max_per_script,
                drug_deductible: d.drug_deductible.map(|dd| {
                    (
                        Money::from_dollars(dd.individual),
                        Money::from_dollars(dd.family),
                    )
                }),
            },
        );
    }
    for id in &medical {
        if !f.plans.contains_key(id) {
            problems.push(at(
                1,
                format!("medical plan {id} of {year} has no cost sharing in `plans`"),
            ));
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}
