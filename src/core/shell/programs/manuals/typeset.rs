//! The roff text-formatting family (groff 1.22) and its neighbours: formatters and
//! preprocessors that read documents and print formatted text.
//!
//! troff runs in safer mode unless `-U` is given: its requests that run commands or open files
//! for writing (`.sy`, `.pi`, `.open`) are then refused, and `pic`'s `sh` command likewise. So
//! `-U` is never on a list. groff's `-l`/`-L` spool to a printer, `-X` opens a previewer, `-P`
//! passes options to a postprocessor, `-F` names a font directory whose device description
//! chooses the postprocessor program, and the html devices write image files: all left off.

use super::{Rule, Table, literal_operands, short_letters};
use crate::core::shell::escape;
use crate::core::shell::programs::flags::{self, Spec};
use crate::core::shell::programs::{Judged, Judgement, Risk};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "groff",
        manual: "groff(1), groff 1.22",
        rule: Rule::Judged(groff),
        reads: &["groff -T utf8 -man doc/tool.1", "groff -Tutf8 -mandoc -t page.1", "groff -ms -T ascii notes.ms", "groff -Tps -man x.1"],
        refuses: &["groff -U -T utf8 -man x.1", "groff -Thtml -man x.1", "groff -X -man x.1", "groff -l x.1", "groff -P-b x.1", "groff -F fonts x.1", "groff -T $DEV x.1"],
    },
    Table {
        program: "nroff",
        manual: "nroff(1), groff 1.22",
        rule: Rule::Judged(nroff),
        reads: &["nroff -man doc/tool.1", "nroff -man -Tutf8 x.1", "nroff -ms -t notes.ms"],
        refuses: &["nroff -U -man x.1", "nroff -Thtml x.1"],
    },
    Table {
        program: "troff",
        manual: "troff(1), groff 1.22",
        rule: Rule::Judged(troff),
        reads: &["troff -Tutf8 -man x.1", "troff -z x.ms"],
        refuses: &["troff -U x.ms", "troff -F fonts x.ms"],
    },
    Table {
        program: "tbl",
        manual: "tbl(1), groff 1.22",
        rule: Rule::Options(&TBL, "formats tables to standard output"),
        reads: &["tbl table.ms", "tbl table.ms | nroff -ms", "tbl -C t.ms"],
        refuses: &["tbl -Z t.ms"],
    },
    Table {
        program: "eqn",
        manual: "eqn(1), groff 1.22",
        rule: Rule::Options(&EQN, "formats equations to standard output"),
        reads: &["eqn -Tutf8 formulas.ms", "eqn formulas.ms | troff -Tutf8"],
        refuses: &["eqn -Z f.ms"],
    },
    Table {
        program: "neqn",
        manual: "neqn(1), groff 1.22",
        rule: Rule::Options(&EQN, "formats equations to standard output"),
        reads: &["neqn formulas.ms"],
        refuses: &["neqn -Z f.ms"],
    },
    Table {
        program: "pic",
        manual: "pic(1), groff 1.22",
        rule: Rule::Options(&PIC, "formats pictures to standard output"),
        reads: &["pic figure.pic", "pic -t figure.pic"],
        refuses: &["pic -U figure.pic"],
    },
    Table {
        program: "soelim",
        manual: "soelim(1), groff 1.22",
        rule: Rule::Options(&SOELIM, "prints a document with its inclusions"),
        reads: &["soelim page.1", "soelim -I include page.1"],
        refuses: &["soelim -Z page.1"],
    },
    Table {
        program: "preconv",
        manual: "preconv(1), groff 1.22",
        rule: Rule::Options(&PRECONV, "converts a document's encoding to standard output"),
        reads: &["preconv -e latin1 page.1"],
        refuses: &["preconv -Z page.1"],
    },
    Table {
        program: "ptx",
        manual: "ptx(1), GNU coreutils 9.1",
        rule: Rule::Judged(ptx),
        reads: &["ptx words.txt", "ptx -A -f notes.txt more.txt", "ptx -F '...' -w 60 book.txt", "ptx -G words.txt"],
        refuses: &["ptx -G words.txt index.txt", "ptx --traditional in.txt out.txt", "ptx -G *.txt"],
    },
    Table {
        program: "col",
        manual: "col(1), util-linux 2.38",
        rule: Rule::Options(&COL, "filters line feeds from standard input"),
        reads: &["col -b < page.txt", "col -bx < page.txt"],
        refuses: &["col -Z"],
    },
    Table {
        program: "colrm",
        manual: "colrm(1), util-linux 2.38",
        rule: Rule::Reads("removes columns from standard input"),
        reads: &["colrm 1 4 < notes.txt"],
        refuses: &[],
    },
    Table {
        program: "colcrt",
        manual: "colcrt(1), util-linux 2.38",
        rule: Rule::Reads("filters nroff output for a terminal"),
        reads: &["colcrt page.txt"],
        refuses: &[],
    },
];

