//! The application builder: one made-up application (a person, a household, a reason, plans
//! from the real catalog, a step reached, and for a submission every answer the wizard asks) as
//! the row the dashboard reads.

use enrollflow_engine::calendar::PlanYear;
use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::dates;
use enrollflow_engine::money::Money;
use enrollflow_engine::rating::{self, Household, Member, Role};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Map, Value, json};
use time::{Date, Duration, OffsetDateTime, Time};
use uuid::Uuid;

use super::DEMO_KEY;
use super::names::{AREA_CODES, DOMAINS, FEMALE, LAST, MALE, Place, STREETS, SUFFIXES, UNITS};
use crate::db::demo_data::DemoAgent;
use crate::quoting::PlanSnapshot;

/// One application row, ready to insert.
pub(super) struct Row {
    pub(super) id: Uuid,
    pub(super) agent_id: Uuid,
    pub(super) last_step: i16,
    pub(super) effective_date: Option<Date>,
    pub(super) enrollment_period_type_id: Option<i16>,
    pub(super) medical_carrier_id: Option<i16>,
    pub(super) dental_carrier_id: Option<i16>,
    pub(super) vision_carrier_id: Option<i16>,
    pub(super) medical_network_type_id: Option<i16>,
    pub(super) skip_medical: bool,
    pub(super) skip_dental: bool,
    pub(super) skip_vision: bool,
    pub(super) skip_pcp: bool,
    pub(super) submission_time: Option<OffsetDateTime>,
    pub(super) created_at: OffsetDateTime,
    pub(super) updated_at: OffsetDateTime,
    pub(super) data: Value,
    pub(super) agent_started: bool,
    pub(super) started_by_user_id: Option<Uuid>,
    pub(super) subdomain: Option<String>,
}

struct Person {
    first: &'static str,
    gender: &'static str,
    birth: Date,
    tobacco: bool,
}

pub(super) struct Generator<'a> {
    pub(super) rng: StdRng,
    pub(super) cat: &'a Catalog,
    pub(super) years: &'a [PlanYear],
    pub(super) places: &'a [Place],
    pub(super) today: Date,
    pub(super) agent: &'a DemoAgent,
    pub(super) submitted_share: f64,
    /// The agent's site offers adult-only dental and vision (rules/scripts/enrollment.rhai
    /// `enrollment_types`; the demo data's copy of that rule until it drives the engine's steps).
    pub(super) adult_dental_and_vision: bool,
}

/// A date as the answers hold it (`2025-01-01`).
fn text(d: Date) -> String {
    d.to_string()
}

