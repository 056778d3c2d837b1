//! Demo applications and messages for the agent dashboard (`enrollflow seed-demo-data`, run by
//! `make demo` after `enrollflow seed`): thousands of quotes and submissions for the demo agents,
//! spread over the twelve months before today, with made-up people (names, `example.*` e-mail
//! addresses, 555-01xx phone numbers, Michigan addresses), households, enrollment types and plan
//! snapshots from the real catalog, so that every card, chart and list of the dashboard has
//! something to show. Also three agent messages. `tests/load/dashboard.sh` uses it for 100,000
//! applications.
//!
//! Every demo document carries `"demo": true`. Loading is idempotent: an agent that already has
//! demo applications gets none, and the messages have fixed ids. Nothing here writes an SSN.
//!
//! The module is compiled into the `enrollflow` binary (and, by path, into the API tests); it uses
//! the library through its public API only.

use enrollflow_engine::catalog::{Catalog, Plan, PlanKind};
use enrollflow_engine::rating::{self, Household, Member, Role};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use sqlx::PgPool;
use time::{Date, Duration, Month, OffsetDateTime, Time};
use uuid::Uuid;

use crate::db::demo_data::{self as store, ApplicationBatch, DemoAgent};
use crate::npn::Npn;
use crate::quoting::PlanSnapshot;
use enrollflow_engine::calendar::{Calendar, PlanYear};
use enrollflow_engine::money::Money;

/// The key marking demo documents.
pub const DEMO_KEY: &str = "demo";
/// Rows per INSERT.
const BATCH: usize = 1000;

/// What to load.
#[derive(Debug, Clone)]
pub struct Options {
    /// Applications in all, shared equally by the agents.
    pub applications: usize,
    /// Only these agents (NPNs); all agents when empty.
    pub agents: Vec<Npn>,
    /// The share of applications that are submitted (0 to 1).
    pub submitted_share: f64,
    /// The server's today: applications are made in the 364 days before it.
    pub today: Date,
    /// The random generator's seed (the same seed makes the same people).
    pub seed: u64,
}

impl Options {
    pub fn new(applications: usize, today: Date) -> Self {
        Options {
            applications,
            agents: Vec::new(),
            submitted_share: 0.38,
            today,
            seed: 2024,
        }
    }
}

/// What a load did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Loaded {
    pub applications: u64,
    pub submitted: u64,
    /// Agents skipped because they already had demo applications.
    pub agents_skipped: usize,
    pub messages: u64,
}

/// The rules the generator reads: the catalog, the enrollment calendar and the rules' hash.
pub struct Rules<'a> {
    pub catalog: &'a Catalog,
    /// `rules/calendar.yaml`: the plan years, their open enrollment and effective dates.
    pub calendar: &'a Calendar,
    pub hash: &'a str,
}

/// Loads the demo applications and messages (see the module's documentation).
pub async fn load(pool: &PgPool, rules: &Rules<'_>, opts: &Options) -> anyhow::Result<Loaded> {
    let years = &rules.calendar.plan_years;
    anyhow::ensure!(!years.is_empty(), "rules/calendar.yaml has no plan_years");
    let agents = store::agents(pool, &opts.agents).await?;
    if agents.is_empty() {
        anyhow::bail!("no agents to load demo data for: run `enrollflow seed` first");
    }
    if let Some(missing) = opts
        .agents
        .iter()
        .find(|n| !agents.iter().any(|a| &a.npn == *n))
    {
        anyhow::bail!("no agent with NPN {missing}");
    }
    let places = places(rules.catalog);
    let mut loaded = Loaded::default();
    let per_agent = opts.applications / agents.len();
    let extra = opts.applications % agents.len();
    for (i, agent) in agents.iter().enumerate() {
        let n = per_agent + usize::from(i < extra);
        let mut tx = pool.begin().await?;
        // Two loads at once: the second waits, then sees the first one's rows.
        let has = store::lock_and_check(&mut tx, agent).await?;
        if has {
            loaded.agents_skipped += 1;
            continue;
        }
        let seed = opts.seed ^ agent.npn.as_str().parse::<u64>().unwrap_or(0);
        let mut g = Generator {
            rng: StdRng::seed_from_u64(seed),
            cat: rules.catalog,
            years,
            places: &places,
            today: opts.today,
            agent,
            submitted_share: opts.submitted_share.clamp(0.0, 1.0),
        };
        let mut batch = ApplicationBatch::default();
        for _ in 0..n {
            let row = g.application();
            loaded.submitted += u64::from(row.submission_time.is_some());
            batch.push(row, rules.hash);
            if batch.len() == BATCH {
                loaded.applications += batch.insert(&mut tx).await?;
            }
        }
        loaded.applications += batch.insert(&mut tx).await?;
        tx.commit().await?;
    }
    loaded.messages = messages(pool, &agents, opts.today).await?;
    Ok(loaded)
}

