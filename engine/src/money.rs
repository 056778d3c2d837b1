//! Money: whole cents in an `i64`, never a float. The catalog's files and the wire speak dollars
//! (`412.5`); everything in between adds and scales cents. One formatter for every place that shows
//! an amount (the rating explanation, the printed quote and summary, the plan sheets).
//!
//! `Display` is that formatter; `whole_or_cents` writes the catalog's amounts.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub const fn from_cents(cents: i64) -> Self {
        Money(cents)
    }

    /// Dollars as written in a file or sent by a browser, rounded to the nearest cent.
    pub fn from_dollars(dollars: f64) -> Self {
        Money((dollars * 100.0).round() as i64)
    }

    pub const fn cents(self) -> i64 {
        self.0
    }

    /// For the wire and JSON only: never compute with it.
    pub fn dollars(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// Multiplies by two factors in thousandths and rounds half up: cents × a/1000 × b/1000.
    pub fn scale(self, a_milli: i64, b_milli: i64) -> Money {
        let n = i128::from(self.0) * i128::from(a_milli) * i128::from(b_milli);
        let d: i128 = 1_000_000;
        let rounded = if n >= 0 {
            (n + d / 2) / d
        } else {
            (n - d / 2) / d
        };
        Money(i64::try_from(rounded).unwrap_or(if n >= 0 { i64::MAX } else { i64::MIN }))
    }

    /// Rounds up to a multiple of `step` whole dollars and gives whole dollars (a slider's bound).
    pub fn ceil_to_dollars(self, step: i64) -> i64 {
        let step = step.max(1) * 100;
        (self.0 + step - 1).div_euclid(step) * step / 100
    }

    /// A catalog amount (a deductible, an allowance): `$9,200` when whole, `$12.50` when not.
    pub fn whole_or_cents(self) -> String {
        if self.0 % 100 == 0 {
            let sign = if self.0 < 0 { "-" } else { "" };
            format!("{sign}${}", group(self.0.unsigned_abs() / 100))
        } else {
            self.to_string()
        }
    }
}

/// US dollars with cents: `$1,234.56`, `-$5.00`.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let c = self.0.unsigned_abs();
        write!(f, "{sign}${}.{:02}", group(c / 100), c % 100)
    }
}

fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

impl Add for Money {
    type Output = Money;
    fn add(self, o: Money) -> Money {
        Money(self.0.saturating_add(o.0))
    }
}

impl AddAssign for Money {
    fn add_assign(&mut self, o: Money) {
        *self = *self + o;
    }
}

impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

/// On the wire, dollars as a JSON number (`412.5`), as the spec's API shows premiums.
impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.dollars())
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = f64::deserialize(d)?;
        if v.is_finite() && v.abs() < 1e13 {
            Ok(Money::from_dollars(v))
        } else {
            Err(serde::de::Error::custom(format!(
                "{v} is not an amount of dollars"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_us_dollars() {
        assert_eq!(Money::from_cents(123_456_789).to_string(), "$1,234,567.89");
        assert_eq!(Money::from_cents(123_456).to_string(), "$1,234.56");
        assert_eq!(Money::from_cents(5).to_string(), "$0.05");
        assert_eq!(Money::ZERO.to_string(), "$0.00");
        assert_eq!(Money::from_cents(-500).to_string(), "-$5.00");
        assert_eq!(Money::from_cents(100_000_000).to_string(), "$1,000,000.00");
    }

    #[test]
    fn catalog_amounts_drop_zero_cents() {
        assert_eq!(Money::from_dollars(9200.0).whole_or_cents(), "$9,200");
        assert_eq!(Money::from_dollars(12.5).whole_or_cents(), "$12.50");
        assert_eq!(Money::ZERO.whole_or_cents(), "$0");
    }

    #[test]
    fn dollars_round_to_the_nearest_cent() {
        assert_eq!(Money::from_dollars(305.12).cents(), 30512);
        assert_eq!(Money::from_dollars(0.005).cents(), 1);
        assert_eq!(Money::from_dollars(1e-9).cents(), 0);
    }

    #[test]
    fn scaling_rounds_half_up() {
        assert_eq!(Money::from_cents(30512).scale(1278, 1000).cents(), 38994);
        assert_eq!(Money::from_cents(10010).scale(765, 1500).cents(), 11486);
        assert_eq!(Money::from_cents(20000).scale(765, 1000).cents(), 15300);
        assert_eq!(Money::from_cents(2).scale(250, 1000).cents(), 1);
    }

    #[test]
    fn slider_bounds_round_up_to_the_step() {
        assert_eq!(Money::from_cents(30001).ceil_to_dollars(10), 310);
        assert_eq!(Money::from_cents(30000).ceil_to_dollars(10), 300);
        assert_eq!(Money::from_cents(1).ceil_to_dollars(0), 1);
    }

    #[test]
    fn the_wire_speaks_dollars() {
        let m: Money = serde_json::from_str("412.5").expect("a number");
        assert_eq!(m.cents(), 41250);
        assert_eq!(serde_json::to_string(&m).expect("serializes"), "412.5");
        assert!(serde_json::from_str::<Money>("1e300").is_err());
        let total: Money = [m, Money::from_cents(50)].into_iter().sum();
        assert_eq!(total.cents(), 41300);
    }
}
