//! Age-rated premiums: each member's rate by age at the effective date and tobacco use, the family
//! rule (subscriber, spouse, every child of the child age or older, and only the oldest children
//! under it up to a number are charged: three under 21 by `rules/catalog/rating.yaml`, a carrier
//! may have its own), the household total, and a breakdown that says why each amount is what it is.
//!
//! Arithmetic is in cents: a member's rate = the plan's age-21 rate in the county's rating area ×
//! the age factor × the tobacco factor (tobacco users of the rule's tobacco age and over), rounded
//! half up to the cent once.
//!
//! Also the quote itself (the plans of a kind for a household, in `Money`), the filter tokens and
//! the price bounds. Which household is rated and what a selection sets are flow rules
//! (`household`, `select`); which carriers an agent offers is catalog data (`agent_flag`).

use serde::{Deserialize, Serialize};
use time::Date;

use crate::catalog::{Catalog, Plan, PlanKind, RatingRule};
use crate::dates;
use crate::money::Money;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Subscriber,
    Spouse,
    Dependent,
}

#[derive(Debug, Clone)]
pub struct Member {
    pub role: Role,
    pub birth_date: Date,
    pub tobacco: bool,
}

#[derive(Debug, Clone)]
pub struct Household {
    pub members: Vec<Member>,
    pub county: u16,
    pub effective_date: Date,
}

/// One member's part of a plan's premium. The words of the breakdown (`member`, `why`) are made
/// only when it is serialized, so quoting many plans stays cheap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRate {
    pub role: Role,
    /// The dependent's number (1, 2, …); 0 for the subscriber and the spouse.
    pub number: u16,
    pub age: i64,
    /// The plan's age-21 rate in the rating area.
    pub base: Money,
    /// Thousandths.
    pub age_factor: i64,
    /// Thousandths; 1000 when no tobacco surcharge applies.
    pub tobacco_factor: i64,
    /// The member's rate before the family rule.
    pub rate: Money,
    pub charged: bool,
    pub effective_date: Date,
    /// The family rule the member was rated by (the breakdown says it when not charged).
    pub rule: RatingRule,
}

impl MemberRate {
    /// "Subscriber", "Spouse", "Dependent 2".
    pub fn member(&self) -> String {
        match self.role {
            Role::Subscriber => "Subscriber".into(),
            Role::Spouse => "Spouse".into(),
            Role::Dependent => format!("Dependent {}", self.number),
        }
    }

    /// What this member adds to the total (0 when not charged).
    pub fn amount(&self) -> Money {
        if self.charged { self.rate } else { Money::ZERO }
    }

    /// Why the amount is what it is.
    pub fn why(&self) -> String {
        self.why_in(&|t| t.to_string())
    }

    /// Why the amount is what it is, each text through `text` (the catalogs of a language: the
    /// templates [`WHY_TEXTS`] and the member's name).
    pub fn why_in(&self, text: &dyn Fn(&str) -> String) -> String {
        let mut why = text(WHY_RATE)
            .replace("{member}", &text(&self.member()))
            .replace("{base}", &self.base.to_string())
            .replace("{factor}", &factor_text(self.age_factor))
            .replace("{age}", &self.age.to_string())
            .replace("{date}", &dates::format(self.effective_date));
        if self.tobacco_factor != 1000 {
            why.push(' ');
            why.push_str(&text(WHY_TOBACCO).replace("{factor}", &factor_text(self.tobacco_factor)));
        }
        why.push_str(&format!(" = {}", self.rate));
        if self.charged {
            why
        } else {
            text(WHY_NOT_CHARGED)
                .replace("{rule}", &self.rule.family_rule_in(text))
                .replace("{why}", &why)
        }
    }
}

const WHY_RATE: &str = "{member} age-21 rate {base} × {factor} (age {age} on {date})";
const WHY_TOBACCO: &str = "× {factor} tobacco";
const WHY_NOT_CHARGED: &str = "not charged: {rule} ({why})";
/// The texts of a member's explanation ([`MemberRate::why_in`]), for the catalogs.
pub const WHY_TEXTS: [&str; 3] = [WHY_RATE, WHY_TOBACCO, WHY_NOT_CHARGED];

