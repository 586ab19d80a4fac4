//! Shell builtins: which of them only read, and which change how later commands run.
//!
//! Directory changes are read-only but remembered (git then reads another repository).
//! `set` and `shopt` are read-only only for options that cannot make later commands run
//! something else; `trap` and `eval` have their code analysed; `alias` is remembered so that a
//! later use of the name is not trusted; `source` and `.` run a file we cannot see.

use super::flags::{self, Spec};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

/// Builtins that only show or forget shell state (`dirs`, `times`, `caller`, `help`,
/// `unalias`, `disown`), whatever their arguments.
pub(super) fn shows_state(_: &mut Walker, _: &str, _: &[Word]) -> Judged {
    Ok(Judgement::read_only("shell builtin"))
}

/// `type` only says what a name would run.
pub(super) fn type_(_: &mut Walker, _: &str, _: &[Word]) -> Judged {
    Ok(Judgement::read_only("shows what a name runs"))
}

/// Builtins whose arguments are numbers, which bash evaluates as arithmetic.
pub(super) fn numeric_builtin(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        if !(word.literal_text() == Some("-n") || word.literal_text() == Some("-f")) {
            walker.arith_word(word);
        }
    }
    Ok(Judgement::read_only("shell builtin"))
}

/// `jobs` lists jobs, but `jobs -x COMMAND` runs the command (with job specs replaced), so
/// only its listing letters are read-only, and no word may be only known when the line runs
/// (`jobs $OPTS` can become `-x rm …`).
pub(super) fn jobs(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        let text = word.literal_text().filter(|_| !word.many).ok_or_else(|| {
            Judgement::dynamic(format!("jobs: {} may become -x", escape(&word.text)))
        })?;
        if text == "--" || !text.starts_with('-') {
            break;
        }
        if !text[1..].chars().all(|letter| "lnprs".contains(letter)) {
            return Err(Judgement::risk(Risk::RunsCode, "jobs -x: runs a command"));
        }
    }
    Ok(Judgement::read_only("lists jobs"))
}

/// `compgen` lists completions; its `-W` word list is expanded like a command line, and
/// `-C` and `-F` run a command or function.
pub(super) fn compgen(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.literal_text() {
            Some("-C" | "-F") => {
                return Err(Judgement::risk(Risk::RunsCode, "compgen -C/-F: runs code"));
            }
            Some("-W") => match words.next().and_then(Word::literal_text) {
                Some(list) if !list.contains(['$', '`']) => {}
                _ => {
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        "compgen -W: the word list is expanded, substitutions included",
                    ));
                }
            },
            Some(text) if text.starts_with('-') && text.contains(['C', 'F', 'W']) => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "compgen: an option that runs or expands code",
                ));
            }
            _ => {}
        }
    }
    Ok(Judgement::read_only("lists completions"))
}

pub(super) fn test(walker: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let args = match (name, args.split_last()) {
        ("[", Some((last, rest))) if last.literal_text() == Some("]") => rest,
        ("[", _) => return Err(Judgement::unparsed("[ without its closing ]")),
        _ => args,
    };
    walker.test_words(args);
    Ok(Judgement::read_only("tests a condition"))
}

pub(super) fn change_dir(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    walker.changed_dir = true;
    let _ = args;
    Ok(Judgement::read_only("changes directory"))
}

/// `set` options that only make the shell stricter or chattier. `-x` is here: xtrace expands
/// `PS4`, substitutions included, but a line that gives `PS4` a value in any way is refused
/// for that (it is a name that finds code), so only an inherited `PS4` can be in effect, and
/// the environment is trusted as it is for `BASH_ENV`, which bash runs before any line (and
/// as `bash -x` is).
const SET_LETTERS: &str = "euvfnxCBbhHmPT";
#[rustfmt::skip]
pub(super) const SET_OPTIONS: &[&str] = &[
    "errexit", "nounset", "verbose", "noglob", "noclobber", "pipefail", "noexec",
    "errtrace", "functrace", "braceexpand", "hashall", "physical", "monitor", "notify",
    "xtrace",
];

pub(super) fn set(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let Some(text) = word.literal_text() else {
            return Err(Judgement::dynamic("dynamic set arguments"));
        };
        if text == "--" || text == "-" {
            return Ok(Judgement::read_only("sets positional parameters"));
        }
        if text == "-o" || text == "+o" {
            match words.next() {
                None => return Ok(Judgement::read_only("lists shell options")),
                Some(opt) if opt.literal_text().is_some_and(|o| SET_OPTIONS.contains(&o)) => {}
                Some(opt) => {
                    return Err(Judgement::unverified(format!(
                        "set -o {}",
                        escape(&opt.text)
                    )));
                }
            }
        } else if let Some(letters) = text.strip_prefix(['-', '+']) {
            if let Some(bad) = letters
                .chars()
                .find(|c| !SET_LETTERS.contains(*c) && *c != 'o')
            {
                return Err(Judgement::unverified(format!(
                    "set -{} changes later commands",
                    escape(&bad.to_string())
                )));
            }
            if letters.contains('o') {
                match words.next().and_then(Word::literal_text) {
                    Some(opt) if SET_OPTIONS.contains(&opt) => {}
                    _ => {
                        return Err(Judgement::unverified(
                            "set -o with an option that is not on the list",
                        ));
                    }
                }
            }
        } else {
            return Ok(Judgement::read_only("sets positional parameters"));
        }
    }
    Ok(Judgement::read_only("sets shell options"))
}

