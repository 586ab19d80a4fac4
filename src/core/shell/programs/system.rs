//! System tools with a read form and a changing form: the clock, host name, kernel log,
//! journal, services, network configuration, firewall, kernel settings, sockets, processes,
//! cron, containers, file sync, patches, certificates and temporary files.

use super::flags::{self, Spec};
use super::{Judge, Judged, Verdict};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    Some(match name {
        "date" | "gdate" => date,
        "hostname" => hostname,
        "dmesg" => dmesg,
        "journalctl" => journalctl,
        "systemctl" => systemctl,
        "ip" => ip,
        "iptables" | "ip6tables" => iptables,
        "sysctl" => sysctl,
        "ss" => ss,
        "fuser" => fuser,
        "crontab" => crontab,
        "docker" | "podman" => docker,
        "timedatectl" | "hostnamectl" | "loginctl" | "localectl" => status_tool,
        "ifconfig" => ifconfig,
        "rsync" => rsync,
        "patch" => patch,
        "openssl" => openssl,
        "mktemp" => mktemp,
        "getent" => getent,
        "route" | "arp" => route,
        _ => return None,
    })
}

fn texts(args: &[Word]) -> Option<Vec<&str>> {
    args.iter().map(Word::literal_text).collect()
}

const DATE: Spec = Spec {
    short: "uRI",
    short_value: "dfr",
    long: &["utc", "universal", "rfc-2822", "rfc-email", "debug"],
    long_value: &["date", "file", "reference", "rfc-3339"],
    long_optional: &["iso-8601"],
    ..Spec::EMPTY
};

fn date(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-s" || w.starts_with("--set"))
    {
        return Err(Verdict::writer("date -s: sets the clock"));
    }
    let parsed = flags::parse(&DATE, args)?;
    if parsed.args.iter().any(|a| !a.prefix.starts_with('+')) {
        return Err(Verdict::writer("date: sets the clock"));
    }
    Ok(Verdict::read_only("prints the date"))
}

fn hostname(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic hostname argument"))?;
    if texts
        .iter()
        .all(|t| t.starts_with('-') && !matches!(*t, "-F" | "--file" | "-b" | "--boot"))
    {
        return Ok(Verdict::read_only("prints the host name"));
    }
    Err(Verdict::writer("hostname: sets the host name"))
}

const DMESG: Spec = Spec {
    short: "TdHeLkrtuwxSPF",
    short_value: "flsF",
    long: &[
        "ctime",
        "human",
        "kernel",
        "raw",
        "notime",
        "userspace",
        "follow",
        "decode",
        "show-delta",
        "nopager",
        "reltime",
        "since",
        "until",
        "color",
        "json",
    ],
    long_value: &["facility", "level", "buffer-size", "time-format", "file"],
    ..Spec::EMPTY
};

fn dmesg(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args.iter().filter_map(Word::literal_text).any(|w| {
        matches!(
            w,
            "-C" | "-c"
                | "-D"
                | "-E"
                | "-n"
                | "--clear"
                | "--read-clear"
                | "--console-off"
                | "--console-on"
                | "--console-level"
        )
    }) {
        return Err(Verdict::writer("dmesg: changes the kernel log"));
    }
    flags::parse(&DMESG, args)?;
    Ok(Verdict::read_only("reads the kernel log"))
}

const JOURNALCTL: Spec = Spec {
    short: "fekrxqamNF",
    short_value: "unpbSUtgoIDM",
    long: &[
        "follow",
        "pager-end",
        "dmesg",
        "reverse",
        "catalog",
        "quiet",
        "all",
        "merge",
        "no-pager",
        "no-full",
        "full",
        "utc",
        "no-hostname",
        "system",
        "user",
        "list-boots",
        "disk-usage",
        "header",
        "fields",
        "boot",
        "show-cursor",
        "case-sensitive",
    ],
    long_value: &[
        "unit",
        "user-unit",
        "lines",
        "priority",
        "since",
        "until",
        "identifier",
        "grep",
        "output",
        "output-fields",
        "facility",
        "cursor",
        "after-cursor",
        "directory",
        "file",
        "namespace",
        "machine",
    ],
    long_optional: &["boot", "lines", "case-sensitive"],
    ..Spec::EMPTY
};

fn journalctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let changes = [
        "--vacuum",
        "--rotate",
        "--flush",
        "--sync",
        "--setup-keys",
        "--relinquish-var",
        "--smart-relinquish-var",
        "--update-catalog",
    ];
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| changes.iter().any(|c| w.starts_with(c)))
    {
        return Err(Verdict::writer("journalctl: changes the journal"));
    }
    flags::parse(&JOURNALCTL, args)?;
    Ok(Verdict::read_only("reads the journal"))
}

