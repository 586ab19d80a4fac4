//! Host names among a listing's operands. `ss dst example.com`, `lsof -i @example.com` and
//! `fuser 22,example.com/tcp` look the name up in DNS whatever `-n` says (`-n` only stops the
//! reverse lookups of what they print), so a listing that names a host reaches the network.
//! So does a tcpdump filter's `host NAME` (pcap-filter(7)), even when reading a capture file.
//! Numeric addresses, wildcards and paths are looked up nowhere.

/// Families an `ss` address may name before a colon (ss(8), HOST SYNTAX); only `inet` and
/// `inet6` addresses can be host names.
const FAMILIES: &[&str] = &[
    "inet", "inet6", "unix", "link", "netlink", "packet", "vsock", "tipc", "xdp",
];

/// True when the address spec `[FAMILY:]ADDRESS[:PORT]` (or `[IPV6]:PORT`) names a host that
/// must be looked up: its address is not empty, `*`, a path or a numeric address.
pub(super) fn names_host(spec: &str) -> bool {
    if spec.starts_with('[') {
        return false;
    }
    let mut rest = spec;
    if let Some((family, after)) = spec.split_once(':')
        && FAMILIES.contains(&family)
    {
        if !family.starts_with("inet") {
            return false;
        }
        rest = after;
    }
    if rest.matches(':').count() > 1 {
        // A bare IPv6 address: hexadecimal digits, colons, dots and a prefix length.
        return !rest
            .chars()
            .all(|c| c.is_ascii_hexdigit() || ":./%".contains(c));
    }
    let address = rest.split(':').next().unwrap_or(rest);
    !(address.is_empty()
        || address == "*"
        || address.starts_with('/')
        || address
            .chars()
            .all(|c| c.is_ascii_digit() || "./".contains(c)))
}

/// The host a fuser operand `[lcl_port][,[rmt_host][,[rmt_port]]][/namespace]` names, if any.
pub(super) fn fuser_host(operand: &str) -> Option<&str> {
    let address = operand
        .rsplit_once('/')
        .map_or(operand, |(address, _)| address);
    let host = address.split(',').nth(1)?;
    names_host(host).then_some(host)
}

/// The host an `lsof -i` address `[46][protocol][@hostname|hostaddr][:service|port]` names,
/// if any.
pub(super) fn lsof_host(address: &str) -> Option<&str> {
    let (_, spec) = address.split_once('@')?;
    names_host(spec).then(|| spec.split(':').next().unwrap_or(spec))
}

/// pcap-filter(7) qualifiers after which an id is an address: a host, network or gateway
/// name is looked up (DNS, `/etc/networks`, `/etc/ethers`).
#[rustfmt::skip]
const PCAP_ADDRESS: &[&str] = &[
    "host", "net", "gateway", "src", "dst", "ether", "wlan", "fddi", "tr", "addr1", "addr2",
    "addr3", "addr4", "ra", "ta",
];

/// Qualifiers after which an id is a port, protocol or other local name (`port http` reads
/// `/etc/services`).
#[rustfmt::skip]
const PCAP_LOCAL: &[&str] = &[
    "port", "portrange", "proto", "protochain", "less", "greater", "len", "vlan", "mpls",
    "ifname", "on", "rnr", "rulenum", "reason", "rset", "ruleset", "srnr", "subrulenum",
    "action", "type", "subtype", "dir", "geneve", "pppoes",
];

/// Words that keep the qualifier in force: operators and protocol names.
#[rustfmt::skip]
const PCAP_WORDS: &[&str] = &[
    "and", "or", "not", "ip", "ip6", "arp", "rarp", "tcp", "udp", "icmp", "icmp6", "igmp",
    "igrp", "pim", "ah", "esp", "vrrp", "sctp", "broadcast", "multicast", "mask", "inbound",
    "outbound", "decnet", "atalk", "aarp", "iso", "stp", "ipx", "netbeui", "llc", "lat", "sca",
    "moprc", "mopdl", "clnp", "esis", "isis",
];

/// The first id of a tcpdump filter that may be a host name: a word with a letter, not a
/// keyword, a numeric or hexadecimal address or an expression, in an address's place. An id
/// without a qualifier is a host, and an id after `and`/`or` keeps the one before.
pub(super) fn pcap_host(filter: &str) -> Option<&str> {
    let mut local = false;
    let tokens = filter
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|t| !t.is_empty());
    for token in tokens {
        if PCAP_ADDRESS.contains(&token) {
            local = false;
        } else if PCAP_LOCAL.contains(&token) {
            local = true;
        } else if !(local
            || PCAP_WORDS.contains(&token)
            || token.contains(['[', ']'])
            || token.starts_with("icmp")
            || token.starts_with("tcp-")
            || !token.chars().any(|c| c.is_ascii_alphabetic())
            || token
                .strip_prefix("0x")
                .is_some_and(|hex| hex.chars().all(|c| c.is_ascii_hexdigit()))
            || (token.contains(':') && !names_host(&format!("{token}:"))))
        {
            return Some(token);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_name_is_told_from_numeric_addresses_wildcards_and_paths() {
        for named in [
            "example.com",
            "localhost",
            "inet:example.com:80",
            "kernel",
            "cafe:80",
        ] {
            assert!(names_host(named), "{named}");
        }
        for numeric in [
            "10.0.0.1",
            "193.233.7/24",
            "10.0.0.1:22",
            "[::1]:22",
            "fe80::1",
            "*",
            "*:80",
            ":ssh",
            "/tmp/.X11-unix/*",
            "unix:/run/x",
            "inet:1.2.3.4:80",
            "",
            "link:eth0",
        ] {
            assert!(!names_host(numeric), "{numeric}");
        }
    }

    #[test]
    fn fuser_and_lsof_addresses_name_their_remote_host() {
        assert_eq!(fuser_host("22,example.com,22/tcp"), Some("example.com"));
        assert_eq!(fuser_host("22,example.com/tcp"), Some("example.com"));
        assert_eq!(fuser_host("22,10.0.0.1,22/tcp"), None);
        assert_eq!(fuser_host("22,::1,22/tcp"), None);
        assert_eq!(fuser_host("22/tcp"), None);
        assert_eq!(fuser_host("notes.txt"), None);
        assert_eq!(lsof_host("TCP@example.com:80"), Some("example.com"));
        assert_eq!(lsof_host("@[::1]:22"), None);
        assert_eq!(lsof_host("@127.0.0.1"), None);
        assert_eq!(lsof_host(":8080"), None);
    }

    #[test]
    fn a_tcpdump_filter_names_a_host_where_an_address_goes() {
        for (filter, host) in [
            ("host example.com", Some("example.com")),
            ("port 80 and host example.com", Some("example.com")),
            ("host 10.0.0.1 or db", Some("db")),
            ("src net example", Some("example")),
            ("example.com", Some("example.com")),
            ("port 80", None),
            ("tcp port http or https", None),
            ("host 10.0.0.1 and not port 22", None),
            ("ip6 host fe80::1", None),
            ("ether host 00:11:22:33:44:55", None),
            ("tcp[tcpflags] & tcp-syn != 0", None),
            ("icmp[icmptype] == icmp-echo", None),
            ("tcp[13] & 0x02 != 0", None),
        ] {
            assert_eq!(pcap_host(filter), host, "{filter}");
        }
    }
}
