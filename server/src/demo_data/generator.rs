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
use super::answers;
use super::names::{AREA_CODES, DOMAINS, FEMALE, LAST, MALE, Place, STREETS, SUFFIXES};
use crate::db::applications::Columns;
use crate::db::demo_data::DemoAgent;
use crate::rules::quoting::PlanSnapshot;
use crate::security::sensitive;

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

    /// The made-up person and household of an application, and the answers they give, by the
    /// step that asks them (`demo/answers.yaml`; fields a step does not ask are dropped by the
    /// engine).
    /// `offered`: the enrollment types the first step offers here that this application may
    /// still be (the file picks one).
    fn answers(
        &mut self,
        created_day: Date,
        offered: &[String],
        agent_applying: bool,
    ) -> anyhow::Result<Map<String, Value>> {
        let event = created_day - Duration::days(self.rng.random_range(0..45));
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
        // A made-up SSN where one is asked (never stored: the walk drops the form's sensitive
        // answers before the row is written).
        let ssn = |g: &mut Self| format!("9{:08}", g.rng.random_range(0..100_000_000u32));
        let member = |g: &mut Self, p: &Person| answers::Member {
            first: p.first.to_string(),
            gender: p.gender.to_string(),
            birth: text(p.birth),
            tobacco: u8::from(p.tobacco),
            ssn: ssn(g),
        };
        let spouse = spouse.as_ref().map(|s| member(self, s));
        let dependents = deps.iter().map(|d| member(self, d)).collect();
        let subscriber = answers::Subscriber {
            first: sub.first.to_string(),
            last: last.to_string(),
            gender: sub.gender.to_string(),
            birth: text(sub.birth),
            tobacco: u8::from(sub.tobacco),
            ssn: ssn(self),
            email,
            phone: self.phone(),
            street: self.street(),
            alt_phone: self.chance(0.25).then(|| self.phone()),
        };
        let billing = self.chance(0.1).then(|| {
            let p = self.places[self.rng.random_range(0..self.places.len())].clone();
            answers::Billing {
                street: format!("PO Box {}", self.rng.random_range(100..9000)),
                zip: p.zip.to_string(),
                county: p.county,
                city: p.city.to_string(),
            }
        });
        let household = answers::Household {
            offered: offered.to_vec(),
            created: text(created_day),
            event: text(event),
            agent_applying,
            agent_name: self.agent.agent_name.clone(),
            place: answers::Place {
                zip: place.zip.to_string(),
                county: place.county,
                city: place.city.to_string(),
            },
            billing,
            sub: subscriber,
            spouse,
            dependents,
        };
        answers::render(&household, self.rng.random())
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

    pub(super) fn application(&mut self, engine: &Engine) -> anyhow::Result<Row> {
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
        let target = if submitted {
            steps
        } else {
            self.quote_target(steps)
        };
        // The file picks one of the types the step offers; a type the rules refuse that day
        // (coverage in a year without plans) gives way to another.
        let mut left = offered;
        let mut walked = (Map::new(), false);
        while !left.is_empty() {
            let answers = self.answers(created_day, &left, started_by.is_some())?;
            let kind = answers
                .get(&first)
                .and_then(|a| a.get("enrollment_type"))
                .and_then(Value::as_str)
                .map(str::to_string);
            walked = self.walk(engine, &ctx, &answers, target)?;
            if walked.0.contains_key(&first) {
                break;
            }
            match kind {
                Some(kind) => left.retain(|k| *k != kind),
                None => break,
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
        // The subscriber's answers, wherever a step holds them (About You and Subscriber
        // Information hold the same).
        let field = |key: &str| find_field(&template.data, key).and_then(Value::as_str);
        let old_first = field("sub_first_name").unwrap_or_default();
        let old_last = field("sub_last_name").unwrap_or_default();
        let old_email = field("email").unwrap_or_default();
        let gender = field("sub_gender").unwrap_or("F");
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
        if let Some(spouse) = find_field(&template.data, "spouse")
            .and_then(|s| s.get("first_name"))
            .and_then(Value::as_str)
        {
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
/// The first value of the field `key` in a document, depth first (the steps in order of their ids).
fn find_field<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Object(m) => m
            .get(key)
            .or_else(|| m.values().find_map(|x| find_field(x, key))),
        Value::Array(items) => items.iter().find_map(|x| find_field(x, key)),
        _ => None,
    }
}

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
    use rand::SeedableRng;

    /// The repository's rules, loaded once for these tests.
    fn engine() -> std::sync::Arc<crate::rules::Bundle> {
        static RULES: std::sync::OnceLock<crate::rules::Rules> = std::sync::OnceLock::new();
        RULES
            .get_or_init(|| {
                let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
                crate::rules::Rules::load(&root).unwrap_or_else(|p| panic!("rules: {p:?}"))
            })
            .current()
    }

    #[test]
    fn the_answers_file_names_only_fields_of_the_forms_that_ask_them_and_every_walk_submits() {
        let bundle = engine();
        let engine = &bundle.engine;
        let places = super::super::names::places(engine.catalog());
        let agent = DemoAgent {
            id: Uuid::nil(),
            npn: "17439021".parse().expect("an NPN"),
            agent_name: "Alex Example".into(),
            offers: engine
                .catalog()
                .carriers
                .iter()
                .filter_map(|c| c.agent_flag.clone())
                .collect(),
            marketplace_certified: true,
            display_medicare: false,
            subdomains: Vec::new(),
            user_id: Some(Uuid::nil()),
        };
        let today = Date::from_calendar_date(2024, time::Month::November, 20).expect("a day");
        let mut g = Generator {
            rng: StdRng::seed_from_u64(7),
            years: &engine.calendar().plan_years,
            places: &places,
            today,
            agent: &agent,
            submitted_share: 1.0,
        };
        let ctx = Context {
            today,
            applying: Applying::Consumer,
            agent: AgentFlags {
                offers: agent.offers.clone(),
                marketplace_certified: true,
                display_medicare: false,
                name: agent.agent_name.clone(),
                npn: agent.npn.to_string(),
            },
        };
        let first = engine
            .steps()
            .next()
            .map(|s| s.id.clone())
            .unwrap_or_default();
        let view = engine
            .step_view(&first, &json!({}), &ctx)
            .unwrap_or_else(|e| panic!("{e}"));
        let offered: Vec<String> = view
            .schema
            .pointer("/properties/enrollment_type/oneOf")
            .and_then(Value::as_array)
            .map(|o| {
                o.iter()
                    .filter_map(|o| o.get("const").and_then(Value::as_str).map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        assert!(!offered.is_empty());
        for (i, kind) in offered.iter().cycle().take(40).enumerate() {
            let answers = g
                .answers(today, std::slice::from_ref(kind), i % 2 == 1)
                .unwrap_or_else(|e| panic!("{e:#}"));
            for (step, given) in &answers {
                let schema = engine
                    .form_schema(step)
                    .unwrap_or_else(|| panic!("`{step}` in demo/answers.yaml is not a form step"));
                for field in given.as_object().map(Map::keys).into_iter().flatten() {
                    assert!(
                        schema.pointer(&format!("/properties/{field}")).is_some(),
                        "`{step}.{field}` in demo/answers.yaml is not a field of its form"
                    );
                }
            }
        }
        // Walked through the rules to the purchase, by consumers and by the agent alike: no form
        // refuses the file's answers.
        let (mut submitted, n) = (0, 40);
        for _ in 0..n {
            let row = g.application(engine).unwrap_or_else(|e| panic!("{e:#}"));
            submitted += usize::from(row.submission_time.is_some());
        }
        assert_eq!(
            submitted,
            n,
            "{} of {n} walks stopped before the purchase",
            n - submitted
        );
    }

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
