//! Reading a plan year's crosswalk (`<year>/crosswalk.yaml`) and checking it against the catalog:
//! it renews the year before; each entry names a plan of that year and says what it renews into
//! (`to`, a plan of this year of the same kind) or why it is `discontinued`, for every county or
//! for the `counties` listed; every plan of the year before is mapped in every county where it was
//! sold, and each successor is sold in the counties it takes. Every problem names the file and
//! the line.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::catalog::{Catalog, Crosswalk, Crosswalked, Plan, PlanKind, Renewal, Successor};
use crate::diagnostic::Diagnostic;
use crate::yaml::{self, line_of};

/// The crosswalk's file, next to the plan year's plan files.
pub(super) const CROSSWALK_FILE: &str = "crosswalk.yaml";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CrosswalkFile {
    plan_year: i32,
    from_year: i32,
    #[serde(default)]
    medical: Vec<Spanned<Written>>,
    #[serde(default)]
    dental: Vec<Spanned<Written>>,
    #[serde(default)]
    vision: Vec<Spanned<Written>>,
}

/// An entry (`from`, and `counties` where it renews otherwise) or one of its county lists (`in`):
/// each says `to` or `discontinued`, and may give a `reason`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    #[serde(default)]
    from: Option<i64>,
    #[serde(default, rename = "in")]
    counties_in: Vec<u16>,
    #[serde(default)]
    to: Option<i64>,
    #[serde(default)]
    discontinued: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    counties: Vec<Spanned<Written>>,
}

/// What an entry, or one of its county lists, says.
struct Mapping {
    to: Option<i64>,
    discontinued: Option<String>,
    reason: Option<String>,
}

impl Written {
    fn mapping(&mut self) -> Mapping {
        Mapping {
            to: self.to.take(),
            discontinued: self.discontinued.take(),
            reason: self.reason.take(),
        }
    }
}

/// A crosswalk file being checked: the catalog it maps within and the problems found.
struct Check<'a> {
    cat: &'a Catalog,
    path: &'a str,
    plan_year: i32,
    from_year: i32,
    problems: Vec<Diagnostic>,
}

