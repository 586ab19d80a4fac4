//! find: a complete list of tests and actions.
//!
//! Starting points and tests are read-only; `-delete`, `-fprint*` and `-fls` write; `-exec`
//! and `-execdir` run their command once per file, and that command is judged with `{}` as a
//! word known only at run time; `-ok`/`-okdir` also ask on the terminal.

use super::flags;
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "find",
        manual: "find(1), GNU findutils 4.9.0",
        rule: Rule::Walked(find),
        reads: &["find . -name '*.txt'", "find . -maxdepth 2 -type f -name '*.conf'", "find . -name node_modules -prune -o -name '*.js' -print", "find . -name '*.py' -exec wc -l {} \\;", "find src -newer notes.txt -type f -printf '%p %s\\n'"],
        refuses: &["find . -delete", "find . -name '*.o' -exec rm {} +", "find . -fprint out.txt", "find . -fls list.txt", "find . -execdir sh -c 'touch x' \\;", "find . -ok rm {} \\;", "find . $ACTION"],
    },
    Table {
        program: "gfind",
        manual: "find(1) of GNU findutils (gfind where the system find is another)",
        rule: Rule::Walked(find),
        reads: &["gfind . -type f -mtime -1", "gfind . -name '*.rs' -print0"],
        refuses: &["gfind . -name '*.tmp' -delete", "gfind . -fprintf out '%p'"],
    },
];

/// Tests and options without an argument.
#[rustfmt::skip]
const BARE: &[&str] = &[
    "-print", "-print0", "-ls", "-prune", "-quit", "-o", "-or", "-a", "-and", "-not", "!", "(", ")",
    ",", "-empty", "-readable", "-writable", "-executable", "-nouser", "-nogroup", "-true",
    "-false", "-follow", "-xdev", "-mount", "-noleaf", "-depth", "-d", "-daystart",
    "-ignore_readdir_race", "-noignore_readdir_race", "-nowarn", "-warn", "-x", "-s", "-E",
];

/// Tests and options that take one argument.
#[rustfmt::skip]
const WITH_ARGUMENT: &[&str] = &[
    "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
    "-xtype", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer",
    "-cnewer", "-perm", "-user", "-group", "-uid", "-gid", "-maxdepth", "-mindepth", "-regextype",
    "-links", "-inum", "-samefile", "-lname", "-ilname", "-fstype", "-used", "-printf", "-context",
    "-files0-from", "-Bmin", "-Btime", "-Bnewer",
];

fn find(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut words = args.iter().peekable();
    // Options before the starting points.
    while let Some(word) = words.peek() {
        match word.literal_text() {
            Some("-H" | "-L" | "-P") => {
                words.next();
            }
            Some(text) if text.starts_with("-O") || text == "-D" => {
                words.next();
                if text == "-D" && words.next().is_some_and(|v| v.splits) {
                    return Err(Judgement::dynamic("find -D: value may split into options"));
                }
            }
            _ => break,
        }
    }
    let mut judgement = Judgement::read_only("finds files");
    let mut expression = false;
    while let Some(word) = words.next() {
        if word.may_be_option() {
            return Err(Judgement::dynamic(format!(
                "{} could expand to a find action",
                escape(&word.text)
            )));
        }
        let text = word.text.as_str();
        let is_test =
            word.is_static && (text.starts_with('-') || matches!(text, "!" | "(" | ")" | ","));
        if !is_test {
            if expression {
                return Err(Judgement::unverified(format!(
                    "find: unexpected word {}",
                    escape(text)
                )));
            }
            continue;
        }
        expression = true;
        if BARE.contains(&text) {
            continue;
        }
        if WITH_ARGUMENT.contains(&text) || (text.starts_with("-newer") && text.len() == 8) {
            if let Some(value) = words.next().filter(|v| v.splits) {
                return Err(flags::could_be_option(value));
            }
            continue;
        }
        match text {
            "-delete" => return Err(Judgement::writer("find -delete: removes files")),
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                return Err(Judgement::writer(format!("find {text}: writes a file")));
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                // GNU find ends the command at `;`, or at `+` right after `{}`; any other
                // `+` is an argument (`-exec echo + -delete ;` deletes nothing), which other
                // finds may read otherwise: unverified.
                let mut inner: Vec<Word> = Vec::new();
                for word in words.by_ref() {
                    let after_braces = inner.last().is_some_and(|w| w.text == "{}");
                    match word.literal_text() {
                        Some(";") => break,
                        Some("+") if after_braces => break,
                        Some("+") => {
                            return Err(Judgement::unverified(
                                "find -exec: a `+` not right after `{}` is an argument",
                            ));
                        }
                        Some(_) => {}
                        // `$X` may be `;` or `+` and end the command early for find, which
                        // would read the words after it as actions.
                        None => {
                            return Err(Judgement::dynamic(
                                "find -exec: a word known only at run time may end the command",
                            ));
                        }
                    }
                    inner.push(if word.text.contains("{}") {
                        Word::dynamic(&word.text)
                    } else {
                        word.clone()
                    });
                }
                if inner.is_empty() {
                    return Err(Judgement::unverified("find -exec without a command"));
                }
                let ran = walker.run(&inner);
                let why = format!("runs {} on each file", escape(&inner[0].text));
                judgement = judgement.max(ran.reworded(why));
                if text.starts_with("-ok") {
                    judgement = judgement.max(Judgement::risk(
                        Risk::Pager,
                        "find -ok: asks on the terminal",
                    ));
                }
            }
            _ => {
                return Err(Judgement::unverified(format!(
                    "find {}: not on the read-only list",
                    escape(text)
                )));
            }
        }
    }
    Ok(judgement)
}
