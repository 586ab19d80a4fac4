//! Archivers and compressors: read-only when they list, test or write to standard output.
//!
//! `tar` is read-only listing (`-t`), extracting to standard output (`-xO`) or creating to
//! standard output (`-cf -`); its options that run programs are refused. The gzip family is
//! read-only with `-c`, `-l` or `-t`, or when it filters standard input; otherwise it
//! replaces files. `unzip` is read-only with `-l`, `-t`, `-p`, `-v` or `-Z`.

use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "tar",
        manual: "tar(1), GNU tar 1.34",
        rule: Rule::Walked(tar),
        reads: &["tar -tf a.tar", "tar -tvzf release.tar.gz", "tar -xOf a.tar README.md", "tar tf a.tar", "tar -cf - src | wc -c"],
        refuses: &["tar -xf a.tar", "tar -czf out.tar.gz src", "tar -tf a.tar --to-command='sh -c id'", "tar -tf host:a.tar", "tar -tf a.tar -I ./evil", "tar -xf a.tar --checkpoint=1 --checkpoint-action=exec=id", "tar -rf a.tar notes.txt", "tar --delete -f a.tar x"],
    },
    Table {
        program: "gtar",
        manual: "tar(1) of GNU tar (gtar where the system tar is another)",
        rule: Rule::Walked(tar),
        reads: &["gtar -tzf a.tar.gz"],
        refuses: &["gtar -xzf a.tar.gz", "gtar -cf out.tar src"],
    },
    Table {
        program: "bsdtar",
        manual: "bsdtar(1), libarchive",
        rule: Rule::Walked(tar),
        reads: &["bsdtar -tf a.zip", "bsdtar -xOf a.tar notes.txt"],
        refuses: &["bsdtar -xf a.zip", "bsdtar -cf out.tar src"],
    },
    Table {
        program: "gzip",
        manual: "gzip(1), gzip 1.12",
        rule: Rule::Walked(compressor),
        reads: &["gzip -c notes.txt | wc -c", "gzip -l x.gz", "gzip -t x.gz", "gzip -dc file.gz | head"],
        refuses: &["gzip notes.txt", "gzip -d file.gz", "gzip -r dir/", "gzip -k notes.txt"],
    },
    Table {
        program: "gunzip",
        manual: "gzip(1), gzip 1.12",
        rule: Rule::Walked(compressor),
        reads: &["gunzip -c file.gz", "gunzip -t file.gz"],
        refuses: &["gunzip file.gz", "gunzip -r dir/"],
    },
    Table {
        program: "bzip2",
        manual: "bzip2(1), bzip2 1.0.8",
        rule: Rule::Walked(compressor),
        reads: &["bzip2 -dc x.bz2", "bzip2 -t x.bz2"],
        refuses: &["bzip2 notes.txt", "bzip2 -d x.bz2"],
    },
    Table {
        program: "bunzip2",
        manual: "bzip2(1), bzip2 1.0.8",
        rule: Rule::Walked(compressor),
        reads: &["bunzip2 -c x.bz2"],
        refuses: &["bunzip2 x.bz2"],
    },
    Table {
        program: "xz",
        manual: "xz(1), XZ Utils 5.4.1",
        rule: Rule::Walked(compressor),
        reads: &["xz -dc x.xz", "xz -l x.xz", "xz -t x.xz"],
        refuses: &["xz notes.txt", "xz -d x.xz", "xz -T0 -9 big.tar"],
    },
    Table {
        program: "unxz",
        manual: "xz(1), XZ Utils 5.4.1",
        rule: Rule::Walked(compressor),
        reads: &["unxz -c x.xz | head"],
        refuses: &["unxz x.xz"],
    },
    Table {
        program: "lzma",
        manual: "xz(1), XZ Utils 5.4.1",
        rule: Rule::Walked(compressor),
        reads: &["lzma -dc x.lzma"],
        refuses: &["lzma notes.txt"],
    },
    Table {
        program: "unlzma",
        manual: "xz(1), XZ Utils 5.4.1",
        rule: Rule::Walked(compressor),
        reads: &["unlzma -c x.lzma"],
        refuses: &["unlzma x.lzma"],
    },
    Table {
        program: "zstd",
        manual: "zstd(1), zstd 1.5.4",
        rule: Rule::Walked(compressor),
        reads: &["zstd -dc file.zst | head", "zstd -l file.zst", "zstd -t file.zst"],
        refuses: &["zstd notes.txt", "zstd -d file.zst", "zstd -o out.zst notes.txt", "zstd --rm notes.txt"],
    },
    Table {
        program: "unzstd",
        manual: "zstd(1), zstd 1.5.4",
        rule: Rule::Walked(compressor),
        reads: &["unzstd -c file.zst"],
        refuses: &["unzstd file.zst"],
    },
    Table {
        program: "lz4",
        manual: "lz4(1), lz4 1.9.4",
        rule: Rule::Walked(compressor),
        reads: &["lz4 -dc file.lz4 | head", "lz4 -c notes.txt | wc -c", "lz4 -t file.lz4"],
        refuses: &["lz4 notes.txt notes.lz4", "lz4 -d file.lz4", "lz4 -l notes.txt", "lz4 -m notes.txt"],
    },
    Table {
        program: "unlz4",
        manual: "lz4(1), lz4 1.9.4",
        rule: Rule::Walked(compressor),
        reads: &["unlz4 -c file.lz4"],
        refuses: &["unlz4 file.lz4", "unlz4 file.lz4 out", "unlz4 -l file.lz4"],
    },
    Table {
        program: "pigz",
        manual: "pigz(1)",
        rule: Rule::Walked(compressor),
        reads: &["pigz -dc file.gz", "pigz -l file.gz"],
        refuses: &["pigz notes.txt", "pigz -d file.gz"],
    },
    Table {
        program: "unpigz",
        manual: "pigz(1)",
        rule: Rule::Walked(compressor),
        reads: &["unpigz -c file.gz"],
        refuses: &["unpigz file.gz"],
    },
    Table {
        program: "brotli",
        manual: "brotli(1)",
        rule: Rule::Walked(compressor),
        reads: &["brotli -dc file.br", "brotli -t file.br"],
        refuses: &["brotli notes.txt", "brotli -o out.br notes.txt", "brotli -j notes.txt"],
    },
    Table {
        program: "unzip",
        manual: "unzip(1), UnZip 6.00",
        rule: Rule::Walked(unzip),
        reads: &["unzip -l archive.zip", "unzip -p archive.zip README.md", "unzip -t archive.zip", "unzip -Z -1 archive.zip"],
        refuses: &["unzip archive.zip", "unzip -q x.zip", "unzip -o a.zip -d out", "unzip -l -d out a.zip", "unzip -lT a.zip", "unzip -lM a.zip", "UNZIP=-T unzip -l a.zip"],
    },
    Table {
        program: "7z",
        manual: "7z(1), p7zip / 7-Zip",
        rule: Rule::Walked(seven_zip),
        reads: &["7z l x.7z", "7z l -slt x.7z", "7z t x.7z"],
        refuses: &["7z x x.7z", "7z a out.7z src", "7z e x.7z -ooutdir", "7z l x.7z -so"],
    },
    Table {
        program: "7za",
        manual: "7z(1), p7zip / 7-Zip",
        rule: Rule::Walked(seven_zip),
        reads: &["7za l x.7z", "7za l -slt x.7z", "7za t x.7z"],
        refuses: &["7za x x.7z", "7za a out.7z src", "7za e x.7z -ooutdir", "7za l x.7z -so"],
    },
    Table {
        program: "7zz",
        manual: "7z(1), p7zip / 7-Zip",
        rule: Rule::Walked(seven_zip),
        reads: &["7zz l x.7z", "7zz l -slt x.7z", "7zz t x.7z"],
        refuses: &["7zz x x.7z", "7zz a out.7z src", "7zz e x.7z -ooutdir", "7zz l x.7z -so"],
    },
    Table {
        program: "7zr",
        manual: "7z(1), p7zip / 7-Zip",
        rule: Rule::Walked(seven_zip),
        reads: &["7zr l x.7z", "7zr l -slt x.7z", "7zr t x.7z"],
        refuses: &["7zr x x.7z", "7zr a out.7z src", "7zr e x.7z -ooutdir", "7zr l x.7z -so"],
    },
];

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
    // lz4's `-l` is not a listing: it compresses in the legacy format (`--list` lists).
    let lists = parsed.has(&["--list"]) || (!name.contains("lz4") && parsed.has(&["-l"]));
    let filters = lists
        || parsed.has(&["-c", "--stdout", "--to-stdout", "-t", "--test"])
        || parsed.args.iter().all(|a| a.literal_text() == Some("-"));
    if filters {
        return Ok(Judgement::read_only(
            "compresses or decompresses to standard output",
        ));
    }
    Err(Judgement::writer(format!("{name}: replaces files")))
}

/// The letters unzip and its zipinfo mode (`-Z`) take before the archive while they only
/// list, test or print: the modes, quiet, case-insensitive names, text conversion, comments
/// and zipinfo's listing formats. Left off: `-T` (sets the archive's time, even while it
/// lists), `-M` (pages the output, waiting for keys on the terminal), the extraction options
/// and `-d`.
const UNZIP_READS: &str = "ltpvZcqCabz12smh";

fn unzip(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let mut options = args
        .iter()
        .filter_map(Word::literal_text)
        .take_while(|w| w.starts_with('-'));
    if let Some(option) = options
        .clone()
        .find(|w| w.chars().skip(1).any(|c| !UNZIP_READS.contains(c)))
    {
        return Err(Judgement::writer(format!(
            "unzip {}: not an option that only lists, tests or prints",
            escape(option)
        )));
    }
    let read_mode = options.any(|w| {
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
