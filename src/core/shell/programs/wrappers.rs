//! Wrappers: programs that run another command, which is judged in its place.
//!
//! A wrapper is read-only only when its own options are (`timeout -s KILL 5`, `nice -n 10`)
//! and the command it runs is. The inner command is recorded as a command of its own, so a
//! rule about `git push` also sees `timeout 5 git push`. Shells given a script with `-c` have
//! the script analysed (see [`super::scripts`]); `sudo` and its kin are never read-only.

use super::flags::{self, Spec};
use super::{Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

/// `unbuffer`, `builtin` and `busybox` run the command that follows them, judged in their place.
pub(super) fn runs_rest(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    Ok(run(walker, args))
}

/// Words bash reads as the start of a compound command, or as reserved, after `coproc NAME`.
const RESERVED: &[&str] = &[
    "{", "}", "(", "!", "[[", "if", "then", "else", "elif", "fi", "do", "done", "while", "until",
    "for", "case", "esac", "in", "select", "function", "time", "coproc",
];

/// `coproc cmd args`: bash runs `cmd args`, unless the second word is reserved; then the first
/// is the coprocess's name and the rest a compound command (or a syntax error), which the
/// parser does not show.
pub(super) fn coproc(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let reserved = args
        .get(1)
        .is_some_and(|w| w.is_static && RESERVED.contains(&w.text.as_str()));
    if reserved {
        return Err(Judgement::unparsed(
            "coproc NAME before a reserved word: bash reads a compound command the parser does not show",
        ));
    }
    Ok(run(walker, args))
}

/// Runs `inner` as its own command and words the wrapper's judgement after it.
pub(super) fn run(walker: &mut Walker, inner: &[Word]) -> Judgement {
    if inner.is_empty() {
        return Judgement::unverified("wraps nothing");
    }
    let judgement = walker.run(inner);
    let why = format!("runs {}", escape(&inner[0].text));
    judgement.reworded(why)
}

const ENV: Spec = Spec {
    short: "i0v",
    short_value: "uCS",
    long: &["ignore-environment", "null", "debug"],
    long_value: &["unset", "chdir", "split-string"],
    ..Spec::EMPTY
};

pub(super) fn env(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, mut rest) = flags::parse_leading(&ENV, args)?;
    if parsed.has(&["-C", "--chdir"]) {
        walker.changed_dir = true;
    }
    if let Some(script) = parsed.value(&["-S", "--split-string"]) {
        let text = script
            .literal_text()
            .ok_or_else(|| Judgement::dynamic("dynamic -S string"))?;
        // env splits the string its own way, read here as a shell line: the same words
        // while it holds no backslash, but `\_` separates words (`sort a\_-o\_x` is
        // `sort a -o x`) and `\c` ends the string.
        if text.contains('\\') {
            return Err(Judgement::unparsed(
                "env -S: a backslash escape splits words as the shell does not",
            ));
        }
        let mut line = text.to_string();
        for word in rest {
            line.push(' ');
            line.push_str(&word.text);
        }
        return Ok(walker.nested(&line));
    }
    while let Some((first, tail)) = rest.split_first() {
        match first.text.split_once('=') {
            Some((name, value)) if first.is_static || !name.contains('$') => {
                walker.judge_variable(&first.text, name, Some(value), !first.is_static);
                rest = tail;
            }
            _ => break,
        }
    }
    if let Some((first, tail)) = rest.split_first()
        && first.literal_text() == Some("--")
    {
        rest = tail;
    }
    if rest.is_empty() {
        return Ok(Judgement::read_only("prints the environment"));
    }
    Ok(run(walker, rest))
}

const TIMEOUT: Spec = Spec {
    short: "v",
    short_value: "sk",
    long: &["preserve-status", "foreground", "verbose"],
    long_value: &["signal", "kill-after"],
    ..Spec::EMPTY
};

pub(super) fn timeout(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&TIMEOUT, args)?;
    match rest.split_first() {
        Some((_duration, inner)) => Ok(run(walker, inner)),
        None => Err(Judgement::unverified("timeout without a command")),
    }
}

const NICE: Spec = Spec {
    short: "",
    short_value: "n",
    long: &[],
    long_value: &["adjustment"],
    numeric: true,
    ..Spec::EMPTY
};

pub(super) fn nice(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&NICE, args)?;
    if rest.is_empty() {
        return Ok(Judgement::read_only("prints the niceness"));
    }
    Ok(run(walker, rest))
}

const TIME: Spec = Spec {
    short: "pvqa",
    short_value: "fo",
    long: &["portability", "verbose", "quiet", "append"],
    long_value: &["format", "output"],
    ..Spec::EMPTY
};

pub(super) fn time(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&TIME, args)?;
    let inner = if rest.is_empty() {
        Judgement::read_only("times nothing")
    } else {
        run(walker, rest)
    };
    if parsed.has(&["-o", "--output"]) {
        return Ok(Judgement::writer("time -o: writes a file").max(inner));
    }
    Ok(inner)
}

const STDBUF: Spec = Spec {
    short: "",
    short_value: "ioe",
    long: &[],
    long_value: &["input", "output", "error"],
    ..Spec::EMPTY
};

pub(super) fn stdbuf(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&STDBUF, args)?;
    Ok(run(walker, rest))
}

