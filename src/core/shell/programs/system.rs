//! System tools with a read form and a changing form: the clock, host name, kernel log,
//! journal, services, kernel settings, cron, containers, patches, account databases and
//! temporary files. Their tables, one per program, are in
//! [`system_tables`](super::system_tables).

use super::flags::{self, Spec};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn texts(args: &[Word]) -> Option<Vec<&str>> {
    args.iter().map(Word::literal_text).collect()
}

const DATE: Spec = Spec {
    short: "uR",
    short_value: "dfr",
    long: &["utc", "universal", "rfc-2822", "rfc-email", "debug"],
    long_value: &["date", "file", "reference", "rfc-3339"],
    long_optional: &["iso-8601"],
    ..Spec::EMPTY
};

pub(super) fn date(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-s" || w.starts_with("--set"))
    {
        return Err(Judgement::writer("date -s: sets the clock"));
    }
    // `-I[FMT]` and `-R` take their format attached: `-Iseconds` is one option.
    let args: Vec<Word> = args
        .iter()
        .map(
            |w| match w.literal_text().and_then(|t| t.strip_prefix("-I")) {
                Some("") => Word::literal("--iso-8601"),
                Some(format) if format.bytes().all(|b| b.is_ascii_alphabetic()) => {
                    Word::literal(&format!("--iso-8601={format}"))
                }
                _ => w.clone(),
            },
        )
        .collect();
    let parsed = flags::parse(&DATE, &args)?;
    if parsed.args.iter().any(|a| !a.prefix.starts_with('+')) {
        return Err(Judgement::writer("date: sets the clock"));
    }
    Ok(Judgement::read_only("prints the date"))
}

/// `hostname` options that print without the resolver; `-f`, `-d`, `-a`, `-A`, `-i` and
/// `-y` ask DNS or NIS, `-F`/`--file` and an operand set the name.
const HOSTNAME: Spec = Spec {
    short: "Isvh",
    long: &["all-ip-addresses", "short", "verbose"],
    ..Spec::EMPTY
};

pub(super) fn hostname(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&HOSTNAME, args).map_err(|refused| {
        if args
            .iter()
            .any(|w| w.prefix.starts_with("-F") || w.prefix.starts_with("--fi"))
        {
            Judgement::writer("hostname -F: sets the host name from a file")
        } else if refused.why.contains("is not on the read-only list") {
            Judgement::risk(Risk::Network, "looks names up in DNS or NIS")
        } else {
            refused
        }
    })?;
    if !parsed.args.is_empty() {
        return Err(Judgement::writer("hostname: sets the host name"));
    }
    Ok(Judgement::read_only("prints the host name"))
}

#[rustfmt::skip]
const DMESG: Spec = Spec {
    short: "TdHeLkrtuwxSPF",
    short_value: "flsF",
    long: &[
        "ctime", "human", "kernel", "raw", "notime", "userspace", "follow", "decode", "show-delta",
        "nopager", "reltime", "since", "until", "color", "json",
    ],
    long_value: &["facility", "level", "buffer-size", "time-format", "file"],
    ..Spec::EMPTY
};

pub(super) fn dmesg(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
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
        return Err(Judgement::writer("dmesg: changes the kernel log"));
    }
    flags::parse(&DMESG, args)?;
    Ok(Judgement::read_only("reads the kernel log"))
}

#[rustfmt::skip]
const JOURNALCTL: Spec = Spec {
    short: "fekrxqamNF",
    short_value: "unpbSUtgoIDM",
    long: &[
        "follow", "pager-end", "dmesg", "reverse", "catalog", "quiet", "all", "merge", "no-pager",
        "no-full", "full", "utc", "no-hostname", "system", "user", "list-boots", "disk-usage",
        "header", "fields", "boot", "show-cursor", "case-sensitive",
    ],
    long_value: &[
        "unit", "user-unit", "lines", "priority", "since", "until", "identifier", "grep", "output",
        "output-fields", "facility", "cursor", "after-cursor", "directory", "file", "namespace",
        "machine",
    ],
    long_optional: &["boot", "lines", "case-sensitive"],
    ..Spec::EMPTY
};

