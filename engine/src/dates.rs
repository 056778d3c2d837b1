//! Calendar helpers for rules, on ISO dates (`"2024-11-20"`), registered in Rhai as `date::`.
//! ISO strings also compare correctly with `<`, `==` and `>` in scripts.

use rhai::{EvalAltResult, Module};
use time::{Date, Month};

pub type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

const ISO: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

pub fn parse(s: &str) -> Option<Date> {
    // The rules read dates all the time (a census of 15 dependents: about 56 per submission, some
    // 600 instructions each through the format description). `YYYY-MM-DD` of digits is read here
    // directly; anything else (signs, other lengths) the way the format reads it.
    match s.as_bytes() {
        &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1]
            if [y0, y1, y2, y3, m0, m1, d0, d1]
                .iter()
                .all(u8::is_ascii_digit) =>
        {
            let n = |a: u8, b: u8| (a - b'0') * 10 + (b - b'0');
            let year = i32::from(n(y0, y1)) * 100 + i32::from(n(y2, y3));
            let month = time::Month::try_from(n(m0, m1)).ok()?;
            Date::from_calendar_date(year, month, n(d0, d1)).ok()
        }
        _ => Date::parse(s, ISO).ok(),
    }
}

pub fn format(d: Date) -> String {
    d.format(ISO).unwrap_or_default()
}

fn date(s: &str) -> RhaiResult<Date> {
    parse(s).ok_or_else(|| format!("`{s}` is not a date (YYYY-MM-DD)").into())
}

/// "January 1, 2025": a date as the printed sheets and the e-mails write it.
pub fn long(d: Date) -> String {
    format!("{} {}, {}", d.month(), d.day(), d.year())
}

/// Whole years from `birth` to `on` (a person born on Feb 29 turns a year older on Mar 1).
pub fn age_at(birth: Date, on: Date) -> i64 {
    let mut age = i64::from(on.year() - birth.year());
    if (on.month() as u8, on.day()) < (birth.month() as u8, birth.day()) {
        age -= 1;
    }
    age
}

/// The first day of the month after `d`.
pub fn first_of_next_month(d: Date) -> Date {
    let (y, m) = if d.month() == Month::December {
        (d.year() + 1, Month::January)
    } else {
        (d.year(), d.month().next())
    };
    Date::from_calendar_date(y, m, 1).unwrap_or(d)
}

pub fn module() -> Module {
    let mut m = Module::new();
    m.set_native_fn("valid", |s: &str| Ok(parse(s).is_some()));
    m.set_native_fn("age_at", |birth: &str, on: &str| {
        Ok(age_at(date(birth)?, date(on)?))
    });
    m.set_native_fn("add_days", |s: &str, n: i64| {
        let d = date(s)?;
        // `Duration::days` panics when n days overflow a duration: check the multiplication first.
        let moved = n
            .checked_mul(86_400)
            .map(time::Duration::seconds)
            .and_then(|by| d.checked_add(by))
            .ok_or_else(|| format!("`{s}` plus {n} days is out of range"))?;
        Ok(format(moved))
    });
    m.set_native_fn("days_between", |a: &str, b: &str| {
        Ok((date(b)? - date(a)?).whole_days())
    });
    m.set_native_fn("first_of_next_month", |s: &str| {
        Ok(format(first_of_next_month(date(s)?)))
    });
    m.set_native_fn("year", |s: &str| Ok(i64::from(date(s)?.year())));
    m.set_native_fn("month", |s: &str| Ok(i64::from(date(s)?.month() as u8)));
    m.set_native_fn("day", |s: &str| Ok(i64::from(date(s)?.day())));
    m.set_native_fn("make", |y: i64, mo: i64, d: i64| {
        let month = u8::try_from(mo)
            .ok()
            .and_then(|mo| Month::try_from(mo).ok());
        let made = match (i32::try_from(y), month, u8::try_from(d)) {
            (Ok(y), Some(mo), Ok(d)) => Date::from_calendar_date(y, mo, d).ok(),
            _ => None,
        };
        made.map(format)
            .ok_or_else(|| -> Box<EvalAltResult> { format!("{y}-{mo}-{d} is not a date").into() })
    });
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn age_counts_whole_years_at_the_date() {
        assert_eq!(age_at(date!(2008 - 12 - 15), date!(2024 - 12 - 14)), 15);
        assert_eq!(age_at(date!(2008 - 12 - 15), date!(2024 - 12 - 15)), 16);
        assert_eq!(age_at(date!(2008 - 02 - 29), date!(2025 - 02 - 28)), 16);
        assert_eq!(age_at(date!(2008 - 02 - 29), date!(2025 - 03 - 01)), 17);
    }

    #[test]
    fn a_date_reads_as_the_iso_format_reads_it() {
        let format = |s: &str| Date::parse(s, ISO).ok();
        let mut cases: Vec<String> = [
            "2024-02-29",
            "2023-02-29",
            "2024-13-01",
            "2024-00-10",
            "2024-04-31",
            "2024-12-31",
            "0000-01-01",
            "9999-12-31",
            "1985-3-02",
            "1985-03-2",
            "+2024-01-01",
            "-0001-01-01",
            "2024/01/01",
            "2024-01-01 ",
            " 2024-01-01",
            "2024-01-0a",
            "",
            "2024-01",
            "１９８５-03-02",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every day of four years, leap year and century rules included, and the day after each
        // month's last.
        for year in [1900, 2000, 2023, 2024] {
            for month in 1..=12 {
                for day in 0..=32 {
                    cases.push(format!("{year:04}-{month:02}-{day:02}"));
                }
            }
        }
        for s in &cases {
            assert_eq!(parse(s), format(s), "{s:?}");
        }
        assert_eq!(parse("2024-02-29"), Some(date!(2024 - 02 - 29)));
        assert_eq!(parse("2023-02-29"), None);
    }

    #[test]
    fn first_of_next_month_rolls_the_year() {
        assert_eq!(
            first_of_next_month(date!(2024 - 12 - 01)),
            date!(2025 - 01 - 01)
        );
        assert_eq!(
            first_of_next_month(date!(2024 - 01 - 31)),
            date!(2024 - 02 - 01)
        );
    }
}
