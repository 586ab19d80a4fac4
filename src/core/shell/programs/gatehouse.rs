//! gatehouse itself. Its commands that change what the gate allows (rules, trust, hooks,
//! devices, attached servers, a console of its own) tamper: asked in every mode, allow-all
//! included, never raced, never listed. Its read-only commands (`explain`, `rules list`,
//! `rules check`, `rules suggest`, `agents`, `devices`, `config example`, help and version)
//! are read-only. Anything else it could be asked to do, an unknown or dynamic subcommand
//! included, tampers too: the gate's own program is not a question for a model.
//!
//! It is recognised however it is spelled: by name or from a system directory (judged in
//! full); by a path or a word known only at run time whose last part is `gatehouse`
//! (`./target/release/gatehouse`, `$HOME/.cargo/bin/gatehouse`: tamper when its arguments
//! would be, else as any such program); `cargo run` of the `gatehouse` binary; and any other
//! program whose arguments spell one of gatehouse's tampering commands exactly
//! (`$G rules trust`, a renamed copy's `devices revoke phone`). Wrappers (`env`, `sudo`,
//! `xargs`, `bash -c`, …) record the command they run, which is judged here in turn. Code an
//! interpreter or a script file runs cannot be seen, as with any other program.

use super::{Judgement, Risk, Safety};
use crate::core::shell::words::Word;

/// The program's name.
pub(super) const NAME: &str = "gatehouse";

/// The agents gatehouse installs hooks for, as `install` and `uninstall` take them (the
/// registry's names and aliases; `tests/analyser` checks they are all here).
const AGENTS: &[&str] = &[
    "claude",
    "claude-code",
    "codex",
    "copilot",
    "copilot-cli",
    "crush",
    "cursor",
    "gemini",
    "gemini-cli",
    "grok",
    "grok-build",
    "qwen",
    "qwen-code",
];

/// A judgement for a command that names gatehouse, runs it through `cargo run`, or is a path
/// or a word known only at run time whose arguments spell a tampering command out; `None`
/// leaves the command to the other tables. `argv[0]` is the command word.
pub(super) fn recognise(argv: &[Word]) -> Option<Judgement> {
    let (first, args) = argv.split_first()?;
    let name = super::program_name(&first.text).filter(|_| first.is_static);
    if name == Some(NAME) {
        return Some(judge(args));
    }
    if name == Some("cargo") {
        return cargo(args);
    }
    if name.is_some() {
        return None;
    }
    // Only what it tampers with is known of a program at a path.
    match first.text.rsplit('/').next() {
        Some(NAME) => Some(judge(args)).filter(|j| j.safety == Safety::Tamper),
        Some("cargo") => cargo(args),
        _ => spelled_out(args, false).map(spelled),
    }
}

/// An unknown program by its bare name (a renamed copy, say) whose arguments spell one of
/// gatehouse's tampering commands out, other than `install` and `uninstall`.
pub(super) fn unknown(args: &[Word]) -> Option<Judgement> {
    spelled_out(args, true).map(spelled)
}

fn spelled(command: String) -> Judgement {
    Judgement::tamper(format!(
        "its arguments are gatehouse's `{command}`, which changes what gatehouse allows"
    ))
}

/// The words gatehouse's command line would act on: `--config FILE` (a global option that
/// only names the file to read) left out before a `--`, and every word after it kept.
fn acted_on(args: &[Word]) -> Vec<&Word> {
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.literal_text() {
            Some("--config") => {
                words.next();
            }
            Some(text) if text.starts_with("--config=") => {}
            Some("--") => {
                out.push(word);
                out.extend(words);
                break;
            }
            _ => out.push(word),
        }
    }
    out
}

/// gatehouse run with `args`.
fn judge(args: &[Word]) -> Judgement {
    let words = acted_on(args);
    let texts: Vec<Option<&str>> = words.iter().map(|w| w.literal_text()).collect();
    let Some(first) = texts.first() else {
        return Judgement::tamper(tampers("serve", None));
    };
    let Some(first) = *first else {
        return Judgement::tamper(
            "a command of its own known only when the line runs (changes what gatehouse may allow)",
        );
    };
    if asks_for_help(&texts) {
        return Judgement::read_only("prints its help");
    }
    let second = texts.get(1).copied().flatten();
    let alone = texts.len() == 1;
    match (first, second) {
        ("--version" | "-V" | "--help" | "-h", _) if alone => {
            Judgement::read_only("prints its help or version")
        }
        ("help", _) if texts.iter().all(Option::is_some) => Judgement::read_only("prints help"),
        ("explain", _) => Judgement::read_only("explains a shell line"),
        ("agents", _) => Judgement::read_only("lists the agents and their hooks"),
        ("config", Some("example")) if texts.len() == 2 => {
            Judgement::read_only("prints the example config")
        }
        ("rules", Some("list" | "check" | "suggest")) => {
            Judgement::read_only("reads the rules in force")
        }
        ("devices", _) if alone => Judgement::read_only("lists the paired devices"),
        ("hook", _) => Judgement::unverified("hands a tool call to the console"),
        ("demo", _) => Judgement::risk(Risk::Pager, "runs the interactive demo"),
        ("classifier", Some("test" | "eval")) => {
            Judgement::risk(Risk::Network, "asks the configured model")
        }
        _ => Judgement::tamper(tampers(first, second)),
    }
}

