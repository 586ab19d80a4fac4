//! Terminal capability tools (ncurses 6.4): `tput` and `infocmp` query the terminfo database
//! and print; `tput init`/`reset`, `reset`, `tset` and `setterm` change the terminal's modes,
//! and `tic` compiles descriptions into the database.

use super::{Rule, Table, literal_operands};
use crate::core::shell::programs::flags::{self, Spec};
use crate::core::shell::programs::{Judged, Judgement};
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "tput",
        manual: "tput(1), ncurses 6.4",
        rule: Rule::Judged(tput),
        reads: &["tput cols", "tput setaf 1", "tput -T xterm-256color colors", "tput bold; tput sgr0"],
        refuses: &["tput init", "tput reset", "tput -S", "tput cols reset", "tput $CAP"],
    },
    Table {
        program: "infocmp",
        // No option writes: -A/-B name the databases it reads, -F compares two source files.
        manual: "infocmp(1M), ncurses 6.4",
        rule: Rule::Reads("prints terminal descriptions"),
        reads: &["infocmp", "infocmp -1 xterm-256color", "infocmp -x -L screen", "infocmp xterm vt100"],
        refuses: &["tic -x my.terminfo"],
    },
    Table {
        program: "toe",
        // -u/-U read a source file and print its use= dependencies.
        manual: "toe(1M), ncurses 6.4",
        rule: Rule::Reads("lists terminal types"),
        reads: &["toe", "toe -a", "toe -s"],
        refuses: &[],
    },
    Table {
        program: "clear",
        manual: "clear(1), ncurses 6.4",
        rule: Rule::Options(&CLEAR, "prints the clear-screen sequence"),
        reads: &["clear", "clear -x", "clear -T vt100"],
        refuses: &["clear -Z"],
    },
    Table {
        program: "tic",
        manual: "tic(1M), ncurses 6.4",
        rule: Rule::Writes("compiles terminal descriptions into the terminfo database"),
        reads: &[],
        refuses: &["tic xterm.src"],
    },
    Table {
        program: "reset",
        manual: "tset(1), ncurses 6.4",
        rule: Rule::Writes("resets the terminal's modes"),
        reads: &[],
        refuses: &["reset"],
    },
    Table {
        program: "tset",
        manual: "tset(1), ncurses 6.4",
        rule: Rule::Writes("sets the terminal's modes"),
        reads: &[],
        refuses: &["tset"],
    },
    Table {
        program: "setterm",
        manual: "setterm(1), util-linux",
        rule: Rule::Writes("changes terminal settings"),
        reads: &[],
        refuses: &["setterm --blank 0"],
    },
];

const CLEAR: Spec = Spec {
    short: "xV",
    short_value: "T",
    ..Spec::EMPTY
};

const TPUT: Spec = Spec {
    short: "xV",
    short_value: "T",
    ..Spec::EMPTY
};

/// `tput` prints capabilities, but `init` and `reset` set the terminal's modes (as `tset`
/// does) and `-S` takes its capability names from standard input, which may hold them.
fn tput(args: &[Word]) -> Judged {
    if args.iter().any(|w| w.literal_text() == Some("-S")) {
        return Err(Judgement::dynamic(
            "tput -S: reads capability names, init and reset among them, from standard input",
        ));
    }
    let parsed = flags::parse(&TPUT, args)?;
    let operands = literal_operands("tput", &parsed.args)?;
    if let Some(mode) = operands.iter().find(|o| matches!(**o, "init" | "reset")) {
        return Err(Judgement::writer(format!(
            "tput {mode}: sets the terminal's modes"
        )));
    }
    Ok(Judgement::read_only("prints terminal capabilities"))
}
