//! Package and system listings: `apt list`/`show`/`search`/`policy`, `pip show`/`freeze`
//! (and `pip list` with the self-update check off; `npm ls` always writes a debug log under
//! `~/.npm/_logs`, so it is not here), `cargo install --list` and
//! `cargo tree --frozen`, `update-alternatives` queries and `tmux` listings. Forms that
//! reach an index, start a server or run hooks stay unverified.

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "apt",
        manual: "apt(8), apt 2.6.1",
        rule: Rule::Walked(apt),
        reads: &["apt list --installed", "apt show curl", "apt policy git", "apt search --names-only ripgrep"],
        refuses: &["apt install curl", "apt update", "apt remove -y vim", "apt -o Dir::Cache=/tmp list"],
    },
    Table {
        program: "pip",
        manual: "pip --help, pip 23.2.1",
        rule: Rule::Walked(pip),
        reads: &["pip show requests", "pip freeze", "pip list --disable-pip-version-check --format=json"],
        refuses: &["pip install requests", "pip list", "pip download x", "pip list --log x", "pip freeze -r requirements.txt"],
    },
    Table {
        program: "pip3",
        manual: "pip --help, pip 23.2.1",
        rule: Rule::Walked(pip),
        reads: &["pip3 show -f numpy", "pip3 list --disable-pip-version-check --format=freeze"],
        refuses: &["pip3 install -e .", "pip3 list", "pip3 uninstall -y x"],
    },
    Table {
        program: "cargo",
        manual: "cargo help, cargo 1.95.0",
        rule: Rule::Walked(cargo),
        reads: &["cargo install --list", "cargo tree --frozen", "cargo tree --offline --locked -e normal"],
        refuses: &["cargo build", "cargo install ripgrep", "cargo tree", "cargo tree --frozen --manifest-path ../x/Cargo.toml", "cargo run -- --help"],
    },
    Table {
        program: "update-alternatives",
        manual: "update-alternatives(1), dpkg 1.21.22",
        rule: Rule::Walked(update_alternatives),
        reads: &["update-alternatives --display editor", "update-alternatives --query editor", "update-alternatives --get-selections"],
        refuses: &["update-alternatives --set editor /bin/ed", "update-alternatives --config editor", "update-alternatives --auto editor", "update-alternatives --install /usr/bin/x x /opt/x 10"],
    },
    Table {
        program: "tmux",
        manual: "tmux(1), tmux 3.3a",
        rule: Rule::Walked(tmux),
        reads: &["tmux ls", "tmux list-windows -a", "tmux capture-pane -p -t 0", "tmux list-panes -a -F '#{pane_id} #{pane_current_command}'"],
        refuses: &["tmux new -d 'rm x'", "tmux kill-server", "tmux capture-pane -t 0", "tmux capture-pane -S -p", "tmux ls -F '#(touch pwn)'", "tmux ls -F '#{E:status-right}'", "tmux lsw -F '#{T:@x}'", "tmux -L other ls", "tmux send-keys -t 0 'rm -rf x' Enter"],
    },
];

const APT: Spec = Spec {
    short: "aq",
    long: &[
        "installed",
        "upgradable",
        "all-versions",
        "manual-installed",
        "full",
        "names-only",
        "quiet",
        "no-all-versions",
        "recurse",
    ],
    ..Spec::EMPTY
};

/// `apt` reads its local cache and the dpkg database for these verbs.
fn apt(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed =
        flags::parse(&APT, args).map_err(|_| Judgement::writer("apt: installs packages"))?;
    match parsed.args.first().and_then(Word::literal_text) {
        Some("list" | "show" | "search" | "policy" | "depends" | "rdepends" | "showsrc") => {
            Ok(Judgement::read_only("queries the package database"))
        }
        _ => Err(Judgement::writer("apt: installs packages")),
    }
}

#[rustfmt::skip]
const PIP: Spec = Spec {
    short: "fvql",
    long: &[
        "files", "verbose", "quiet", "local", "user", "all", "exclude-editable", "not-required",
        "editable", "disable-pip-version-check", "no-color", "no-input", "isolated",
        "no-python-version-warning", "include-editable", "no-index",
    ],
    long_value: &["format", "exclude", "path"],
    ..Spec::EMPTY
};

/// `pip show` and `pip freeze` read installed metadata; `pip list` checks the index for a
/// newer pip unless told not to.
fn pip(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&PIP, args).map_err(|_| {
        Judgement::risk(
            Risk::RunsCode,
            format!("{name}: runs project code or a script"),
        )
    })?;
    let quiet_index = parsed.has(&["--disable-pip-version-check", "--no-index"]);
    match parsed.args.first().and_then(Word::literal_text) {
        Some("show" | "freeze") => Ok(Judgement::read_only("lists installed packages")),
        Some("list") if quiet_index => Ok(Judgement::read_only("lists installed packages")),
        Some("list") => Err(Judgement::risk(
            Risk::Network,
            format!("{name} list: checks the index for a newer pip"),
        )),
        _ => Err(Judgement::risk(
            Risk::RunsCode,
            format!("{name}: runs project code or a script"),
        )),
    }
}

const CARGO_TREE: Spec = Spec {
    short: "dq",
    short_value: "eip",
    long: &[
        "frozen",
        "workspace",
        "all-features",
        "no-default-features",
        "no-dedupe",
        "duplicates",
        "quiet",
        "locked",
        "offline",
    ],
    long_value: &[
        "edges",
        "invert",
        "depth",
        "prefix",
        "format",
        "features",
        "target",
        "charset",
        "package",
        "manifest-path",
        "color",
    ],
    ..Spec::EMPTY
};

