//! Firewall tables: `iptables` and `ip6tables` listing (`-nvL`, `-S`), `iptables-save` to
//! standard output and `nft list`. Options are read as the programs read them: short letters
//! bundled (`-vnL`), long options by unambiguous prefix (`--line` is `--line-numbers`).

use super::flags::{self, Spec};
use super::system::texts;
use super::{Judge, Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    Some(match name {
        "iptables" | "ip6tables" | "iptables-legacy" | "iptables-nft" => iptables,
        "iptables-save" | "ip6tables-save" => iptables_save,
        "nft" => nft,
        _ => return None,
    })
}

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
        Some(&"list") if rest.iter().all(|w| !w.starts_with('-') && !w.contains(';')) => {
            Ok(Judgement::read_only("lists the nftables ruleset"))
        }
        Some(verb) => Err(Judgement::writer(format!(
            "nft {}: changes the firewall",
            escape(verb)
        ))),
        None => Err(Judgement::unverified("nft without a command")),
    }
}
