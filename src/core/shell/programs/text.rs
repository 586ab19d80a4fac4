//! Text tools whose options or operand count decide whether they write: `sort -o`, `uniq IN
//! OUT`, `xxd IN OUT`, `base64 -o`, `shuf -o`, `tee FILE`, `tree -o`, `file -C`, `yq -i`,
//! `iconv -o`. Their tables, one per program, are in [`text_tables`](super::text_tables).

use super::flags::{self, Spec};
use super::{Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

/// True when `value` names an output that is a file: anything but `/dev/null` and the
/// standard devices while their descriptors point where the line inherited them. `sort -o -`,
/// `shuf -o -` and `tee -` create a file named `-` (tried with coreutils 9).
pub(super) fn writes_to_file(walker: &Walker, value: Option<&Word>) -> bool {
    value.is_some_and(|w| !w.literal_text().is_some_and(|t| walker.passes_through(t)))
}

/// Like [`writes_to_file`] for programs that read `-` as standard output (`uniq in -`,
/// `xxd in -`, `iconv -o -`).
fn writes_to_file_or_dash(walker: &Walker, value: Option<&Word>) -> bool {
    value.is_some_and(|w| w.literal_text() != Some("-")) && writes_to_file(walker, value)
}

#[rustfmt::skip]
const SORT: Spec = Spec {
    short: "bdfgiMhnRrVcCmsuz",
    short_value: "ktSTo",
    long: &[
        "ignore-leading-blanks", "dictionary-order", "ignore-case", "general-numeric-sort",
        "ignore-nonprinting", "month-sort", "human-numeric-sort", "numeric-sort", "random-sort",
        "reverse", "version-sort", "merge", "stable", "unique", "zero-terminated", "debug",
    ],
    long_value: &[
        "key", "field-separator", "buffer-size", "temporary-directory", "parallel", "random-source",
        "files0-from", "batch-size", "sort", "output",
    ],
    long_optional: &["check"],
    ..Spec::EMPTY
};

pub(super) fn sort(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w.starts_with("--compress-program"))
    {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "sort --compress-program: runs a program",
        ));
    }
    let parsed = flags::parse(&SORT, args)?;
    if writes_to_file(walker, parsed.value(&["-o", "--output"])) {
        return Err(Judgement::writer("sort -o: writes a file"));
    }
    Ok(Judgement::read_only("sorts lines"))
}

#[rustfmt::skip]
const UNIQ: Spec = Spec {
    short: "cdDuiz",
    short_value: "fsw",
    long: &[
        "count", "repeated", "unique", "ignore-case", "zero-terminated",
    ],
    long_value: &["skip-fields", "skip-chars", "check-chars"],
    long_optional: &["all-repeated", "group"],
    numeric: true,
    extends: None,
};

pub(super) fn uniq(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&UNIQ, args)?;
    if parsed.args.len() > 1 && writes_to_file_or_dash(walker, parsed.args.get(1)) {
        return Err(Judgement::writer("uniq: writes its second operand"));
    }
    if parsed.args.iter().any(|a| a.many) {
        return Err(Judgement::dynamic(
            "uniq: a glob or expansion may give it a second operand, which it writes",
        ));
    }
    Ok(Judgement::read_only("filters repeated lines"))
}

const BASE64: Spec = Spec {
    short: "dDi",
    short_value: "wbo",
    long: &["decode", "ignore-garbage", "break"],
    long_value: &["wrap", "output", "input"],
    ..Spec::EMPTY
};

pub(super) fn base64(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&BASE64, args)?;
    if writes_to_file(walker, parsed.value(&["-o", "--output"])) {
        return Err(Judgement::writer("base64 -o: writes a file"));
    }
    if parsed.args.len() > 1 {
        return Err(Judgement::unverified("base64 with two operands"));
    }
    Ok(Judgement::read_only("encodes or decodes"))
}

const XXD: Spec = Spec {
    short: "abCEeiprRuvhd",
    short_value: "cglnosR",
    ..Spec::EMPTY
};

pub(super) fn xxd(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    // xxd spells long options with one dash (`-cols 8`); map them to their short letters.
    let args: Vec<Word> = args
        .iter()
        .map(|w| match w.literal_text() {
            Some("-cols") => Word::literal("-c"),
            Some("-len") => Word::literal("-l"),
            Some("-seek") => Word::literal("-s"),
            Some("-plain" | "-ps" | "-postscript") => Word::literal("-p"),
            Some("-include") => Word::literal("-i"),
            Some("-bits") => Word::literal("-b"),
            Some("-revert") => Word::literal("-r"),
            Some("-groupsize") => Word::literal("-g"),
            Some("-name") => Word::literal("-n"),
            Some("-uppercase") => Word::literal("-u"),
            _ => w.clone(),
        })
        .collect();
    // xxd reads options only before its first operand: `xxd in -u` writes a file named -u.
    let (_, operands) = flags::parse_leading(&XXD, &args)?;
    if operands.len() > 1 && writes_to_file_or_dash(walker, operands.get(1)) {
        return Err(Judgement::writer("writes its second operand"));
    }
    if operands.len() > 2 {
        return Err(Judgement::unverified("xxd: more than two operands"));
    }
    if operands.iter().any(|a| a.many) {
        return Err(Judgement::dynamic(
            "xxd: a glob or expansion may give it a second operand, which it writes",
        ));
    }
    Ok(Judgement::read_only("dumps bytes"))
}

