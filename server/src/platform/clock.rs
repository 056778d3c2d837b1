//! The one injectable clock. Every "now" and "today" in the server comes from here, so expiry and
//! plan-year behaviour can be tested without sleeping and demonstrated on any date
//! (`ENROLLFLOW_TODAY=YYYY-MM-DD` overrides the date), and a running server's clock can be moved
//! forward from outside (`ENROLLFLOW_CLOCK_SHIFT_FILE`: the seconds written in that file are added
//! to "now"), which is how the browser tests see a scheduled rule set take effect without waiting.
//!
//! `SystemClock` honours `ENROLLFLOW_TODAY`; `ManualClock` is the tests'.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// The system clock, with an optional fixed date for demonstrations and an optional shift read
/// from a file.
#[derive(Debug, Default)]
pub struct SystemClock {
    pub today_override: Option<Date>,
    pub shift: Option<Shift>,
}

impl SystemClock {
    /// Reads `ENROLLFLOW_TODAY` (YYYY-MM-DD) and `ENROLLFLOW_CLOCK_SHIFT_FILE` if set.
    pub fn from_env() -> anyhow::Result<Self> {
        let today_override = match std::env::var("ENROLLFLOW_TODAY") {
            Ok(s) if !s.trim().is_empty() => Some(parse_date(s.trim()).map_err(|_| {
                anyhow::anyhow!("ENROLLFLOW_TODAY must be a date like 2024-11-20, not `{s}`")
            })?),
            _ => None,
        };
        let shift = match std::env::var("ENROLLFLOW_CLOCK_SHIFT_FILE") {
            Ok(s) if !s.trim().is_empty() => Some(Shift::new(PathBuf::from(s.trim()))),
            _ => None,
        };
        Ok(Self {
            today_override,
            shift,
        })
    }

    fn shifted(&self, t: OffsetDateTime) -> OffsetDateTime {
        match &self.shift {
            Some(shift) => t + shift.seconds(),
            None => t,
        }
    }
}

/// Seconds added to the clock, read from a file (a whole number, possibly negative; a missing,
/// empty or unreadable file is no shift). Read again at most every [`Shift::REREAD`], so a
/// request does not pay a file read.
#[derive(Debug)]
pub struct Shift {
    file: PathBuf,
    reread: Duration,
    /// When the file was last read, and the seconds it held.
    read: Mutex<Option<(Instant, i64)>>,
}

impl Shift {
    pub const REREAD: Duration = Duration::from_millis(200);

    pub fn new(file: PathBuf) -> Self {
        Shift {
            file,
            reread: Self::REREAD,
            read: Mutex::new(None),
        }
    }

    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    fn seconds(&self) -> time::Duration {
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        let seconds = match *read {
            Some((at, seconds)) if at.elapsed() < self.reread => seconds,
            _ => {
                let seconds = std::fs::read_to_string(&self.file)
                    .ok()
                    .and_then(|t| t.trim().parse::<i64>().ok())
                    .unwrap_or(0);
                *read = Some((Instant::now(), seconds));
                seconds
            }
        };
        time::Duration::seconds(seconds)
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
        let now = match self.today_override {
            Some(d) => now.replace_date(d),
            None => now,
        };
        self.shifted(now)
    }
    /// The date of [`Self::now`]: the fixed date when one is set (unless a shift carries the time
    /// of day past midnight).
    fn today(&self) -> Date {
        self.now().date()
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
    fn a_shift_file_moves_now_forward_and_real_now_stays() {
        let dir = std::env::temp_dir().join(format!("enrollflow-shift-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("shift");
        let clock = SystemClock {
            today_override: None,
            // Read at every call.
            shift: Some(Shift {
                reread: Duration::ZERO,
                ..Shift::new(file.clone())
            }),
        };
        // No file yet: no shift.
        let before = clock.now();
        assert!((before - OffsetDateTime::now_utc()).abs() < time::Duration::seconds(5));
        std::fs::write(&file, "3600\n").expect("written");
        let shifted = clock.now() - OffsetDateTime::now_utc();
        assert!(
            (shifted - time::Duration::hours(1)).abs() < time::Duration::seconds(5),
            "{shifted}"
        );
        assert!((clock.real_now() - OffsetDateTime::now_utc()).abs() < time::Duration::seconds(5));
        std::fs::write(&file, "not a number").expect("written");
        assert!((clock.now() - OffsetDateTime::now_utc()).abs() < time::Duration::seconds(5));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_date_override_parses_iso_dates_only() {
        assert!(parse_date("2024-11-20").is_ok());
        assert!(parse_date("11/20/2024").is_err());
    }
}
