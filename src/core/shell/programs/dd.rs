//! `dd`: read-only while it copies to standard output (no `of=`, or `of=` a device that still
//! passes output on). Its operands are `name=value` words; any other word, or a word that may
//! split into more operands, is refused.

use super::manuals::{Rule, Table};
use super::{Judged, Judgement};
use crate::core::shell::escape;
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[Table {
    program: "dd",
    manual: "dd(1), GNU coreutils 9.4",
    rule: Rule::Walked(dd),
    reads: &[
        "dd if=disk.img bs=512 count=1 | xxd",
        "dd if=/dev/urandom bs=16 count=1 status=none",
        "dd if=a.bin of=/dev/stdout skip=4 iflag=skip_bytes",
    ],
    refuses: &[
        "dd if=a.img of=b.img",
        "dd if=/dev/zero of=/dev/sda bs=1M",
        "dd if=a $OPS",
        "dd if=a oflag=append conv=notrunc of=log",
        "dd if=a unknown=1",
    ],
}];

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
