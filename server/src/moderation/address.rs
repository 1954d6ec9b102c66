//! Addresses as the limits see them: a player's address key (an IPv4 address, or the /64 an
//! IPv6 address is in, since one household or machine gets a whole /64), and ranges banned by
//! an operator in CIDR form.
//!
//! Why the `ipnet` crate: CIDR parsing and "is this address in the range" are its whole job
//! (no dependencies of its own); parsing ranges by hand is where off-by-one masks come from.

use std::net::IpAddr;

use ipnet::IpNet;

/// An address in canonical form: an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a
/// dual-stack listener reports) is the IPv4 address it maps.
pub(crate) fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// The key the registration limits and the ranked same-address rule compare:
/// `v4:203.0.113.7`, or `v6:2001:db8:1:2::/64`.
pub(crate) fn key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => format!("v4:{v4}"),
        IpAddr::V6(v6) => {
            let net = ipnet::Ipv6Net::new(v6, 64).map(|n| n.trunc());
            match net {
                Ok(n) => format!("v6:{n}"),
                Err(_) => format!("v6:{v6}"),
            }
        }
    }
}

/// Why a range was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RangeError {
    /// Not `ADDRESS/PREFIX`.
    #[error("not an address range: write it as ADDRESS/PREFIX (203.0.113.0/24, 2001:db8::/32)")]
    Syntax,
    /// A range wider than an operator should ban by accident.
    #[error("/{0} is wider than the widest range that may be banned (/8 for IPv4, /16 for IPv6)")]
    TooWide(u8),
}

/// Parses an operator's range (`203.0.113.0/24`; a single address is `/32` or `/128`): host
/// bits are cleared, and ranges wider than /8 (IPv4) or /16 (IPv6) are refused.
pub(crate) fn parse_range(text: &str) -> Result<IpNet, RangeError> {
    let text = text.trim();
    if text.len() > 64 || !text.contains('/') {
        return Err(RangeError::Syntax);
    }
    let net = text.parse::<IpNet>().map_err(|_| RangeError::Syntax)?;
    let widest = match net {
        IpNet::V4(_) => 8,
        IpNet::V6(_) => 16,
    };
    if net.prefix_len() < widest {
        return Err(RangeError::TooWide(net.prefix_len()));
    }
    Ok(net.trunc())
}

/// Whether `ip` is in `net` (an IPv4 range also holds IPv4-mapped IPv6 addresses).
pub(crate) fn contains(net: &IpNet, ip: IpAddr) -> bool {
    net.contains(&canonical(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("an address")
    }

    #[test]
    fn ipv6_addresses_share_a_key_per_64() {
        assert_eq!(key(ip("2001:db8:1:2:aaaa::1")), "v6:2001:db8:1:2::/64");
        assert_eq!(key(ip("2001:db8:1:2:bbbb::9")), key(ip("2001:db8:1:2::1")));
        assert_ne!(key(ip("2001:db8:1:3::1")), key(ip("2001:db8:1:2::1")));
        assert_eq!(key(ip("203.0.113.7")), "v4:203.0.113.7");
        assert_eq!(key(ip("::ffff:203.0.113.7")), "v4:203.0.113.7");
    }

    #[test]
    fn ranges_parse_strictly_and_match() {
        let net = parse_range("203.0.113.9/24").expect("a range");
        assert_eq!(net.to_string(), "203.0.113.0/24", "host bits cleared");
        assert!(contains(&net, ip("203.0.113.200")));
        assert!(contains(&net, ip("::ffff:203.0.113.5")));
        assert!(!contains(&net, ip("203.0.114.1")));
        let one = parse_range("2001:db8::1/128").expect("one address");
        assert!(contains(&one, ip("2001:db8::1")) && !contains(&one, ip("2001:db8::2")));
        for bad in [
            "203.0.113.9",
            "x/24",
            "203.0.113.0/33",
            "",
            "1.2.3.4/24/2",
            " /8",
        ] {
            assert_eq!(parse_range(bad), Err(RangeError::Syntax), "{bad:?}");
        }
        assert_eq!(parse_range("10.0.0.0/7"), Err(RangeError::TooWide(7)));
        assert_eq!(parse_range("::/0"), Err(RangeError::TooWide(0)));
    }
}