/// A Michigan place: city, ZIP and its county in the catalog.
#[derive(Debug, Clone)]
struct Place {
    city: &'static str,
    zip: &'static str,
    county: u16,
    area: u8,
}

const PLACES: &[(&str, &str)] = &[
    ("Ann Arbor", "48104"),
    ("Ann Arbor", "48103"),
    ("Ypsilanti", "48197"),
    ("Detroit", "48226"),
    ("Detroit", "48207"),
    ("Dearborn", "48124"),
    ("Livonia", "48152"),
    ("Canton", "48187"),
    ("Troy", "48084"),
    ("Southfield", "48075"),
    ("Royal Oak", "48067"),
    ("Novi", "48375"),
    ("Pontiac", "48341"),
    ("Warren", "48093"),
    ("Sterling Heights", "48310"),
    ("Grand Rapids", "49503"),
    ("Grand Rapids", "49506"),
    ("Wyoming", "49509"),
    ("Holland", "49423"),
    ("Kalamazoo", "49007"),
    ("Battle Creek", "49017"),
    ("Lansing", "48933"),
    ("East Lansing", "48823"),
    ("Flint", "48502"),
    ("Saginaw", "48601"),
    ("Traverse City", "49684"),
    ("Marquette", "49855"),
];

fn places(cat: &Catalog) -> Vec<Place> {
    PLACES
        .iter()
        .filter_map(|(city, zip)| {
            let county = cat.counties_for_zip(zip.parse().ok()?).first()?.id;
            let area = cat.rating_area(county)?;
            Some(Place {
                city,
                zip,
                county,
                area,
            })
        })
        .collect()
}

const FEMALE: &[&str] = &[
    "Emma",
    "Olivia",
    "Ava",
    "Sophia",
    "Isabella",
    "Mia",
    "Amelia",
    "Harper",
    "Evelyn",
    "Abigail",
    "Emily",
    "Elizabeth",
    "Sofia",
    "Avery",
    "Ella",
    "Scarlett",
    "Grace",
    "Chloe",
    "Victoria",
    "Riley",
    "Aria",
    "Lily",
    "Aubrey",
    "Zoey",
    "Hannah",
    "Layla",
    "Nora",
    "Camila",
    "Maya",
    "Leah",
    "Priya",
    "Mei",
    "Fatima",
    "Aaliyah",
    "Rosa",
    "Ingrid",
    "Keisha",
    "Yara",
    "Lucia",
    "Anika",
];
const MALE: &[&str] = &[
    "Liam",
    "Noah",
    "William",
    "James",
    "Oliver",
    "Benjamin",
    "Elijah",
    "Lucas",
    "Mason",
    "Logan",
    "Alexander",
    "Ethan",
    "Jacob",
    "Michael",
    "Daniel",
    "Henry",
    "Jackson",
    "Sebastian",
    "Aiden",
    "Matthew",
    "Samuel",
    "David",
    "Joseph",
    "Carter",
    "Owen",
    "Wyatt",
    "John",
    "Jack",
    "Luke",
    "Gabriel",
    "Omar",
    "Raj",
    "Wei",
    "Andre",
    "Mateo",
    "Tyrone",
    "Kenji",
    "Diego",
    "Ahmed",
    "Erik",
];
const LAST: &[&str] = &[
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Perez",
    "Thompson",
    "White",
    "Harris",
    "Sanchez",
    "Clark",
    "Ramirez",
    "Lewis",
    "Robinson",
    "Walker",
    "Young",
    "Allen",
    "King",
    "Wright",
    "Scott",
    "Torres",
    "Nguyen",
    "Hill",
    "Flores",
    "Green",
    "Adams",
    "Nelson",
    "Baker",
    "Hall",
    "Rivera",
    "Campbell",
    "Mitchell",
    "Carter",
    "Roberts",
    "Kowalski",
    "Nowak",
    "Haddad",
    "Patel",
    "Chen",
    "Kim",
    "Okafor",
    "Lindqvist",
    "Van Dyke",
    "O'Brien",
    "DeVries",
    "Schultz",
    "Murphy",
    "Reyes",
    "Bauer",
    "Jankowski",
    "Hoekstra",
    "Abbas",
    "Yamamoto",
    "St. Clair",
];
const STREETS: &[&str] = &[
    "Maple",
    "Oak",
    "Washington",
    "Main",
    "Huron",
    "Liberty",
    "Division",
    "Michigan",
    "Woodward",
    "Grand River",
    "Lake",
    "Cedar",
    "Pine",
    "Elm",
    "Jefferson",
    "Lincoln",
    "Madison",
    "Church",
    "Mill",
    "Park",
    "Chestnut",
    "Walnut",
    "Hickory",
    "Sunset",
    "Ridge",
    "Forest",
    "Riverside",
];
const SUFFIXES: &[&str] = &["St", "Ave", "Rd", "Dr", "Ct", "Ln", "Blvd", "Way"];
const UNITS: &[&str] = &["Apt 2", "Apt 4B", "Unit 12", "Suite 100", "Apt 301"];
const AREA_CODES: &[&str] = &[
    "313", "248", "734", "586", "616", "517", "269", "810", "989", "231", "906",
];
const DOMAINS: &[&str] = &["example.com", "example.net", "example.org"];