/// `shopt` options that change globbing or messages only.
#[rustfmt::skip]
const SHOPT_SAFE: &[&str] = &[
    "nullglob", "failglob", "globstar", "dotglob", "nocaseglob", "nocasematch", "extglob",
    "globasciiranges", "lastpipe", "inherit_errexit", "pipefail", "checkwinsize", "histappend",
];

pub(super) fn shopt(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut setting = false;
    for word in args {
        let Some(text) = word.literal_text() else {
            return Err(Judgement::dynamic("dynamic shopt arguments"));
        };
        match text.strip_prefix('-').filter(|letters| !letters.is_empty()) {
            // Letters bundle as getopt reads them: `-qs` sets quietly.
            Some(letters) if letters.chars().all(|c| "supqo".contains(c)) => {
                setting |= letters.contains(['s', 'u']);
                continue;
            }
            Some(_) => {
                return Err(Judgement::unverified(format!(
                    "shopt {}: not an option on the list",
                    escape(text)
                )));
            }
            None => {}
        }
        match text {
            name if setting && !SHOPT_SAFE.contains(&name) => {
                return Err(Judgement::unverified(format!(
                    "shopt {}: changes later commands",
                    escape(name)
                )));
            }
            _ => {}
        }
    }
    Ok(Judgement::read_only("shows or sets glob options"))
}

pub(super) fn trap(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args.iter().skip(1).any(|w| !w.is_static) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "trap: a signal known only at run time is evaluated as arithmetic",
        ));
    }
    match args.first().map(|w| (w.literal_text(), w)) {
        None => Ok(Judgement::read_only("lists traps")),
        Some((Some("-p" | "-l"), _)) => Ok(Judgement::read_only("lists traps")),
        Some((Some("-" | ""), _)) => Ok(Judgement::read_only("resets traps")),
        Some((Some(code), _)) => {
            let judgement = walker.nested(code);
            let why = format!("on a signal {}", judgement.why);
            Ok(judgement.reworded(why))
        }
        Some((None, _)) => Err(Judgement::risk(
            Risk::RunsCode,
            "trap code known only at run time",
        )),
    }
}

pub(super) fn hash(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args
        .iter()
        .map(|w| w.literal_text())
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | [Some("-l")] | [Some("-t"), ..] => {
            Ok(Judgement::read_only("lists remembered programs"))
        }
        _ => Err(Judgement::risk(
            Risk::PathQualified,
            "changes which file a name runs",
        )),
    }
}

pub(super) fn alias(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        if !word.is_static {
            return Err(Judgement::dynamic("dynamic alias"));
        }
        if let Some((name, value)) = word.text.split_once('=') {
            walker.define_alias(name);
            if value
                .split_whitespace()
                .any(|w| w.rsplit('/').next() == Some(super::gatehouse::NAME))
            {
                return Err(Judgement::tamper(
                    "an alias for gatehouse, whose commands may change what it allows",
                ));
            }
        }
    }
    Ok(Judgement::read_only(
        "defines or lists aliases (not expanded in scripts)",
    ))
}

pub(super) fn eval(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut script = Vec::new();
    for word in args {
        match word.literal_text() {
            Some(text) => script.push(text),
            None => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "evaluates code known only at run time",
                ));
            }
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
pub(super) fn read(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    assign_from_input(walker, &READ, args)
}

/// `mapfile -t NAME`; its `-C` callback runs code and is not on the list.
const MAPFILE: Spec = Spec {
    short: "t",
    short_value: "dnOsu",
    ..Spec::EMPTY
};

pub(super) fn mapfile(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    assign_from_input(walker, &MAPFILE, args)
}

fn assign_from_input(walker: &mut Walker, spec: &Spec, args: &[Word]) -> Judged {
    let parsed = flags::parse(spec, args)?;
    for opt in &parsed.opts {
        if matches!(
            opt.name.as_str(),
            "-t" | "-n" | "-N" | "-u" | "-O" | "-s" | "-c"
        ) && let Some(value) = &opt.value
        {
            walker.arith_word(value);
        }
    }
    let array = parsed.value(&["-a"]);
    for name in parsed.args.iter().chain(array) {
        let text = name
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("dynamic variable name"))?;
        walker.judge_variable(text, text, None, false);
    }
    Ok(Judgement::read_only("reads input into variables"))
}