/// `nohup` appends to `nohup.out` only when its standard output is a terminal (nohup(1),
/// GNU coreutils 9.1); sent to `/dev/null`, it writes no file. Output to a file is judged by
/// the redirection itself; any other output may be the terminal.
pub(super) fn nohup(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let quiet = walker.command_fds.get(1) == crate::core::shell::redirect::Points::Nowhere;
    let inner = run(walker, args);
    if quiet {
        return Ok(inner);
    }
    Ok(Judgement::writer("may write nohup.out").max(inner))
}

#[rustfmt::skip]
const SUDO: Spec = Spec {
    short: "AbEeHiKklnPSsVv",
    short_value: "CDghpRrTtUuc",
    long: &[
        "login", "shell", "preserve-env", "non-interactive", "background", "stdin",
    ],
    long_value: &["user", "group", "chdir", "prompt", "host", "command"],
    ..Spec::EMPTY
};

/// `sudo`, `doas`, `su`, `pkexec`: never read-only. The command they run is still recorded.
pub(super) fn sudo(walker: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let own = Judgement::writer(format!("{name}: runs as another user"));
    if let Ok((parsed, rest)) = flags::parse_leading(&SUDO, args) {
        if let Some(script) = parsed
            .value(&["-c", "--command"])
            .and_then(Word::literal_text)
        {
            walker.nested(script);
        } else if !rest.is_empty() && name != "su" {
            walker.run(rest);
        }
    }
    Err(own)
}

#[rustfmt::skip]
const CHRT: Spec = Spec {
    short: "bfiordaRv",
    short_value: "TPD",
    long: &[
        "batch", "fifo", "idle", "other", "rr", "deadline", "all-tasks", "reset-on-fork", "verbose",
    ],
    long_value: &["sched-runtime", "sched-period", "sched-deadline"],
    ..Spec::EMPTY
};

pub(super) fn chrt(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&CHRT, args)?;
    match rest.split_first() {
        Some((_priority, inner)) if !inner.is_empty() => Ok(run(walker, inner)),
        _ => Err(Judgement::unverified("chrt without a command")),
    }
}

const IONICE: Spec = Spec {
    short: "t",
    short_value: "cn",
    long: &["ignore"],
    long_value: &["class", "classdata"],
    ..Spec::EMPTY
};

pub(super) fn ionice(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&IONICE, args)?;
    if rest.is_empty() {
        return Ok(Judgement::read_only("prints the I/O class"));
    }
    Ok(run(walker, rest))
}

const TASKSET: Spec = Spec {
    short: "ac",
    short_value: "",
    long: &["all-tasks", "cpu-list"],
    long_value: &[],
    ..Spec::EMPTY
};

pub(super) fn taskset(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&TASKSET, args)?;
    match rest.split_first() {
        Some((_mask, inner)) if !inner.is_empty() => Ok(run(walker, inner)),
        _ => Err(Judgement::unverified("taskset without a command")),
    }
}

#[rustfmt::skip]
const TRACE: Spec = Spec {
    short: "fFcCTtrywvxqkzZnihSb",
    short_value: "esaXPIUAoE",
    long: &[
        "follow-forks", "summary-only", "summary", "no-abbrev", "verbose",
    ],
    long_value: &["trace", "string-limit", "signal", "output"],
    ..Spec::EMPTY
};

/// `strace`/`ltrace`: they only watch, unless told to write a file (`-o`) or tamper with
/// system calls (`-e inject=…`).
pub(super) fn trace(walker: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&TRACE, args)?;
    if parsed.has(&["-o", "--output", "-A"]) {
        return Err(Judgement::writer(format!("{name} -o: writes a file")));
    }
    for opt in parsed
        .opts
        .iter()
        .filter(|o| o.name == "-e" || o.name == "--trace")
    {
        let value = opt
            .value
            .as_ref()
            .and_then(Word::literal_text)
            .unwrap_or("inject=");
        let safe = [
            "trace=", "t=", "abbrev=", "verbose=", "raw=", "signal=", "status=", "read=", "write=",
        ];
        if value.contains('=') && !safe.iter().any(|p| value.starts_with(p)) {
            return Err(Judgement::unverified(format!(
                "{name} -e {}: may tamper with the program",
                escape(value)
            )));
        }
    }
    if parsed.has(&["-E"]) {
        return Err(Judgement::unverified(format!(
            "{name} -E: changes the environment"
        )));
    }
    if rest.is_empty() {
        return Err(Judgement::unverified(format!("{name} without a command")));
    }
    Ok(run(walker, rest))
}

pub(super) fn command(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        match first.literal_text() {
            Some("-v" | "-V") => return Ok(Judgement::read_only("shows what a name runs")),
            Some("-p") => rest = tail,
            Some("--") => {
                rest = tail;
                break;
            }
            _ => break,
        }
    }
    Ok(run(walker, rest))
}

pub(super) fn exec(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        match first.literal_text() {
            Some("-c" | "-l") => rest = tail,
            Some("-a") => match tail.split_first() {
                Some((name, after)) if !name.splits => rest = after,
                _ => return Err(Judgement::dynamic("exec -a: name may split into words")),
            },
            _ => break,
        }
    }
    if rest.is_empty() {
        return Ok(Judgement::read_only(
            "applies its redirections to the shell",
        ));
    }
    Ok(run(walker, rest))
}
