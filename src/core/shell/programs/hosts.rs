//! Host names among a listing's operands. `ss dst example.com`, `lsof -i @example.com` and
//! `fuser 22,example.com/tcp` look the name up in DNS whatever `-n` says (`-n` only stops the
//! reverse lookups of what they print), so a listing that names a host reaches the network.
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
}
