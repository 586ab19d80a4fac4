//! Network configuration and transfer tools with a read form: routes, sockets, file users, `rsync --dry-run` and `openssl` inspection. Their changing
//! forms write; reaching another host is unverified.

use super::flags::{self, Spec};
use super::hosts;
use super::manuals::literal_operands;
use super::system::texts;
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
const SS: Spec = Spec {
    // `-r` (`--resolve`) looks names up in DNS and is left out.
    short: "tulnpaxwsemoiHOZz46SMdE0",
    short_value: "fAFN",
    long: &[
        "tcp", "udp", "listening", "numeric", "processes", "all", "unix", "raw", "summary",
        "extended", "memory", "options", "info", "no-header", "oneline", "context",
        "contexts", "ipv4", "ipv6", "sctp", "dccp", "vsock", "tipc", "xdp", "tos", "cgroup",
        "threads", "events", "bpf",
    ],
    long_value: &["family", "query", "socket", "filter", "net"],
    ..Spec::EMPTY
};

pub(super) fn ss(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "--kill" || (w.starts_with('-') && !w.starts_with("--") && w.contains('K')))
    {
        return Err(Judgement::writer("ss -K: closes sockets"));
    }
    let parsed = flags::parse(&SS, args)?;
    if parsed.has(&["-F", "--filter"]) {
        return Err(Judgement::risk(
            Risk::Network,
            "ss -F: the filter file may name hosts, looked up in DNS",
        ));
    }
    // A glob after a path (`src /tmp/.X11-unix/*`) can only give more paths.
    let mut filter = String::new();
    for word in &parsed.args {
        match word.literal_text() {
            Some(text) => filter.push_str(text),
            None if word.prefix.starts_with('/') => filter.push_str(&word.prefix),
            None => {
                return Err(Judgement::dynamic(format!(
                    "ss: {} may name a host, looked up in DNS",
                    escape(&word.text)
                )));
            }
        }
        filter.push(' ');
    }
    let mut tokens = filter
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|t| !t.is_empty());
    while let Some(token) = tokens.next() {
        if !matches!(token, "dst" | "src" | "dport" | "sport") {
            continue;
        }
        let spec = tokens.find(|t| !SS_OPERATORS.contains(t)).unwrap_or("");
        if hosts::names_host(spec) {
            return Err(Judgement::risk(
                Risk::Network,
                format!("ss {token} {}: looks the host up in DNS", escape(spec)),
            ));
        }
    }
    Ok(Judgement::read_only("lists sockets"))
}

/// The comparisons an `ss` filter may put between a predicate and its address.
#[rustfmt::skip]
const SS_OPERATORS: &[&str] = &[
    "=", "==", "!=", "<", ">", "<=", ">=", "eq", "neq", "ne", "ge", "le", "gt", "lt",
];

#[rustfmt::skip]
const FUSER: Spec = Spec {
    short: "amsuvwM46",
    short_value: "n",
    long: &[
        "all", "mount", "ismountpoint", "silent", "user", "verbose", "ipv4", "ipv6",
    ],
    long_value: &["namespace"],
    ..Spec::EMPTY
};

pub(super) fn fuser(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "--kill" || (w.starts_with('-') && w.contains('k')))
    {
        return Err(Judgement::writer("fuser -k: kills processes"));
    }
    // `PORT/tcp` goes through getaddrinfo, whose UDP connects to loopback only sort
    // addresses and send nothing; fuser then reads /proc/net.
    let parsed = flags::parse(&FUSER, args)?;
    for operand in literal_operands("fuser", &parsed.args)? {
        if let Some(host) = hosts::fuser_host(operand) {
            return Err(Judgement::risk(
                Risk::Network,
                format!("fuser {}: looks the host up in DNS", escape(host)),
            ));
        }
    }
    Ok(Judgement::read_only("shows which processes use files"))
}

#[rustfmt::skip]
const RSYNC: Spec = Spec {
    short: "avrlptgoDzhPnicuqRHAXxSWkKLOJm",
    short_value: "fB",
    long: &[
        "dry-run", "archive", "verbose", "recursive", "links", "perms", "times", "group", "owner",
        "devices", "specials", "compress", "human-readable", "progress", "partial",
        "itemize-changes", "checksum", "update", "quiet", "relative", "stats", "delete",
        "delete-after", "delete-before", "delete-during", "delete-excluded", "list-only",
        "ignore-existing", "existing", "size-only", "no-perms", "no-owner", "no-group",
        "hard-links", "acls", "xattrs", "one-file-system", "sparse", "whole-file", "copy-links",
        "safe-links", "prune-empty-dirs", "ignore-times", "inplace", "append", "mkpath", "info",
        "force",
    ],
    long_value: &[
        "exclude", "include", "exclude-from", "include-from", "filter", "max-size", "min-size",
        "bwlimit", "chmod", "out-format", "modify-window", "files-from", "compare-dest",
        "link-dest", "copy-dest",
    ],
    ..Spec::EMPTY
};