/// `cargo install --list` reads its record; `cargo tree` may update the index and lock file
/// unless `--frozen`. Everything else builds or runs project code.
fn cargo(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts: Vec<Option<&str>> = args.iter().map(Word::literal_text).collect();
    match texts.as_slice() {
        [Some("install"), Some("--list")] => Ok(Judgement::read_only("lists installed binaries")),
        [Some("tree"), ..] => {
            let parsed = flags::parse(&CARGO_TREE, &args[1..])?;
            let frozen = parsed.has(&["--frozen"])
                || (parsed.has(&["--offline"]) && parsed.has(&["--locked"]));
            if !frozen {
                return Err(Judgement::unverified(
                    "cargo tree: may update the index and Cargo.lock (use --frozen)",
                ));
            }
            if parsed.has(&["--manifest-path"]) || !parsed.args.is_empty() {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "cargo tree: another manifest",
                ));
            }
            Ok(Judgement::read_only("shows the dependency tree"))
        }
        _ => Err(Judgement::risk(
            Risk::RunsCode,
            "runs project code or a script",
        )),
    }
}

/// `update-alternatives --display|--query|--list NAME` and `--get-selections` read.
fn update_alternatives(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args
        .iter()
        .map(Word::literal_text)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [Some("--display" | "--query" | "--list"), Some(name)] if !name.starts_with('-') => {
            Ok(Judgement::read_only("shows an alternatives group"))
        }
        [Some("--get-selections")] => Ok(Judgement::read_only("shows alternatives")),
        _ => Err(Judgement::writer(
            "update-alternatives: changes system links",
        )),
    }
}

/// `tmux` commands that list or print without changing the server, with their flags.
#[rustfmt::skip]
const TMUX_READS: &[(&str, &str, &str)] = &[
    // (command, flags, flags with a value)
    ("list-sessions", "", "Ff"), ("ls", "", "Ff"),
    ("list-windows", "a", "Fft"), ("lsw", "a", "Fft"),
    ("list-panes", "as", "Fft"), ("lsp", "as", "Fft"),
    ("list-clients", "", "Ft"), ("lsc", "", "Ft"),
    ("list-buffers", "", "Ff"), ("lsb", "", "Ff"),
    ("list-commands", "", "F"), ("lscm", "", "F"),
    ("list-keys", "1aN", "PTt"), ("lsk", "1aN", "PTt"),
    ("has-session", "", "t"), ("has", "", "t"),
    ("capture-pane", "paCeJNPqT", "bEStF"), ("capturep", "paCeJNPqT", "bEStF"),
    ("show-options", "AgHpqsvw", "t"), ("show", "AgHpqsvw", "t"),
    ("show-window-options", "gv", "t"), ("showw", "gv", "t"),
    ("show-buffer", "", "b"), ("showb", "", "b"),
];

/// True for a tmux format that runs a shell command or expands an option's value as a format.
fn runs_a_shell(format: &str) -> bool {
    format.contains("#(")
        || (format.contains("#{") && (format.contains("E:") || format.contains("T:")))
}

/// Reads a tmux server: no global options (`-L`, `-S`, `-f` pick another server or config),
/// one listing command, and formats without `#( )`, which runs a shell command, or the `E:` and
/// `T:` modifiers, which expand an option's value as a format: the user's configuration may
/// hold a `#( )` there (`display -p '#{E:status-right}'` ran one, tmux 3.3a).
fn tmux(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts: Vec<&str> = args
        .iter()
        .map(Word::literal_text)
        .collect::<Option<_>>()
        .ok_or_else(|| Judgement::dynamic("tmux: an argument known only at run time"))?;
    let Some((command, rest)) = texts.split_first() else {
        return Err(Judgement::risk(Risk::RunsCode, "tmux: starts a session"));
    };
    let Some((_, flags, values)) = TMUX_READS.iter().find(|(c, _, _)| c == command) else {
        return Err(Judgement::risk(
            Risk::RunsCode,
            format!("tmux {}: starts or changes sessions", escape(command)),
        ));
    };
    // `-p` counts as a flag only: in `capture-pane -S -p`, `-p` is the start line.
    let mut flags_given = String::new();
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if runs_a_shell(word) || word.ends_with(';') {
            return Err(Judgement::risk(
                Risk::RunsCode,
                "tmux: a format or command that runs a shell",
            ));
        }
        let Some(letters) = word.strip_prefix('-') else {
            continue;
        };
        for (at, letter) in letters.char_indices() {
            if values.contains(letter) {
                if at + 1 == letters.len() {
                    let value = words
                        .next()
                        .ok_or_else(|| Judgement::unverified("tmux: missing value"))?;
                    if runs_a_shell(value) {
                        return Err(Judgement::risk(
                            Risk::RunsCode,
                            "tmux: a format that runs a shell",
                        ));
                    }
                }
                break;
            }
            if !flags.contains(letter) {
                return Err(flags::unknown(&format!("-{letter}")));
            }
            flags_given.push(letter);
        }
    }
    if (*command == "capture-pane" || *command == "capturep") && !flags_given.contains('p') {
        return Err(Judgement::writer(
            "tmux capture-pane without -p: fills a buffer",
        ));
    }
    Ok(Judgement::read_only(
        "lists the terminal multiplexer's state",
    ))
}