impl<'a> Generator<'a> {
    fn pick<T: Copy>(&mut self, list: &[T]) -> T {
        list[self.rng.random_range(0..list.len())]
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p.clamp(0.0, 1.0))
    }

    /// A day in the 364 days before today, open enrollment weeks three times as likely.
    fn day(&mut self) -> Date {
        loop {
            let d = self.today - Duration::days(self.rng.random_range(1..=364));
            let in_oe = self
                .years
                .iter()
                .any(|y| d >= y.open_enrollment.start && d <= y.open_enrollment.end);
            if in_oe || self.chance(1.0 / 3.0) {
                return d;
            }
        }
    }

    fn person(
        &mut self,
        on: Date,
        ages: std::ops::RangeInclusive<i64>,
        gender: Option<&'static str>,
    ) -> Person {
        let gender = gender.unwrap_or_else(|| if self.chance(0.5) { "F" } else { "M" });
        let first = if gender == "F" {
            self.pick(FEMALE)
        } else {
            self.pick(MALE)
        };
        let age = self.rng.random_range(ages);
        let birth = on - Duration::days(age * 365 + age / 4 + self.rng.random_range(0..365));
        Person {
            first,
            gender,
            birth,
            tobacco: age >= 18 && self.chance(0.1),
        }
    }

    fn phone(&mut self) -> String {
        let area = self.pick(AREA_CODES);
        format!("{area}5550{:03}", self.rng.random_range(100..200))
    }

    fn street(&mut self) -> String {
        let n = self.rng.random_range(100..9900);
        let name = self.pick(STREETS);
        let suffix = self.pick(SUFFIXES);
        format!("{n} {name} {suffix}")
    }

    /// The plans of a kind the agent offers in the place for the plan year, rated for the household.
    fn plan(
        &mut self,
        kind: PlanKind,
        year: i32,
        place: &Place,
        h: &Household,
        oldest: i64,
    ) -> Option<(&'a Plan, Money)> {
        let (cat, agent): (&'a Catalog, &'a DemoAgent) = (self.cat, self.agent);
        let carriers = cat.offered_carriers(&agent.offers);
        let offered = |p: &&Plan| {
            carriers.contains(&p.carrier)
                && p.sold_in(place.county)
                && cat.max_age(p).is_none_or(|m| oldest <= m)
        };
        let plans: Vec<&Plan> = cat.plans(year, kind).iter().filter(offered).collect();
        if plans.is_empty() {
            return None;
        }
        let p = plans[self.rng.random_range(0..plans.len())];
        let total = rating::rate_plan(cat, p, place.area, h).ok()?.total;
        Some((p, total))
    }

    /// The plan snapshot a selection stores (as `PUT /api/plans/{type}` builds it).
    fn snapshot(&self, p: &Plan, rate: Money) -> Value {
        PlanSnapshot::new(self.cat, p, rate).to_value()
    }

    pub(super) fn application(&mut self) -> Row {
        let agent = self.agent;
        let created_day = self.day();
        let created_at = created_day
            .with_time(
                Time::from_hms(
                    self.rng.random_range(8..21),
                    self.rng.random_range(0..60),
                    self.rng.random_range(0..60),
                )
                .unwrap_or(Time::MIDNIGHT),
            )
            .assume_utc();
        let submitted = self.chance(self.submitted_share);

        // Why Are You Applying: open enrollment while it is open, else a qualifying event;
        // dental- or vision-only now and then on the Blue carriers' agents' sites.
        let oe = self
            .years
            .iter()
            .find(|y| {
                created_day >= y.open_enrollment.start && created_day <= y.open_enrollment.end
            })
            .and_then(|y| {
                y.effective_dates
                    .iter()
                    .find(|b| created_day <= b.through)
                    .map(|b| b.effective)
            });
        let (years, cat) = (self.years, self.cat);
        let offered_year = |d: Date| {
            years.iter().any(|y| y.year == d.year())
                && !cat.plans(d.year(), PlanKind::Medical).is_empty()
        };
        let next_month = dates::first_of_next_month(created_day);
        let roll: f64 = self.rng.random();
        let (kind, effective) = match oe {
            Some(eff) if roll < 0.85 || !offered_year(next_month) => ("oe", eff),
            _ if self.adult_dental_and_vision && roll > 0.93 => ("dental", next_month),
            _ if self.adult_dental_and_vision && roll > 0.90 => ("vision", next_month),
            _ => ("qle", next_month),
        };
        let (kind, effective) = if offered_year(effective) {
            (kind, effective)
        } else {
            ("oe", oe.unwrap_or(effective))
        };
        let mut why = Map::new();
        why.insert("enrollment_type".into(), json!(kind));
        why.insert("agree_tc".into(), json!(true));
        let reason: i64 = match kind {
            "oe" => 1,
            "vision" => 20,
            "dental" => 21,
            _ => {
                let r = self.rng.random_range(2..=19);
                let event = created_day - Duration::days(self.rng.random_range(0..45));
                why.insert("enrollment_reason_id".into(), json!(r));
                why.insert("qle_event_date".into(), json!(text(event)));
                why.insert("start_date_option_id".into(), json!(2));
                if r == 19 {
                    why.insert(
                        "qle_other_details".into(),
                        json!("Moved back to Michigan after a job change."),
                    );
                }
                r
            }
        };
        if kind != "qle" {
            why.insert("enrollment_reason_id".into(), json!(reason));
        }

        // The household.
        let place = self.places[self.rng.random_range(0..self.places.len())].clone();
        let last = self.pick(LAST);
        let sub = self.person(created_day, 23..=63, None);
        let sub_age = dates::age_at(sub.birth, effective);
        let spouse = (sub_age >= 25 && self.chance(0.42)).then(|| {
            let g = if sub.gender == "F" { "M" } else { "F" };
            let lo = (sub_age - 6).max(21);
            self.person(created_day, lo..=(sub_age + 6).min(64), Some(g))
        });
        let n_deps = if sub_age >= 24 && self.chance(0.38) {
            self.rng.random_range(1..=4)
        } else {
            0
        };
        let deps: Vec<Person> = (0..n_deps)
            .map(|_| self.person(created_day, 0..=(sub_age - 19).clamp(0, 20), None))
            .collect();
        let tobacco = |t: bool| i64::from(t);
        let email = {
            let n: u32 = self.rng.random_range(1..1000);
            let local: String = format!("{}.{}", sub.first, last)
                .to_lowercase()
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let domain = self.pick(DOMAINS);
            if self.chance(0.5) {
                format!("{local}{n}@{domain}")
            } else {
                format!("{local}@{domain}")
            }
        };
        let mut census = json!({
            "sub_first_name": sub.first, "sub_last_name": last, "email": email,
            "sub_gender": sub.gender, "sub_birth_date": text(sub.birth), "sub_tobacco": tobacco(sub.tobacco),
            "residential_zip": place.zip, "residential_county_id": place.county,
            "medicare_eligible": 0, "wants_subsidy": 0,
        });
        if let Some(s) = &spouse {
            census["spouse"] = json!({"gender": s.gender, "birth_date": text(s.birth), "tobacco": tobacco(s.tobacco)});
        }
        if !deps.is_empty() {
            census["dependents"] = Value::Array(
                deps.iter()
                    .map(|d| json!({"gender": d.gender, "birth_date": text(d.birth), "tobacco": tobacco(d.tobacco)}))
                    .collect(),
            );
        }
        let mut members = vec![Member {
            role: Role::Subscriber,
            birth_date: sub.birth,
            tobacco: sub.tobacco,
        }];
        if let Some(s) = &spouse {
            members.push(Member {
                role: Role::Spouse,
                birth_date: s.birth,
                tobacco: s.tobacco,
            });
        }
        for d in &deps {
            members.push(Member {
                role: Role::Dependent,
                birth_date: d.birth,
                tobacco: d.tobacco,
            });
        }
        let oldest = members
            .iter()
            .map(|m| dates::age_at(m.birth_date, effective))
            .max()
            .unwrap_or(sub_age);
        let household = Household {
            members,
            county: place.county,
            effective_date: effective,
        };

        // Where the shopper is: submitted applications are at the last step; quotes anywhere
        // from About You (named by then) to Review and Purchase, most of them on the plan pages.
        let last_step: i16 = if submitted {
            10
        } else {
            let r: f64 = self.rng.random();
            match r {
                r if r < 0.22 => 2,
                r if r < 0.42 => 3,
                r if r < 0.52 => 4,
                r if r < 0.58 => 5,
                r if r < 0.74 => 6,
                r if r < 0.86 => 7,
                r if r < 0.94 => 8,
                r if r < 0.97 => 9,
                _ => 10,
            }
        };
        let mut data = Map::new();
        data.insert(DEMO_KEY.into(), json!(true));
        data.insert("whyApplying".into(), Value::Object(why));
        data.insert("enrollment_type".into(), json!(kind));
        data.insert("enrollment_reason_id".into(), json!(reason));
        let period: i16 = if kind == "oe" { 1 } else { 2 };
        data.insert("enrollment_period_type_id".into(), json!(period));
        data.insert("effective_date".into(), json!(text(effective)));
        if kind == "qle" {
            data.insert(
                "document_due_date".into(),
                json!(text(created_day + Duration::days(30))),
            );
        }
        let skip_medical = kind == "dental" || kind == "vision";
        let mut skip_dental = kind == "vision";
        let mut skip_vision = false;
        if last_step >= 2 {
            data.insert("census".into(), census);
        }

        // Plans: medical mostly, with dental and vision now and then (dental plans that include
        // vision make the vision page unnecessary).
        let year = effective.year();
        let (mut med, mut den, mut vis) = (None, None, None);
        if last_step > 3 && !skip_medical {
            med = self.plan(PlanKind::Medical, year, &place, &household, oldest);
        }
        let wants_dental = kind == "dental" || (!skip_dental && self.chance(0.4));
        if last_step > 4 && wants_dental {
            den = self.plan(PlanKind::Dental, year, &place, &household, oldest);
        }
        skip_dental = skip_dental || (last_step > 4 && den.is_none());
        if den.as_ref().is_some_and(|(p, _)| p.includes_vision) {
            skip_vision = true;
        }
        let wants_vision = kind == "vision" || self.chance(0.3);
        if last_step > 5 && !skip_vision && wants_vision {
            vis = self.plan(PlanKind::Vision, year, &place, &household, oldest);
        }
        skip_vision = skip_vision || (last_step > 5 && vis.is_none());
        // Without any plan (none offered: an agent without carriers), the shopper is still on
        // the first plan page.
        let last_step = if med.is_none() && den.is_none() && vis.is_none() && last_step > 3 {
            skip_dental = kind == "vision";
            skip_vision = false;
            3 + i16::from(skip_medical) + i16::from(skip_dental)
        } else {
            last_step
        };
        let submitted = submitted && last_step == 10;
        let mut network = None;
        if let Some((p, rate)) = med {
            data.insert("medical_plan".into(), self.snapshot(p, rate));
            data.insert("medical_carrier_id".into(), json!(p.carrier));
            data.insert("medical_network_type_id".into(), json!(p.network));
            data.insert("add_hsa".into(), json!(p.hsa && self.chance(0.5)));
            network = p.network;
        }
        if let Some((p, rate)) = den {
            data.insert("dental_plan".into(), self.snapshot(p, rate));
            data.insert("dental_carrier_id".into(), json!(p.carrier));
        }
        if let Some((p, rate)) = vis {
            data.insert("vision_plan".into(), self.snapshot(p, rate));
            data.insert("vision_carrier_id".into(), json!(p.carrier));
        }
        let skip_pcp = network != Some(2);
        for (k, v) in [
            (
                "skip_medical",
                skip_medical || (last_step > 3 && med.is_none()),
            ),
            ("skip_dental", skip_dental),
            ("skip_vision", skip_vision),
            ("skip_other", false),
            ("skip_pcp", skip_pcp),
        ] {
            data.insert(k.into(), json!(v));
        }
        let skip_medical = skip_medical || (last_step > 3 && med.is_none());

        // Subscriber Information, Other Questions and the purchase (no SSNs: demo data).
        let started_by = agent.user_id.filter(|_| self.chance(0.3));
        let full_name = format!("{} {last}", sub.first);
        if last_step > 7 {
            let mut info = json!({
                "sub_title": if sub.gender == "F" { self.pick(&[2, 3]) } else { 1 },
                "sub_first_name": sub.first, "sub_last_name": last,
                "sub_gender": sub.gender, "sub_birth_date": text(sub.birth), "sub_tobacco": tobacco(sub.tobacco),
                "sub_us_citizen": 1, "email": email_of(&data),
                "primary_phone": self.phone(), "primary_phone_type_id": self.pick(&[1, 4]),
                "residential_street": self.street(), "residential_city": place.city,
                "residential_state": "MI", "residential_zip": place.zip,
                "billing_provided": false,
            });
            if self.chance(0.15) {
                info["residential_street2"] = json!(self.pick(UNITS));
            }
            if self.chance(0.25) {
                info["alternate_phone"] = json!(self.phone());
                info["alternate_phone_type_id"] = json!(2);
            }
            if self.chance(0.1) {
                let p = self.places[self.rng.random_range(0..self.places.len())].clone();
                info["billing_provided"] = json!(true);
                info["billing_street"] =
                    json!(format!("PO Box {}", self.rng.random_range(100..9000)));
                info["billing_city"] = json!(p.city);
                info["billing_state"] = json!("MI");
                info["billing_zip"] = json!(p.zip);
                info["billing_county_id"] = json!(p.county);
            }
            if let Some(s) = &spouse {
                info["spouse"] = json!({"first_name": s.first, "last_name": last, "gender": s.gender,
                                        "birth_date": text(s.birth), "tobacco": tobacco(s.tobacco), "us_citizen": 1});
            }
            if !deps.is_empty() {
                info["dependents"] = Value::Array(
                    deps.iter()
                        .map(|d| {
                            json!({"first_name": d.first, "last_name": last, "gender": d.gender,
                                        "birth_date": text(d.birth), "tobacco": tobacco(d.tobacco),
                                        "relationship": 1, "us_citizen": 1})
                        })
                        .collect(),
                );
            }
            data.insert("subInfo".into(), info);
        }
        let signed = created_day + Duration::days(i64::from(submitted));
        if last_step > 8 {
            let mut other = json!({
                "has_previous_coverage": 0,
                "ethnicity_type": [self.rng.random_range(1..=15)],
                "yearly_household_income": self.rng.random_range(1..=5),
                "who_is_paying": 1,
            });
            if !skip_medical && matches!(med.map(|(p, _)| p.carrier), Some(1 | 2)) && den.is_none()
            {
                other["bcbsm_dental_confirmation"] = json!(1);
                other["bcbsm_signature"] = json!(full_name);
                other["bcbsm_signature_date"] = json!(text(signed));
            }
            data.insert("other".into(), other);
        }
        if submitted {
            let rap = match started_by {
                Some(_) => json!({
                    "agree_tc": true, "who_is_applying": 2, "agree_agent_applying": true,
                    "agent_signature": agent.agent_name, "agent_signature_confirm": agent.agent_name,
                    "agent_signature_date": text(signed), "agent_full_name": agent.agent_name,
                }),
                None => {
                    let mut r = json!({
                        "agree_tc": true, "who_is_applying": 1, "agree_subscriber_applying": true,
                        "subscriber_signature": full_name, "subscriber_signature_confirm": full_name,
                        "subscriber_signature_date": text(signed),
                    });
                    if let Some(s) = &spouse {
                        let n = format!("{} {last}", s.first);
                        r["spouse_signature"] = json!(n);
                        r["spouse_signature_confirm"] = json!(n);
                        r["spouse_signature_date"] = json!(text(signed));
                    }
                    r
                }
            };
            data.insert("rap".into(), rap);
        }
        data.insert("last_step".into(), json!(last_step));

        // Submitted within minutes to a day of starting, never after yesterday.
        let latest = self.today.midnight().assume_utc() - Duration::minutes(1);
        let submission_time = submitted.then(|| {
            let t = created_at + Duration::minutes(self.rng.random_range(12..1440));
            t.min(latest).max(created_at)
        });
        let updated_at = submission_time.unwrap_or_else(|| {
            (created_at + Duration::minutes(self.rng.random_range(1..90)))
                .min(latest)
                .max(created_at)
        });
        let subdomain = match agent.subdomains.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            many => Some(if self.chance(0.7) {
                many[0].clone()
            } else {
                many[self.rng.random_range(1..many.len())].clone()
            }),
        };
        let carrier = |v: Option<(&Plan, Money)>| v.map(|(p, _)| i16::from(p.carrier));
        Row {
            id: uuid::Builder::from_random_bytes(self.rng.random()).into_uuid(),
            agent_id: agent.id,
            last_step,
            effective_date: Some(effective),
            enrollment_period_type_id: Some(period),
            medical_carrier_id: carrier(med),
            dental_carrier_id: carrier(den),
            vision_carrier_id: carrier(vis),
            medical_network_type_id: network.map(i16::from),
            skip_medical,
            skip_dental,
            skip_vision,
            skip_pcp,
            submission_time,
            created_at,
            updated_at,
            data: Value::Object(data),
            agent_started: started_by.is_some(),
            started_by_user_id: started_by,
            subdomain,
        }
    }
}

fn email_of(data: &Map<String, Value>) -> Value {
    data.get("census")
        .and_then(|c| c.get("email"))
        .cloned()
        .unwrap_or(Value::Null)
}
