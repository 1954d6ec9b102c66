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

/// A range in canonical form: an IPv4-mapped IPv6 range inside `::ffff:0:0/96`
/// (`::ffff:127.0.0.0/104`) is the IPv4 range it maps (`127.0.0.0/8`), so it holds the same
/// peers [`canonical`] addresses do. Other ranges are unchanged.
pub(crate) fn canonical_range(net: IpNet) -> IpNet {
    let IpNet::V6(v6) = net else {
        return net;
    };
    let Some(prefix) = v6.prefix_len().checked_sub(96) else {
        return net;
    };
    match v6.network().to_ipv4_mapped() {
        Some(v4) => ipnet::Ipv4Net::new(v4, prefix).map_or(net, IpNet::V4),
        None => net,
    }
}

/// Parses an operator's range (`203.0.113.0/24`; a single address is `/32` or `/128`): host
/// bits are cleared, an IPv4-mapped range becomes its IPv4 range ([`canonical_range`]), and
/// ranges wider than /8 (IPv4) or /16 (IPv6) are refused.
pub(crate) fn parse_range(text: &str) -> Result<IpNet, RangeError> {
    let text = text.trim();
    if text.len() > 64 || !text.contains('/') {
        return Err(RangeError::Syntax);
    }
    let net = canonical_range(
        text.parse::<IpNet>()
            .map_err(|_| RangeError::Syntax)?
            .trunc(),
    );
    let widest = match net {
        IpNet::V4(_) => 8,
        IpNet::V6(_) => 16,
    };
    if net.prefix_len() < widest {
        return Err(RangeError::TooWide(net.prefix_len()));
    }
    Ok(net.trunc())
}

/// Whether `ip` is in `net`, both compared in canonical form: an IPv4 range holds the
/// IPv4-mapped IPv6 addresses of its members, a mapped range holds the IPv4 addresses it maps,
/// and an IPv6 range spanning all of `::ffff:0:0/96` (`::/16`) holds every IPv4 address.
pub(crate) fn contains(net: &IpNet, ip: IpAddr) -> bool {
    let net = canonical_range(*net);
    match canonical(ip) {
        IpAddr::V4(v4) => {
            net.contains(&IpAddr::V4(v4)) || net.contains(&IpAddr::V6(v4.to_ipv6_mapped()))
        }
        v6 => net.contains(&v6),
    }
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

    #[test]
    fn a_mapped_range_is_its_ipv4_range() {
        let net = parse_range("::ffff:127.0.0.0/104").expect("a mapped /8");
        assert_eq!(net.to_string(), "127.0.0.0/8");
        assert_eq!(
            parse_range("::ffff:203.0.113.7/128").map(|n| n.to_string()),
            Ok("203.0.113.7/32".to_string())
        );
        assert_eq!(
            parse_range("::ffff:203.0.113.77/120").map(|n| n.to_string()),
            Ok("203.0.113.0/24".to_string()),
            "host bits cleared before the mapping"
        );
        // A mapped /100 is an IPv4 /4: wider than an IPv4 ban may be.
        assert_eq!(
            parse_range("::ffff:0.0.0.0/100"),
            Err(RangeError::TooWide(4))
        );
        // Not inside ::ffff:0:0/96: an IPv6 range as written.
        assert_eq!(
            parse_range("2001:db8::/32").map(|n| n.to_string()),
            Ok("2001:db8::/32".to_string())
        );
        let wider: IpNet = "::fffe:0:0/95".parse().expect("a range");
        assert_eq!(canonical_range(wider), wider, "wider than the mapped block");
    }

    #[test]
    fn addresses_and_ranges_compare_in_canonical_form() {
        // Ranges as they may be stored, before or after canonical form.
        let mapped: IpNet = "::ffff:127.0.0.0/104".parse().expect("a range");
        let plain: IpNet = "127.0.0.0/8".parse().expect("a range");
        for net in [&mapped, &plain] {
            for peer in ["127.0.0.1", "::ffff:127.0.0.1", "127.255.0.9"] {
                assert!(contains(net, ip(peer)), "{net} holds {peer}");
            }
            for peer in ["128.0.0.1", "::ffff:10.0.0.1", "::1", "::7f00:1"] {
                assert!(!contains(net, ip(peer)), "{net} does not hold {peer}");
            }
        }
        // An IPv6 range spanning the whole mapped block holds every IPv4 peer, written either way.
        let wide: IpNet = "::/16".parse().expect("a range");
        assert!(contains(&wide, ip("203.0.113.7")));
        assert!(contains(&wide, ip("::ffff:203.0.113.7")));
        assert!(!contains(
            &"2001:db8::/32".parse().expect("a range"),
            ip("203.0.113.7")
        ));
    }
}
