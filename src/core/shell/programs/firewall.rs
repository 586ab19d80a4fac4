//! Firewall tables: `iptables` and `ip6tables` listing (`-nvL`, `-S`), `iptables-save` to
//! standard output and `nft list`. Options are read as the programs read them: short letters
//! bundled (`-vnL`), long options by unambiguous prefix (`--line` is `--line-numbers`).

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::system::texts;
use super::{Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "iptables", manual: "iptables(8), iptables 1.8.9", rule: Rule::Walked(iptables),
        reads: &["iptables -L", "iptables -nvL", "iptables -S", "iptables -t nat -L -n --line-numbers"],
        refuses: &[
            "iptables -F", "iptables -vF", "iptables -nL -A INPUT -j DROP", "iptables -L -Z",
            "iptables -L --modprobe=x", "iptables -P INPUT DROP",
        ],
    },
    Table {
        program: "ip6tables", manual: "ip6tables(8), iptables 1.8.9", rule: Rule::Walked(iptables),
        reads: &["ip6tables -L -n", "ip6tables -S"],
        refuses: &["ip6tables -F", "ip6tables -A INPUT -j DROP"],
    },
    Table {
        program: "iptables-legacy", manual: "xtables-legacy(8), iptables 1.8.9",
        rule: Rule::Walked(iptables),
        reads: &["iptables-legacy -nvL"],
        refuses: &["iptables-legacy -F"],
    },
    Table {
        program: "iptables-nft", manual: "xtables-nft(8), iptables 1.8.9", rule: Rule::Walked(iptables),
        reads: &["iptables-nft -L -n"],
        refuses: &["iptables-nft -X"],
    },
    Table {
        program: "iptables-save", manual: "iptables-save(8), iptables 1.8.9",
        rule: Rule::Walked(iptables_save),
        reads: &["iptables-save", "iptables-save -c -t filter"],
        refuses: &["iptables-save -f rules.v4", "iptables-save -M /tmp/x", "iptables-save > rules.v4"],
    },
    Table {
        program: "ip6tables-save", manual: "ip6tables-save(8), iptables 1.8.9",
        rule: Rule::Walked(iptables_save),
        reads: &["ip6tables-save"],
        refuses: &["ip6tables-save -f rules.v6"],
    },
    Table {
        program: "nft", manual: "nft(8), nftables 1.0.6", rule: Rule::Walked(nft),
        reads: &["nft list ruleset", "nft list tables", "nft -a list table inet filter"],
        refuses: &[
            "nft flush ruleset", "nft add table inet t", "nft -f x", "nft 'list ruleset; flush ruleset'",
            "nft list tables $'\\nadd table ip pwn'", "nft list ruleset '\n' flush ruleset",
            "nft -i",
        ],
    },
];

/// Long options of `iptables` that list or only change how a listing prints.
#[rustfmt::skip]
const IPTABLES_LONG: &[&str] = &[
    "list", "list-rules", "numeric", "verbose", "exact", "line-numbers", "table", "wait",
    "ipv4", "ipv6",
];

/// Every long option `iptables` has, to tell an unambiguous prefix from an ambiguous one.
#[rustfmt::skip]
const IPTABLES_ALL_LONG: &[&str] = &[
    "append", "check", "delete", "insert", "replace", "list", "list-rules", "flush", "zero",
    "new-chain", "delete-chain", "rename-chain", "policy", "help", "version", "numeric",
    "verbose", "exact", "line-numbers", "table", "wait", "wait-interval", "modprobe", "protocol",
    "source", "destination", "jump", "goto", "in-interface", "out-interface", "fragment",
    "set-counters", "match", "ipv4", "ipv6",
];

fn iptables(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Judgement::dynamic("dynamic iptables argument"))?;
    let changes = || Judgement::writer(format!("{name}: changes the firewall"));
    let mut listing = false;
    let mut words = texts.iter();
    while let Some(word) = words.next() {
        if let Some(long) = word.strip_prefix("--") {
            let (written, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let mut matches = IPTABLES_ALL_LONG.iter().filter(|n| n.starts_with(written));
            let exact = IPTABLES_ALL_LONG.contains(&written).then_some(written);
            let option = exact.or_else(|| {
                let first = matches.next()?;
                matches.next().is_none().then_some(*first)
            });
            match option {
                Some(o) if IPTABLES_LONG.contains(&o) => {
                    listing |= o == "list" || o == "list-rules";
                    if o == "table" && value.is_none() {
                        words.next();
                    }
                }
                _ => return Err(changes()),
            }
        } else if let Some(letters) = word.strip_prefix('-').filter(|l| !l.is_empty()) {
            for (at, letter) in letters.char_indices() {
                match letter {
                    'L' | 'S' => {
                        listing = true;
                        // The rest of the bundle is the chain to list.
                        break;
                    }
                    'n' | 'v' | 'x' | '4' | '6' => {}
                    'w' | 'W' => break,
                    't' => {
                        if at + 1 == letters.len() {
                            words.next();
                        }
                        break;
                    }
                    _ => return Err(changes()),
                }
            }
        } else if !listing {
            return Err(changes());
        }
    }
    if listing {
        Ok(Judgement::read_only("lists firewall rules"))
    } else {
        Err(changes())
    }
}

const IPTABLES_SAVE: Spec = Spec {
    short: "c",
    short_value: "t",
    long: &["counters"],
    long_value: &["table"],
    ..Spec::EMPTY
};

/// `iptables-save` prints the rules; `-f FILE` writes them and `-M` runs a loader.
fn iptables_save(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&IPTABLES_SAVE, args)?;
    if !parsed.args.is_empty() {
        return Err(Judgement::unverified("iptables-save with operands"));
    }
    Ok(Judgement::read_only("prints firewall rules"))
}

/// `nft` options that only change how a listing prints; `-N` (`--reversedns`) asks DNS.
const NFT: Spec = Spec {
    short: "ajnstSyuT",
    long: &[
        "handle",
        "json",
        "numeric",
        "stateless",
        "terse",
        "service",
        "guid",
        "numeric-priority",
        "numeric-protocol",
        "numeric-time",
    ],
    ..Spec::EMPTY
};

/// `nft list …` shows the ruleset; every other command changes it or reads a script.
fn nft(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&NFT, args)?;
    let _ = parsed;
    let rest = texts(rest).ok_or_else(|| Judgement::dynamic("dynamic nft argument"))?;
    match rest.first() {
        // nft joins its words into one script, where `;` and a line break end a command.
        Some(&"list")
            if rest
                .iter()
                .all(|w| !w.starts_with('-') && !w.contains([';', '\n', '\r'])) =>
        {
            Ok(Judgement::read_only("lists the nftables ruleset"))
        }
        Some(verb) => Err(Judgement::writer(format!(
            "nft {}: changes the firewall",
            escape(verb)
        ))),
        None => Err(Judgement::unverified("nft without a command")),
    }
}
