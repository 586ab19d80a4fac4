//! Readers of structured data and documents that print to standard output: XML, JSON and
//! HTML query tools, PDF and audio inspectors, OCR to standard output, line counters, and the
//! forms of the same programs that write files, run commands or fetch URLs.

use super::{Rule, Table, literal_operands};
use crate::core::shell::escape;
use crate::core::shell::programs::flags::{self, Spec};
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "xmllint",
        manual: "xmllint(1), libxml2 2.9",
        rule: Rule::Judged(xmllint),
        reads: &["xmllint --format pom.xml", "xmllint --noout --xpath '//version/text()' pom.xml", "xmllint --html --noout page.html"],
        refuses: &["xmllint --format -o out.xml in.xml", "xmllint --output out.xml in.xml", "xmllint --shell a.xml", "xmllint http://example.com/a.xml", "xmllint --valid a.xml", "xmllint --xinclude a.xml"],
    },
    Table {
        program: "gron",
        manual: "gron --help, gron 0.7",
        rule: Rule::Judged(gron),
        reads: &["gron package.json", "gron -u flat.txt", "gron < data.json"],
        refuses: &["gron https://example.com/a.json", "gron $SRC"],
    },
    Table {
        program: "htmlq",
        manual: "htmlq --help, htmlq 0.4",
        rule: Rule::Options(&HTMLQ, "queries HTML to standard output"),
        reads: &["htmlq --text h1 < page.html", "htmlq -a href a -f page.html"],
        refuses: &["htmlq -o out.txt a < page.html", "htmlq --output out.txt a"],
    },
    Table {
        program: "pup",
        // No option writes: -f names the file it reads.
        manual: "pup --help, pup 0.4",
        rule: Rule::Reads("queries HTML to standard output"),
        reads: &["pup 'a attr{href}' < page.html"],
        refuses: &[],
    },
    Table {
        program: "csvlook",
        manual: "csvlook --help, csvkit 1.1",
        rule: Rule::Reads("prints CSV as a table"),
        reads: &["csvlook data.csv"],
        refuses: &[],
    },
    Table {
        program: "pdftotext",
        manual: "pdftotext(1), poppler 22",
        rule: Rule::Judged(pdftotext),
        reads: &["pdftotext paper.pdf -", "pdftotext -layout -f 1 -l 2 paper.pdf -"],
        refuses: &["pdftotext paper.pdf", "pdftotext paper.pdf out.txt", "pdftotext paper.pdf $OUT"],
    },
    Table {
        program: "pdffonts",
        manual: "pdffonts(1), poppler 22",
        rule: Rule::Reads("lists a PDF's fonts"),
        reads: &["pdffonts paper.pdf"],
        refuses: &[],
    },
    Table {
        program: "pdfimages",
        manual: "pdfimages(1), poppler 22",
        rule: Rule::Judged(pdfimages),
        reads: &["pdfimages -list paper.pdf"],
        refuses: &["pdfimages paper.pdf img", "pdfimages -png paper.pdf img"],
    },
    Table {
        program: "tesseract",
        manual: "tesseract(1), tesseract 5",
        rule: Rule::Judged(tesseract),
        reads: &["tesseract scan.png stdout", "tesseract scan.png - -l eng --psm 6"],
        refuses: &["tesseract scan.png out", "tesseract scan.png stdout pdf", "tesseract scan.png stdout -c tessedit_write_images=1"],
    },
    Table {
        program: "soxi",
        manual: "soxi(1), SoX 14.4",
        rule: Rule::Reads("prints audio file headers"),
        reads: &["soxi -D take.wav"],
        refuses: &[],
    },
    Table {
        program: "modinfo",
        manual: "modinfo(8), kmod 30",
        rule: Rule::Reads("prints a kernel module's information"),
        reads: &["modinfo -F version ext4"],
        refuses: &[],
    },
    Table {
        program: "mimetype",
        manual: "mimetype(1), File::MimeInfo 0.33",
        rule: Rule::Reads("prints files' MIME types"),
        reads: &["mimetype -b README.md"],
        refuses: &[],
    },
    Table {
        program: "difft",
        // difftastic prints the diff itself: no pager, no output file.
        manual: "difft --help, difftastic 0.58",
        rule: Rule::Reads("compares files structurally"),
        reads: &["difft old.rs new.rs", "difft --display inline a.json b.json"],
        refuses: &[],
    },
    Table {
        program: "otool",
        manual: "otool(1), Xcode cctools",
        rule: Rule::Reads("prints object file contents"),
        reads: &["otool -L /usr/bin/true"],
        refuses: &[],
    },
    Table {
        program: "cloc",
        manual: "cloc --help, cloc 1.96",
        rule: Rule::Judged(cloc),
        reads: &["cloc .", "cloc --by-file --exclude-dir=node_modules src", "cloc --vcs=git --json"],
        refuses: &["cloc --out=report.txt .", "cloc --report-file=r.txt src", "cloc --extract-with='sh -c id' x.tgz", "cloc --sql=db .", "cloc --write-lang-def=x", "cloc --vcs='rm -rf x'", "cloc release.tar.gz", "cloc --read-lang-def=x ."],
    },
    Table {
        program: "blkid",
        manual: "blkid(8), util-linux 2.38",
        rule: Rule::Writes("updates its cache of block devices when run as root"),
        reads: &[],
        refuses: &["blkid"],
    },
    Table {
        program: "objcopy",
        manual: "objcopy(1), GNU binutils 2.40",
        rule: Rule::Writes("writes object files (in place without an output operand)"),
        reads: &[],
        refuses: &["objcopy --strip-debug app"],
    },
    Table {
        program: "ranlib",
        manual: "ranlib(1), GNU binutils 2.40",
        rule: Rule::Writes("rewrites an archive's index"),
        reads: &[],
        refuses: &["ranlib libx.a"],
    },
    Table {
        program: "mlr",
        manual: "mlr help, Miller 6",
        rule: Rule::Runs("runs DSL expressions that can write files and run commands (tee, emit >, system)"),
        reads: &[],
        refuses: &["mlr --icsv --ojson cat data.csv"],
    },
    Table {
        program: "jj",
        manual: "jj help, Jujutsu 0.2x",
        rule: Rule::Writes("snapshots the working copy into its store on every command"),
        reads: &[],
        refuses: &["jj status", "jj log"],
    },
];

