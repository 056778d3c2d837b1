//! The made-up answers of the demo data come from `demo/answers.yaml`, a minijinja template of
//! each step's answers, rendered for each made-up household (compiled into the binary; its test
//! walks rendered answers through the rules' forms). The step ids and the answers' choices are
//! the file's; the generator gives it only the people.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use minijinja::{Environment, Error, ErrorKind, State, UndefinedBehavior, Value};
use serde::Serialize;
use serde_json::Map;

/// The template's text.
const TEMPLATE: &str = include_str!("../../../demo/answers.yaml");

/// A made-up household, as the template reads it (see the file's comment).
#[derive(Debug, Serialize)]
pub(super) struct Household {
    /// The enrollment types the first step offers that this application may be.
    pub(super) offered: Vec<String>,
    /// The day the application was started, and the day of its qualifying event (YYYY-MM-DD).
    pub(super) created: String,
    pub(super) event: String,
    pub(super) agent_applying: bool,
    pub(super) agent_name: String,
    pub(super) place: Place,
    pub(super) billing: Option<Billing>,
    pub(super) sub: Subscriber,
    pub(super) spouse: Option<Member>,
    pub(super) dependents: Vec<Member>,
}

#[derive(Debug, Serialize)]
pub(super) struct Place {
    pub(super) zip: String,
    pub(super) county: u16,
    pub(super) city: String,
}

#[derive(Debug, Serialize)]
pub(super) struct Billing {
    pub(super) street: String,
    pub(super) zip: String,
    pub(super) county: u16,
    pub(super) city: String,
}

#[derive(Debug, Serialize)]
pub(super) struct Subscriber {
    pub(super) first: String,
    pub(super) last: String,
    pub(super) gender: String,
    pub(super) birth: String,
    pub(super) tobacco: u8,
    pub(super) ssn: String,
    pub(super) email: String,
    pub(super) phone: String,
    pub(super) alt_phone: Option<String>,
    pub(super) street: String,
}

#[derive(Debug, Serialize)]
pub(super) struct Member {
    pub(super) first: String,
    pub(super) gender: String,
    pub(super) birth: String,
    pub(super) tobacco: u8,
    pub(super) ssn: String,
}

/// A number drawn for this application (`seed`) and this key: the same for the same pair.
fn draw(state: &State, key: &str) -> u64 {
    let seed = state
        .lookup("seed")
        .and_then(|v| u64::try_from(v).ok())
        .unwrap_or(0);
    let mut h = std::hash::DefaultHasher::new();
    (seed, key).hash(&mut h);
    h.finish()
}

/// `pick(list, key)`: one of the list's items.
fn pick(state: &State, list: Vec<Value>, key: &str) -> Result<Value, Error> {
    let n = u64::try_from(list.len()).unwrap_or(u64::MAX);
    if n == 0 {
        return Err(Error::new(
            ErrorKind::InvalidOperation,
            "pick from an empty list",
        ));
    }
    let i = usize::try_from(draw(state, key) % n).unwrap_or(0);
    Ok(list[i].clone())
}

/// `draw(key)`: a number from 0 (included) to 1 (excluded).
fn unit(state: &State, key: &str) -> f64 {
    (draw(state, key) >> 11) as f64 / (1u64 << 53) as f64
}

fn environment() -> Result<&'static Environment<'static>, &'static Error> {
    static ENV: OnceLock<Result<Environment<'static>, Error>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.add_function("pick", pick);
        env.add_function("draw", unit);
        env.add_template("answers", TEMPLATE)?;
        Ok(env)
    })
    .as_ref()
}

/// The answers of `household`, by the step that asks them.
pub(super) fn render(
    household: &Household,
    seed: u64,
) -> anyhow::Result<Map<String, serde_json::Value>> {
    let env = environment().map_err(|e| anyhow::anyhow!("demo/answers.yaml: {e:#}"))?;
    let text = env
        .get_template("answers")?
        .render(minijinja::context! { seed => seed, ..Value::from_serialize(household) })
        .map_err(|e| anyhow::anyhow!("demo/answers.yaml: {e:#}"))?;
    serde_saphyr::from_str(&text)
        .map_err(|e| anyhow::anyhow!("demo/answers.yaml, as rendered: {e}\n{text}"))
}