pub(super) fn journalctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
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
        return Err(Judgement::writer("journalctl: changes the journal"));
    }
    flags::parse(&JOURNALCTL, args)?;
    Ok(Judgement::read_only("reads the journal"))
}

#[rustfmt::skip]
const SYSTEMCTL: Spec = Spec {
    // `-H`/`--host` reaches another machine over ssh and is left out.
    short: "alqr",
    short_value: "tpPMn",
    long: &[
        "no-pager", "full", "all", "user", "system", "quiet", "plain", "no-legend", "value",
        "recursive", "failed", "show-types", "reverse", "after", "before", "global",
    ],
    long_value: &[
        "type", "state", "property", "lines", "output", "machine",
    ],
    ..Spec::EMPTY
};

#[rustfmt::skip]
const SYSTEMCTL_READS: &[&str] = &[
    "status", "is-active", "is-enabled", "is-failed", "is-system-running", "list-units",
    "list-unit-files", "list-timers", "list-sockets", "list-dependencies", "list-jobs",
    "list-machines", "list-paths", "show", "cat", "show-environment", "get-default", "help",
];

pub(super) fn systemctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&SYSTEMCTL, args)?;
    match parsed.args.first().and_then(Word::literal_text) {
        None => Ok(Judgement::read_only("lists units")),
        Some(verb) if SYSTEMCTL_READS.contains(&verb) => Ok(Judgement::read_only("shows services")),
        Some(verb) => Err(Judgement::writer(format!(
            "systemctl {}: changes services",
            escape(verb)
        ))),
    }
}

pub(super) fn sysctl(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Judgement::dynamic("dynamic sysctl argument"))?;
    for word in texts {
        match word {
            "-a" | "-A" | "-X" | "--all" | "-n" | "--values" | "-e" | "--ignore" | "-N"
            | "--names" | "-q" | "--quiet" | "-b" | "--binary" | "-r" | "--pattern" => {}
            w if !w.starts_with('-') && !w.contains('=') => {}
            _ => return Err(Judgement::writer("sysctl: changes kernel settings")),
        }
    }
    Ok(Judgement::read_only("reads kernel settings"))
}

pub(super) fn crontab(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match texts(args).as_deref() {
        Some(["-l"]) | Some(["-u", _, "-l"]) => Ok(Judgement::read_only("lists the crontab")),
        _ => Err(Judgement::writer("crontab: changes scheduled jobs")),
    }
}

const DOCKER_READS: &[&str] = &[
    "ps", "images", "inspect", "logs", "version", "info", "top", "port", "history", "diff",
    "stats", "events",
];

pub(super) fn docker(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts = texts(args).ok_or_else(|| Judgement::dynamic("dynamic docker argument"))?;
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
            "pull" | "push" | "login" | "logout" | "search" => Err(Judgement::risk(
                Risk::Network,
                format!("docker {verb}: reaches the network"),
            )),
            "run" | "exec" | "build" | "compose" | "start" | "create" | "buildx" => {
                Err(Judgement::risk(
                    Risk::RunsCode,
                    format!("docker {}: runs containers or builds", escape(verb)),
                ))
            }
            _ => Err(Judgement::writer(format!(
                "docker {}: changes containers or images",
                escape(verb)
            ))),
        };
    }
    // `compose config --resolve-image-digests` (and `--lock-image-digests`) asks the registry
    // for each image's digest.
    if verb == "compose"
        && rest.iter().any(|w| {
            w.starts_with("--resolve-image-digests") || w.starts_with("--lock-image-digests")
        })
    {
        return Err(Judgement::risk(
            Risk::Network,
            "docker compose config: asks the registry for image digests",
        ));
    }
    if rest.iter().any(|w| {
        w.starts_with("--output")
            || *w == "-o"
            || w.starts_with("--host")
            || *w == "-H"
            || w.starts_with("--context")
    }) {
        return Err(Judgement::unverified(
            "docker: writes output or talks to another daemon",
        ));
    }
    Ok(Judgement::read_only("shows containers and images"))
}

