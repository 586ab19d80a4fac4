//! sed: options and the script itself.
//!
//! `-i`/`--in-place` edit files and `-f` runs a script file we cannot see. The scripts (`-e`,
//! or the first operand) are read as GNU sed reads them ([`sed_script`]): `w`/`W` and the `w`
//! flag of `s` write files (`/dev/stdout` too), `e` and the `e` flag of `s` run shell commands,
//! and a script the reader is not certain of is unverified. `--sandbox` makes sed itself
//! refuse those.

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::sed_script::{self, Reading};
use super::{Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "sed",
        manual: "sed(1) and info sed, GNU sed 4.9",
        rule: Rule::Walked(sed),
        reads: &["sed -n '1,5p' file.txt", "sed 's/foo/bar/g' file.txt", "sed -n '/start/,/end/p' notes.txt", "sed -e '$d' -e 's/^/> /' notes.txt"],
        refuses: &["sed -i 's/a/b/' file.txt", "sed --in-place=.bak 's/a/b/' f", "sed 's/a/b/w out.txt' f", "sed -n 'w /dev/stdout' f", "sed '1e touch pwn' f", "sed -f script.sed f", "sed \"$SCRIPT\" f"],
    },
    Table {
        program: "gsed",
        manual: "sed(1) of GNU sed (gsed where the system sed is another)",
        rule: Rule::Walked(sed),
        reads: &["gsed -n '2p' notes.txt", "gsed -E 's/(a|b)+/x/' notes.txt"],
        refuses: &["gsed -i 's/a/b/' notes.txt", "gsed 's/x/y/e' notes.txt"],
    },
];

#[rustfmt::skip]
const SED: Spec = Spec {
    short: "nErsuzbi",
    short_value: "elf",
    long: &[
        "quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "posix",
        "sandbox", "debug", "binary", "follow-symlinks",
    ],
    long_value: &["expression", "line-length", "file"],
    long_optional: &["in-place"],
    ..Spec::EMPTY
};

fn sed(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        if word == "--" {
            break;
        }
        let short_i = word.starts_with('-') && !word.starts_with("--") && {
            let letters = &word[1..];
            let cut = letters.find(['e', 'f', 'l']).unwrap_or(letters.len());
            letters[..cut].contains('i')
        };
        if short_i || word.starts_with("--in-place") {
            return Err(Judgement::writer("sed -i: edits files in place"));
        }
    }
    let parsed = flags::parse(&SED, args)?;
    // `--in`, `--in-pl=.bak`: any prefix of `--in-place`.
    if parsed.has(&["-i", "--in-place"]) {
        return Err(Judgement::writer("sed -i: edits files in place"));
    }
    if parsed.has(&["-f", "--file"]) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "sed -f: runs a script file",
        ));
    }
    let mut scripts: Vec<&Word> = parsed
        .opts
        .iter()
        .filter(|o| o.name == "-e" || o.name == "--expression")
        .filter_map(|o| o.value.as_ref())
        .collect();
    let files = if scripts.is_empty() {
        let Some((script, files)) = parsed.args.split_first() else {
            return Err(Judgement::unverified("sed without a script"));
        };
        scripts.push(script);
        files
    } else {
        &parsed.args[..]
    };
    if parsed.has(&["--sandbox"]) {
        return Ok(Judgement::read_only("edits a stream (sandboxed)"));
    }
    let _ = files;
    let texts = scripts
        .iter()
        .map(|script| script.literal_text())
        .collect::<Option<Vec<&str>>>()
        .ok_or_else(|| Judgement::risk(Risk::RunsCode, "sed script known only at run time"))?;
    match sed_script::read(&texts) {
        Reading::ReadOnly => Ok(Judgement::read_only("edits a stream")),
        Reading::Writes => Err(Judgement::writer("sed w: writes a file")),
        Reading::Runs => Err(Judgement::risk(
            Risk::RunsCode,
            "sed e: runs shell commands",
        )),
        Reading::Rejected(error) => Ok(Judgement::read_only(format!(
            "GNU sed rejects the script ({error}) before running any of it"
        ))),
        Reading::Unverified(why) => Err(Judgement::unparsed(why)),
    }
}