impl Serialize for MemberRate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("MemberRate", 6)?;
        st.serialize_field("member", &self.member())?;
        st.serialize_field("age", &self.age)?;
        st.serialize_field("amount", &self.amount())?;
        st.serialize_field("rate", &self.rate)?;
        st.serialize_field("charged", &self.charged)?;
        st.serialize_field("why", &self.why())?;
        st.end()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rates {
    pub total: Money,
    pub members: Vec<MemberRate>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuoteError {
    #[error("no plans are offered for coverage starting in {0}")]
    NoPlanYear(i32),
    #[error("county `{0}` is not a Michigan county")]
    UnknownCounty(u16),
    #[error("the household has no subscriber")]
    NoSubscriber,
}

fn factor_text(milli: i64) -> String {
    let s = format!("{}.{:03}", milli / 1000, milli % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The household facts every plan shares: each member's age at the effective date, dependent
/// number, and whether the family rule charges them.
struct Prepared {
    people: Vec<(Role, u16, i64, bool, bool)>, // role, dependent number, age, charged, smoker
    rule: RatingRule,
}

fn prepare(h: &Household, rule: RatingRule) -> Result<Prepared, QuoteError> {
    if !h.members.iter().any(|m| m.role == Role::Subscriber) {
        return Err(QuoteError::NoSubscriber);
    }
    let ages: Vec<i64> = h
        .members
        .iter()
        .map(|m| dates::age_at(m.birth_date, h.effective_date))
        .collect();
    // Children under the child age, oldest first (earlier birth date; the list order breaks ties).
    let mut young: Vec<usize> = (0..h.members.len())
        .filter(|&i| h.members[i].role == Role::Dependent && ages[i] < rule.child_age)
        .collect();
    young.sort_by_key(|&i| (h.members[i].birth_date, i));
    let uncharged: Vec<usize> = young.iter().skip(rule.children_charged).copied().collect();
    let mut number = 0u16;
    let people = h
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let n = if m.role == Role::Dependent {
                number += 1;
                number
            } else {
                0
            };
            (
                m.role,
                n,
                ages[i],
                !uncharged.contains(&i),
                m.tobacco && ages[i] >= rule.tobacco_age,
            )
        })
        .collect();
    Ok(Prepared { people, rule })
}

fn rate_prepared(
    cat: &Catalog,
    plan: &Plan,
    area: u8,
    p: &Prepared,
    effective_date: Date,
) -> Rates {
    let base = plan.rates.get(&area).copied().unwrap_or_default();
    let curve = cat.curves.get(&plan.age_curve);
    let mut total = Money::ZERO;
    let members = p
        .people
        .iter()
        .map(|&(role, number, age, charged, smoker)| {
            let age_factor = curve.and_then(|c| c.factor(age)).unwrap_or(1000);
            let tobacco_factor = if smoker { plan.tobacco_factor } else { 1000 };
            let rate = base.scale(age_factor, tobacco_factor);
            if charged {
                total += rate;
            }
            MemberRate {
                role,
                number,
                age,
                base,
                age_factor,
                tobacco_factor,
                rate,
                charged,
                effective_date,
                rule: p.rule,
            }
        })
        .collect();
    Rates { total, members }
}

/// A plan's rates for a household in a rating area.
pub fn rate_plan(cat: &Catalog, plan: &Plan, area: u8, h: &Household) -> Result<Rates, QuoteError> {
    Ok(rate_prepared(
        cat,
        plan,
        area,
        &prepare(h, cat.rating_rule(plan.carrier))?,
        h.effective_date,
    ))
}

/// Every plan of a kind sold in the household's county for the effective date's plan year, offered
/// by one of `carriers`, rated; cheapest first (then by id).
pub fn quote<'c>(
    cat: &'c Catalog,
    kind: PlanKind,
    h: &Household,
    carriers: &[u8],
) -> Result<Vec<(&'c Plan, Rates)>, QuoteError> {
    let year = h.effective_date.year();
    if !cat.plans.contains_key(&year) {
        return Err(QuoteError::NoPlanYear(year));
    }
    let area = cat
        .rating_area(h.county)
        .ok_or(QuoteError::UnknownCounty(h.county))?;
    // The household prepared once per family rule (the catalog's, and a carrier's own).
    let mut prepared: Vec<Prepared> = vec![prepare(h, cat.rating)?];
    let oldest = prepared[0].people.iter().map(|p| p.2).max().unwrap_or(0);
    let mut out = Vec::new();
    for p in cat.plans(year, kind) {
        let ages_allowed = cat.max_age(p).is_none_or(|max| oldest <= max);
        if carriers.contains(&p.carrier) && p.sold_in(h.county) && ages_allowed {
            let rule = cat.rating_rule(p.carrier);
            let i = match prepared.iter().position(|x| x.rule == rule) {
                Some(i) => i,
                None => {
                    prepared.push(prepare(h, rule)?);
                    prepared.len() - 1
                }
            };
            out.push((
                p,
                rate_prepared(cat, p, area, &prepared[i], h.effective_date),
            ));
        }
    }
    out.sort_by_key(|(p, r)| (r.total, p.id));
    Ok(out)
}

/// The filter tokens of the plan pages and PDF sheets (spec part 1, 7): `car_{id}`, `net_{id}`,
/// `m_{id}`, `hsa`, `plan_{id}`, `minPrice:{n}`, `maxPrice:{n}`, `dental_only`, `dental_and_vision`.
/// Options of one group widen (or); groups narrow (and).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub carriers: Vec<u8>,
    pub networks: Vec<u8>,
    pub metals: Vec<u8>,
    pub hsa: bool,
    pub plans: Vec<i64>,
    pub min_price: Option<Money>,
    pub max_price: Option<Money>,
    pub dental_only: bool,
    pub dental_and_vision: bool,
}

