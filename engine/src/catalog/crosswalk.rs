//! The crosswalk of a plan year (`rules/catalog/<year>/crosswalk.yaml`): where each plan of the
//! year before renews, by county where that differs. A plan renews into its successor, or is
//! discontinued, each with the reason the customer and the agent read. The catalog checks at load
//! that every plan of the year before has a successor (or is discontinued) in every county where
//! it was sold, and that each successor is sold there; renewals read it through
//! [`Catalog::renewal_of`].

use std::collections::BTreeMap;

use super::{Catalog, Plan, PlanKind};

/// What becomes of a plan in a county at renewal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Successor {
    /// The plan of the new year its members renew into.
    Plan(i64),
    /// No plan of the carrier follows it there: its members choose another.
    Discontinued,
}

/// One mapping of the crosswalk: the successor, why, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Renewal {
    pub successor: Successor,
    /// Why, in the analysts' words (always given for a discontinued plan).
    pub reason: Option<String>,
    /// The line of the crosswalk file it is written on.
    pub line: usize,
}

/// Where one plan of the year before renews: in every county where it was sold (`everywhere`),
/// unless `by_county` says otherwise for a county.
#[derive(Debug, Clone, Default)]
pub struct Crosswalked {
    pub everywhere: Option<Renewal>,
    pub by_county: BTreeMap<u16, Renewal>,
}

impl Crosswalked {
    /// The mapping for `county`.
    pub fn in_county(&self, county: u16) -> Option<&Renewal> {
        self.by_county.get(&county).or(self.everywhere.as_ref())
    }

    /// Every mapping written for the plan, each once, in the file's order.
    pub fn renewals(&self) -> Vec<&Renewal> {
        let mut all: Vec<&Renewal> = self.everywhere.iter().collect();
        for r in self.by_county.values() {
            if !all.iter().any(|a| a.line == r.line) {
                all.push(r);
            }
        }
        all.sort_by_key(|r| r.line);
        all
    }
}

/// The crosswalk into a plan year from the year before.
#[derive(Debug, Clone, Default)]
pub struct Crosswalk {
    pub plan_year: i32,
    pub from_year: i32,
    /// The file it was read from.
    pub file: String,
    /// By kind and plan id of the year before.
    pub plans: BTreeMap<(PlanKind, i64), Crosswalked>,
}

impl Catalog {
    /// The crosswalk into `plan_year`, if the catalog has one.
    pub fn crosswalk(&self, plan_year: i32) -> Option<&Crosswalk> {
        self.crosswalks.get(&plan_year)
    }

    /// Where `plan` renews next plan year for a household in `county`: None when the next year
    /// has no crosswalk.
    pub fn renewal_of(&self, plan: &Plan, county: u16) -> Option<&Renewal> {
        self.crosswalk(plan.plan_year + 1)?
            .plans
            .get(&(plan.kind, plan.id))?
            .in_county(county)
    }
}
