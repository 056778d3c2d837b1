//! Per-address rate limits on what anyone can ask without an account and what costs the server
//! the most: new sessions, new applications, page views, document uploads, PDFs and exports. GCRA
//! buckets from `governor`, keyed by the client's address, one set per instance (a burst spread
//! over N instances gets N times the limit: enough to stop one client flooding; the limits that
//! must hold across instances, logins and forgot-password, are counted in PostgreSQL).

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// The address a per-address limit counts under: an IPv4 address as it is, an IPv6 address by its
/// /64 network (one subscriber's usual allocation, which holds 2^64 addresses to rotate through),
/// an IPv4-mapped IPv6 address as the IPv4 address it is.
pub fn limit_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(network))
            }
        },
    }
}

/// What a request spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    NewApplication,
    Upload,
    Pdf,
    Export,
    /// A session started for a browser without one (each is a row in PostgreSQL).
    NewSession,
    /// A page view recorded (a row each).
    PageView,
}

/// How many more new sessions and page views than applications an address may make.
pub const VISIT_FACTOR: u32 = 4;

pub struct Limits {
    buckets: Option<[DefaultKeyedRateLimiter<IpAddr>; 6]>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("on", &self.buckets.is_some())
            .finish()
    }
}

impl Limits {
    /// `per_minute` per address and bucket, a burst of half of it; new sessions and page views,
    /// which every visit makes several of (an office behind one address shares them), four
    /// times as many; 0: no limits.
    pub fn new(per_minute: u32) -> Self {
        let buckets = NonZeroU32::new(per_minute).map(|_| {
            std::array::from_fn(|i| {
                let rate = if i == Bucket::NewSession as usize || i == Bucket::PageView as usize {
                    per_minute.saturating_mul(VISIT_FACTOR)
                } else {
                    per_minute
                };
                let burst = NonZeroU32::new(rate / 2).unwrap_or(NonZeroU32::MIN);
                let quota = NonZeroU32::new(rate)
                    .map_or(Quota::per_minute(NonZeroU32::MIN), Quota::per_minute)
                    .allow_burst(burst);
                RateLimiter::keyed(quota)
            })
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
        limiter.check_key(&limit_key(address)).map_err(|not_until| {
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
    fn ipv6_addresses_count_by_their_64_network_and_ipv4_by_themselves() {
        let key = |a: &str| limit_key(a.parse().expect("ip"));
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:ffff:1:2:3"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2::1").to_string(), "2001:db8:1:2::");
        assert_eq!(key("::ffff:203.0.113.9"), key("203.0.113.9"));
        assert_ne!(key("203.0.113.9"), key("203.0.113.10"));
    }

    #[test]
    fn the_addresses_of_one_64_network_share_a_bucket() {
        let limits = Limits::new(2);
        let a = |s: &str| Some(s.parse::<IpAddr>().expect("ip"));
        assert!(limits.spend(Bucket::Pdf, a("2001:db8::1")).is_ok());
        assert!(limits.spend(Bucket::Pdf, a("2001:db8::2")).is_err());
        assert!(limits.spend(Bucket::Pdf, a("2001:db8:0:1::1")).is_ok());
    }

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
        assert_eq!(limits.spend(Bucket::NewSession, Some(a)), Ok(()));
        assert_eq!(limits.spend(Bucket::PageView, Some(a)), Ok(()));
        assert_eq!(Limits::new(0).spend(Bucket::Pdf, Some(a)), Ok(()));
    }
}
