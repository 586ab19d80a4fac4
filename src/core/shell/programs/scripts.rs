//! Programs that build the command they run from a string or from their input: shells given
//! `-c SCRIPT` (the script is analysed), `xargs` (its command gets words known only at run
//! time), `watch` and `parallel`.

use super::flags::{self, Spec};
use super::wrappers::run;
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    Some(match name {
        "xargs" => xargs,
        "bash" | "sh" | "dash" | "zsh" | "ksh" | "mksh" | "ash" => shell,
        "watch" => watch,
        "parallel" => parallel,
        _ => return None,
    })
}

#[rustfmt::skip]
const XARGS: Spec = Spec {
    short: "0rtx",
    short_value: "nPLsdaEIJ",
    long: &["null", "no-run-if-empty", "verbose", "exit"],
    long_value: &[
        "max-args", "max-procs", "max-lines", "max-chars", "delimiter", "arg-file", "eof",
    ],
    long_optional: &["replace"],
    ..Spec::EMPTY
};

/// `xargs CMD ARGS`: runs CMD with more arguments read from input, so CMD is judged with a
/// word known only at run time (or with its `-I` placeholder words dynamic).
fn xargs(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&XARGS, args)?;
    let placeholder = parsed
        .value(&["-I", "-J"])
        .map(|w| w.text.clone())
        .or_else(|| parsed.has(&["--replace"]).then(|| "{}".to_string()));
    let mut inner: Vec<Word> = if rest.is_empty() {
        vec![Word::literal("echo")]
    } else {
        rest.to_vec()
    };
    match placeholder {
        Some(mark) if !mark.is_empty() => {
            for word in inner.iter_mut().skip(1) {
                if let Some(at) = word.text.find(&mark) {
                    *word = Word::placeholder(&word.text, at);
                }
            }
        }
        _ => inner.push(Word::dynamic("(input)")),
    }
    Ok(run(walker, &inner))
}

/// `bash -c SCRIPT`: the script is analysed. Without `-c` a shell runs a file or its input.
fn shell(walker: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let mut words = args.iter();
    let mut script_flag = false;
    while let Some(word) = words.next() {
        let text = word
            .literal_text()
            .ok_or_else(|| Judgement::risk(Risk::RunsCode, "dynamic shell option"))?;
        match text {
            "--login" | "--noprofile" | "--norc" | "--posix" | "--restricted" | "--noediting" => {}
            "-o" | "+o" => {
                if !words.next().is_some_and(|v| v.is_static) {
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        "shell -o: option name known only at run time",
                    ));
                }
            }
            _ if text.len() > 1
                && text.starts_with(['-', '+'])
                && text[1..].chars().all(|c| "lexuvcfnpCEhBHT".contains(c)) =>
            {
                script_flag |= text.contains('c');
            }
            _ if text.starts_with(['-', '+']) => {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    format!("{name} {}: interactive or unknown option", escape(text)),
                ));
            }
            _ if script_flag => {
                return Ok(walker.nested(text));
            }
            _ => return Err(Judgement::risk(Risk::RunsCode, "runs a script file")),
        }
    }
    Err(Judgement::risk(
        Risk::RunsCode,
        "runs commands from its input",
    ))
}

#[rustfmt::skip]
const WATCH: Spec = Spec {
    short: "dtgebcpwCr",
    short_value: "nq",
    long: &[
        "differences", "no-title", "chgexit", "errexit", "beep", "color", "precise", "no-wrap",
    ],
    long_value: &["interval"],
    ..Spec::EMPTY
};

/// `watch CMD`: repeats a shell command until stopped; the command is analysed.
fn watch(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (_, rest) = flags::parse_leading(&WATCH, args)?;
    let mut script = Vec::new();
    for word in rest {
        script.push(
            word.literal_text()
                .ok_or_else(|| Judgement::risk(Risk::RunsCode, "dynamic watch command"))?,
        );
    }
    let inner = walker.nested(&script.join(" "));
    Ok(Judgement::risk(
        Risk::Pager,
        "repeats a command on the terminal until stopped",
    )
    .max(inner))
}

fn parallel(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let end = args
        .iter()
        .position(|w| w.text.starts_with(":::"))
        .unwrap_or(args.len());
    let mut inner: Vec<Word> = args[..end]
        .iter()
        .skip_while(|w| w.text.starts_with('-'))
        .cloned()
        .collect();
    if !inner.is_empty() {
        inner.push(Word::dynamic("(input)"));
        walker.run(&inner);
    }
    Err(Judgement::risk(
        Risk::RunsCode,
        "runs commands built from its input",
    ))
}
