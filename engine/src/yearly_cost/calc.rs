//! The out-of-pocket calculation of CMS's out-of-pocket cost calculator (the workbook's
//! `CalcOOPC3`, the method HealthCare.gov's estimates follow; `docs/yearly-cost-sources.md`):
//! every member's expected spending per service, spread evenly over the year, stepped through the
//! deductibles, the copays and coinsurance and the out-of-pocket maximums, per person and per
//! family. Copays and coinsurance do not count toward the deductible, only toward the maximum.
//!
//! Spending grows by one "level" (a share of the year's spending, 0 to 1) for every service at
//! once; each round goes to the next level where some deductible or maximum is reached, so a
//! household takes a handful of rounds, never a claim-by-claim simulation.

use super::{Limit, Scope, Service, ServiceShare, Usage};

/// Where a service's spending goes now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// The member pays toward the deductible.
    Deductible,
    /// Copays and coinsurance.
    CostSharing,
    /// The out-of-pocket maximum is reached: the plan pays everything.
    Maximum,
}

/// What a household is expected to pay in a year, in dollars (not yet rounded).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Everything the care costs (what the member pays and what the plan pays).
    pub total_cost: f64,
    /// Paid toward the deductibles.
    pub deductible: f64,
    /// Copays and coinsurance.
    pub cost_sharing: f64,
    /// Paid by the plan once an out-of-pocket maximum is reached.
    pub plan_after_maximum: f64,
    /// The drugs' part of what the members pay.
    pub drugs_out_of_pocket: f64,
    /// Each member's part of what the members pay, in the household's order.
    pub members: Vec<f64>,
    /// Rounds the spending took.
    pub iterations: u32,
}

impl Outcome {
    /// What the members pay: the deductibles, the copays and the coinsurance.
    pub fn out_of_pocket(&self) -> f64 {
        self.deductible + self.cost_sharing
    }
}

/// The plan's sharing of costs, as the calculation reads it.
pub struct PlanTerms<'a> {
    pub services: &'a [ServiceShare; Service::COUNT],
    pub deductibles: &'a [Limit],
    pub maximums: &'a [Limit],
    pub free_primary_care_visits: f64,
    pub specialty_max_per_script: Option<f64>,
}

/// One member's expected use: (unit cost, units a year) per service.
pub type MemberUse<'a> = &'a [Usage; Service::COUNT];

#[derive(Clone, Copy, PartialEq, Eq)]
enum GroupKind {
    Deductible,
    Maximum,
}

/// A deductible or an out-of-pocket maximum the spending counts toward: the household's or one
/// member's.
struct Group {
    kind: GroupKind,
    scope: Scope,
    /// None: the whole household.
    member: Option<usize>,
    amount: f64,
    remaining: f64,
    next: f64,
    phase_code: u8,
}

/// One member's one service.
#[derive(Clone, Copy, Default)]
struct Cell {
    /// The year's expected spending (allowed amounts).
    cost: f64,
    /// The member's share of a dollar once the deductible is met.
    rate: f64,
    /// The member's share of a dollar while the deductible is not met: 1, or less when a copay is
    /// charged before the deductible.
    deductible_share: f64,
    spent: f64,
    deductible: f64,
    cost_sharing: f64,
    plan_after_maximum: f64,
}

