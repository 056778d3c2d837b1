//! The application builder: one made-up person and household with the answers they give, walked
//! through the engine's own steps (the first step's offered reasons, each form's validation and
//! next rule, the plan pages' select rules with plans quoted from the real catalog, the purchase)
//! to a step reached or a submission, as the row the dashboard reads. The answers are made up;
//! everything the rules decide is the engine's, so the demo data cannot disagree with them.

use enrollflow_engine::calendar::PlanYear;
use enrollflow_engine::catalog::PlanKind;
use enrollflow_engine::dates;
use enrollflow_engine::{
    AgentFlags, Applying, Context, Engine, EvalError, QuoteFailure, Selection, StepInfo, Submission,
};
use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Map, Value, json};
use time::{Date, Duration, OffsetDateTime, Time};
use uuid::Uuid;

use super::DEMO_KEY;
use super::names::{AREA_CODES, DOMAINS, FEMALE, LAST, MALE, Place, STREETS, SUFFIXES, UNITS};
use crate::db::applications::Columns;
use crate::db::demo_data::DemoAgent;
use crate::quoting::PlanSnapshot;
use crate::sensitive;

/// One application row, ready to insert.
#[derive(Clone)]
pub(super) struct Row {
    pub(super) id: Uuid,
    pub(super) agent_id: Uuid,
    /// The typed columns, read from the flags the engine set (as a save writes them).
    pub(super) columns: Columns,
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
    pub(super) years: &'a [PlanYear],
    pub(super) places: &'a [Place],
    pub(super) today: Date,
    pub(super) agent: &'a DemoAgent,
    pub(super) submitted_share: f64,
}

