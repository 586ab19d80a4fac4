//! `ip` (iproute2), parsed its own way: objects and verbs are matched by prefix, in the order
//! the program tries them, so `ip a s` shows addresses but `ip link s` sets a link.

use super::manuals::{Rule, Table};
use super::system::texts;
use super::{Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[Table {
    program: "ip", manual: "ip(8) and its object pages (ip-address(8)…), iproute2 6.1.0",
    rule: Rule::Walked(ip),
    reads: &["ip a", "ip -br a", "ip -4 addr show", "ip route", "ip link show lo", "ip neigh show", "ip a s"],
    refuses: &[
        "ip link set eth0 down", "ip link s lo down", "ip route add default via 10.0.0.1",
        "ip a flush dev eth0", "ip -b notes.txt", "ip -all netns exec id", "ip netns exec x ls",
        "ip $OBJ",
    ],
}];

/// The objects in the order `ip` matches a prefix against them.
#[rustfmt::skip]
const OBJECTS: &[&str] = &[
    "address", "addrlabel", "maddress", "route", "rule", "neighbor", "neighbour", "ntable", "ntbl",
    "link", "l2tp", "fou", "ila", "macsec", "tunnel", "tuntap", "tap", "token", "tcpmetrics",
    "tcp_metrics", "monitor", "xfrm", "mroute", "mrule", "netns", "netconf", "vrf", "sr",
    "nexthop", "mptcp", "ioam", "stats",
];

/// Per object, its verbs in the order `ip` tries them, and which of them only show.
fn verbs(object: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match object {
        "address" => (
            &[
                "add", "change", "replace", "delete", "flush", "list", "show", "lst", "save",
                "showdump", "restore",
            ],
            &["list", "show", "lst", "showdump"],
        ),
        "link" => (
            &[
                "add", "set", "change", "replace", "delete", "show", "lst", "list", "xstats",
                "afstats", "property",
            ],
            &["show", "lst", "list", "xstats", "afstats"],
        ),
        "route" => (
            &[
                "add", "change", "replace", "prepend", "append", "test", "delete", "list", "show",
                "lst", "get", "flush", "restore", "save", "showdump",
            ],
            &["list", "show", "lst", "get", "showdump"],
        ),
        "neighbor" | "neighbour" => (
            &[
                "add", "change", "replace", "delete", "show", "list", "lst", "flush", "get",
            ],
            &["show", "list", "lst", "get"],
        ),
        "rule" => (
            &[
                "add", "delete", "list", "show", "lst", "flush", "save", "restore",
            ],
            &["list", "show", "lst"],
        ),
        "maddress" | "ntable" | "ntbl" | "tunnel" | "tuntap" | "tap" | "token" | "mroute"
        | "vrf" | "nexthop" | "stats" | "addrlabel" | "netconf" | "tcpmetrics" | "tcp_metrics" => {
            (&["show", "list", "lst"], &["show", "list", "lst"])
        }
        "netns" => (&["list"], &["list"]),
        _ => return None,
    })
}

/// Global options that only change how `ip` prints, as `ip` spells them in full or short.
#[rustfmt::skip]
const OPTIONS: &[&str] = &[
    "-s", "-stats", "-statistics", "-d", "-details", "-4", "-6", "-0", "-j", "-json", "-p",
    "-pretty", "-br", "-brief", "-o", "-oneline", "-h", "-human", "-human-readable", "-c",
    "-color", "-t", "-timestamp", "-ts", "-tshort", "-iec", "-N", "-Numeric",
];

/// The first of `table` that `word` is a prefix of, as iproute2's `matches()` reads it.
fn first_match<'t>(table: &[&'t str], word: &str) -> Option<&'t str> {
    if word.is_empty() {
        return None;
    }
    table.iter().find(|entry| entry.starts_with(word)).copied()
}

fn ip(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Judgement::dynamic("dynamic ip argument"))?;
    let mut rest = texts.as_slice();
    while let Some((first, tail)) = rest.split_first() {
        if !first.starts_with('-') {
            break;
        }
        let option = first
            .strip_prefix('-')
            .map_or(*first, |o| o.trim_start_matches('-'));
        if !OPTIONS.contains(&format!("-{option}").as_str()) && !first.starts_with("-color=") {
            return Err(Judgement::unverified(format!(
                "ip {}: not on the read-only list",
                escape(first)
            )));
        }
        rest = tail;
    }
    let Some((word, tail)) = rest.split_first() else {
        return Ok(Judgement::read_only("prints usage"));
    };
    let Some(object) = first_match(OBJECTS, word) else {
        return Err(Judgement::unverified("ip: unknown object"));
    };
    if object == "monitor" {
        return Ok(Judgement::read_only("shows network events"));
    }
    let Some((all, reads)) = verbs(object) else {
        return Err(Judgement::unverified(format!(
            "ip {object}: not on the read-only list"
        )));
    };
    match tail.first() {
        // Every object we list shows itself when given no verb.
        None => Ok(Judgement::read_only("shows network configuration")),
        Some(verb) => match first_match(all, verb) {
            Some(verb) if reads.contains(&verb) => {
                Ok(Judgement::read_only("shows network configuration"))
            }
            Some(verb) => Err(Judgement::writer(format!(
                "ip {object} {verb}: changes the network"
            ))),
            None => Err(Judgement::unverified(format!(
                "ip {object} {}: unknown verb",
                escape(verb)
            ))),
        },
    }
}