#[rustfmt::skip]
const PATCH: Spec = Spec {
    // `-e` (`--ed`) hands the patch to `ed`, which can run commands.
    short: "RNsltfucnEZT",
    short_value: "pFid",
    long: &[
        "dry-run", "reverse", "forward", "silent", "quiet", "ignore-whitespace", "batch", "force",
        "unified", "context", "normal", "verbose", "posix", "binary", "remove-empty-files",
        "set-time", "set-utc",
    ],
    long_value: &["strip", "fuzz", "input", "directory"],
    ..Spec::EMPTY
};

pub(super) fn patch(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&PATCH, args)?;
    if !parsed.has(&["--dry-run"]) {
        return Err(Judgement::writer("patch: changes files"));
    }
    Ok(Judgement::read_only("checks a patch"))
}

pub(super) fn mktemp(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-u" || w == "--dry-run")
    {
        return Ok(Judgement::read_only("prints a temporary name"));
    }
    Err(Judgement::writer("mktemp: creates a file"))
}

pub(super) fn getent(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args.first().and_then(Word::literal_text) {
        Some(
            "passwd" | "group" | "shadow" | "gshadow" | "services" | "protocols" | "shells"
            | "aliases" | "ethers" | "rpc" | "netgroup",
        ) => Ok(Judgement::read_only("reads account databases")),
        _ => Err(Judgement::risk(
            Risk::Network,
            "getent: may look up hosts on the network",
        )),
    }
}

/// `timedatectl`, `hostnamectl`, `loginctl`, `localectl`: status and list verbs read. The
/// verb is the first operand that is not the value of `-p` (`timedatectl -p status set-time`
/// sets the clock).
pub(super) fn status_tool(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let mut after_p = false;
    let verb = args.iter().filter_map(Word::literal_text).find(|w| {
        let value = std::mem::replace(&mut after_p, *w == "-p");
        !value && !w.starts_with('-')
    });
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
        ) if flags_ok => Ok(Judgement::read_only("shows system settings")),
        _ => Err(Judgement::writer(format!(
            "{name}: changes system settings"
        ))),
    }
}

/// `mount` and `swapon` list when given nothing or only listing flags.
pub(super) fn mounts(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let listing = args.iter().all(|w| {
        matches!(
            w.literal_text(),
            Some("-l" | "--show" | "-s" | "--summary" | "-v" | "--noheadings")
        )
    });
    if listing {
        return Ok(Judgement::read_only("lists mounts"));
    }
    Err(Judgement::writer(format!("{name}: changes mounts")))
}

/// rpm's query letters that select packages or what to show of them (rpm(8) QUERY OPTIONS).
const RPM_QUERY: &str = "afgpilcdsRLv";

/// Package databases queried locally.
pub(super) fn packages(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let first = args.first().and_then(Word::literal_text).unwrap_or("");
    let reads = match name {
        "dpkg" | "dpkg-query" => matches!(
            first,
            "-l" | "--list"
                | "-L"
                | "--listfiles"
                | "-s"
                | "--status"
                | "-S"
                | "--search"
                | "-W"
                | "--show"
                | "--get-selections"
                | "--print-architecture"
        ),
        "apt-cache" => matches!(
            first,
            "search"
                | "show"
                | "policy"
                | "depends"
                | "rdepends"
                | "showpkg"
                | "pkgnames"
                | "stats"
        ),
        // rpm bundles letters with `-q`; `-E` (`--eval`) and `-D` take the rest of the word
        // as a macro, and `%(…)` in a macro runs a shell command: only query letters pass.
        _ => {
            first == "--query"
                || first
                    .strip_prefix("-q")
                    .is_some_and(|rest| rest.chars().all(|c| RPM_QUERY.contains(c)))
        }
    };
    // rpm fetches a package named by URL (`rpm -qp https://…`) with curl.
    if name == "rpm"
        && args
            .iter()
            .filter_map(Word::literal_text)
            .any(|w| w.contains("://"))
    {
        return Err(Judgement::risk(
            Risk::Network,
            "rpm: fetches a package named by URL",
        ));
    }
    let rest_plain = args.iter().skip(1).all(|w| {
        w.literal_text()
            .is_some_and(|t| !t.starts_with('-') || matches!(t, "-a" | "-i" | "-l" | "--installed"))
    });
    if reads && rest_plain {
        return Ok(Judgement::read_only("queries the package database"));
    }
    Err(Judgement::writer(format!("{name}: changes packages")))
}
