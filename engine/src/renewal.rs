//! A customer's renewal into the next plan year, worked out by the rules: for each plan the
//! application holds, where the crosswalk renews it in the household's county, that successor
//! re-rated for each member at their age on the new plan year's first day, without the members
//! who age off (`rules/renewals.yaml`: a dependent reaching 26 leaves a medical plan, …), and the
//! closest alternatives: the same carrier and metal first, then the same network type, then the
//! lowest premium. Each side says its monthly premium, deductible and out-of-pocket maximum.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::{Date, Month};

use crate::catalog::{Plan, PlanKind, Successor};
use crate::money::Money;
use crate::rating::{self, Household, Rates, Role};
use crate::{Context, Engine, QuoteFailure, dates};

/// `rules/renewals.yaml`: who leaves a kind of coverage at renewal, and how many alternatives a
/// renewal shows.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenewalRules {
    #[serde(default)]
    pub age_offs: Vec<AgeOff>,
    /// How many other plans a renewal shows beside its successor (or instead of it).
    #[serde(default = "two")]
    pub alternatives: usize,
    /// A renewal into the same plan whose monthly premium changes by this many percent or more
    /// (up or down) is worth the agent's call: `premium_change`, not `same_plan`.
    #[serde(default = "five")]
    pub notable_change_percent: u32,
    /// The answers a re-enrollment from a renewal gives a step over last year's (step id ->
    /// answers): the new plan year's open enrollment.
    #[serde(default)]
    pub reenroll_with: serde_json::Map<String, Value>,
}

fn two() -> usize {
    2
}

fn five() -> u32 {
    5
}

impl Default for RenewalRules {
    fn default() -> Self {
        RenewalRules {
            age_offs: Vec::new(),
            alternatives: two(),
            notable_change_percent: five(),
            reenroll_with: serde_json::Map::new(),
        }
    }
}

/// Where a customer's renewal stands, the riskiest first (the worklist's order): a carrier that
/// leaves (or a successor of another carrier), a plan without a successor, a successor that is
/// another plan, a member who ages off, a premium that changes by the notable percentage or
/// more, and the same plan at about the same premium.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum RenewalStatus {
    CarrierChange,
    NoSuccessor,
    PlanChange,
    MemberAgingOff,
    PremiumChange,
    SamePlan,
}

impl RenewalStatus {
    pub const ALL: [RenewalStatus; 6] = [
        RenewalStatus::CarrierChange,
        RenewalStatus::NoSuccessor,
        RenewalStatus::PlanChange,
        RenewalStatus::MemberAgingOff,
        RenewalStatus::PremiumChange,
        RenewalStatus::SamePlan,
    ];

    /// The status's name as stored and sent (`carrier_change`).
    pub fn key(self) -> &'static str {
        match self {
            RenewalStatus::CarrierChange => "carrier_change",
            RenewalStatus::NoSuccessor => "no_successor",
            RenewalStatus::PlanChange => "plan_change",
            RenewalStatus::MemberAgingOff => "member_aging_off",
            RenewalStatus::PremiumChange => "premium_change",
            RenewalStatus::SamePlan => "same_plan",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.key() == key)
    }

    /// 1 for the riskiest status, 6 for the least: its place in [`Self::ALL`].
    pub fn risk(self) -> i16 {
        (1..)
            .zip(Self::ALL)
            .find(|(_, s)| *s == self)
            .map_or(0, |(n, _)| n)
    }
}

/// Members of `role` who are `age` or older on the new plan year's first day leave `kind`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AgeOff {
    pub kind: PlanKind,
    pub role: Role,
    pub age: i64,
    /// Why, as the agent and the customer read it ("turns 26: …").
    pub says: String,
}

/// One side of a renewal: a plan and what it costs the household.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Terms {
    pub plan_id: i64,
    pub name: String,
    pub carrier: u8,
    pub network: Option<u8>,
    pub metal: Option<u8>,
    /// The monthly premium and each member's part.
    pub rates: Rates,
    /// The in-network deductible for the household's size (individual or family).
    pub deductible: Option<Money>,
    pub out_of_pocket_max: Option<Money>,
}

/// A member who leaves a plan at renewal.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct AgingOff {
    /// "Dependent 2".
    pub member: String,
    /// Their age on the new plan year's first day.
    pub age: i64,
    pub says: String,
}

/// How one plan of the application renews.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlanRenewal {
    pub kind: PlanKind,
    /// This year's plan, at this year's ages.
    pub current: Terms,
    /// The crosswalk's successor, re-rated (none when the plan is discontinued, or nobody is
    /// left on it).
    pub renewal: Option<Terms>,
    /// The crosswalk's reason, when it gives one.
    pub reason: Option<String>,
    pub discontinued: bool,
    pub alternatives: Vec<Terms>,
    pub aging_off: Vec<AgingOff>,
    /// The carrier sells no plan of this kind in the household's county next year (it leaves:
    /// the customer changes carrier).
    pub carrier_leaves: bool,
}

