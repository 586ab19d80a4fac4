//! Archivers and compressors: read-only when they list, test or write to standard output.
//!
//! `tar` is read-only listing (`-t`), extracting to standard output (`-xO`) or creating to
//! standard output (`-cf -`); its options that run programs are refused. The gzip family is
//! read-only with `-c`, `-l` or `-t`, or when it filters standard input; otherwise it
//! replaces files. `unzip` is read-only with `-l`, `-t`, `-p`, `-v` or `-Z`.

use super::flags::{self, Spec};
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    Some(match name {
        "tar" | "gtar" | "bsdtar" => tar,
        "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma" | "unlzma" | "zstd"
        | "unzstd" | "lz4" | "unlz4" | "pigz" | "unpigz" | "brotli" => compressor,
        "unzip" => unzip,
        "7z" | "7za" | "7zz" | "7zr" => seven_zip,
        _ => return None,
    })
}

#[rustfmt::skip]
const TAR: Spec = Spec {
    short: "tcxruAdvzjJaOkmpPhSWiBlZ",
    // `-I` (`--use-compress-program`) runs a program and is left out.
    short_value: "fCbHKLTVXN",
    long: &[
        "list", "create", "extract", "get", "append", "update", "delete", "catenate", "concatenate",
        "diff", "compare", "verbose", "gzip", "gunzip", "bzip2", "xz", "lzma", "zstd", "lzip",
        "lzop", "auto-compress", "to-stdout", "wildcards", "no-wildcards", "wildcards-match-slash",
        "anchored", "no-anchored", "ignore-case", "totals", "numeric-owner",
        "show-transformed-names", "full-time", "utc", "null", "no-null", "ignore-zeros", "verify",
        "dereference", "keep-old-files", "skip-old-files", "no-recursion", "recursion",
        "one-file-system", "sparse", "preserve-permissions", "same-owner", "no-same-owner",
        "exclude-vcs", "exclude-vcs-ignores", "exclude-backups", "exclude-caches", "no-xattrs",
        "no-acls", "no-selinux", "quiet", "force-local",
    ],
    long_value: &[
        "file", "directory", "exclude", "exclude-from", "files-from", "strip-components",
        "transform", "xform", "blocking-factor", "record-size", "format", "owner", "group", "mode",
        "mtime", "newer", "after-date", "newer-mtime", "label", "occurrence", "sort", "level",
    ],
    long_optional: &["totals"],
    ..Spec::EMPTY
};

/// Options that make tar run a program.
#[rustfmt::skip]
const TAR_RUNS: &[&str] = &[
    "--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--info-script",
    "--new-volume-script", "-F", "--rsh-command", "--rmt-command", "--checkpoint",
];

