//! awk: options and the program text.
//!
//! `-f` runs a program file we cannot see, and options the table does not know (gawk's `-e`,
//! `-i`, `-l`, `-E`, `--profile`, `--dump-variables`...) are refused. Every `--source` program,
//! or else the first operand, is scanned by [`awk_program`]; only `gawk` by that name is
//! trusted to sandbox it.

use super::awk_program;
use super::flags::{self, Spec};
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "awk",
        manual: "awk(1p) POSIX, mawk(1) 1.3.4 and gawk(1)",
        rule: Rule::Walked(awk),
        reads: &["awk '{print $1}' notes.txt", "awk -F: '{print $1}' /etc/passwd", "awk -v n=10 'NR <= n' file.txt", "awk '{s+=$2} END {print s}' data.csv"],
        refuses: &["awk 'BEGIN{system(\"touch pwn\")}'", "awk '{print > \"out.txt\"}' notes.txt", "awk -f prog.awk notes.txt", "awk -S 'BEGIN{system(\"touch pwn\")}'", "awk --sandbox 'BEGIN{system(\"touch pwn\")}'", "awk 'BEGIN{\"touch pwn\" | getline x}'"],
    },
    Table {
        program: "gawk",
        manual: "gawk(1)",
        rule: Rule::Walked(awk),
        reads: &["gawk '{print $1}' file.txt", "gawk --sandbox '{print > \"x\"}' notes.txt", "gawk -F, -v OFS=, '{print $2, $1}' data.csv"],
        refuses: &["gawk '{print | \"sh\"}' notes.txt", "gawk --source 'BEGIN{system(\"touch pwn\")}'", "gawk -i inplace '{print}' notes.txt", "gawk -f x.awk notes.txt"],
    },
    Table {
        program: "mawk",
        manual: "mawk(1), mawk 1.3.4",
        rule: Rule::Walked(awk),
        reads: &["mawk '{print NF}' notes.txt", "mawk -F'\\t' '{print $3}' data.tsv"],
        refuses: &["mawk 'BEGIN{system(\"id\")}'", "mawk -S 'BEGIN{system(\"touch pwn\")}'", "mawk '{printf \"x\" >> \"log\"}' notes.txt"],
    },
    Table {
        program: "nawk",
        manual: "awk(1) of the one true awk (nawk), and mawk(1) 1.3.4 where nawk is mawk",
        rule: Rule::Walked(awk),
        reads: &["nawk 'NR==1' notes.txt", "nawk '/error/ {c++} END {print c}' log.txt"],
        refuses: &["nawk 'BEGIN{system(\"touch pwn\")}'", "nawk -S 'BEGIN{system(\"touch pwn\")}'", "nawk --sandbox 'BEGIN{system(\"touch pwn\")}'"],
    },
    Table {
        program: "busybox-awk",
        manual: "the awk applet of BusyBox, upstream documentation",
        rule: Rule::Walked(awk),
        reads: &["busybox-awk '{print $1}' notes.txt"],
        refuses: &["busybox-awk 'BEGIN{system(\"touch pwn\")}'", "busybox-awk -S 'BEGIN{system(\"id\")}'"],
    },
];

#[rustfmt::skip]
const AWK: Spec = Spec {
    short: "bcPrSsNntO",
    short_value: "Fvf",
    long: &[
        "characters-as-bytes", "traditional", "posix", "re-interval", "sandbox", "use-lc-numeric",
        "optimize", "no-optimize", "lint",
    ],
    long_value: &["field-separator", "assign", "file", "source"],
    ..Spec::EMPTY
};

fn awk(_: &mut Walker, name: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&AWK, args)?;
    if parsed.has(&["-f", "--file"]) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "awk -f: runs a program file",
        ));
    }
    // Only gawk has a sandbox: the one true awk (macOS's awk, BSD's nawk) ignores `-S` and
    // `--sandbox` with a warning and runs the program, and any `awk` may be that one.
    if name == "gawk" && parsed.has(&["-S", "--sandbox"]) {
        return Ok(Judgement::read_only("runs a sandboxed awk program"));
    }
    // gawk joins every `--source`; without one, the first operand is the program.
    let mut programs: Vec<&Word> = parsed
        .opts
        .iter()
        .filter(|o| o.name == "--source")
        .filter_map(|o| o.value.as_ref())
        .collect();
    if programs.is_empty() {
        programs.push(
            rest.first()
                .ok_or_else(|| Judgement::unverified("awk without a program"))?,
        );
    }
    for program in programs {
        let text = program
            .literal_text()
            .ok_or_else(|| Judgement::risk(Risk::RunsCode, "awk program known only at run time"))?;
        awk_program::check(text)?;
    }
    Ok(Judgement::read_only("runs a read-only awk program"))
}