impl PlanRenewal {
    /// What the household pays next year for this plan's place: the successor's premium, else
    /// the closest alternative's (nothing when nobody stays on it).
    pub fn next_premium(&self) -> Money {
        self.renewal
            .as_ref()
            .or(self.alternatives.first())
            .map_or(Money::ZERO, |t| t.rates.total)
    }

    /// The status of this plan's renewal alone.
    fn status(&self, notable_percent: u32) -> RenewalStatus {
        let Some(next) = &self.renewal else {
            if self.carrier_leaves {
                return RenewalStatus::CarrierChange;
            }
            if self.aging_off.is_empty() || !self.alternatives.is_empty() {
                return RenewalStatus::NoSuccessor;
            }
            // Nobody stays on the plan: every member ages off it.
            return RenewalStatus::MemberAgingOff;
        };
        let was = &self.current;
        if next.carrier != was.carrier {
            RenewalStatus::CarrierChange
        } else if next.name != was.name || next.metal != was.metal || next.network != was.network {
            RenewalStatus::PlanChange
        } else if !self.aging_off.is_empty() {
            RenewalStatus::MemberAgingOff
        } else if percent_change(was.rates.total, next.rates.total).abs()
            >= f64::from(notable_percent)
        {
            RenewalStatus::PremiumChange
        } else {
            RenewalStatus::SamePlan
        }
    }
    /// The change of the monthly premium, when the plan renews.
    pub fn change(&self) -> Option<Money> {
        let new = self.renewal.as_ref()?.rates.total;
        Some(Money::from_cents(
            new.cents() - self.current.rates.total.cents(),
        ))
    }
}

/// An application's renewal into the next plan year.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Renewal {
    pub plan_year: i32,
    /// The new plan year's first day, on which ages are counted.
    pub effective_date: Date,
    pub plans: Vec<PlanRenewal>,
}

impl Renewal {
    /// This year's monthly premium, all plans together.
    pub fn current_premium(&self) -> Money {
        Money::from_cents(
            self.plans
                .iter()
                .map(|p| p.current.rates.total.cents())
                .sum(),
        )
    }

    /// Next year's monthly premium, all plans together (a plan without a successor counts its
    /// closest alternative).
    pub fn next_premium(&self) -> Money {
        Money::from_cents(self.plans.iter().map(|p| p.next_premium().cents()).sum())
    }

    /// The change of the monthly premium, in percent of this year's (0 when this year's is 0).
    pub fn change_percent(&self) -> f64 {
        percent_change(self.current_premium(), self.next_premium())
    }

    /// The customer's status: the riskiest of their plans'.
    pub fn status(&self, rules: &RenewalRules) -> RenewalStatus {
        let worst = self
            .plans
            .iter()
            .map(|p| p.status(rules.notable_change_percent))
            .min()
            .unwrap_or(RenewalStatus::SamePlan);
        // One plan the same, another's premium up by a notable share of the whole.
        if worst == RenewalStatus::SamePlan
            && self.change_percent().abs() >= f64::from(rules.notable_change_percent)
        {
            return RenewalStatus::PremiumChange;
        }
        worst
    }
}

/// `was` to `now` in percent of `was` (0 when `was` is 0).
fn percent_change(was: Money, now: Money) -> f64 {
    if was.cents() == 0 {
        return 0.0;
    }
    (now.cents() - was.cents()) as f64 * 100.0 / was.cents() as f64
}

/// "Subscriber", "Spouse", "Dependent 2", for the household's members in order.
fn member_names(h: &Household) -> Vec<String> {
    let mut dependents = 0;
    h.members
        .iter()
        .map(|m| match m.role {
            Role::Subscriber => "Subscriber".to_string(),
            Role::Spouse => "Spouse".to_string(),
            Role::Dependent => {
                dependents += 1;
                format!("Dependent {dependents}")
            }
        })
        .collect()
}

impl Engine {
    /// The rules of renewals (`rules/renewals.yaml`; none: nobody ages off, two alternatives).
    pub fn renewal_rules(&self) -> &RenewalRules {
        &self.renewals
    }