const SYSTEMCTL: Spec = Spec {
    short: "alqr",
    short_value: "tpPHMn",
    long: &[
        "no-pager",
        "full",
        "all",
        "user",
        "system",
        "quiet",
        "plain",
        "no-legend",
        "value",
        "recursive",
        "failed",
        "show-types",
        "reverse",
        "after",
        "before",
        "global",
    ],
    long_value: &[
        "type", "state", "property", "lines", "output", "host", "machine",
    ],
    ..Spec::EMPTY
};

const SYSTEMCTL_READS: &[&str] = &[
    "status",
    "is-active",
    "is-enabled",
    "is-failed",
    "is-system-running",
    "list-units",
    "list-unit-files",
    "list-timers",
    "list-sockets",
    "list-dependencies",
    "list-jobs",
    "list-machines",
    "list-paths",
    "show",
    "cat",
    "show-environment",
    "get-default",
    "help",
];

fn systemctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&SYSTEMCTL, args)?;
    match parsed.args.first().and_then(Word::literal_text) {
        None => Ok(Verdict::read_only("lists units")),
        Some(verb) if SYSTEMCTL_READS.contains(&verb) => Ok(Verdict::read_only("shows services")),
        Some(verb) => Err(Verdict::writer(format!(
            "systemctl {}: changes services",
            escape(verb)
        ))),
    }
}

const IP_OBJECTS: &[&str] = &[
    "address",
    "addr",
    "a",
    "link",
    "l",
    "route",
    "r",
    "ro",
    "rou",
    "neighbour",
    "neighbor",
    "neigh",
    "n",
    "rule",
    "ru",
    "maddress",
    "maddr",
    "m",
    "tunnel",
    "tun",
    "netns",
    "monitor",
    "mroute",
    "ntable",
    "token",
    "tcp_metrics",
    "l2tp",
    "fou",
    "macsec",
    "vrf",
    "mptcp",
    "stats",
    "nexthop",
];

fn ip(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic ip argument"))?;
    let mut rest = texts.as_slice();
    while let Some((first, tail)) = rest.split_first() {
        match *first {
            "-s" | "-d" | "-4" | "-6" | "-j" | "-p" | "-c" | "-br" | "-o" | "-h" | "-stats"
            | "-details" | "-brief" | "-json" | "-pretty" | "-color" | "-oneline" | "-human"
            | "-0" => rest = tail,
            _ => break,
        }
    }
    match rest {
        [] => Ok(Verdict::read_only("prints usage")),
        [object, tail @ ..] if IP_OBJECTS.contains(object) => match tail.first() {
            None | Some(&("show" | "list" | "ls" | "lst" | "get" | "sh" | "s")) => {
                Ok(Verdict::read_only("shows network configuration"))
            }
            Some(_) if *object == "monitor" => Ok(Verdict::read_only("shows network events")),
            Some(verb) => Err(Verdict::writer(format!(
                "ip {object} {}: changes the network",
                escape(verb)
            ))),
        },
        _ => Err(Verdict::unverified("ip: unknown form")),
    }
}

fn iptables(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic iptables argument"))?;
    let mut listing = false;
    let mut words = texts.iter();
    while let Some(word) = words.next() {
        match *word {
            "-L" | "--list" | "-S" | "--list-rules" => listing = true,
            "-n" | "--numeric" | "-v" | "--verbose" | "-x" | "--exact" | "--line-numbers"
            | "-w" | "--wait" => {}
            "-t" | "--table" => {
                words.next();
            }
            w if !w.starts_with('-') && listing => {}
            _ => return Err(Verdict::writer("iptables: changes the firewall")),
        }
    }
    if listing {
        Ok(Verdict::read_only("lists firewall rules"))
    } else {
        Err(Verdict::writer("iptables: changes the firewall"))
    }
}

fn sysctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic sysctl argument"))?;
    for word in texts {
        match word {
            "-a" | "-A" | "-X" | "--all" | "-n" | "--values" | "-e" | "--ignore" | "-N"
            | "--names" | "-q" | "--quiet" | "-b" | "--binary" | "-r" | "--pattern" => {}
            w if !w.starts_with('-') && !w.contains('=') => {}
            _ => return Err(Verdict::writer("sysctl: changes kernel settings")),
        }
    }
    Ok(Verdict::read_only("reads kernel settings"))
}

