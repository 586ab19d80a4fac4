//! awk: options and the program text.
//!
//! `-f` runs a program file we cannot see, and options the table does not know (gawk's `-e`,
//! `-i`, `-l`, `-E`, `--profile`, `--dump-variables`...) are refused. Every `--source` program,
//! or else the first operand, is scanned by [`awk_program`].

use super::awk_program;
use super::flags::{self, Spec};
use super::{Judge, Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    matches!(name, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk").then_some(awk as Judge)
}

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

fn awk(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    let (parsed, rest) = flags::parse_leading(&AWK, args)?;
    if parsed.has(&["-f", "--file"]) {
        return Err(Judgement::risk(
            Risk::RunsCode,
            "awk -f: runs a program file",
        ));
    }
    if parsed.has(&["-S", "--sandbox"]) {
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
