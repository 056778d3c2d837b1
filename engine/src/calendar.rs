//! `rules/calendar.yaml`, typed: the plan years with their open enrollment and effective-date
//! bands, and the dashboard's countdown texts. Read once when the rule set loads (a file an analyst
//! broke is a load problem with its line, never a card quietly not drawn); scripts still read the
//! same file as `data.calendar`.
//!
//! The dashboard's countdowns (`server/src/http/home.rs`) and the demo data read it through
//! `Engine::calendar()`.

use serde::{Deserialize, Deserializer};
use time::Date;

/// The calendar of the plan years.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Calendar {
    pub plan_years: Vec<PlanYear>,
    #[serde(default)]
    pub countdowns: Option<Countdowns>,
}

/// A plan year: its open enrollment and which applications take effect when.
#[derive(Debug, Clone, Deserialize)]
pub struct PlanYear {
    pub year: i32,
    pub open_enrollment: Period,
    /// In date order: an application made on or before `through` takes effect on `effective`.
    #[serde(default)]
    pub effective_dates: Vec<Band>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Period {
    #[serde(deserialize_with = "date")]
    pub start: Date,
    #[serde(deserialize_with = "date")]
    pub end: Date,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Band {
    #[serde(deserialize_with = "date")]
    pub through: Date,
    #[serde(deserialize_with = "date")]
    pub effective: Date,
}

/// The texts of a countdown card: `{days}` and `{year}` are filled in.
#[derive(Debug, Clone, Deserialize)]
pub struct Messages {
    pub before: String,
    pub during: String,
}

/// The Medicare Annual Enrollment Period: the same days every year.
#[derive(Debug, Clone, Deserialize)]
pub struct MedicareCountdown {
    /// MM-DD.
    pub start: String,
    /// MM-DD.
    pub end: String,
    /// `{year}` in the messages: the period's year plus this.
    #[serde(default)]
    pub coverage_year_offset: i32,
    #[serde(flatten)]
    pub messages: Messages,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Countdowns {
    pub individual: Messages,
    pub medicare: MedicareCountdown,
}

fn date<'de, D: Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
    let s = String::deserialize(d)?;
    crate::dates::parse(&s)
        .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a date (YYYY-MM-DD)")))
}

impl Calendar {
    /// The plan year whose coverage starts in `year`.
    pub fn year(&self, year: i32) -> Option<&PlanYear> {
        self.plan_years.iter().find(|y| y.year == year)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn the_calendar_reads_dates_and_refuses_a_wrong_one_with_its_line() {
        let text = "plan_years:\n  - year: 2025\n    open_enrollment: { start: 2024-11-01, end: 2025-01-15 }\n    effective_dates:\n      - { through: 2024-12-15, effective: 2025-01-01 }\n";
        let c: Calendar = crate::yaml::parse("rules/calendar.yaml", text).expect("parses");
        let y = c.year(2025).expect("2025");
        assert_eq!(y.open_enrollment.end, date!(2025 - 01 - 15));
        assert_eq!(y.effective_dates[0].effective, date!(2025 - 01 - 01));
        assert!(c.countdowns.is_none());
        let broken = text.replace("2025-01-15", "Jan 15");
        let problem =
            crate::yaml::parse::<Calendar>("rules/calendar.yaml", &broken).expect_err("refused");
        assert!(
            problem.to_string().contains("rules/calendar.yaml:3"),
            "{problem}"
        );
    }
}