const SHUF: Spec = Spec {
    short: "erz",
    short_value: "ino",
    long: &["echo", "repeat", "zero-terminated"],
    long_value: &["input-range", "head-count", "random-source", "output"],
    ..Spec::EMPTY
};

pub(super) fn shuf(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&SHUF, args)?;
    if writes_to_file(walker, parsed.value(&["-o", "--output"])) {
        return Err(Judgement::writer("shuf -o: writes a file"));
    }
    Ok(Judgement::read_only("shuffles lines"))
}

const TEE: Spec = Spec {
    short: "aip",
    long: &["append", "ignore-interrupts"],
    long_optional: &["output-error"],
    ..Spec::EMPTY
};

pub(super) fn tee(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&TEE, args)?;
    if parsed.args.iter().any(|a| writes_to_file(walker, Some(a))) {
        return Err(Judgement::writer("tee: writes files"));
    }
    Ok(Judgement::read_only("copies input to output"))
}

#[rustfmt::skip]
const TREE: Spec = Spec {
    // `-R` re-runs tree through system() for each level deeper than `-L`.
    short: "adlfxLPIpugshDFqNQvtrcUSnCAiJX",
    short_value: "LPIHTo",
    long: &[
        "noreport", "dirsfirst", "filesfirst", "du", "si", "inodes", "device", "prune", "matchdirs",
        "ignore-case", "gitignore", "fromfile", "fflinks", "metafirst", "info", "version",
    ],
    long_value: &[
        "filelimit", "timefmt", "sort", "charset", "gitfile", "infofile", "hintro", "houtro",
    ],
    long_optional: &["help"],
    ..Spec::EMPTY
};

pub(super) fn tree(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&TREE, args)?;
    if writes_to_file(walker, parsed.value(&["-o"])) {
        return Err(Judgement::writer("tree -o: writes a file"));
    }
    Ok(Judgement::read_only("lists a directory tree"))
}

#[rustfmt::skip]
const FILE: Spec = Spec {
    // `-p` (`--preserve-date`) sets the access time back: it changes file metadata.
    short: "biLhzZsknN0ErdlSI",
    short_value: "eFfmP",
    long: &[
        "brief", "mime", "mime-type", "mime-encoding", "dereference", "no-dereference",
        "uncompress", "uncompress-noreport", "special-files", "keep-going", "no-pad", "no-buffer",
        "print0", "raw", "extension", "apple", "no-sandbox",
    ],
    long_value: &[
        "exclude", "exclude-quiet", "separator", "files-from", "magic-file", "parameter",
    ],
    ..Spec::EMPTY
};

pub(super) fn file(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    if args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-C" || w == "--compile")
    {
        return Err(Judgement::writer("file -C: writes a compiled magic file"));
    }
    flags::parse(&FILE, args)?;
    Ok(Judgement::read_only("identifies file types"))
}

#[rustfmt::skip]
const YQ: Spec = Spec {
    short: "rCMPNnejV",
    short_value: "opIa",
    long: &[
        "unwrapScalar", "colors", "no-colors", "prettyPrint", "null-input", "exit-status", "no-doc",
        "header-preprocess",
    ],
    long_value: &["output-format", "input-format", "indent", "expression"],
    ..Spec::EMPTY
};

pub(super) fn yq(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let inplace = args
        .iter()
        .filter_map(Word::literal_text)
        .any(|w| w == "-i" || w.starts_with("--inplace"));
    if inplace {
        return Err(Judgement::writer("yq -i: edits files in place"));
    }
    flags::parse(&YQ, args)?;
    Ok(Judgement::read_only("queries YAML"))
}

const ICONV: Spec = Spec {
    short: "lcs",
    short_value: "fto",
    long: &["list", "silent"],
    long_value: &["from-code", "to-code", "output"],
    ..Spec::EMPTY
};

pub(super) fn iconv(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&ICONV, args)?;
    if writes_to_file_or_dash(walker, parsed.value(&["-o", "--output"])) {
        return Err(Judgement::writer("iconv -o: writes a file"));
    }
    Ok(Judgement::read_only("converts text encodings"))
}

/// binutils readers: read-only, but `--plugin` (or any prefix getopt_long takes for it,
/// `--pl`) loads a shared library, and an `@file` operand is a file of more options, which
/// may hold it.
pub(super) fn binutils(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    for word in args {
        if word.may_be_option() {
            return Err(flags::could_be_option(word));
        }
        if word.prefix.starts_with('@') {
            return Err(Judgement::unverified(format!(
                "{name} {}: reads more options from that file",
                crate::core::shell::escape(&word.text)
            )));
        }
        // The prefix of a word that expands (`--p$X`) may still become `--plugin`.
        let long = word
            .prefix
            .strip_prefix("--")
            .map(|l| l.split('=').next().unwrap_or(l));
        if long.is_some_and(|l| !l.is_empty() && "plugin".starts_with(l) || l.starts_with("plugin"))
        {
            return Err(Judgement::risk(
                Risk::RunsCode,
                format!("{name} --plugin: loads a library"),
            ));
        }
    }
    Ok(Judgement::read_only("reads binaries"))
}

/// `zgrep` and friends are shell scripts with a history of mishandling odd file names, so
/// only literal arguments are trusted.
pub(super) fn shell_script_reader(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    match args.iter().find(|w| !w.is_static) {
        Some(word) => Err(Judgement::dynamic(format!(
            "{}: file names known only at run time",
            crate::core::shell::escape(&word.text)
        ))),
        None => Ok(Judgement::read_only("searches compressed files")),
    }
}