pub(super) fn rsync(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&RSYNC, args)?;
    if parsed
        .args
        .iter()
        .any(|a| a.text.contains(':') || a.text.starts_with("rsync://"))
    {
        return Err(Judgement::risk(
            Risk::Network,
            "rsync: reaches another host",
        ));
    }
    if !parsed.has(&["-n", "--dry-run", "--list-only"]) {
        return Err(Judgement::writer("rsync: copies files"));
    }
    Ok(Judgement::read_only("shows what would be copied"))
}

pub(super) fn openssl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts =
        texts(args).ok_or_else(|| Judgement::risk(Risk::Pager, "dynamic openssl argument"))?;
    let Some((verb, rest)) = texts.split_first() else {
        return Err(Judgement::risk(Risk::Pager, "interactive openssl"));
    };
    if rest
        .iter()
        .any(|word| matches!(*word, "-out" | "-writerand"))
    {
        return Err(Judgement::writer(format!(
            "openssl {}: writes a file",
            escape(verb)
        )));
    }
    let allowed: &[&str] = match *verb {
        "version" => &["-a", "-v", "-b", "-o", "-f", "-p", "-d"],
        "dgst" | "sha256" | "sha1" | "md5" | "sha512" => &[
            "-sha1",
            "-sha256",
            "-sha384",
            "-sha512",
            "-md5",
            "-r",
            "-hex",
            "-c",
            "-binary",
            "-blake2b512",
            "-sha3-256",
        ],
        "x509" | "req" | "crl" | "pkey" | "rsa" | "ec" => &[
            "-in",
            "-noout",
            "-text",
            "-subject",
            "-issuer",
            "-dates",
            "-fingerprint",
            "-serial",
            "-enddate",
            "-startdate",
            "-inform",
            "-purpose",
            "-ext",
            "-pubkey",
            "-modulus",
            "-hash",
            "-email",
            "-sha256",
            "-sha1",
            "-nameopt",
            "-checkend",
            "-verify",
            "-pubin",
            "-check",
        ],
        // Random bytes or base64 printed to standard output; `-out`, `-writerand` (writes the
        // seed file) and `-engine`/`-provider` (load code) are left off.
        "rand" => &["-hex", "-base64"],
        "base64" => &["-d", "-e", "-a", "-A", "-base64", "-in"],
        // Encrypting or decrypting to standard output: `-out`, `-engine` and `-provider` are
        // left off; a password read from a file, descriptor or variable is not printed.
        "enc" => &[
            "-d",
            "-e",
            "-a",
            "-A",
            "-base64",
            "-in",
            "-pbkdf2",
            "-iter",
            "-salt",
            "-nosalt",
            "-md",
            "-k",
            "-kfile",
            "-pass",
            "-K",
            "-iv",
            "-S",
            "-p",
            "-P",
            "-nopad",
            "-cipher",
            "-aes-128-cbc",
            "-aes-192-cbc",
            "-aes-256-cbc",
            "-aes-128-ctr",
            "-aes-192-ctr",
            "-aes-256-ctr",
            "-aes128",
            "-aes192",
            "-aes256",
            "-chacha20",
            "-des3",
            "-camellia-256-cbc",
        ],
        "list" => &[
            "-digest-commands",
            "-cipher-commands",
            "-commands",
            "-1",
            "-public-key-algorithms",
            "-cipher-algorithms",
            "-digest-algorithms",
        ],
        "s_client" | "s_server" | "ocsp" | "s_time" => {
            return Err(Judgement::risk(
                Risk::Network,
                format!("openssl {verb}: reaches the network"),
            ));
        }
        _ => {
            return Err(Judgement::unverified(format!(
                "openssl {}: not on the read-only list",
                escape(verb)
            )));
        }
    };
    let takes_value = [
        "-in",
        "-inform",
        "-ext",
        "-nameopt",
        "-checkend",
        "-purpose",
        "-iter",
        "-md",
        "-k",
        "-kfile",
        "-pass",
        "-K",
        "-iv",
        "-S",
        "-cipher",
    ];
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if word.starts_with('-') {
            if !allowed.contains(word) {
                return Err(Judgement::unverified(format!(
                    "openssl {verb} {}: not on the read-only list",
                    escape(word)
                )));
            }
            let value = takes_value.contains(word).then(|| words.next()).flatten();
            // OpenSSL's apps fetch an `-in` given as an http:// URL (load_cert, load_crl).
            if let Some(url) = value.filter(|v| *word == "-in" && v.contains("://")) {
                return Err(Judgement::risk(
                    Risk::Network,
                    format!("openssl {verb} -in {}: fetches a URL", escape(url)),
                ));
            }
        }
    }
    Ok(Judgement::read_only(match *verb {
        "enc" => "encrypts or decrypts to standard output",
        _ => "inspects keys, certificates or digests",
    }))
}

