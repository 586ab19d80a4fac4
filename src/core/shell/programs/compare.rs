//! File comparers: `diff` and `diff3` only read, but `diff -l` (`--paginate`) pipes its
//! output through `pr` and `diff3 --diff-program` runs a program of the line's choosing.

use super::flags;
use super::manuals::{Rule, Table};
use super::{Judged, Judgement, Risk};
use crate::core::shell::walk::Walker;
use crate::core::shell::words::Word;

#[rustfmt::skip]
pub(super) const TABLES: &[Table] = &[
    Table {
        program: "diff",
        manual: "diff(1), GNU diffutils 3.10",
        rule: Rule::Walked(diff),
        reads: &["diff -u a.txt b.txt", "diff -rq src/ backup/src/", "diff --color=always -y a b"],
        refuses: &["diff -l a b", "diff --paginate a b", "diff -u a b > patch.diff"],
    },
    Table {
        program: "diff3",
        manual: "diff3(1), GNU diffutils 3.10",
        rule: Rule::Walked(diff3),
        reads: &["diff3 mine older yours", "diff3 -m a b c"],
        refuses: &["diff3 --diff-program=./x a b c", "diff3 -m a b c > merged"],
    },
];

/// GNU diff's short options that take a value: the rest of a bundle is that value.
const DIFF_VALUES: &str = "CDFILSUWXx";

/// The words before `--`, each refused where expansion could make it an option, in order, so
/// a judgement stops at the first word that settles it.
fn words_before_operands(args: &[Word]) -> impl Iterator<Item = Result<&str, Judgement>> {
    args.iter()
        .map(|word| {
            if word.may_be_option() {
                Err(flags::could_be_option(word))
            } else {
                Ok(word.prefix.as_str())
            }
        })
        .take_while(|text| !matches!(text, Ok("--")))
}

/// The name of a long option as written, without `--` and any `=value`.
fn long_name(text: &str) -> Option<&str> {
    let long = text.strip_prefix("--")?;
    Some(long.split('=').next().unwrap_or(long))
}

fn diff(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for text in words_before_operands(args) {
        let text = text?;
        if let Some(name) = long_name(text) {
            if !name.is_empty() && "paginate".starts_with(name) {
                return Err(Judgement::unverified("diff --paginate: runs pr"));
            }
        } else if let Some(letters) = text.strip_prefix('-') {
            for letter in letters.chars() {
                if DIFF_VALUES.contains(letter) {
                    break;
                }
                if letter == 'l' {
                    return Err(Judgement::unverified("diff -l: runs pr"));
                }
            }
        }
    }
    Ok(Judgement::read_only("compares files"))
}

fn diff3(_: &mut Walker, _: &str, args: &[Word]) -> Judged {
    for text in words_before_operands(args) {
        if let Some(name) = long_name(text?) {
            if name.len() >= 3 && "diff-program".starts_with(name) {
                return Err(Judgement::risk(
                    Risk::RunsCode,
                    "diff3 --diff-program: runs a program",
                ));
            }
        }
    }
    Ok(Judgement::read_only("compares files"))
}