/// The devices whose postprocessors write only to standard output.
const STDOUT_DEVICES: &[&str] = &["ascii", "latin1", "utf8", "cp1047", "ps", "pdf", "dvi"];

#[rustfmt::skip]
const GROFF: Spec = Spec {
    // -e/-p/-s/-t/-k run eqn, pic, soelim, tbl and preconv, all in safer mode.
    short: "abcCeEhikNpsStvVzZ",
    short_value: "dfmnorwWDIKMT",
    ..Spec::EMPTY
};

const NROFF: Spec = Spec {
    short: "CchipStv",
    short_value: "dMmnorTWw",
    ..Spec::EMPTY
};

const TROFF: Spec = Spec {
    short: "abcivzCER",
    short_value: "wWdfmnorTIM",
    ..Spec::EMPTY
};

const TBL: Spec = Spec {
    short: "Cv",
    ..Spec::EMPTY
};

const EQN: Spec = Spec {
    short: "rvDCNR",
    short_value: "dfspmMT",
    ..Spec::EMPTY
};

const PIC: Spec = Spec {
    short: "nvCSctz",
    ..Spec::EMPTY
};

const SOELIM: Spec = Spec {
    short: "Crtv",
    short_value: "I",
    ..Spec::EMPTY
};

const PRECONV: Spec = Spec {
    short: "rdhv",
    short_value: "eD",
    ..Spec::EMPTY
};

const COL: Spec = Spec {
    short: "bfphxV",
    short_value: "l",
    long: &[
        "no-backspaces",
        "fine",
        "pass",
        "tabs",
        "spaces",
        "version",
        "help",
    ],
    long_value: &["lines"],
    ..Spec::EMPTY
};

#[rustfmt::skip]
const PTX: Spec = Spec {
    short: "AGfrRtOT",
    short_value: "FMSWbgiow",
    long: &["auto-reference", "traditional", "ignore-case", "references", "right-side-refs", "typeset-mode"],
    long_value: &[
        "flag-truncation", "macro-name", "sentence-regexp", "word-regexp", "break-file", "gap-size",
        "ignore-file", "only-file", "width", "format",
    ],
    ..Spec::EMPTY
};

/// A roff program: the options of `spec`, and a device that prints to standard output.
fn roff(program: &str, spec: &Spec, args: &[Word]) -> Judged {
    for letter in short_letters(args, spec.short_value) {
        let why = match letter {
            'U' => Judgement::risk(
                Risk::RunsCode,
                format!("{program} -U: unsafe mode lets the document run commands and write files"),
            ),
            'l' | 'L' => Judgement::writer(format!(
                "{program} -{letter}: sends the output to a printer"
            )),
            'X' => Judgement::risk(Risk::Pager, format!("{program} -X: opens a previewer")),
            _ => continue,
        };
        return Err(why);
    }
    let parsed = flags::parse(spec, args)?;
    if let Some(device) = parsed.value(&["-T"]) {
        let name = device.literal_text().ok_or_else(|| {
            Judgement::dynamic(format!(
                "{program} -T: the device is only known when the line runs"
            ))
        })?;
        if matches!(name, "html" | "xhtml") {
            return Err(Judgement::writer(format!(
                "{program} -T {name}: writes image files beside its output"
            )));
        }
        if !STDOUT_DEVICES.contains(&name) {
            return Err(Judgement::unverified(format!(
                "{program} -T {}: a device not known to print only to standard output",
                escape(name)
            )));
        }
    }
    Ok(Judgement::read_only("formats documents to standard output"))
}

fn groff(args: &[Word]) -> Judged {
    roff("groff", &GROFF, args)
}

fn nroff(args: &[Word]) -> Judged {
    roff("nroff", &NROFF, args)
}

fn troff(args: &[Word]) -> Judged {
    roff("troff", &TROFF, args)
}

/// GNU `ptx` reads all its operands, but in traditional mode (`-G`) the second one is the file
/// it writes.
fn ptx(args: &[Word]) -> Judged {
    let parsed = flags::parse(&PTX, args)?;
    if parsed.has(&["-G", "--traditional"]) {
        let operands = literal_operands("ptx -G", &parsed.args)?;
        if operands.len() > 1 {
            return Err(Judgement::writer(format!(
                "ptx -G: writes {}",
                escape(operands[1])
            )));
        }
    }
    Ok(Judgement::read_only("prints a permuted index"))
}