/// One application row, ready to insert.
struct Row {
    id: Uuid,
    agent_id: Uuid,
    last_step: i16,
    effective_date: Option<Date>,
    enrollment_period_type_id: Option<i16>,
    medical_carrier_id: Option<i16>,
    dental_carrier_id: Option<i16>,
    vision_carrier_id: Option<i16>,
    medical_network_type_id: Option<i16>,
    skip_medical: bool,
    skip_dental: bool,
    skip_vision: bool,
    skip_pcp: bool,
    submission_time: Option<OffsetDateTime>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    data: Value,
    agent_started: bool,
    started_by_user_id: Option<Uuid>,
    subdomain: Option<String>,
}

struct Person {
    first: &'static str,
    gender: &'static str,
    birth: Date,
    tobacco: bool,
}

struct Generator<'a> {
    rng: StdRng,
    cat: &'a Catalog,
    years: &'a [PlanYear],
    places: &'a [Place],
    today: Date,
    agent: &'a DemoAgent,
    submitted_share: f64,
}

fn first_of_next_month(d: Date) -> Date {
    let (y, m) = match d.month() {
        Month::December => (d.year() + 1, Month::January),
        m => (d.year(), m.next()),
    };
    Date::from_calendar_date(y, m, 1).unwrap_or(d)
}

fn text(d: Date) -> String {
    d.to_string()
}

