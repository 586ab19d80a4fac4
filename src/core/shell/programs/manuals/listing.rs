//! Read forms of programs known for their other forms: `cpio` listing an archive, `dc` given
//! a fixed program that cannot reach the shell, and `age` encrypting or decrypting to
//! standard output.

use super::{Rule, Table, literal_operands};
use crate::core::shell::escape;
use crate::core::shell::programs::flags::{self, Spec};
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "cpio",
        manual: "cpio(1) and cpio --help, GNU cpio 2.13",
        rule: Rule::Judged(cpio),
        reads: &[
            "cpio -it < initrd.cpio",
            "cpio -tv -F archive.cpio",
            "cpio --list --verbose --file=a.cpio '*.conf'",
            "cpio -itn -I a.cpio",
        ],
        refuses: &[
            "cpio -i < a.cpio",
            "cpio -idv < a.cpio",
            "cpio -o > a.cpio",
            "cpio -p dest",
            "cpio -it -F backup@host:/a.cpio",
            "cpio -it --rsh-command=/tmp/x -F h:/a",
            "cpio -it -F \"$ARCHIVE\"",
        ],
    },
    Table {
        program: "dc",
        manual: "dc(1), GNU bc 1.07 (dc 1.4)",
        rule: Rule::Judged(dc),
        reads: &[
            "dc -e '2 3 + p'",
            "dc -e '16o 255p'",
            "dc --expression='10k 1 3 / p'",
            "dc -e '[1+]sm 1 lmx p'",
        ],
        refuses: &[
            "dc -e '!id'",
            "dc -e '? p'",
            "dc -e '33 a x'",
            "dc script.dc",
            "dc -f script.dc",
            "dc",
            "dc -e \"$PROG\"",
            "dc -e '1 p' -",
        ],
    },
    Table {
        program: "age",
        manual: "age(1), age 1.1",
        rule: Rule::Judged(age),
        reads: &[
            "age -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p -a notes.txt",
            "age -d -i keys.txt notes.txt.age",
            "age --decrypt --identity keys.txt notes.age",
            "age -R recipients.txt -a < notes.txt",
        ],
        refuses: &[
            "age -r age1x -o notes.age notes.txt",
            "age -d -i keys.txt --output=plain.txt notes.age",
            "age -p notes.txt",
            "age -j yubikey -d notes.age",
            "age -d -i \"$KEY\" notes.age",
            "age -d -i ~/.ssh/id_ed25519 notes.age",
        ],
    },
];

/// `-o` writes a file, `-p` asks for a passphrase on the terminal and `-j` runs a plugin
/// program: all left off. `-i` reads an identity but prints only the plaintext.
const AGE: Spec = Spec {
    short: "eda",
    short_value: "rRi",
    long: &["encrypt", "decrypt", "armor"],
    long_value: &["recipient", "recipients-file", "identity"],
    ..Spec::EMPTY
};

fn age(args: &[Word]) -> Judged {
    let parsed = flags::parse(&AGE, args)?;
    let values: Vec<Word> = parsed.opts.into_iter().filter_map(|o| o.value).collect();
    literal_operands("age", &values)?;
    literal_operands("age", &parsed.args)?;
    Ok(Judgement::read_only(
        "encrypts or decrypts to standard output",
    ))
}

/// The options that only list: `-t` is the mode, the others shape the listing or name the
/// archive read (`-F`/`-I` with `-i`). `-o`, `-p`, `--rsh-command` and extraction-only
/// options are left off.
#[rustfmt::skip]
const CPIO: Spec = Spec {
    short: "itvnfqcBV",
    short_value: "FIHEC",
    long: &["list", "extract", "verbose", "numeric-uid-gid", "nonmatching", "quiet", "dot", "only-verify-crc", "force-local"],
    long_value: &["file", "format", "pattern-file", "block-size", "io-size"],
    ..Spec::EMPTY
};

fn cpio(args: &[Word]) -> Judged {
    let parsed = flags::parse(&CPIO, args)?;
    if !parsed.has(&["-t", "--list"]) {
        return Err(Judgement::writer(
            "cpio: copies files into or out of an archive (only -t lists)",
        ));
    }
    let archives = parsed
        .opts
        .iter()
        .filter(|o| matches!(o.name.as_str(), "-F" | "-I" | "--file"))
        .filter_map(|o| o.value.clone());
    for archive in archives {
        let Some(name) = archive.literal_text().filter(|_| !archive.many) else {
            return Err(Judgement::dynamic(format!(
                "cpio: the archive {} is only known when the line runs",
                escape(&archive.text)
            )));
        };
        if name.contains(':') && !parsed.has(&["--force-local"]) {
            return Err(Judgement::risk(
                Risk::Network,
                format!(
                    "cpio: {} is an archive on another host, reached through rsh",
                    escape(name)
                ),
            ));
        }
    }
    literal_operands("cpio", &parsed.args)?;
    Ok(Judgement::read_only("lists an archive"))
}

const DC: Spec = Spec {
    long_value: &["expression"],
    short_value: "e",
    ..Spec::EMPTY
};

/// `!` runs the rest of its line in the shell, `?` runs a line of standard input as a program,
/// and `a` makes a one-character string from a number, which `x` could run as `!`.
const REACHES_SHELL: &[char] = &['!', '?', 'a'];

fn dc(args: &[Word]) -> Judged {
    let parsed = flags::parse(&DC, args)?;
    if !parsed.args.is_empty() {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "dc: runs the programs in its file operands",
        ));
    }
    let programs: Vec<&Word> = parsed
        .opts
        .iter()
        .filter_map(|o| o.value.as_ref())
        .collect();
    if programs.is_empty() {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "dc: runs the program on its standard input",
        ));
    }
    for program in programs {
        let Some(text) = program.literal_text().filter(|_| !program.many) else {
            return Err(Judgement::dynamic(format!(
                "dc: the program {} is only known when the line runs",
                escape(&program.text)
            )));
        };
        if let Some(c) = text.chars().find(|c| REACHES_SHELL.contains(c)) {
            return Err(Judgement::risk(
                Risk::RunsCode,
                format!("dc: `{c}` in its program can run a shell command"),
            ));
        }
    }
    Ok(Judgement::read_only("computes and prints"))
}
