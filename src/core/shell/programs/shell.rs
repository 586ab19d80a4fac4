//! Shell builtins: which of them only read, and which change how later commands run.
//!
//! Directory changes are read-only but remembered (git then reads another repository).
//! `set` and `shopt` are read-only only for options that cannot make later commands run
//! something else; `trap` and `eval` have their code analysed; `alias` is remembered so that a
//! later use of the name is not trusted; `source` and `.` run a file we cannot see.

use super::flags::{self, Spec};
use super::{Judge, Judged, Verdict};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    Some(match name {
        "cd" | "pushd" | "popd" => change_dir,
        "dirs" | "jobs" | "wait" | "times" | "caller" | "help" | "shift" | "exit" | "return"
        | "break" | "continue" | "unalias" | "compgen" | "disown" => {
            |_, _, _| Ok(Verdict::read_only("shell builtin"))
        }
        "let" => let_,
        "getopts" => getopts,
        "type" => |_, _, _| Ok(Verdict::read_only("shows what a name runs")),
        "set" => set,
        "shopt" => shopt,
        "trap" => trap,
        "hash" => hash,
        "alias" => alias,
        "eval" => eval,
        "source" | "." => |_, _, _| Ok(Verdict::unverified("runs the commands of a file")),
        "enable" => |_, _, _| Ok(Verdict::unverified("loads or switches builtins")),
        "read" => read,
        "mapfile" | "readarray" => mapfile,
        "printf" => printf,
        "ulimit" => ulimit,
        "umask" => umask,
        "kill" => kill,
        "history" => history,
        "fc" | "bind" | "complete" | "fg" | "bg" | "suspend" | "logout" => {
            |_, _, _| Ok(Verdict::unverified("interactive shell builtin"))
        }
        _ => return None,
    })
}

fn change_dir(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    walker.changed_dir = true;
    let _ = args;
    Ok(Verdict::read_only("changes directory"))
}

/// `set` options that only make the shell stricter or chattier.
const SET_LETTERS: &str = "euxvfnCBbhHmPT";
#[rustfmt::skip]
const SET_OPTIONS: &[&str] = &[
    "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "pipefail", "noexec",
    "errtrace", "functrace", "braceexpand", "hashall", "physical", "monitor", "notify",
];

fn set(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(text) = word.literal_text() else {
            return Err(Verdict::unverified("dynamic set arguments"));
        };
        if text == "--" || text == "-" {
            return Ok(Verdict::read_only("sets positional parameters"));
        }
        if text == "-o" || text == "+o" {
            match words.next() {
                None => return Ok(Verdict::read_only("lists shell options")),
                Some(opt) if opt.literal_text().is_some_and(|o| SET_OPTIONS.contains(&o)) => {}
                Some(opt) => {
                    return Err(Verdict::unverified(format!("set -o {}", escape(&opt.text))));
                }
            }
        } else if let Some(letters) = text.strip_prefix(['-', '+']) {
            if let Some(bad) = letters
                .chars()
                .find(|c| !SET_LETTERS.contains(*c) && *c != 'o')
            {
                return Err(Verdict::unverified(format!(
                    "set -{} changes later commands",
                    escape(&bad.to_string())
                )));
            }
            if letters.contains('o') {
                match words.next().and_then(Word::literal_text) {
                    Some(opt) if SET_OPTIONS.contains(&opt) => {}
                    _ => {
                        return Err(Verdict::unverified(
                            "set -o with an option that is not on the list",
                        ));
                    }
                }
            }
        } else {
            return Ok(Verdict::read_only("sets positional parameters"));
        }
    }
    Ok(Verdict::read_only("sets shell options"))
}

/// `shopt` options that change globbing or messages only.
#[rustfmt::skip]
const SHOPT_SAFE: &[&str] = &[
    "nullglob", "failglob", "globstar", "dotglob", "nocaseglob", "nocasematch", "extglob",
    "globasciiranges", "lastpipe", "inherit_errexit", "pipefail", "checkwinsize", "histappend",
];

fn shopt(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut setting = false;
    for word in args {
        let Some(text) = word.literal_text() else {
            return Err(Verdict::unverified("dynamic shopt arguments"));
        };
        match text {
            "-s" | "-u" => setting = true,
            "-p" | "-q" | "-o" => {}
            name if setting && !SHOPT_SAFE.contains(&name) => {
                return Err(Verdict::unverified(format!(
                    "shopt {}: changes later commands",
                    escape(name)
                )));
            }
            _ => {}
        }
    }
    Ok(Verdict::read_only("shows or sets glob options"))
}