fn age_on(birth: Date, on: Date) -> i64 {
    let mut age = i64::from(on.year() - birth.year());
    if (on.month() as u8, on.day()) < (birth.month() as u8, birth.day()) {
        age -= 1;
    }
    age
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
        let offered = |p: &&Plan| {
            let flag = cat.carrier(p.carrier).and_then(|c| c.agent_flag.as_deref());
            let offered = match flag {
                Some("display_bcbsm") => agent.display_bcbsm,
                Some("display_ph") => agent.display_ph,
                Some(_) => false,
                None => true,
            };
            offered && p.sold_in(place.county) && cat.max_age(p).is_none_or(|m| oldest <= m)
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

    fn application(&mut self) -> Row {
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
        let next_month = first_of_next_month(created_day);
        let roll: f64 = self.rng.random();
        let (kind, effective) = match oe {
            Some(eff) if roll < 0.85 || !offered_year(next_month) => ("oe", eff),
            _ if agent.display_bcbsm && roll > 0.93 => ("dental", next_month),
            _ if agent.display_bcbsm && roll > 0.90 => ("vision", next_month),
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
        let sub_age = age_on(sub.birth, effective);
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
            .map(|m| age_on(m.birth_date, effective))
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

impl ApplicationBatch {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn push(&mut self, r: Row, hash: &str) {
        self.id.push(r.id);
        self.agent_id.push(r.agent_id);
        self.last_step.push(r.last_step);
        self.effective_date.push(r.effective_date);
        self.period.push(r.enrollment_period_type_id);
        self.medical_carrier_id.push(r.medical_carrier_id);
        self.dental_carrier_id.push(r.dental_carrier_id);
        self.vision_carrier_id.push(r.vision_carrier_id);
        self.network.push(r.medical_network_type_id);
        self.skip_medical.push(r.skip_medical);
        self.skip_dental.push(r.skip_dental);
        self.skip_vision.push(r.skip_vision);
        self.skip_pcp.push(r.skip_pcp);
        self.submission_time.push(r.submission_time);
        self.created_at.push(r.created_at);
        self.updated_at.push(r.updated_at);
        self.data.push(r.data);
        self.rules_hash.push(hash.to_string());
        self.agent_started.push(r.agent_started);
        self.started_by.push(r.started_by_user_id);
        self.subdomain.push(r.subdomain);
    }
}

/// The demo messages: fixed ids, so loading twice adds nothing.
struct DemoMessage {
    id: u128,
    title: &'static str,
    content: &'static str,
    sticky: bool,
    /// Days before today.
    published: i64,
    /// Days after today.
    expires: Option<i64>,
    code: Option<&'static str>,
}

const MESSAGES: &[DemoMessage] = &[
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0001,
        title: "Welcome to your agent dashboard",
        content: "<p>Your quotes and submissions are in the <strong>Quoting</strong> and \
                  <strong>Submissions</strong> lists on the left. Questions? Write to \
                  <a href=\"mailto:support@enrollflow.example.com\">support@enrollflow.example.com</a>.</p>",
        sticky: true,
        published: 30,
        expires: None,
        code: Some("WELCOME"),
    },
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0002,
        title: "Open Enrollment is under way",
        content: "<p>Open Enrollment runs until <strong>January 15</strong>. Applications made by \
                  December 15 take effect on January 1.</p>",
        sticky: false,
        published: 19,
        expires: Some(56),
        code: Some("OEP"),
    },
    DemoMessage {
        id: 0x0de0_0000_0000_4000_8000_0000_0000_0003,
        title: "New dental and vision plans",
        content: "<p>Next year's dental and vision plans are in the catalog: quote them together \
                  with medical for a single application.</p>",
        sticky: false,
        published: 3,
        expires: None,
        code: None,
    },
];

async fn messages(pool: &PgPool, agents: &[DemoAgent], today: Date) -> anyhow::Result<u64> {
    let admin = store::first_admin(pool).await?;
    let agent_ids: Vec<Uuid> = agents.iter().map(|a| a.id).collect();
    let mut created = 0;
    let mut tx = pool.begin().await?;
    for m in MESSAGES {
        let id = Uuid::from_u128(m.id);
        let publish = today - Duration::days(m.published);
        created += store::insert_message(
            &mut tx,
            &store::NewMessage {
                id,
                title: m.title,
                content: m.content,
                sticky: m.sticky,
                publish_date: publish,
                expires: m.expires.map(|d| today + Duration::days(d)),
                code: m.code,
                created_at: publish
                    .with_time(Time::from_hms(9, 0, 0).unwrap_or(Time::MIDNIGHT))
                    .assume_utc(),
                created_by: admin,
            },
            &agent_ids,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(created)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn next_months_and_ages() {
        assert_eq!(
            first_of_next_month(date!(2024 - 12 - 15)),
            date!(2025 - 01 - 01)
        );
        assert_eq!(
            first_of_next_month(date!(2024 - 02 - 29)),
            date!(2024 - 03 - 01)
        );
        assert_eq!(age_on(date!(1990 - 06 - 15), date!(2024 - 06 - 14)), 33);
        assert_eq!(age_on(date!(1990 - 06 - 15), date!(2024 - 06 - 15)), 34);
    }
}