pub(super) fn route(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    // Display flags, alone or bundled (`arp -an`, `route -nee`).
    let shows = args.iter().all(|w| {
        w.literal_text()
            .and_then(|t| t.strip_prefix('-'))
            .is_some_and(|l| !l.is_empty() && l.chars().all(|c| "naev".contains(c)))
    });
    if shows && numeric(args) {
        return Ok(Judgement::read_only("shows network tables"));
    }
    if shows {
        return Err(Judgement::risk(
            Risk::Network,
            format!("{name} without -n: looks addresses up in DNS"),
        ));
    }
    Err(Judgement::writer(format!("{name}: changes network tables")))
}

/// True when a short-option bundle holds `n` (`-n`, `-tan`) or `--numeric` is given: the
/// tool then prints addresses without asking DNS for their names.
pub(super) fn numeric(args: &[Word]) -> bool {
    args.iter().filter_map(Word::literal_text).any(|w| {
        w == "--numeric" || (w.starts_with('-') && !w.starts_with("--") && w.contains('n'))
    })
}

/// `netstat` and `lsof` look every address up in DNS unless told `-n`; netstat's interface
/// and statistics tables show no addresses.
pub(super) fn resolver_lister(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    if let Some(word) = args.iter().find(|w| !w.is_static) {
        if name == "netstat" || word.may_be_option() {
            return Err(flags::could_be_option(word));
        }
    }
    // `lsof -i @HOST` looks the host up, `-n` or not; an address known only when the line
    // runs may name one.
    let mut after_i = false;
    for word in args {
        match word.literal_text() {
            None if after_i => {
                return Err(Judgement::dynamic(format!(
                    "lsof -i {}: may name a host, looked up in DNS",
                    escape(&word.text)
                )));
            }
            Some(text) if name == "lsof" => {
                if let Some(host) = hosts::lsof_host(text) {
                    return Err(Judgement::risk(
                        Risk::Network,
                        format!("lsof @{}: looks the host up in DNS", escape(host)),
                    ));
                }
                after_i = text == "-i";
            }
            _ => after_i = false,
        }
    }
    let no_addresses = name == "netstat"
        && !args.is_empty()
        && args.iter().all(|w| {
            matches!(
                w.literal_text(),
                Some("-i" | "-s" | "-ie" | "--interfaces" | "--statistics")
            )
        });
    if name == "netstat" {
        let known = args.iter().filter_map(Word::literal_text).all(|w| {
            w.starts_with("--") || w.chars().skip(1).all(|c| "atulpnwxseirgcoWv46".contains(c))
        });
        if !known {
            return Err(Judgement::unverified(
                "netstat: an option not on the read-only list",
            ));
        }
    }
    if no_addresses || numeric(args) {
        return Ok(Judgement::read_only("lists sockets or open files"));
    }
    Err(Judgement::risk(
        Risk::Network,
        format!("{name} without -n: looks addresses up in DNS"),
    ))
}

/// `last` reads the login records; `-d` looks their addresses up in DNS.
pub(super) fn last(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    for word in args {
        let Some(text) = word.literal_text() else {
            return Err(flags::could_be_option(word));
        };
        // getopt_long takes `--d` and `--dn` for `--dns`, the only long option with a d.
        if (text.starts_with("--d") && "--dns".starts_with(text))
            || (text.starts_with('-') && !text.starts_with("--") && text.contains('d'))
        {
            return Err(Judgement::risk(
                Risk::Network,
                format!("{name} -d: looks addresses up in DNS"),
            ));
        }
    }
    Ok(Judgement::read_only("shows login records"))
}

pub(super) fn ifconfig(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match texts(args).as_deref() {
        Some([] | ["-a"] | ["-s"] | ["-a", "-s"]) => Ok(Judgement::read_only("shows interfaces")),
        Some([iface]) if !iface.starts_with('-') => Ok(Judgement::read_only("shows an interface")),
        _ => Err(Judgement::writer("ifconfig: changes interfaces")),
    }
}