/// The part of a made-up e-mail address before any number: `first.last`, lower case, letters,
/// digits and dots only.
fn email_local(first: &str, last: &str) -> String {
    format!("{first}.{last}")
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect()
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

    /// A time of `day` in business hours (8:00 to 20:59), UTC.
    fn time_on(&mut self, day: Date) -> OffsetDateTime {
        day.with_time(
            Time::from_hms(
                self.rng.random_range(8..21),
                self.rng.random_range(0..60),
                self.rng.random_range(0..60),
            )
            .unwrap_or(Time::MIDNIGHT),
        )
        .assume_utc()
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

    /// One of the enrollment types the first step offers here (its `enrollment_type` options,
    /// as the engine resolves them for this agent and day): open enrollment while it is open,
    /// else a qualifying event, dental or vision only now and then where they are offered.
    fn enrollment_type(&mut self, offered: &[String]) -> Option<String> {
        let has = |t: &str| offered.iter().any(|o| o == t);
        let roll: f64 = self.rng.random();
        let pick = match () {
            _ if has("oe") && roll < 0.85 => "oe",
            _ if has("dental") && roll > 0.93 => "dental",
            _ if has("vision") && roll > 0.90 => "vision",
            _ if has("qle") => "qle",
            _ if has("oe") => "oe",
            _ => return offered.first().cloned(),
        };
        Some(pick.to_string())
    }

    /// The made-up person and household of an application, and the answers they give, by the
    /// step that asks them (fields a step does not ask are dropped by the engine).
    fn answers(&mut self, created_day: Date, enrollment_type: &str) -> Map<String, Value> {
        let mut why = Map::new();
        why.insert("enrollment_type".into(), json!(enrollment_type));
        why.insert("agree_tc".into(), json!(true));
        let reason = self.rng.random_range(2..=19);
        let event = created_day - Duration::days(self.rng.random_range(0..45));
        why.insert("enrollment_reason_id".into(), json!(reason));
        why.insert("qle_event_date".into(), json!(text(event)));
        why.insert("start_date_option_id".into(), json!(2));
        why.insert(
            "qle_other_details".into(),
            json!("Moved back to Michigan after a job change."),
        );

        // The household.
        let place = self.places[self.rng.random_range(0..self.places.len())].clone();
        let last = self.pick(LAST);
        let sub = self.person(created_day, 23..=63, None);
        let sub_age = dates::age_at(sub.birth, created_day);
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
            let local = email_local(sub.first, last);
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

        // Subscriber Information: a made-up SSN where one is asked (never stored: the walk drops
        // the form's sensitive answers before the row is written).
        let ssn = |g: &mut Self| format!("9{:08}", g.rng.random_range(0..100_000_000u32));
        let mut info = json!({
            "sub_title": if sub.gender == "F" { self.pick(&[2, 3]) } else { 1 },
            "sub_first_name": sub.first, "sub_last_name": last,
            "sub_gender": sub.gender, "sub_birth_date": text(sub.birth), "sub_tobacco": tobacco(sub.tobacco),
            "sub_ssn": ssn(self), "sub_us_citizen": 1, "email": email,
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
            info["billing_street"] = json!(format!("PO Box {}", self.rng.random_range(100..9000)));
            info["billing_city"] = json!(p.city);
            info["billing_state"] = json!("MI");
            info["billing_zip"] = json!(p.zip);
            info["billing_county_id"] = json!(p.county);
        }
        if let Some(s) = &spouse {
            info["spouse"] = json!({"first_name": s.first, "last_name": last, "gender": s.gender,
                                    "birth_date": text(s.birth), "tobacco": tobacco(s.tobacco),
                                    "ssn": ssn(self), "us_citizen": 1});
        }
        if !deps.is_empty() {
            let mut list = Vec::new();
            for d in &deps {
                list.push(
                    json!({"first_name": d.first, "last_name": last, "gender": d.gender,
                                 "birth_date": text(d.birth), "tobacco": tobacco(d.tobacco),
                                 "relationship": 1, "ssn": ssn(self), "us_citizen": 1}),
                );
            }
            info["dependents"] = Value::Array(list);
        }

        // Other Questions (each carrier asks its own part of them) and the purchase.
        let full_name = format!("{} {last}", sub.first);
        let signed = text(created_day);
        let other = json!({
            "has_previous_coverage": 0, "has_active_coverage": 0, "medicaid_eligibility": 0,
            "ethnicity_type": [self.rng.random_range(1..=15)],
            "yearly_household_income": self.rng.random_range(1..=5),
            "who_is_paying": 1,
            "bcbsm_dental_confirmation": 1, "bcbsm_signature": full_name, "bcbsm_signature_date": signed,
            "ph_dental_confirmation": 1, "ph_signature": full_name, "ph_signature_date": signed,
        });
        let agent = self.agent;
        let mut rap = json!({
            "agree_tc": true, "who_is_applying": 1, "agree_subscriber_applying": true,
            "subscriber_signature": full_name, "subscriber_signature_confirm": full_name,
            "subscriber_signature_date": signed,
            "agree_agent_applying": true,
            "agent_signature": agent.agent_name, "agent_signature_confirm": agent.agent_name,
            "agent_signature_date": signed, "agent_full_name": agent.agent_name,
        });
        if let Some(s) = &spouse {
            let n = format!("{} {last}", s.first);
            rap["spouse_signature"] = json!(n);
            rap["spouse_signature_confirm"] = json!(n);
            rap["spouse_signature_date"] = json!(signed);
        }

        let mut by_step = Map::new();
        by_step.insert("whyApplying".into(), Value::Object(why));
        by_step.insert("census".into(), census);
        by_step.insert("subInfo".into(), info);
        by_step.insert("other".into(), other);
        by_step.insert("rap".into(), rap);
        by_step
    }

    /// Where a quote stops: a step of the flow from the third on (About You saved, so the
    /// shopper is named), most of them on the plan pages: the share of quotes at each position;
    /// positions past the flow's end stop at its last step.
    fn quote_target(&mut self, steps: usize) -> usize {
        const SHARES: [f64; 9] = [0.22, 0.20, 0.10, 0.06, 0.16, 0.12, 0.08, 0.03, 0.03];
        let mut r: f64 = self.rng.random();
        let mut at = 2;
        for share in SHARES {
            if r < share {
                break;
            }
            r -= share;
            at += 1;
        }
        at.min(steps.saturating_sub(1))
    }

    /// The plan a shopper chooses on a plan page: one of those quoted for the household, or none
    /// (`Value::Null`: going on without) unless `must`.
    fn choose_plan(
        &mut self,
        engine: &Engine,
        kind: PlanKind,
        app: &Value,
        ctx: &Context,
        must: bool,
    ) -> Result<Option<Value>, EvalError> {
        let wants = match kind {
            PlanKind::Medical => 1.0,
            PlanKind::Dental => 0.4,
            PlanKind::Vision => 0.3,
        };
        if !must && !self.chance(wants) {
            return Ok(Some(Value::Null));
        }
        let quoted = match engine.quote(kind, app, ctx) {
            Ok(list) => list,
            Err(QuoteFailure::Rule(e)) => return Err(e),
            Err(QuoteFailure::NoHousehold) => return Ok(None),
            // No plan year or no rating area for the place: nothing is quoted.
            Err(QuoteFailure::Quote(_)) => Vec::new(),
        };
        if quoted.is_empty() {
            return Ok(if must { None } else { Some(Value::Null) });
        }
        let (p, rates) = &quoted[self.rng.random_range(0..quoted.len())];
        Ok(Some(
            PlanSnapshot::new(engine.catalog(), p, rates.total).to_value(),
        ))
    }

    /// Walks a made-up application through the engine's own steps, as the wizard does: each form
    /// step submitted with the person's answers, each plan page's selection by its `select` rule,
    /// other pages continued, until the application reaches `target` (a step position) or is
    /// purchased. A step that refuses the answers (or asks a dialog) is where it stops.
    fn walk(
        &mut self,
        engine: &Engine,
        ctx: &Context,
        answers: &Map<String, Value>,
        target: usize,
    ) -> Result<(Map<String, Value>, bool), EvalError> {
        let steps: Vec<StepInfo> = engine.steps().cloned().collect();
        let mut data = Map::new();
        data.insert(DEMO_KEY.into(), json!(true));
        let Some(mut at) = steps.first().cloned() else {
            return Ok((data, false));
        };
        loop {
            let position = steps.iter().position(|s| s.id == at.id).unwrap_or(0);
            if position >= target {
                return Ok((data, false));
            }
            let app = Value::Object(data.clone());
            let view = engine.step_view(&at.id, &app, ctx)?;
            if view.kind == "form" {
                let mut given = answers.get(&at.id).cloned().unwrap_or_else(|| json!({}));
                fit_choices(&view.schema, &mut given);
                let t = match engine.submit(&at.id, &given, &app, ctx)? {
                    Submission::Accepted(t) if t.modal.is_none() => t,
                    _ => return Ok((data, false)),
                };
                let mut stored = t.answers;
                sensitive::remove(&view.schema, &mut stored);
                data.insert(at.id.clone(), stored);
                data.extend(t.updates);
                if at.id == engine.submitted_step() {
                    data.insert("submitted".into(), json!(true));
                    return Ok((data, true));
                }
                at = t.next;
            } else if let Some((next, last)) = engine.continue_page(&at.id, &app, ctx)? {
                data.insert("last_step".into(), json!(last));
                at = next;
            } else {
                let Some(kind) = view.plan_kind() else {
                    return Ok((data, false));
                };
                let mut must = false;
                loop {
                    let Some(plan) = self.choose_plan(engine, kind, &app, ctx, must)? else {
                        return Ok((data, false));
                    };
                    let input = json!({ "add_hsa": self.chance(0.5) });
                    match engine.select(&at.id, &plan, &input, &app, ctx)? {
                        Selection::Done { updates, next } => {
                            data.extend(updates);
                            at = next;
                            break;
                        }
                        // Going on without a plan is refused here: choose one.
                        Selection::Refused(_) if plan.is_null() && !must => must = true,
                        Selection::Refused(_) => return Ok((data, false)),
                    }
                }
            }
        }
    }

    pub(super) fn application(&mut self, engine: &Engine) -> Result<Row, EvalError> {
        let agent = self.agent;
        let created_day = self.day();
        let created_at = self.time_on(created_day);
        let submitted = self.chance(self.submitted_share);
        let started_by = agent.user_id.filter(|_| self.chance(0.3));
        let ctx = Context {
            today: created_day,
            applying: if started_by.is_some() {
                Applying::Agent
            } else {
                Applying::Consumer
            },
            agent: AgentFlags {
                offers: agent.offers.clone(),
                marketplace_certified: agent.marketplace_certified,
                display_medicare: agent.display_medicare,
                name: agent.agent_name.clone(),
                npn: agent.npn.to_string(),
            },
        };

        // Why Are You Applying offers what the rules offer this agent on this day.
        let steps = engine.steps().count();
        let first = engine
            .steps()
            .next()
            .map(|s| s.id.clone())
            .unwrap_or_default();
        let offered: Vec<String> = engine
            .step_view(&first, &json!({}), &ctx)?
            .schema
            .pointer("/properties/enrollment_type/oneOf")
            .and_then(Value::as_array)
            .map(|options| {
                options
                    .iter()
                    .filter_map(|o| o.get("const").and_then(Value::as_str).map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        // The type picked first, then the others the step offers: a type the rules refuse that
        // day (coverage in a year without plans) gives way to the next.
        let mut kinds: Vec<String> = self.enrollment_type(&offered).into_iter().collect();
        kinds.extend(
            offered
                .iter()
                .filter(|k| !kinds.contains(k))
                .cloned()
                .collect::<Vec<_>>(),
        );
        let target = if submitted {
            steps
        } else {
            self.quote_target(steps)
        };
        let mut walked = (Map::new(), false);
        for kind in &kinds {
            let mut answers = self.answers(created_day, kind);
            if let Some(rap) = answers.get_mut("rap").and_then(Value::as_object_mut) {
                if started_by.is_some() {
                    rap.insert("who_is_applying".into(), json!(2));
                } else {
                    rap.retain(|k, _| !k.starts_with("agent_") && k != "agree_agent_applying");
                }
            }
            walked = self.walk(engine, &ctx, &answers, target)?;
            if walked.0.contains_key(&first) {
                break;
            }
        }
        let (data, submitted) = walked;

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
        let data = Value::Object(data);
        Ok(Row {
            id: uuid::Builder::from_random_bytes(self.rng.random()).into_uuid(),
            agent_id: agent.id,
            columns: Columns::of(&data),
            submission_time,
            created_at,
            updated_at,
            data,
            agent_started: started_by.is_some(),
            started_by_user_id: started_by,
            subdomain,
        })
    }
}

/// Answers fitted to the choices a form offers this application (the view's schema, after its
/// `options` rules): a made-up choice it does not offer becomes its first offered one.
fn fit_choices(schema: &Value, answer: &mut Value) {
    match answer {
        Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                if let Some(field) = schema.get("properties").and_then(|p| p.get(k)) {
                    fit_choices(field, v);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for v in items {
                    fit_choices(item, v);
                }
            }
        }
        scalar => {
            let offered: Vec<&Value> = schema
                .get("oneOf")
                .and_then(Value::as_array)
                .map(|o| o.iter().filter_map(|c| c.get("const")).collect())
                .unwrap_or_default();
            if let Some(first) = offered.first()
                && !offered.contains(&&*scalar)
            {
                *scalar = (*first).clone();
            }
        }
    }
}

impl Generator<'_> {
    /// An application like `template` (an application this generator walked through the rules
    /// for the same agent) made by another person: a new id, subscriber and family name, e-mail
    /// address and time of day, the same day, household, answers and plans. What the rules decide
    /// does not depend on a name, so the copy agrees with them as the template does; it costs no
    /// rule walk, which is what lets `--distinct` load an agency's million applications.
    pub(super) fn copy(&mut self, template: &Row) -> Row {
        let census = &template.data["census"];
        let old_first = census["sub_first_name"].as_str().unwrap_or_default();
        let old_last = census["sub_last_name"].as_str().unwrap_or_default();
        let old_email = census["email"].as_str().unwrap_or_default();
        let gender = census["sub_gender"].as_str().unwrap_or("F");
        let first = if gender == "F" {
            self.pick(FEMALE)
        } else {
            self.pick(MALE)
        };
        let last = self.pick(LAST);
        let email = match old_email.split_once('@') {
            Some((_, domain)) => {
                let local = email_local(first, last);
                format!("{local}{}@{domain}", self.rng.random_range(1..1000))
            }
            None => String::new(),
        };
        let mut names: Vec<(String, String)> = vec![
            (format!("{old_first} {old_last}"), format!("{first} {last}")),
            (old_first.to_string(), first.to_string()),
            (old_last.to_string(), last.to_string()),
            (old_email.to_string(), email),
        ];
        if let Some(spouse) = template.data["subInfo"]["spouse"]["first_name"].as_str() {
            names.push((format!("{spouse} {old_last}"), format!("{spouse} {last}")));
        }
        let mut data = template.data.clone();
        rename(&mut data, None, &names);

        // Another time of the same day; the rest of the timeline moves with it.
        let created_at = self.time_on(template.created_at.date());
        let shift = created_at - template.created_at;
        let latest = self.today.midnight().assume_utc() - Duration::minutes(1);
        let moved = |t: OffsetDateTime| (t + shift).min(latest).max(created_at);
        let subdomain = match self.agent.subdomains.as_slice() {
            [] | [_] => template.subdomain.clone(),
            many => Some(many[self.rng.random_range(0..many.len())].clone()),
        };
        Row {
            id: uuid::Builder::from_random_bytes(self.rng.random()).into_uuid(),
            agent_id: template.agent_id,
            columns: template.columns.clone(),
            submission_time: template.submission_time.map(moved),
            created_at,
            updated_at: moved(template.updated_at),
            data,
            agent_started: template.agent_started,
            started_by_user_id: template.started_by_user_id,
            subdomain,
        }
    }
}

/// Replaces, in the names, signatures and e-mail addresses of a document (keys naming a name,
/// a signature or an e-mail, not their dates), each string equal to one of `names`' first
/// members by its second. Whole values only: "Ann Arbor" is a city, not Ann.
fn rename(v: &mut Value, key: Option<&str>, names: &[(String, String)]) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                rename(x, Some(k), names);
            }
        }
        Value::Array(items) => {
            for x in items {
                rename(x, key, names);
            }
        }
        Value::String(s) => {
            let named = key.is_some_and(|k| {
                (k.contains("name") || k.contains("signature") || k == "email")
                    && !k.ends_with("_date")
            });
            if named && let Some((_, to)) = names.iter().find(|(from, _)| from == s) {
                *s = to.clone();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_changes_whole_names_in_name_fields_only() {
        let mut doc = json!({
            "census": { "sub_first_name": "Ann", "sub_last_name": "Warren", "email": "ann.warren@example.com" },
            "subInfo": { "residential_city": "Warren", "spouse": { "first_name": "Bo", "last_name": "Warren" },
                         "dependents": [{ "first_name": "Cy", "last_name": "Warren" }] },
            "rap": { "subscriber_signature": "Ann Warren", "subscriber_signature_date": "Ann Warren",
                     "spouse_signature": "Bo Warren" },
            "medical_plan": { "name": "Blue Cross Premier PPO Gold" }
        });
        let names = [
            ("Ann Warren".to_string(), "Eve Stone".to_string()),
            ("Ann".to_string(), "Eve".to_string()),
            ("Warren".to_string(), "Stone".to_string()),
            (
                "ann.warren@example.com".to_string(),
                "eve.stone@example.com".to_string(),
            ),
            ("Bo Warren".to_string(), "Bo Stone".to_string()),
        ];
        rename(&mut doc, None, &names);
        assert_eq!(
            doc,
            json!({
                "census": { "sub_first_name": "Eve", "sub_last_name": "Stone", "email": "eve.stone@example.com" },
                "subInfo": { "residential_city": "Warren", "spouse": { "first_name": "Bo", "last_name": "Stone" },
                             "dependents": [{ "first_name": "Cy", "last_name": "Stone" }] },
                "rap": { "subscriber_signature": "Eve Stone", "subscriber_signature_date": "Ann Warren",
                         "spouse_signature": "Bo Stone" },
                "medical_plan": { "name": "Blue Cross Premier PPO Gold" }
            })
        );
    }
}