/// Operands that are local files: static, and not a URL.
fn local(program: &str, operands: &[Word]) -> Result<(), Judgement> {
    for operand in literal_operands(program, operands)? {
        if operand.contains("://") || operand.starts_with("ftp:") || operand.starts_with("http:") {
            return Err(Judgement::risk(
                Risk::Network,
                format!("{program}: fetches {}", escape(operand)),
            ));
        }
    }
    Ok(())
}

/// `--output`/`-o` write a file, `--shell` is interactive, and the options that load DTDs,
/// entities, XIncludes or schemas may fetch them over the network: all left off.
#[rustfmt::skip]
const XMLLINT: Spec = Spec {
    long: &[
        "format", "noout", "noblanks", "c14n", "c14n11", "exc-c14n", "html", "xmlout", "nowarning",
        "recover", "debug", "stream", "walker", "nocdata", "nsclean", "nonet", "quiet", "timing",
        "version", "huge", "oldxml10", "dropdtd", "nocompact", "nodict", "noenc",
    ],
    long_value: &["xpath", "pretty", "encode", "maxmem"],
    ..Spec::EMPTY
};

fn xmllint(args: &[Word]) -> Judged {
    if args
        .iter()
        .any(|w| matches!(w.literal_text(), Some("-o" | "--output")))
    {
        return Err(Judgement::writer("xmllint --output: writes a file"));
    }
    let parsed = flags::parse(&XMLLINT, args)?;
    local("xmllint", &parsed.args)?;
    Ok(Judgement::read_only("checks or prints XML"))
}

const GRON: Spec = Spec {
    short: "ucmsjv",
    long: &[
        "ungron",
        "colorize",
        "monochrome",
        "stream",
        "json",
        "no-sort",
        "values",
        "version",
    ],
    ..Spec::EMPTY
};

/// `gron` fetches an operand that is a URL.
fn gron(args: &[Word]) -> Judged {
    let parsed = flags::parse(&GRON, args)?;
    local("gron", &parsed.args)?;
    Ok(Judgement::read_only("prints JSON as assignments"))
}

const HTMLQ: Spec = Spec {
    short: "Bhiprtw",
    short_value: "abf",
    long: &[
        "detect-base",
        "help",
        "ignore-whitespace",
        "pretty",
        "remove-nodes",
        "text",
        "version",
    ],
    long_value: &["attribute", "base", "filename"],
    ..Spec::EMPTY
};