fn trap(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args.first().map(|w| (w.literal_text(), w)) {
        None => Ok(Verdict::read_only("lists traps")),
        Some((Some("-p" | "-l"), _)) => Ok(Verdict::read_only("lists traps")),
        Some((Some("-" | ""), _)) => Ok(Verdict::read_only("resets traps")),
        Some((Some(code), _)) => {
            let verdict = walker.nested(code);
            Ok(Verdict {
                safety: verdict.safety,
                why: format!("on a signal {}", verdict.why),
            })
        }
        Some((None, _)) => Err(Verdict::unverified("trap code known only at run time")),
    }
}

fn hash(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args
        .iter()
        .map(|w| w.literal_text())
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | [Some("-l")] | [Some("-t"), ..] => Ok(Verdict::read_only("lists remembered programs")),
        _ => Err(Verdict::unverified("changes which file a name runs")),
    }
}

fn alias(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        if !word.is_static {
            return Err(Verdict::unverified("dynamic alias"));
        }
        if let Some((name, _)) = word.text.split_once('=') {
            walker.define_alias(name);
        }
    }
    Ok(Verdict::read_only(
        "defines or lists aliases (not expanded in scripts)",
    ))
}

fn eval(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut script = Vec::new();
    for word in args {
        match word.literal_text() {
            Some(text) => script.push(text),
            None => return Err(Verdict::unverified("evaluates code known only at run time")),
        }
    }
    Ok(walker.nested(&script.join(" ")))
}

const READ: Spec = Spec {
    short: "rse",
    short_value: "adnNptui",
    long: &[],
    long_value: &[],
    ..Spec::EMPTY
};

/// `read NAME`: reads stdin into variables, which must be harmless names.
fn read(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    assign_from_input(walker, &READ, args)
}

/// `mapfile -t NAME`; its `-C` callback runs code and is not on the list.
const MAPFILE: Spec = Spec {
    short: "t",
    short_value: "dnOsu",
    ..Spec::EMPTY
};

fn mapfile(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    assign_from_input(walker, &MAPFILE, args)
}

fn assign_from_input(walker: &mut Walker, spec: &Spec, args: &[Word]) -> Judged {
    let parsed = flags::parse(spec, args)?;
    let array = parsed.value(&["-a"]);
    for name in parsed.args.iter().chain(array) {
        let text = name
            .literal_text()
            .ok_or_else(|| Verdict::unverified("dynamic variable name"))?;
        walker.judge_variable(text, text, None, false);
    }
    Ok(Verdict::read_only("reads input into variables"))
}

fn printf(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if let [flag, name, ..] = args
        && flag.literal_text() == Some("-v")
    {
        let text = name
            .literal_text()
            .ok_or_else(|| Verdict::unverified("dynamic variable name"))?;
        walker.judge_variable(&format!("printf -v {text}"), text, None, false);
    }
    Ok(Verdict::read_only("prints text"))
}

fn ulimit(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let shows = args
        .iter()
        .all(|w| w.literal_text().is_some_and(|t| t.starts_with('-')));
    if shows {
        Ok(Verdict::read_only("shows limits"))
    } else {
        Err(Verdict::unverified("changes limits"))
    }
}

fn umask(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let shows = args
        .iter()
        .all(|w| matches!(w.literal_text(), Some("-S" | "-p")));
    if shows {
        Ok(Verdict::read_only("shows the file mode mask"))
    } else {
        Err(Verdict::unverified(
            "changes the mode of files created later",
        ))
    }
}

fn kill(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args.first().and_then(|w| w.literal_text()) {
        Some("-l" | "-L") => Ok(Verdict::read_only("lists signals")),
        _ => Ok(Verdict::writer("signals processes")),
    }
}

fn history(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args.iter().all(|w| {
        w.literal_text()
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
    }) {
        Ok(Verdict::read_only("shows history"))
    } else {
        Err(Verdict::unverified("changes history"))
    }
}

/// `let NAME=expr`: every name in an assigning expression is judged as a variable.
fn let_(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        let text = word
            .literal_text()
            .ok_or_else(|| Verdict::unverified("dynamic let expression"))?;
        let bare = text
            .replace("==", "")
            .replace("<=", "")
            .replace(">=", "")
            .replace("!=", "");
        if !(bare.contains('=') || text.contains("++") || text.contains("--")) {
            continue;
        }
        for name in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if crate::core::shell::env::is_valid_name(name) {
                walker.judge_variable(text, name, None, false);
            }
        }
    }
    Ok(Verdict::read_only("evaluates arithmetic"))
}

/// `getopts SPEC NAME`: NAME is assigned.
fn getopts(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if let Some(name) = args.get(1) {
        let text = name
            .literal_text()
            .ok_or_else(|| Verdict::unverified("dynamic variable name"))?;
        walker.judge_variable(text, text, None, false);
    }
    Ok(Verdict::read_only("parses options"))
}
