//! `dd`: read-only while it copies to standard output (no `of=`, or `of=` a device that still
//! passes output on). Its operands are `name=value` words; any other word, or a word that may
//! split into more operands, is refused.

use super::{Judge, Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

pub(super) fn lookup(name: &str) -> Option<Judge> {
    (name == "dd").then_some(dd as Judge)
}

/// Operands that only choose what is read and how much.
#[rustfmt::skip]
const READS: &[&str] = &[
    "if", "bs", "ibs", "obs", "cbs", "count", "skip", "iseek", "seek", "oseek", "conv", "iflag",
    "oflag", "status",
];

fn dd(walker: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for word in args {
        if word.splits || word.many {
            return Err(Judgement::dynamic(format!(
                "dd: {} may become more operands",
                escape(&word.text)
            )));
        }
        let Some((name, value)) = word.prefix.split_once('=') else {
            if word
                .literal_text()
                .is_some_and(|t| t == "--help" || t == "--version")
            {
                continue;
            }
            return Err(Judgement::unverified(format!(
                "dd: {} is not an operand it reads",
                escape(&word.text)
            )));
        };
        match name {
            "of" => {
                let passes = word.is_static && walker.passes_through(value);
                if !passes {
                    return Err(Judgement::writer("dd of=: writes a file or device"));
                }
            }
            _ if READS.contains(&name) => {}
            _ => {
                return Err(Judgement::unverified(format!(
                    "dd {}=: not on the read-only list",
                    escape(name)
                )));
            }
        }
    }
    Ok(Judgement::read_only("copies blocks to standard output"))
}
