//! Programs that build the command they run from a string or from their input: shells given
//! `-c SCRIPT` (the script is analysed), `xargs` (its command gets words known only at run
//! time), `watch` and `parallel`.

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::shell::SET_OPTIONS;
use super::wrappers::run;
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "xargs", manual: "xargs(1), GNU findutils 4.9.0", rule: Rule::Walked(xargs),
        reads: &["xargs cat", "xargs -0 -n 1 -P 4 cat", "xargs -I {} cat {}", "xargs -a files.txt cat"],
        refuses: &["xargs rm", "xargs -0 rm -f", "xargs -I {} sh -c 'echo {}'", "xargs -p rm"],
    },
    Table {
        program: "bash", manual: "bash(1) OPTIONS and INVOCATION, GNU bash 5.2.15",
        rule: Rule::Walked(shell),
        reads: &[
            "bash -c 'git status'", "bash -lc 'ls | wc -l'", "bash -xc 'echo test'",
            "bash -o pipefail -c 'git log | head'",
        ],
        refuses: &[
            "bash -c 'touch x'", "bash script.sh", "bash", "bash -i -c ls",
            "bash --rcfile ./x.sh -c ls", "bash -O extglob -c ls",
            "bash -o keyword -c 'bash -c ls BASH_ENV=./x.sh'", "bash -o",
        ],
    },
    Table {
        program: "sh", manual: "sh(1), which is dash(1) on Debian, dash 0.5.12", rule: Rule::Walked(shell),
        reads: &["sh -c 'ls'", "sh -ec 'pwd'"],
        refuses: &["sh ./install.sh", "sh -c 'rm file.txt'", "sh -s < script.sh"],
    },
    Table {
        program: "dash", manual: "dash(1), dash 0.5.12", rule: Rule::Walked(shell),
        reads: &["dash -c 'ls'"],
        refuses: &["dash -c 'touch x'", "dash script.sh"],
    },
    Table {
        program: "zsh", manual: "zsh(1)", rule: Rule::Walked(shell),
        reads: &["zsh -c 'ls'", "zsh -lc ls"],
        refuses: &["zsh -c 'rm -rf /tmp'", "zsh script.zsh", "zsh -c \"ls *(e:'touch pwn':)\""],
    },
    Table {
        program: "ksh", manual: "ksh(1)", rule: Rule::Walked(shell),
        reads: &["ksh -c 'ls'"],
        refuses: &["ksh -c 'touch x'", "ksh script.ksh"],
    },
    Table {
        program: "mksh", manual: "mksh(1)", rule: Rule::Walked(shell),
        reads: &["mksh -c 'ls'"],
        refuses: &["mksh -c 'touch x'", "mksh script.sh"],
    },
    Table {
        program: "ash", manual: "the ash applet of busybox(1), BusyBox 1.35.0", rule: Rule::Walked(shell),
        reads: &["ash -c 'ls'"],
        refuses: &["ash -c 'touch x'", "ash script.sh"],
    },
    Table {
        program: "watch", manual: "watch(1), procps-ng 4.0.2", rule: Rule::Walked(watch),
        reads: &["watch --version"],
        refuses: &["watch 'id'", "watch -n 2 ls", "watch -n 1 rm x"],
    },
    Table {
        program: "parallel", manual: "parallel(1)", rule: Rule::Walked(parallel),
        reads: &["parallel --version"],
        refuses: &["parallel rm ::: a b c", "parallel echo ::: a b"],
    },
];

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
            // The options `set` may take (`-o keyword` would pass `NAME=value` operands of
            // later commands into their environment, `BASH_ENV` included).
            "-o" | "+o" => match words.next() {
                Some(option) if !option.is_static => {
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        "shell -o: option name known only at run time",
                    ));
                }
                Some(option) if SET_OPTIONS.contains(&option.text.as_str()) => {}
                option => {
                    let option = option.map_or("", |o| o.text.as_str());
                    return Err(Judgement::risk(
                        Risk::RunsCode,
                        format!(
                            "{name} {text} {}: not a set option on the list",
                            escape(option)
                        ),
                    ));
                }
            },
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