/// `pdftotext FILE` writes `FILE.txt`; only `-` as its second operand prints.
fn pdftotext(args: &[Word]) -> Judged {
    // Its long options are written with one dash (`-layout`, `-enc UTF-8`).
    const FLAGS: &[&str] = &[
        "-layout",
        "-raw",
        "-fixed",
        "-nopgbrk",
        "-htmlmeta",
        "-bbox",
        "-bbox-layout",
        "-tsv",
        "-cropbox",
        "-q",
        "-v",
    ];
    const VALUES: &[&str] = &[
        "-enc", "-eol", "-opw", "-upw", "-r", "-x", "-y", "-W", "-H", "-f", "-l",
    ];
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.literal_text() {
            Some(flag) if FLAGS.contains(&flag) => {}
            Some(flag) if VALUES.contains(&flag) => {
                words.next();
            }
            Some(flag) if flag.starts_with('-') && flag != "-" => {
                return Err(flags::unknown(flag));
            }
            _ => operands.push(word.clone()),
        }
    }
    match literal_operands("pdftotext", &operands)?.as_slice() {
        [_, "-"] => Ok(Judgement::read_only("prints a PDF's text")),
        _ => Err(Judgement::writer("pdftotext: writes a text file")),
    }
}

fn pdfimages(args: &[Word]) -> Judged {
    if args.iter().any(|w| w.literal_text() == Some("-list")) && args.len() == 2 {
        return Ok(Judgement::read_only("lists a PDF's images"));
    }
    Err(Judgement::writer("pdfimages: writes image files"))
}

/// `tesseract IMAGE OUTBASE`: only `stdout` or `-` as the output base prints; further operands
/// are configurations that choose other outputs, and `-c` sets variables (some write files).
fn tesseract(args: &[Word]) -> Judged {
    let mut operands = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.literal_text() {
            Some("-l" | "--psm" | "--oem" | "--dpi") => {
                words.next();
            }
            Some(flag) if flag.starts_with('-') && flag != "-" => {
                return Err(flags::unknown(flag));
            }
            _ => operands.push(word.clone()),
        }
    }
    match literal_operands("tesseract", &operands)?.as_slice() {
        [_, "stdout" | "-"] => Ok(Judgement::read_only("prints recognised text")),
        _ => Err(Judgement::writer("tesseract: writes its output files")),
    }
}

/// Options that write a report or database, or run an extractor: named before the list.
const CLOC_WRITES: &[&str] = &[
    "--out",
    "--report-file",
    "--sql",
    "--sql-append",
    "--write-lang-def",
    "--write-lang-def-incl-dup",
    "--sdir",
    "--csv-delimiter-file",
];

#[rustfmt::skip]
const CLOC: Spec = Spec {
    long: &[
        "by-file", "by-file-by-lang", "json", "yaml", "csv", "md", "xml", "quiet", "hide-rate",
        "skip-uniqueness", "fullpath", "no-autogen", "follow-links", "show-lang", "show-ext",
        "by-percent", "sum-one", "ignore-whitespace", "ignore-case", "git", "diff", "count-and-diff",
        "no3", "unicode", "v", "version", "help",
    ],
    long_value: &[
        "exclude-dir", "exclude-ext", "include-ext", "include-lang", "exclude-lang", "match-f",
        "not-match-f", "match-d", "not-match-d", "vcs", "max-file-size", "timeout", "force-lang",
        "list-file", "exclude-list-file",
    ],
    ..Spec::EMPTY
};

fn cloc(args: &[Word]) -> Judged {
    for word in args.iter().filter_map(Word::literal_text) {
        let name = word.split('=').next().unwrap_or(word);
        if CLOC_WRITES.contains(&name) {
            return Err(Judgement::writer(format!("cloc {name}: writes a file")));
        }
        if name == "--extract-with" {
            return Err(Judgement::risk(
                Risk::RunsCode,
                "cloc --extract-with: runs a command",
            ));
        }
    }
    let parsed = flags::parse(&CLOC, args)?;
    if let Some(vcs) = parsed.value(&["--vcs"]) {
        if vcs.literal_text() != Some("git") {
            return Err(Judgement::risk(
                Risk::RunsCode,
                "cloc --vcs other than git: runs the command it names",
            ));
        }
    }
    for operand in literal_operands("cloc", &parsed.args)? {
        const ARCHIVES: &[&str] = &[
            ".tar", ".tgz", ".gz", ".bz2", ".xz", ".zip", ".jar", ".whl", ".deb", ".rpm", ".7z",
        ];
        if ARCHIVES.iter().any(|ext| operand.ends_with(ext)) {
            return Err(Judgement::writer(format!(
                "cloc {}: extracts the archive into a temporary directory",
                escape(operand)
            )));
        }
    }
    Ok(Judgement::read_only("counts lines of code"))
}