/// `… --help` or `… -h` after nothing but subcommand names prints that command's help.
fn asks_for_help(texts: &[Option<&str>]) -> bool {
    let Some((last, before)) = texts.split_last() else {
        return false;
    };
    matches!(last, Some("--help" | "-h"))
        && before
            .iter()
            .all(|t| t.is_some_and(|t| !t.starts_with('-')))
}

/// Why gatehouse's `first` (`second`) command tampers.
fn tampers(first: &str, second: Option<&str>) -> String {
    let what = match (first, second) {
        ("rules", Some("add")) => "adds a rule",
        ("rules", Some("rm")) => "removes a saved rule",
        ("rules", Some("trust")) => "trusts a project's policy, so that its allows count",
        ("devices", Some("revoke")) => "unpairs a device",
        ("install", _) => "installs its hook in an agent's settings",
        ("uninstall", _) => "removes its hook, so that an agent's calls go ungated",
        ("serve", _) => "starts a console, which decides what runs",
        ("pair", _) => "makes a link that pairs a device, which can then answer calls",
        ("attach", _) => "attaches the console to an agent's server",
        ("detach", _) => "lets go of an agent's server, whose calls then go ungated",
        _ => "a command of its own not known to only read",
    };
    format!("{what} (changes what gatehouse allows)")
}

/// The tampering command `args` spell exactly, as words another program would hardly take:
/// `rules add|rm|trust`, `devices revoke`, `attach|detach opencode`, and unless `strict`
/// (a program by its own bare name, which may well take them) `install|uninstall AGENT`.
fn spelled_out(args: &[Word], strict: bool) -> Option<String> {
    let words = acted_on(args);
    let texts: Vec<Option<&str>> = words.iter().map(|w| w.literal_text()).collect();
    match texts[..] {
        [Some("rules"), Some(verb @ ("add" | "rm" | "trust")), ..] => Some(format!("rules {verb}")),
        [Some("devices"), Some("revoke"), ..] => Some("devices revoke".into()),
        [Some(verb @ ("attach" | "detach")), Some("opencode"), ..] => {
            Some(format!("{verb} opencode"))
        }
        [Some(verb @ ("install" | "uninstall")), Some(agent), ..]
            if !strict && AGENTS.contains(&agent) =>
        {
            Some(format!("{verb} {agent}"))
        }
        _ => None,
    }
}

/// Options of `cargo` and `cargo run` that take a value in the next word.
const CARGO_VALUES: &[&str] = &[
    "--bin",
    "--example",
    "-p",
    "--package",
    "-F",
    "--features",
    "-j",
    "--jobs",
    "--target",
    "--target-dir",
    "--manifest-path",
    "--profile",
    "--message-format",
    "--color",
    "--config",
    "-Z",
    "-C",
    "--lockfile-path",
];

/// `cargo run`: the `gatehouse` binary run with the arguments after its options. Run by
/// name (`--bin gatehouse`, `-p gatehouse`, or a name known only at run time) it is judged in
/// full; unnamed, when any of its words start a tampering command spelled out (the default
/// binary of a gatehouse checkout), so that an option this table does not know cannot hide it.
fn cargo(args: &[Word]) -> Option<Judgement> {
    // Toolchain and global options before the subcommand.
    let mut at = 0;
    while let Some(text) = args.get(at).and_then(Word::literal_text) {
        match text {
            _ if CARGO_VALUES.contains(&text) => at += 2,
            _ if text.starts_with('+') || text.starts_with('-') => at += 1,
            _ => break,
        }
    }
    let (command, options) = args.get(at..)?.split_first()?;
    if !matches!(command.literal_text(), Some("run" | "r")) {
        return None;
    }
    // `None`: no binary named; `Some(true)`: gatehouse, or a name known only at run time.
    let mut gatehouse: Option<bool> = None;
    let mut program: &[Word] = &[];
    let mut at = 0;
    while at < options.len() {
        let Some(text) = options[at].literal_text() else {
            program = &options[at..];
            break;
        };
        let (flag, attached) = match text.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ if text.starts_with("-p") && text.len() > 2 => ("-p", Some(&text[2..])),
            _ => (text, None),
        };
        let value = || match attached {
            Some(value) => Some(value),
            None => options.get(at + 1).and_then(Word::literal_text),
        };
        match flag {
            "--" => {
                program = &options[at + 1..];
                break;
            }
            "--bin" | "-p" | "--package" => {
                gatehouse = Some(value().is_none_or(|v| v == NAME) || gatehouse == Some(true));
            }
            "--example" => gatehouse = Some(gatehouse == Some(true)),
            _ if flag.starts_with('-') => {}
            _ => {
                program = &options[at..];
                break;
            }
        }
        at += match attached {
            None if CARGO_VALUES.contains(&flag) => 2,
            _ => 1,
        };
    }
    match gatehouse {
        Some(true) => {
            let judged = judge(program);
            (judged.safety == Safety::Tamper).then(|| {
                let why = format!("runs gatehouse, which {}", judged.why);
                judged.reworded(why)
            })
        }
        Some(false) => None,
        None => {
            let why = (0..options.len()).find_map(|from| spelled_out(&options[from..], false))?;
            Some(spelled(why))
        }
    }
}

#[cfg(test)]
#[path = "gatehouse_tests.rs"]
mod tests;