impl Filter {
    /// Parses tokens separated by commas, slashes or spaces; unknown tokens are errors.
    pub fn parse(s: &str) -> Result<Self, String> {
        let mut f = Filter::default();
        for t in s.split([',', '/', ' ', '&']).filter(|t| !t.is_empty()) {
            let num = |p: &str| -> Result<i64, String> {
                t[p.len()..]
                    .parse::<i64>()
                    .map_err(|_| format!("`{t}` is not a filter"))
            };
            let small = |p: &str| -> Result<u8, String> {
                u8::try_from(num(p)?).map_err(|_| format!("`{t}` is not a filter"))
            };
            let price = |p: &str| -> Result<Money, String> {
                t[p.len()..]
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .map(Money::from_dollars)
                    .ok_or_else(|| format!("`{t}` is not a filter"))
            };
            match t {
                "hsa" => f.hsa = true,
                "dental_only" => f.dental_only = true,
                "dental_and_vision" => f.dental_and_vision = true,
                _ if t.starts_with("car_") => f.carriers.push(small("car_")?),
                _ if t.starts_with("net_") => f.networks.push(small("net_")?),
                _ if t.starts_with("m_") => f.metals.push(small("m_")?),
                _ if t.starts_with("plan_") => f.plans.push(num("plan_")?),
                _ if t.starts_with("minPrice:") => f.min_price = Some(price("minPrice:")?),
                _ if t.starts_with("maxPrice:") => f.max_price = Some(price("maxPrice:")?),
                _ => return Err(format!("`{t}` is not a filter")),
            }
        }
        Ok(f)
    }

    pub fn accepts(&self, p: &Plan, total: Money) -> bool {
        let any =
            |list: &[u8], v: Option<u8>| list.is_empty() || v.is_some_and(|v| list.contains(&v));
        let dental_kind = match (self.dental_only, self.dental_and_vision) {
            (true, false) => !p.includes_vision,
            (false, true) => p.includes_vision,
            _ => true,
        };
        any(&self.carriers, Some(p.carrier))
            && any(&self.networks, p.network)
            && any(&self.metals, p.metal)
            && (!self.hsa || p.hsa)
            && (self.plans.is_empty() || self.plans.contains(&p.id))
            && self.min_price.is_none_or(|m| total >= m)
            && self.max_price.is_none_or(|m| total <= m)
            && dental_kind
    }
}

/// The price slider's range: the lowest and highest totals, each rounded up to the step.
pub fn price_bounds(
    totals: impl IntoIterator<Item = Money>,
    step_dollars: i64,
) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (None::<Money>, None::<Money>);
    for t in totals {
        lo = Some(lo.map_or(t, |l| l.min(t)));
        hi = Some(hi.map_or(t, |h| h.max(t)));
    }
    Some((
        lo?.ceil_to_dollars(step_dollars),
        hi?.ceil_to_dollars(step_dollars),
    ))
}

/// The out-of-pocket maximum shown for a household size: 1 individual, 2 two-person, more family.
pub fn oop_for(plan: &Plan, household_size: usize) -> Option<Money> {
    match household_size {
        0 | 1 => plan.max_ind_oop,
        2 => plan.max_2p_oop,
        _ => plan.max_fam_oop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_read_without_trailing_zeros() {
        assert_eq!(factor_text(1278), "1.278");
        assert_eq!(factor_text(1500), "1.5");
        assert_eq!(factor_text(1000), "1");
    }

    #[test]
    fn price_bounds_round_up_to_the_step() {
        assert_eq!(
            price_bounds([31234, 129901, 45000].map(Money::from_cents), 10),
            Some((320, 1300))
        );
        assert_eq!(price_bounds([Money::from_cents(2501)], 5), Some((30, 30)));
        assert_eq!(price_bounds([Money::from_cents(1000)], 1), Some((10, 10)));
        assert_eq!(price_bounds([], 10), None);
    }

    #[test]
    fn filter_tokens_parse_and_bad_ones_are_refused() {
        let f = Filter::parse("car_1,car_3,net_2,m_4,hsa,plan_520,minPrice:100,maxPrice:450.5")
            .expect("parses");
        assert_eq!(f.carriers, vec![1, 3]);
        assert_eq!(f.networks, vec![2]);
        assert_eq!(f.metals, vec![4]);
        assert!(f.hsa);
        assert_eq!(f.plans, vec![520]);
        assert_eq!(f.min_price, Some(Money::from_cents(10000)));
        assert_eq!(f.max_price, Some(Money::from_cents(45050)));
        assert!(Filter::parse("car_x").is_err());
        assert!(Filter::parse("drop table").is_err());
        assert_eq!(Filter::parse("").expect("empty"), Filter::default());
    }
}