/// `printf [-v NAME]… [--] FORMAT [ARGUMENTS…]`. bash reads the options as getopt does, so
/// `-vNAME` and a second `-v` assign too (`printf -v a -v PATH …`), each name judged as a
/// variable; a word known only when the line runs may become `-v NAME` (`printf $ARGS`, or
/// `"$F"` before more words). Any other option is refused by bash before it assigns.
pub(super) fn printf(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        let Some(text) = first.literal_text() else {
            let option = first.prefix.starts_with('-') && first.prefix != "-";
            if option || (first.may_be_option() && (first.splits || !tail.is_empty())) {
                return Err(Judgement::dynamic(format!(
                    "printf: {} may become -v NAME",
                    escape(&first.text)
                )));
            }
            break;
        };
        if text == "--" {
            rest = tail;
            break;
        }
        let Some(attached) = text.strip_prefix("-v") else {
            break;
        };
        let (name, after) = match (attached, tail.split_first()) {
            ("", Some((name, after))) => (
                name.literal_text()
                    .ok_or_else(|| Judgement::dynamic("dynamic variable name"))?,
                after,
            ),
            ("", None) => break,
            (name, _) => (name, tail),
        };
        walker.judge_variable(&format!("printf -v {name}"), name, None, false);
        rest = after;
    }
    // Numeric conversions (`%d`, `%x`, `%f`, `*` widths, `%(…)T`) evaluate their arguments.
    let Some((format, values)) = rest.split_first() else {
        return Ok(Judgement::read_only("prints text"));
    };
    let strings_only = format.literal_text().is_some_and(only_string_conversions);
    if !strings_only {
        for value in values {
            walker.arith_word(value);
        }
    }
    Ok(Judgement::read_only("prints text"))
}

/// True when every conversion of a printf format is `%s`, `%b`, `%q` or `%%`, with literal
/// flags, width and precision.
fn only_string_conversions(format: &str) -> bool {
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        loop {
            match chars.next() {
                Some('s' | 'b' | 'q' | '%') => break,
                Some('-' | '+' | ' ' | '#' | '0'..='9' | '.') => {}
                _ => return false,
            }
        }
    }
    true
}

pub(super) fn ulimit(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let shows = args
        .iter()
        .all(|w| w.literal_text().is_some_and(|t| t.starts_with('-')));
    if shows {
        Ok(Judgement::read_only("shows limits"))
    } else {
        Err(Judgement::unverified("changes limits"))
    }
}

pub(super) fn umask(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let shows = args
        .iter()
        .all(|w| matches!(w.literal_text(), Some("-S" | "-p")));
    if shows {
        Ok(Judgement::read_only("shows the file mode mask"))
    } else {
        Err(Judgement::unverified(
            "changes the mode of files created later",
        ))
    }
}

pub(super) fn kill(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let texts: Vec<Option<&str>> = args.iter().map(Word::literal_text).collect();
    let pids = match texts.as_slice() {
        [Some("-l" | "-L"), ..] => return Ok(Judgement::read_only("lists signals")),
        // Signal 0 only checks that the processes exist.
        [Some("-0" | "-s0" | "-n0"), ..] => &args[1..],
        [Some("-s" | "-n"), Some("0"), ..] => &args[2..],
        _ => return Ok(Judgement::writer("signals processes")),
    };
    let pids = match pids.first().and_then(Word::literal_text) {
        Some("--") => &pids[1..],
        _ => pids,
    };
    if pids.is_empty() {
        return Err(Judgement::unverified("kill -0 without a process"));
    }
    for pid in pids {
        match pid.literal_text() {
            Some(text) if text.starts_with('-') => {
                return Ok(Judgement::writer("signals processes"));
            }
            Some(text) if text.starts_with('%') => {}
            _ => walker.arith_word(pid),
        }
    }
    Ok(Judgement::read_only("checks that processes exist"))
}

pub(super) fn history(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args.iter().all(|w| {
        w.literal_text()
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
    }) {
        Ok(Judgement::read_only("shows history"))
    } else {
        Err(Judgement::unverified("changes history"))
    }
}

/// `let EXPR…`: each argument is an arithmetic expression; every name assigned is judged as
/// a variable, and every name read must hold a number (see `arith`).
pub(super) fn let_(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        let text = word
            .literal_text()
            .ok_or_else(|| Judgement::risk(Risk::RunsCode, "dynamic let expression"))?;
        let bare = text
            .replace("==", "")
            .replace("<=", "")
            .replace(">=", "")
            .replace("!=", "");
        if bare.contains('=') || text.contains("++") || text.contains("--") {
            // Judged as assignments only; `arith_text` tracks which names hold numbers.
            let outer = std::mem::replace(&mut walker.in_arithmetic, true);
            for name in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if crate::core::shell::env::is_valid_name(name) {
                    walker.judge_variable(text, name, None, false);
                }
            }
            walker.in_arithmetic = outer;
        }
        walker.arith_text(text);
    }
    Ok(Judgement::read_only("evaluates arithmetic"))
}

/// `getopts SPEC NAME`: NAME is assigned.
pub(super) fn getopts(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if let Some(name) = args.get(1) {
        let text = name
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("dynamic variable name"))?;
        walker.judge_variable(text, text, None, false);
    }
    Ok(Judgement::read_only("parses options"))
}
