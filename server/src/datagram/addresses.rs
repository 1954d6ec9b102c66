//! What one address may hold of the datagram path: a number of sessions (handshakes included)
//! and a share of datagrams a second, so a flooding address cannot take the sessions or the
//! server's time that everyone else's play needs.
//!
//! An address is the QUIC peer's: an IPv4 address (an IPv4-mapped IPv6 one counts as its IPv4
//! form), or the /64 an IPv6 address is in, as for moderation's address limits. The map holds
//! one entry per address with a session or handshake open, removed with its last one.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::Limits;
use crate::limits::TokenBucket;

/// The address a limit counts: the canonical IPv4 address, or the IPv6 /64's first address.
fn key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

#[derive(Debug)]
struct Entry {
    /// Sessions and handshakes open from the address.
    sessions: usize,
    /// The datagrams its sessions share.
    bucket: TokenBucket,
}

#[derive(Debug)]
struct Inner {
    limits: Limits,
    entries: Mutex<HashMap<IpAddr, Entry>>,
}

/// Every address's sessions and datagram budget.
#[derive(Clone, Debug)]
pub(super) struct Addresses {
    inner: Arc<Inner>,
}

/// A session (or handshake) counted against its address until dropped.
#[derive(Debug)]
pub(super) struct Admitted {
    inner: Arc<Inner>,
    key: IpAddr,
}

impl Addresses {
    pub(super) fn new(limits: &Limits) -> Addresses {
        Addresses {
            inner: Arc::new(Inner {
                limits: limits.clone(),
                entries: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// Counts one more session from `ip`, or `None` when the address holds
    /// `Limits::datagram_sessions_per_address` already (0: no limit).
    pub(super) fn admit(&self, ip: IpAddr) -> Option<Admitted> {
        let limits = &self.inner.limits;
        let key = key(ip);
        let mut entries = self.inner.entries.lock().unwrap_or_else(|p| p.into_inner());
        let entry = entries.entry(key).or_insert_with(|| Entry {
            sessions: 0,
            bucket: TokenBucket::new(
                limits.datagrams_per_address_per_second,
                limits.datagrams_per_address_burst,
                Instant::now(),
            ),
        });
        let cap = limits.datagram_sessions_per_address;
        if cap != 0 && entry.sessions >= cap {
            return None;
        }
        entry.sessions += 1;
        Some(Admitted {
            inner: Arc::clone(&self.inner),
            key,
        })
    }
}

impl Admitted {
    /// Takes one datagram from the address's budget; `false` when the address is over
    /// `Limits::datagrams_per_address_per_second` (0: no limit).
    pub(super) fn take(&self, now: Instant) -> bool {
        if self.inner.limits.datagrams_per_address_per_second == 0 {
            return true;
        }
        let mut entries = self.inner.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get_mut(&self.key)
            .is_none_or(|entry| entry.bucket.take(now))
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut entries = self.inner.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = entries.get_mut(&self.key) {
            entry.sessions = entry.sessions.saturating_sub(1);
            if entry.sessions == 0 {
                entries.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("an address")
    }

    fn limits(sessions: usize, rate: u32) -> Limits {
        Limits {
            datagram_sessions_per_address: sessions,
            datagrams_per_address_per_second: rate,
            datagrams_per_address_burst: rate,
            ..Limits::default()
        }
    }

    #[test]
    fn an_address_holds_at_most_its_sessions_and_frees_them_when_they_end() {
        let a = Addresses::new(&limits(2, 100));
        let one = a.admit(ip("203.0.113.7")).expect("first");
        let _two = a
            .admit(ip("::ffff:203.0.113.7"))
            .expect("second, the same address mapped");
        assert!(a.admit(ip("203.0.113.7")).is_none(), "a third is refused");
        assert!(
            a.admit(ip("203.0.113.8")).is_some(),
            "another address is not"
        );
        drop(one);
        assert!(a.admit(ip("203.0.113.7")).is_some(), "a slot freed");
    }

    #[test]
    fn an_ipv6_64_is_one_address() {
        let a = Addresses::new(&limits(1, 100));
        let _one = a.admit(ip("2001:db8:1:2::1")).expect("first");
        assert!(a.admit(ip("2001:db8:1:2:ffff::9")).is_none());
        assert!(a.admit(ip("2001:db8:1:3::1")).is_some());
    }

    #[test]
    fn sessions_of_one_address_share_its_budget() {
        let a = Addresses::new(&limits(0, 10));
        let now = Instant::now();
        let (one, two) = (
            a.admit(ip("198.51.100.1")).expect("one"),
            a.admit(ip("198.51.100.1")).expect("two"),
        );
        let other = a.admit(ip("198.51.100.2")).expect("other");
        let taken = (0..20)
            .filter(|i| if i % 2 == 0 { &one } else { &two }.take(now))
            .count();
        assert_eq!(taken, 10, "ten between them, not ten each");
        assert!(other.take(now), "another address has its own");
    }

    #[test]
    fn zero_means_no_limit() {
        let a = Addresses::new(&limits(0, 0));
        let now = Instant::now();
        let held: Vec<Admitted> = (0..100)
            .map(|_| a.admit(ip("192.0.2.1")).expect("admitted"))
            .collect();
        assert!((0..10_000).all(|_| held[0].take(now)));
    }
}