    /// The application's renewal into the plan year after its effective date's (see the
    /// module's comment); None when that year has no crosswalk or the application holds no plan.
    pub fn renew(&self, app: &Value, ctx: &Context) -> Result<Option<Renewal>, QuoteFailure> {
        let h = self.household(app, ctx)?.ok_or(QuoteFailure::NoHousehold)?;
        let plan_year = h.effective_date.year() + 1;
        if self.catalog.crosswalk(plan_year).is_none() {
            return Ok(None);
        }
        let area = self
            .catalog
            .rating_area(h.county)
            .ok_or(rating::QuoteError::UnknownCounty(h.county))?;
        let effective_date = Date::from_calendar_date(plan_year, Month::January, 1)
            .map_err(|_| rating::QuoteError::NoPlanYear(plan_year))?;
        let names = member_names(&h);
        let carriers = self.catalog.offered_carriers(&ctx.agent.offers);
        let mut plans = Vec::new();
        for kind in PlanKind::ALL {
            let id = app
                .get(format!("{}_plan", kind.key()))
                .and_then(|p| p.get("id"))
                .and_then(Value::as_i64);
            let Some(plan) = id.and_then(|id| self.catalog.plan(id)) else {
                continue;
            };
            // Who stays on the plan, and who leaves it.
            let mut next = h.clone();
            next.effective_date = effective_date;
            let mut aging_off = Vec::new();
            let mut stays = Vec::new();
            for (m, name) in h.members.iter().zip(&names) {
                let age = dates::age_at(m.birth_date, effective_date);
                let off = self
                    .renewals
                    .age_offs
                    .iter()
                    .find(|a| a.kind == kind && a.role == m.role && age >= a.age);
                match off {
                    Some(a) => aging_off.push(AgingOff {
                        member: name.clone(),
                        age,
                        says: a.says.clone(),
                    }),
                    None => stays.push(m.clone()),
                }
            }
            next.members = stays;
            let current = self.terms(plan, area, &h)?;
            let mapping = self.catalog.renewal_of(plan, h.county);
            if let (Some(p), Some(r)) = (&self.probe, mapping) {
                p.renewed(plan_year, r.line);
            }
            let successor = mapping.and_then(|r| match r.successor {
                Successor::Plan(id) => self.catalog.plan(id),
                Successor::Discontinued => None,
            });
            let renewal = match successor {
                Some(s) if !next.members.is_empty() => Some(self.terms(s, area, &next)?),
                _ => None,
            };
            let (alternatives, carrier_leaves) = if next.members.is_empty() {
                (Vec::new(), false)
            } else {
                self.alternatives(plan, successor, &next, &carriers)?
            };
            plans.push(PlanRenewal {
                kind,
                current,
                renewal,
                reason: mapping.and_then(|r| r.reason.clone()),
                discontinued: successor.is_none(),
                alternatives,
                aging_off,
                carrier_leaves,
            });
        }
        if plans.is_empty() {
            return Ok(None);
        }
        Ok(Some(Renewal {
            plan_year,
            effective_date,
            plans,
        }))
    }

    /// A plan's terms for a household.
    fn terms(&self, plan: &Plan, area: u8, h: &Household) -> Result<Terms, QuoteFailure> {
        let rates = rating::rate_plan(&self.catalog, plan, area, h)?;
        Ok(terms_of(plan, rates, h.members.len()))
    }

    /// The plans of the new year closest to `current`, other than its successor: the same
    /// carrier and metal first, then the same network type, then the lowest premium; and whether
    /// `current`'s carrier sells none of the kind to the household next year.
    fn alternatives(
        &self,
        current: &Plan,
        successor: Option<&Plan>,
        next: &Household,
        carriers: &[u8],
    ) -> Result<(Vec<Terms>, bool), QuoteFailure> {
        let mut quoted = rating::quote(&self.catalog, current.kind, next, carriers)?;
        let carrier_leaves = !quoted.iter().any(|(p, _)| p.carrier == current.carrier);
        quoted.retain(|(p, _)| successor.is_none_or(|s| s.id != p.id));
        // Cheapest first already: a stable sort by closeness keeps that order within each.
        quoted.sort_by_key(|(p, _)| {
            if p.carrier == current.carrier && p.metal == current.metal {
                0
            } else if p.network == current.network {
                1
            } else {
                2
            }
        });
        let size = next.members.len();
        let alternatives = quoted
            .into_iter()
            .take(self.renewals.alternatives)
            .map(|(p, rates)| terms_of(p, rates, size))
            .collect();
        Ok((alternatives, carrier_leaves))
    }
}

/// A plan's terms for a household of `size` rated at `rates`.
fn terms_of(plan: &Plan, rates: Rates, size: usize) -> Terms {
    Terms {
        plan_id: plan.id,
        name: plan.name.clone(),
        carrier: plan.carrier,
        network: plan.network,
        metal: plan.metal,
        rates,
        deductible: if size <= 1 {
            plan.ded_ind
        } else {
            plan.ded_fam
        },
        out_of_pocket_max: rating::oop_for(plan, size),
    }
}