fn round_to(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

fn in_scope(scope: Scope, s: Service) -> bool {
    match scope {
        Scope::Combined => true,
        Scope::Medical => !s.is_drug(),
        Scope::Drugs => s.is_drug(),
    }
}

/// The deductibles and maximums a household of `members` counts toward: the individual amount for
/// one person; for more, the family amount and, where the plan has one (an embedded deductible or
/// maximum), each member's own.
fn groups(terms: &PlanTerms<'_>, members: usize) -> Vec<Group> {
    let mut out = Vec::new();
    let mut add = |kind, l: &Limit| {
        let mut push = |member, amount: f64| {
            out.push(Group {
                kind,
                scope: l.scope,
                member,
                amount,
                remaining: amount,
                next: 1.0,
                phase_code: 0,
            });
        };
        if members <= 1 {
            push(None, l.individual);
        } else {
            push(None, l.family);
            if let Some(each) = l.per_person {
                for m in 0..members {
                    push(Some(m), each);
                }
            }
        }
    };
    for l in terms.deductibles {
        add(GroupKind::Deductible, l);
    }
    for l in terms.maximums {
        add(GroupKind::Maximum, l);
    }
    out
}

fn counts_toward(g: &Group, member: usize, s: Service, share: &ServiceShare) -> bool {
    g.member.is_none_or(|m| m == member)
        && in_scope(g.scope, s)
        && match g.kind {
            GroupKind::Deductible => share.deductible,
            GroupKind::Maximum => true,
        }
}

/// The expected out-of-pocket cost of a household (`members`: each member's expected use) under
/// the plan's terms. `None` when the spending does not settle in 100 rounds (it always settles
/// for a plan whose amounts are finite).
pub fn calculate(terms: &PlanTerms<'_>, members: &[MemberUse<'_>]) -> Option<Outcome> {
    let n = members.len();
    let mut free_care = 0.0;
    let mut cells = vec![[Cell::default(); Service::COUNT]; n];
    let mut weighted = 0.0;
    let mut weight = 0.0;
    for (i, usage) in members.iter().enumerate() {
        let admissions = usage[Service::InpatientPhysician as usize].per_year;
        for s in Service::ALL {
            let share = &terms.services[s as usize];
            let unit_cost = usage[s as usize].unit_cost;
            let mut units = usage[s as usize].per_year;
            if s == Service::PrimaryCare && terms.free_primary_care_visits > 0.0 {
                let free = units.min(terms.free_primary_care_visits);
                units -= free;
                free_care += free * unit_cost;
            }
            let cost = unit_cost * units;
            let mut copay = share.copay;
            let mut coinsurance = share.coinsurance;
            if s == Service::InpatientFacility && !share.per_day {
                // A copay per stay, spread over the days of a stay.
                copay = if units > 0.0 {
                    share.copay * admissions / units
                } else {
                    0.0
                };
            }
            if s == Service::SpecialtyDrugs
                && unit_cost > 0.0
                && let Some(cap) = terms.specialty_max_per_script
            {
                coinsurance = coinsurance.min(cap / unit_cost);
            }
            let mut rate = if unit_cost > 0.0 {
                (copay + coinsurance * unit_cost) / unit_cost
            } else {
                0.0
            };
            if s == Service::InpatientFacility
                && share.per_day
                && let Some(days) = share.max_days
                && days < units
                && cost > 0.0
            {
                rate -= (units - days) * share.copay / (unit_cost * units);
            }
            let rate = rate.min(1.0);
            if s != Service::Other {
                weighted += rate * cost;
                weight += cost;
            }
            cells[i][s as usize] = Cell {
                cost,
                rate,
                ..Cell::default()
            };
        }
    }
    // "Other" services are shared at the household's average rate of the rest (the workbook's
    // own case needs the household's, not each member's).
    let average = if weight > 0.0 { weighted / weight } else { 0.0 };
    for row in &mut cells {
        row[Service::Other as usize].rate = average;
    }
    for row in &mut cells {
        for s in Service::ALL {
            let share = &terms.services[s as usize];
            let c = &mut row[s as usize];
            c.deductible_share = if share.copay_before_deductible {
                1.0 - c.rate
            } else {
                1.0
            };
        }
    }

    let mut groups = groups(terms, n);
    let mut level = 0.0_f64;
    let mut iterations = 0u32;
    loop {
        if iterations > 0 {
            let target = groups
                .iter()
                .map(|g| g.next)
                .filter(|&next| round_to(next, 8) > round_to(level, 8))
                .fold(1.0_f64, f64::min);
            level = target.min(1.0);
            for (i, row) in cells.iter_mut().enumerate() {
                for s in Service::ALL {
                    let phase = phase_of(&groups, terms, i, s);
                    let c = &mut row[s as usize];
                    let delta = level * c.cost - c.spent;
                    c.spent += delta;
                    match phase {
                        Phase::Deductible => {
                            c.deductible += c.deductible_share * delta;
                            c.cost_sharing += (1.0 - c.deductible_share) * delta;
                        }
                        Phase::CostSharing => c.cost_sharing += c.rate * delta,
                        Phase::Maximum => c.plan_after_maximum += delta,
                    }
                }
            }
            for g in &mut groups {
                let mut paid = 0.0;
                for (i, row) in cells.iter().enumerate() {
                    for s in Service::ALL {
                        if counts_toward(g, i, s, &terms.services[s as usize]) {
                            let c = &row[s as usize];
                            paid += match g.kind {
                                GroupKind::Deductible => c.deductible,
                                GroupKind::Maximum => c.deductible + c.cost_sharing,
                            };
                        }
                    }
                }
                g.remaining = round_to(g.amount - paid, 4);
            }
        }
        if level >= 1.0 {
            break;
        }
        for g in &mut groups {
            g.phase_code = match g.kind {
                GroupKind::Maximum if g.remaining <= 0.0 => 3,
                GroupKind::Deductible if g.remaining > 0.0 => 1,
                GroupKind::Maximum => 0,
                GroupKind::Deductible => 2,
            };
        }
        let mut nexts = Vec::with_capacity(groups.len());
        for g in &groups {
            let (mut deductible_rate, mut sharing_rate) = (0.0, 0.0);
            for (i, row) in cells.iter().enumerate() {
                for s in Service::ALL {
                    if !counts_toward(g, i, s, &terms.services[s as usize]) {
                        continue;
                    }
                    let c = &row[s as usize];
                    match phase_of(&groups, terms, i, s) {
                        Phase::Deductible => {
                            deductible_rate += c.cost * c.deductible_share;
                            sharing_rate += c.cost * (1.0 - c.deductible_share);
                        }
                        Phase::CostSharing => sharing_rate += c.cost * c.rate,
                        Phase::Maximum => {}
                    }
                }
            }
            let by_deductible = if deductible_rate > 0.0 && g.remaining > 0.0 && g.phase_code == 1 {
                level + g.remaining / deductible_rate
            } else {
                1.0
            };
            let both = sharing_rate + deductible_rate;
            let by_maximum = if deductible_rate >= 0.0
                && sharing_rate >= 0.0
                && both > 0.0
                && g.remaining > 0.0
                && matches!(g.phase_code, 0 | 2)
            {
                level + g.remaining / both
            } else {
                1.0
            };
            nexts.push(by_deductible.min(by_maximum));
        }
        for (g, next) in groups.iter_mut().zip(nexts) {
            g.next = next;
        }
        iterations += 1;
        if iterations > 100 {
            return None;
        }
    }

    let mut out = Outcome {
        iterations,
        members: vec![0.0; n],
        ..Outcome::default()
    };
    for (i, row) in cells.iter().enumerate() {
        for s in Service::ALL {
            let c = &row[s as usize];
            out.total_cost += c.cost;
            out.deductible += c.deductible;
            out.cost_sharing += c.cost_sharing;
            out.plan_after_maximum += c.plan_after_maximum;
            out.members[i] += c.deductible + c.cost_sharing;
            if s.is_drug() {
                out.drugs_out_of_pocket += c.deductible + c.cost_sharing;
            }
        }
    }
    out.total_cost += free_care;
    Some(out)
}

/// A member's service's phase: the furthest any of its deductibles and maximums has reached (a
/// reached maximum before all; a met deductible of the member's before the family's unmet one).
fn phase_of(groups: &[Group], terms: &PlanTerms<'_>, member: usize, s: Service) -> Phase {
    let share = &terms.services[s as usize];
    let code = groups
        .iter()
        .filter(|g| counts_toward(g, member, s, share))
        .map(|g| g.phase_code)
        .max()
        .unwrap_or(0);
    match code {
        1 => Phase::Deductible,
        3 => Phase::Maximum,
        _ => Phase::CostSharing,
    }
}
