//! A US ZIP code: exactly five ASCII digits. Parsed once where it comes in (a URL, a catalog
//! file), so every function past the parser holds a ZIP, not a string that might be one.

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Zip([u8; 5]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a 5-digit ZIP code")]
pub struct NotAZip(pub String);

impl Zip {
    pub fn as_str(&self) -> &str {
        // Five ASCII digits are always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The first three digits: the sectional center, which names the state (`rules/zip_states.yaml`).
    pub fn prefix(&self) -> &str {
        &self.as_str()[..3]
    }
}

impl FromStr for Zip {
    type Err = NotAZip;

    fn from_str(s: &str) -> Result<Self, NotAZip> {
        let b = s.as_bytes();
        match <[u8; 5]>::try_from(b) {
            Ok(digits) if digits.iter().all(u8::is_ascii_digit) => Ok(Zip(digits)),
            _ => Err(NotAZip(s.to_string())),
        }
    }
}

impl fmt::Display for Zip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_digits_and_nothing_else() {
        let z: Zip = "48823".parse().expect("a ZIP");
        assert_eq!(z.as_str(), "48823");
        assert_eq!(z.prefix(), "488");
        assert_eq!(z.to_string(), "48823");
        for bad in [
            "",
            "4882",
            "488230",
            "4882a",
            "48 23",
            "４８８２３",
            "48823\n",
        ] {
            assert_eq!(bad.parse::<Zip>(), Err(NotAZip(bad.to_string())), "{bad:?}");
        }
    }
}