const SS: Spec = Spec {
    short: "tulnpaxwsemoirHOZz46SMdE0",
    short_value: "fAFN",
    long: &[
        "tcp",
        "udp",
        "listening",
        "numeric",
        "processes",
        "all",
        "unix",
        "raw",
        "summary",
        "extended",
        "memory",
        "options",
        "info",
        "resolve",
        "no-header",
        "oneline",
        "context",
        "contexts",
        "ipv4",
        "ipv6",
        "sctp",
        "dccp",
        "vsock",
        "tipc",
        "xdp",
        "tos",
        "cgroup",
        "threads",
        "events",
        "bpf",
    ],
    long_value: &["family", "query", "socket", "filter", "net"],
    ..Spec::EMPTY
};

fn ss(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "--kill" || (w.starts_with('-') && !w.starts_with("--") && w.contains('K')))
    {
        return Err(Verdict::writer("ss -K: closes sockets"));
    }
    flags::parse(&SS, args)?;
    Ok(Verdict::read_only("lists sockets"))
}

const FUSER: Spec = Spec {
    short: "amsuvwM46",
    short_value: "n",
    long: &[
        "all",
        "mount",
        "ismountpoint",
        "silent",
        "user",
        "verbose",
        "ipv4",
        "ipv6",
    ],
    long_value: &["namespace"],
    ..Spec::EMPTY
};

fn fuser(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "--kill" || (w.starts_with('-') && w.contains('k')))
    {
        return Err(Verdict::writer("fuser -k: kills processes"));
    }
    flags::parse(&FUSER, args)?;
    Ok(Verdict::read_only("shows which processes use files"))
}

fn crontab(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match texts(args).as_deref() {
        Some(["-l"]) | Some(["-u", _, "-l"]) => Ok(Verdict::read_only("lists the crontab")),
        _ => Err(Verdict::writer("crontab: changes scheduled jobs")),
    }
}

const DOCKER_READS: &[&str] = &[
    "ps", "images", "inspect", "logs", "version", "info", "top", "port", "history", "diff",
    "stats", "events",
];

fn docker(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic docker argument"))?;
    let verb = texts.first().copied().unwrap_or("");
    let rest = texts.get(1..).unwrap_or(&[]);
    let objects = [
        "container",
        "image",
        "volume",
        "network",
        "context",
        "system",
    ];
    let read = DOCKER_READS.contains(&verb)
        || (objects.contains(&verb)
            && matches!(rest.first(), Some(&("ls" | "list" | "inspect" | "df"))))
        || (verb == "compose"
            && matches!(
                rest.first(),
                Some(&("ps" | "logs" | "config" | "ls" | "images" | "top" | "version"))
            ));
    if !read {
        return match verb {
            "pull" | "push" | "login" | "logout" | "search" => Err(Verdict::unverified(format!(
                "docker {verb}: reaches the network"
            ))),
            "run" | "exec" | "build" | "compose" | "start" | "create" | "buildx" => {
                Err(Verdict::unverified(format!(
                    "docker {}: runs containers or builds",
                    escape(verb)
                )))
            }
            _ => Err(Verdict::writer(format!(
                "docker {}: changes containers or images",
                escape(verb)
            ))),
        };
    }
    if rest.iter().any(|w| {
        w.starts_with("--output")
            || *w == "-o"
            || w.starts_with("--host")
            || *w == "-H"
            || w.starts_with("--context")
    }) {
        return Err(Verdict::unverified(
            "docker: writes output or talks to another daemon",
        ));
    }
    Ok(Verdict::read_only("shows containers and images"))
}

const RSYNC: Spec = Spec {
    short: "avrlptgoDzhPnicuqRHAXxSWkKLOJm",
    short_value: "fB",
    long: &[
        "dry-run",
        "archive",
        "verbose",
        "recursive",
        "links",
        "perms",
        "times",
        "group",
        "owner",
        "devices",
        "specials",
        "compress",
        "human-readable",
        "progress",
        "partial",
        "itemize-changes",
        "checksum",
        "update",
        "quiet",
        "relative",
        "stats",
        "delete",
        "delete-after",
        "delete-before",
        "delete-during",
        "delete-excluded",
        "list-only",
        "ignore-existing",
        "existing",
        "size-only",
        "no-perms",
        "no-owner",
        "no-group",
        "hard-links",
        "acls",
        "xattrs",
        "one-file-system",
        "sparse",
        "whole-file",
        "copy-links",
        "safe-links",
        "prune-empty-dirs",
        "ignore-times",
        "inplace",
        "append",
        "mkpath",
        "info",
    ],
    long_value: &[
        "exclude",
        "include",
        "exclude-from",
        "include-from",
        "filter",
        "max-size",
        "min-size",
        "bwlimit",
        "chmod",
        "out-format",
        "modify-window",
        "files-from",
        "compare-dest",
        "link-dest",
        "copy-dest",
    ],
    ..Spec::EMPTY
};

