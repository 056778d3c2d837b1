//! Per-address rate limits on what anyone can ask without an account and what costs the server
//! the most: new applications, document uploads, PDFs and exports. GCRA
//! buckets from `governor`, keyed by the client's address, one set per instance (a burst spread
//! over N instances gets N times the limit: enough to stop one client flooding; the limits that
//! must hold across instances, logins and forgot-password, are counted in PostgreSQL).

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// What a request spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    NewApplication,
    Upload,
    Pdf,
    Export,
}

pub struct Limits {
    buckets: Option<[DefaultKeyedRateLimiter<IpAddr>; 4]>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("on", &self.buckets.is_some())
            .finish()
    }
}

impl Limits {
    /// `per_minute` per address and bucket, a burst of half of it; 0: no limits.
    pub fn new(per_minute: u32) -> Self {
        let buckets = NonZeroU32::new(per_minute).map(|rate| {
            let burst = NonZeroU32::new(per_minute / 2).unwrap_or(NonZeroU32::MIN);
            let quota = Quota::per_minute(rate).allow_burst(burst);
            std::array::from_fn(|_| RateLimiter::keyed(quota))
        });
        Self { buckets }
    }

    /// Spends one from the address's bucket: `Err(seconds)` to wait when it is empty. A request
    /// without a known address is not limited (it cannot be told apart).
    pub fn spend(&self, bucket: Bucket, address: Option<IpAddr>) -> Result<(), u64> {
        let (Some(buckets), Some(address)) = (&self.buckets, address) else {
            return Ok(());
        };
        let limiter = &buckets[bucket as usize];
        limiter.check_key(&address).map_err(|not_until| {
            not_until
                .wait_time_from(DefaultClock::default().now())
                .as_secs()
                .max(1)
        })
    }

    /// Forgets addresses whose buckets are full again (the sweeper calls it).
    pub fn forget_idle(&self) {
        for b in self.buckets.iter().flatten() {
            b.retain_recent();
            b.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_burst_then_waits_and_others_are_not_affected() {
        let limits = Limits::new(10);
        let a: IpAddr = "203.0.113.7".parse().expect("ip");
        let b: IpAddr = "203.0.113.8".parse().expect("ip");
        for _ in 0..5 {
            assert_eq!(limits.spend(Bucket::Pdf, Some(a)), Ok(()));
        }
        let wait = limits.spend(Bucket::Pdf, Some(a)).expect_err("empty");
        assert!((1..=6).contains(&wait), "{wait}");
        assert_eq!(limits.spend(Bucket::Pdf, Some(b)), Ok(()));
        assert_eq!(limits.spend(Bucket::Export, Some(a)), Ok(()));
        assert_eq!(Limits::new(0).spend(Bucket::Pdf, Some(a)), Ok(()));
    }
}