impl Check<'_> {
    fn at(&mut self, line: usize, message: String) {
        self.problems
            .push(Diagnostic::new(self.path, line.max(1), 1, message));
    }

    fn plans(&self, year: i32, kind: PlanKind) -> &[Plan] {
        self.cat
            .plans
            .get(&year)
            .and_then(|k| k.get(&kind))
            .map_or(&[], Vec::as_slice)
    }

    fn county_names(&self, counties: &BTreeSet<u16>) -> String {
        counties
            .iter()
            .map(|c| match self.cat.counties.get(c) {
                Some(county) => format!("{} ({c})", county.name),
                None => c.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Every county `plan` is sold in.
    fn sold_in(&self, plan: &Plan) -> BTreeSet<u16> {
        match &plan.counties {
            Some(c) => c.clone(),
            None => self.cat.counties.keys().copied().collect(),
        }
    }

    /// A mapping as written: exactly one of `to` and `discontinued` (with its reason), `to` a
    /// plan of this year of `kind`.
    fn renewal(&mut self, kind: PlanKind, m: Mapping, line: usize) -> Option<Renewal> {
        let successor = match (m.to, m.discontinued) {
            (Some(_), Some(_)) => {
                let said = "says both `to` and `discontinued`: a plan renews into one plan, or is \
                            discontinued";
                self.at(line, said.to_string());
                return None;
            }
            (None, None) => {
                let said = "says neither `to` (the plan it renews into) nor `discontinued` (why \
                            it ends)";
                self.at(line, said.to_string());
                return None;
            }
            (None, Some(why)) if why.trim().is_empty() => {
                self.at(line, "`discontinued` needs the reason".to_string());
                return None;
            }
            (None, Some(_)) if m.reason.is_some() => {
                let said = "a discontinued plan's reason is its `discontinued` text: drop `reason`";
                self.at(line, said.to_string());
                return None;
            }
            (None, Some(why)) => {
                return Some(Renewal {
                    successor: Successor::Discontinued,
                    reason: Some(why.trim().to_string()),
                    line,
                });
            }
            (Some(to), None) => to,
        };
        if !self
            .plans(self.plan_year, kind)
            .iter()
            .any(|p| p.id == successor)
        {
            let (year, kind) = (self.plan_year, kind.key());
            self.at(
                line,
                format!("`to: {successor}` is not a {year} {kind} plan"),
            );
            return None;
        }
        Some(Renewal {
            successor: Successor::Plan(successor),
            reason: m
                .reason
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty()),
            line,
        })
    }

    /// One entry: its plan of the year before, its mapping everywhere and by county.
    fn entry(&mut self, kind: PlanKind, e: Spanned<Written>) -> Option<(i64, Crosswalked)> {
        let line = line_of(&e);
        let mut e = e.value;
        let Some(from) = e.from else {
            self.at(
                line,
                "an entry names its plan of the year before: `from`".into(),
            );
            return None;
        };
        if !e.counties_in.is_empty() {
            self.at(line, "`in` goes under `counties`".into());
            return None;
        }
        let Some(plan) = self
            .plans(self.from_year, kind)
            .iter()
            .find(|p| p.id == from)
            .cloned()
        else {
            let (year, kind) = (self.from_year, kind.key());
            self.at(line, format!("`from: {from}` is not a {year} {kind} plan"));
            return None;
        };
        let mut walked = Crosswalked::default();
        let m = e.mapping();
        let said = m.to.is_some() || m.discontinued.is_some();
        if said || e.counties.is_empty() {
            walked.everywhere = self.renewal(kind, m, line);
        } else if m.reason.is_some() {
            self.at(
                line,
                "`reason` goes with `to` (here or under `counties`)".into(),
            );
        }
        let sold = self.sold_in(&plan);
        for c in e.counties {
            let line = line_of(&c);
            let mut c = c.value;
            if c.from.is_some() || !c.counties.is_empty() {
                self.at(
                    line,
                    "a county list says `in`, and `to` or `discontinued`".into(),
                );
                continue;
            }
            if c.counties_in.is_empty() {
                self.at(line, "`in` lists no county".into());
                continue;
            }
            let not_sold: BTreeSet<u16> = c
                .counties_in
                .iter()
                .copied()
                .filter(|id| !sold.contains(id))
                .collect();
            if !not_sold.is_empty() {
                let (id, year) = (plan.id, self.from_year);
                let names = self.county_names(&not_sold);
                self.at(
                    line,
                    format!("plan `{id}` was not sold in {names} in {year}"),
                );
                continue;
            }
            let Some(r) = self.renewal(kind, c.mapping(), line) else {
                continue;
            };
            for county in c.counties_in {
                if walked.by_county.insert(county, r.clone()).is_some() {
                    let name = self.county_names(&BTreeSet::from([county]));
                    self.at(
                        line,
                        format!("{name} is mapped twice for plan `{}`", plan.id),
                    );
                }
            }
        }
        Some((plan.id, walked))
    }

    /// Every plan of the year before is mapped wherever it was sold, each successor sold where
    /// it takes the plan's members.
    fn complete(&mut self, kind: PlanKind, walked: &BTreeMap<(PlanKind, i64), Crosswalked>) {
        let before = self.plans(self.from_year, kind).to_vec();
        for plan in &before {
            let (id, name, from) = (plan.id, &plan.name, self.from_year);
            let Some(w) = walked.get(&(kind, plan.id)) else {
                self.at(
                    1,
                    format!(
                        "{from} {} plan `{id}` ({name}) is not in the crosswalk: say what it \
                         renews into (`to`) or why it is `discontinued`",
                        kind.key()
                    ),
                );
                continue;
            };
            let sold = self.sold_in(plan);
            let unmapped: BTreeSet<u16> = sold
                .iter()
                .copied()
                .filter(|c| w.in_county(*c).is_none())
                .collect();
            if !unmapped.is_empty() {
                let line = w.renewals().first().map_or(1, |r| r.line);
                let mapped: BTreeSet<u16> = sold.difference(&unmapped).copied().collect();
                let said = if unmapped.len() > 10 {
                    // Said the short way round: where it does renew.
                    let only = self.county_names(&mapped);
                    format!(
                        "plan `{id}` ({name}) was sold in {} counties in {from} and has a \
                         successor only in {only}: give it a `to` (or `discontinued`) for the \
                         others",
                        sold.len()
                    )
                } else {
                    let names = self.county_names(&unmapped);
                    format!(
                        "plan `{id}` ({name}) was sold in {names} in {from} and has no successor \
                         there"
                    )
                };
                self.at(line, said);
            }
            // Successors not sold where they would take the plan's members, by mapping.
            let mut missing: BTreeMap<usize, (i64, BTreeSet<u16>)> = BTreeMap::new();
            for c in &sold {
                let Some(r) = w.in_county(*c) else { continue };
                let Successor::Plan(to) = r.successor else {
                    continue;
                };
                let to_plan = self.plans(self.plan_year, kind).iter().find(|p| p.id == to);
                if to_plan.is_some_and(|p| !p.sold_in(*c)) {
                    missing
                        .entry(r.line)
                        .or_insert((to, BTreeSet::new()))
                        .1
                        .insert(*c);
                }
            }
            for (line, (to, counties)) in missing {
                let (year, names) = (self.plan_year, self.county_names(&counties));
                self.at(
                    line,
                    format!(
                        "plan `{to}`, where plan `{id}` renews, is not sold in {names} in {year}: \
                         map those counties (`counties`) to another plan, or to `discontinued` \
                         with the reason"
                    ),
                );
            }
        }
    }
}

/// Reads the crosswalk of the plan year `year` from `text` (at `path`) and checks it against
/// `cat`, whose plans are read: the crosswalk, or the problems found.
pub(super) fn read(
    cat: &Catalog,
    path: &str,
    text: &str,
    year: i32,
) -> Result<Crosswalk, Vec<Diagnostic>> {
    let f = yaml::parse::<CrosswalkFile>(path, text).map_err(|d| vec![d])?;
    let mut check = Check {
        cat,
        path,
        plan_year: f.plan_year,
        from_year: f.from_year,
        problems: Vec::new(),
    };
    if f.plan_year != year {
        let said = format!(
            "plan_year `{}` does not match the folder `{year}`",
            f.plan_year
        );
        check.at(1, said);
    }
    if f.from_year != f.plan_year - 1 {
        let said = format!(
            "from_year `{}` is not the year before {}: a crosswalk renews the year before",
            f.from_year, f.plan_year
        );
        check.at(1, said);
    }
    let mut plans = BTreeMap::new();
    for (kind, entries) in [
        (PlanKind::Medical, f.medical),
        (PlanKind::Dental, f.dental),
        (PlanKind::Vision, f.vision),
    ] {
        for e in entries {
            let line = line_of(&e);
            if let Some((id, walked)) = check.entry(kind, e)
                && plans.insert((kind, id), walked).is_some()
            {
                check.at(line, format!("plan `{id}` is in the crosswalk twice"));
            }
        }
        check.complete(kind, &plans);
    }
    if check.problems.is_empty() {
        Ok(Crosswalk {
            plan_year: f.plan_year,
            from_year: f.from_year,
            file: path.to_string(),
            plans,
        })
    } else {
        Err(check.problems)
    }
}
