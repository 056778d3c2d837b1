//! The context of an evaluation, known on the server and not typed by the applicant: the day,
//! who is applying, and what the agent whose site this is offers.

use serde::{Deserialize, Serialize};

/// Who is filling in the application.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Applying {
    #[default]
    Consumer,
    Agent,
}

/// What the agent whose site this is offers (spec part 1, section 3 "Agent branding").
#[derive(Debug, Clone, Default, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentFlags {
    /// The agent's carrier flags that are on: the catalog's `agent_flag` names
    /// (`rules/catalog/carriers.yaml`; today `display_bcbsm`, `display_ph`). Rules see them as
    /// `ctx.agent.offers` and the carriers they make quoted as `ctx.agent.carriers` (ids; a carrier
    /// without an `agent_flag` always).
    pub offers: Vec<String>,
    pub marketplace_certified: bool,
    pub display_medicare: bool,
    pub name: String,
    pub npn: String,
}

/// The context of an evaluation: known on the server, not typed by the applicant.
#[derive(Debug, Clone, Hash, Serialize, Deserialize)]
pub struct Context {
    #[serde(with = "iso_date")]
    pub today: time::Date,
    #[serde(default)]
    pub applying: Applying,
    #[serde(default)]
    pub agent: AgentFlags,
}

mod iso_date {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &time::Date, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&crate::dates::format(*d))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<time::Date, D::Error> {
        let s = String::deserialize(d)?;
        crate::dates::parse(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a date")))
    }
}
