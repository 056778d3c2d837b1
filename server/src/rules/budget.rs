//! An overall time budget for one run of draft work (an impact), checked between its pieces.

use std::time::{Duration, Instant};

/// An overall budget for one run, checked between its pieces of work.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    until: Instant,
    of: Duration,
}

impl Budget {
    pub fn new(of: Duration) -> Self {
        Budget {
            until: Instant::now() + of,
            of,
        }
    }

    /// A budget of `of` in all, of which `left` remains (a run handed on after its start).
    pub fn resumed(left: Duration, of: Duration) -> Self {
        Budget {
            until: Instant::now() + left,
            of,
        }
    }

    /// The whole budget.
    pub fn of(&self) -> Duration {
        self.of
    }

    /// What is left of it.
    pub fn remaining(&self) -> Duration {
        self.until.saturating_duration_since(Instant::now())
    }

    /// The message that ends a run over its budget.
    pub fn check(&self) -> Result<(), String> {
        if Instant::now() > self.until {
            Err(Self::spent_message(self.of.as_secs()))
        } else {
            Ok(())
        }
    }

    /// What the analyst reads when a run was stopped at its budget of `secs` seconds.
    pub fn spent_message(secs: u64) -> String {
        format!(
            "The impact was stopped: it ran past its budget of {secs} seconds. A rule of the draft \
             may loop or be very slow; the scenarios and a preview show which."
        )
    }
}
