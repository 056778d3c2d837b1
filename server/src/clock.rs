//! The one injectable clock. Every "now" and "today" in the server comes from here, so expiry and
//! plan-year behaviour can be tested without sleeping and demonstrated on any date
//! (`ENROLLFLOW_TODAY=YYYY-MM-DD` overrides the date).

use std::sync::Mutex;
use std::time::Duration;

use time::{Date, OffsetDateTime};

pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> OffsetDateTime;
    fn today(&self) -> Date;
    /// The physical time, never moved to a demonstration date: what a phone's authenticator app
    /// counts second-factor codes from.
    fn real_now(&self) -> OffsetDateTime {
        self.now()
    }
}

/// The system clock, with an optional fixed date for demonstrations.
#[derive(Debug, Default)]
pub struct SystemClock {
    pub today_override: Option<Date>,
}

impl SystemClock {
    /// Reads `ENROLLFLOW_TODAY` (YYYY-MM-DD) if set.
    pub fn from_env() -> anyhow::Result<Self> {
        let today_override = match std::env::var("ENROLLFLOW_TODAY") {
            Ok(s) if !s.trim().is_empty() => Some(parse_date(s.trim()).map_err(|_| {
                anyhow::anyhow!("ENROLLFLOW_TODAY must be a date like 2024-11-20, not `{s}`")
            })?),
            _ => None,
        };
        Ok(Self { today_override })
    }
}

fn parse_date(s: &str) -> Result<Date, time::error::Parse> {
    Date::parse(s, time::macros::format_description!("[year]-[month]-[day]"))
}

impl Clock for SystemClock {
    /// The real time of day; on the overriding date when one is set, so that "now" and "today"
    /// agree (the dashboard's periods and year-to-date figures count from the same day).
    fn now(&self) -> OffsetDateTime {
        let now = OffsetDateTime::now_utc();
        match self.today_override {
            Some(d) => now.replace_date(d),
            None => now,
        }
    }
    fn today(&self) -> Date {
        self.today_override
            .unwrap_or_else(|| OffsetDateTime::now_utc().date())
    }
    fn real_now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }
}

/// A clock that only moves when told to: for tests.
#[derive(Debug)]
pub struct ManualClock(Mutex<OffsetDateTime>);

impl ManualClock {
    pub fn new(start: OffsetDateTime) -> Self {
        Self(Mutex::new(start))
    }

    pub fn advance(&self, by: Duration) {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *t += by;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn today(&self) -> Date {
        self.now().date()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_advanced() {
        let start = time::macros::datetime!(2024-11-20 10:00 UTC);
        let c = ManualClock::new(start);
        assert_eq!(c.now(), start);
        c.advance(Duration::from_secs(31 * 60));
        assert_eq!(c.now(), time::macros::datetime!(2024-11-20 10:31 UTC));
        assert_eq!(c.today(), time::macros::date!(2024 - 11 - 20));
    }

    #[test]
    fn the_date_override_parses_iso_dates_only() {
        assert!(parse_date("2024-11-20").is_ok());
        assert!(parse_date("11/20/2024").is_err());
    }
}
