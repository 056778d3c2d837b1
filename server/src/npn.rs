//! A National Producer Number: the 1 to 10 digits NIPR gives a licensed agent (the spec's NPN
//! input takes at most 10 characters). Parsed where it comes in (an admin's search, the agents
//! file, the CLI), so a look-up never runs on text that cannot be one.
//!
//! Text that cannot be one answers "Agent not found" without a query.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, sqlx::Type,
)]
#[serde(try_from = "String", into = "String")]
#[sqlx(transparent)]
pub struct Npn(String);

/// The most characters an NPN has (spec part 1, "NPN input max 10 characters").
pub const NPN_MAX: usize = 10;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAnNpn {
    #[error("An NPN has at most 10 characters.")]
    TooLong,
    #[error("An NPN is 1 to 10 digits.")]
    NotDigits,
}

impl Npn {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Npn {
    type Err = NotAnNpn;

    /// Surrounding spaces are dropped (a pasted number); anything else must be digits.
    fn from_str(s: &str) -> Result<Self, NotAnNpn> {
        let s = s.trim();
        if s.chars().count() > NPN_MAX {
            return Err(NotAnNpn::TooLong);
        }
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NotAnNpn::NotDigits);
        }
        Ok(Npn(s.to_string()))
    }
}

impl TryFrom<String> for Npn {
    type Error = NotAnNpn;
    fn try_from(s: String) -> Result<Self, NotAnNpn> {
        s.parse()
    }
}

impl From<Npn> for String {
    fn from(n: Npn) -> String {
        n.0
    }
}

impl fmt::Display for Npn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_to_ten_digits() {
        assert_eq!(
            "17439021".parse::<Npn>().map(|n| n.to_string()),
            Ok("17439021".into())
        );
        assert_eq!(
            " 99 ".parse::<Npn>().map(|n| n.to_string()),
            Ok("99".into())
        );
        assert_eq!(
            "1234567890".parse::<Npn>().map(|n| n.as_str().len()),
            Ok(10)
        );
        assert_eq!("12345678901".parse::<Npn>(), Err(NotAnNpn::TooLong));
        assert_eq!("".parse::<Npn>(), Err(NotAnNpn::NotDigits));
        assert_eq!("12ab".parse::<Npn>(), Err(NotAnNpn::NotDigits));
        assert_eq!("1'; --".parse::<Npn>(), Err(NotAnNpn::NotDigits));
    }

    #[test]
    fn files_with_a_bad_npn_are_refused() {
        let ok: Npn = serde_json::from_str("\"18820457\"").expect("an NPN");
        assert_eq!(
            serde_json::to_string(&ok).expect("serializes"),
            "\"18820457\""
        );
        assert!(serde_json::from_str::<Npn>("\"N-1\"").is_err());
    }
}