fn tar(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        let name = word.split('=').next().unwrap_or(word);
        if TAR_RUNS.contains(&name) {
            return Err(Judgement::risk(
                Risk::RunsCode,
                format!("tar {}: runs a program", escape(name)),
            ));
        }
    }
    // Old style: a first word without a dash is a cluster of letters, and each letter that
    // takes a value takes the next word, in order (`tar tfC a.tar dir`).
    let mut owned: Vec<Word> = Vec::new();
    let mut rest = args;
    if let Some((first, tail)) = args.split_first()
        && first.is_static
        && !first.text.starts_with('-')
    {
        rest = tail;
        for letter in first.text.chars() {
            owned.push(Word::literal(&format!("-{letter}")));
            if TAR.short_value.contains(letter) {
                let (value, tail) = rest
                    .split_first()
                    .ok_or_else(|| Judgement::unverified("tar: an option lacks its value"))?;
                owned.push(value.clone());
                rest = tail;
            }
        }
    }
    owned.extend(rest.iter().cloned());
    let parsed = flags::parse(&TAR, &owned)?;
    // GNU tar opens an archive named `host:path` through a remote shell.
    if !parsed.has(&["--force-local"]) {
        for archive in parsed
            .opts
            .iter()
            .filter(|o| o.name == "-f" || o.name == "--file")
        {
            let remote = match archive.value.as_ref().and_then(Word::literal_text) {
                Some(name) => name
                    .split_once(':')
                    .is_some_and(|(host, _)| !host.contains('/')),
                None => true,
            };
            if remote {
                return Err(Judgement::risk(
                    Risk::Network,
                    "tar: an archive named host:path is opened through a remote shell",
                ));
            }
        }
    }
    let to_stdout = parsed.value(&["-f", "--file"]).and_then(Word::literal_text) == Some("-");
    if parsed.has(&["-t", "--list"]) {
        return Ok(Judgement::read_only("lists an archive"));
    }
    if parsed.has(&["-x", "--extract", "--get"]) {
        if parsed.has(&["-O", "--to-stdout"]) {
            return Ok(Judgement::read_only("extracts to standard output"));
        }
        return Err(Judgement::writer("tar -x: extracts files"));
    }
    if parsed.has(&["-c", "--create"]) {
        if to_stdout && !parsed.has(&["--remove-files"]) {
            return Ok(Judgement::read_only("writes an archive to standard output"));
        }
        return Err(Judgement::writer("tar -c: writes an archive"));
    }
    if parsed.has(&["-d", "--diff", "--compare"]) {
        return Ok(Judgement::read_only("compares an archive"));
    }
    Err(Judgement::writer("tar: changes an archive"))
}

#[rustfmt::skip]
const COMPRESSOR: Spec = Spec {
    short: "cdtlkfnNqvrLVhzT0123456789",
    short_value: "STM",
    long: &[
        "stdout", "to-stdout", "decompress", "uncompress", "test", "list", "keep", "force",
        "no-name", "name", "quiet", "verbose", "recursive", "fast", "best", "rsyncable",
        "no-progress", "progress",
    ],
    long_value: &["suffix", "threads", "memlimit", "format"],
    ..Spec::EMPTY
};

fn compressor(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let parsed = flags::parse(&COMPRESSOR, args)?;
    if name.contains("lz4") && parsed.args.len() > 1 {
        return Err(Judgement::writer(format!(
            "{name}: writes its second operand"
        )));
    }
    if parsed.has(&["-r", "--recursive"]) {
        return Err(Judgement::writer(format!("{name} -r: replaces files")));
    }
    let filters = parsed.has(&[
        "-c",
        "--stdout",
        "--to-stdout",
        "-t",
        "--test",
        "-l",
        "--list",
    ]) || parsed.args.iter().all(|a| a.literal_text() == Some("-"));
    if filters {
        return Ok(Judgement::read_only(
            "compresses or decompresses to standard output",
        ));
    }
    Err(Judgement::writer(format!("{name}: replaces files")))
}

fn unzip(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let read_mode = args
        .iter()
        .filter_map(Word::literal_text)
        .take_while(|w| w.starts_with('-'))
        .any(|w| {
            w == "-Z"
                || (w.len() > 1
                    && !w.starts_with("--")
                    && w[1..].chars().any(|c| "ltpvZ".contains(c))
                    && !w.contains('d'))
        });
    if read_mode && !args.iter().any(|w| w.literal_text() == Some("-d")) {
        return Ok(Judgement::read_only("lists or tests an archive"));
    }
    Err(Judgement::writer("unzip: extracts files"))
}

fn seven_zip(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let verb = args.first().and_then(Word::literal_text);
    let options_ok = args.iter().skip(1).all(|w| {
        w.literal_text()
            .is_some_and(|t| !t.starts_with('-') || t == "-slt" || t == "-ba" || t == "--")
    });
    if matches!(verb, Some("l" | "t" | "h" | "i")) && options_ok {
        return Ok(Judgement::read_only("lists or tests an archive"));
    }
    Err(Judgement::writer(format!(
        "{name}: writes or extracts archives"
    )))
}