fn rsync(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&RSYNC, args)?;
    if parsed
        .args
        .iter()
        .any(|a| a.text.contains(':') || a.text.starts_with("rsync://"))
    {
        return Err(Verdict::unverified("rsync: reaches another host"));
    }
    if !parsed.has(&["-n", "--dry-run", "--list-only"]) {
        return Err(Verdict::writer("rsync: copies files"));
    }
    Ok(Verdict::read_only("shows what would be copied"))
}

const PATCH: Spec = Spec {
    short: "RNsltfucnEZTe",
    short_value: "pFid",
    long: &[
        "dry-run",
        "reverse",
        "forward",
        "silent",
        "quiet",
        "ignore-whitespace",
        "batch",
        "force",
        "unified",
        "context",
        "normal",
        "verbose",
        "posix",
        "binary",
        "remove-empty-files",
        "set-time",
        "set-utc",
    ],
    long_value: &["strip", "fuzz", "input", "directory"],
    ..Spec::EMPTY
};

fn patch(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&PATCH, args)?;
    if !parsed.has(&["--dry-run"]) {
        return Err(Verdict::writer("patch: changes files"));
    }
    Ok(Verdict::read_only("checks a patch"))
}

fn openssl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Verdict::unverified("dynamic openssl argument"))?;
    let Some((verb, rest)) = texts.split_first() else {
        return Err(Verdict::unverified("interactive openssl"));
    };
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
            return Err(Verdict::unverified(format!(
                "openssl {verb}: reaches the network"
            )));
        }
        _ => {
            return Err(Verdict::unverified(format!(
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
    ];
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if word.starts_with('-') {
            if !allowed.contains(word) {
                return Err(Verdict::unverified(format!(
                    "openssl {verb} {}: not on the read-only list",
                    escape(word)
                )));
            }
            if takes_value.contains(word) {
                words.next();
            }
        }
    }
    Ok(Verdict::read_only("inspects keys, certificates or digests"))
}

fn mktemp(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-u" || w == "--dry-run")
    {
        return Ok(Verdict::read_only("prints a temporary name"));
    }
    Err(Verdict::writer("mktemp: creates a file"))
}

fn getent(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args.first().and_then(Word::literal_text) {
        Some(
            "passwd" | "group" | "shadow" | "gshadow" | "services" | "protocols" | "shells"
            | "aliases" | "ethers" | "rpc" | "netgroup",
        ) => Ok(Verdict::read_only("reads account databases")),
        _ => Err(Verdict::unverified(
            "getent: may look up hosts on the network",
        )),
    }
}

fn route(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let shows = args
        .iter()
        .all(|w| matches!(w.literal_text(), Some("-n" | "-e" | "-v" | "-a" | "-ee")));
    if shows {
        return Ok(Verdict::read_only("shows network tables"));
    }
    Err(Verdict::writer(format!("{name}: changes network tables")))
}

/// `timedatectl`, `hostnamectl`, `loginctl`, `localectl`: status and list verbs read.
fn status_tool(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let verb = args
        .iter()
        .filter_map(Word::literal_text)
        .find(|w| !w.starts_with('-'));
    let flags_ok = args.iter().all(|w| {
        w.literal_text().is_some_and(|t| {
            !t.starts_with('-')
                || matches!(
                    t,
                    "--no-pager" | "-a" | "--all" | "--value" | "-p" | "--no-legend"
                )
        })
    });
    match verb {
        None
        | Some(
            "status" | "show" | "list" | "list-sessions" | "list-users" | "list-seats"
            | "list-timezones" | "list-locales" | "list-keymaps" | "show-session" | "show-user"
            | "session-status" | "user-status" | "show-timesync" | "timesync-status",
        ) if flags_ok => Ok(Verdict::read_only("shows system settings")),
        _ => Err(Verdict::writer(format!("{name}: changes system settings"))),
    }
}

fn ifconfig(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match texts(args).as_deref() {
        Some([] | ["-a"] | ["-s"] | ["-a", "-s"]) => Ok(Verdict::read_only("shows interfaces")),
        Some([iface]) if !iface.starts_with('-') => Ok(Verdict::read_only("shows an interface")),
        _ => Err(Verdict::writer("ifconfig: changes interfaces")),
    }
}
