//! Redirections, judged by their exact operator, descriptor and target.
//!
//! Reading (`< file`), duplicating (`2>&1`, `>&2`) and closing (`2>&-`) descriptors are
//! harmless, and so is writing to `/dev/null`, `/dev/stdout` or `/dev/stderr`. Every other
//! write, append, clobber or read-write opening of a path writes a file.

use super::Safety;
use super::words::Word;

/// Targets that swallow or pass through output without touching a file.
const HARMLESS_TARGETS: &[&str] = &[
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// Judges one redirection: `operator` as written (`>`, `>>`, `&>`, `>&`, `<`, `<>`…) and its
/// target word (absent for `>&-`).
pub(super) fn judge(operator: &str, target: Option<&Word>) -> (Safety, &'static str) {
    let target_text = target.and_then(Word::literal_text);
    match operator {
        "<" | "<<<" => (Safety::ReadOnly, "reads a file"),
        ">&-" | "<&-" => (Safety::ReadOnly, "closes a descriptor"),
        "<&" | ">&" if target_text.is_some_and(is_descriptor) => {
            (Safety::ReadOnly, "duplicates a descriptor")
        }
        "<&" => (Safety::Unverified, "reads from an unknown descriptor"),
        ">" | ">>" | ">|" | "&>" | "&>>" | ">&" | "1>" => match target_text {
            Some(path) if HARMLESS_TARGETS.contains(&path) => {
                (Safety::ReadOnly, "discards or passes on output")
            }
            _ => (Safety::Writer, "writes a file"),
        },
        "<>" => (Safety::Writer, "opens a file for writing"),
        _ => (Safety::Unverified, "unknown redirection"),
    }
}

/// `1`, `2`, `-`: the target of a descriptor duplication or close.
fn is_descriptor(text: &str) -> bool {
    text == "-" || (!text.is_empty() && text.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_to_dev_null_is_harmless_but_to_a_disk_is_not() {
        assert_eq!(
            judge(">", Some(&Word::literal("/dev/null"))).0,
            Safety::ReadOnly
        );
        assert_eq!(
            judge(">", Some(&Word::literal("/dev/sda"))).0,
            Safety::Writer
        );
    }

    #[test]
    fn descriptor_duplication_is_harmless_but_ampersand_to_a_file_writes() {
        assert_eq!(judge(">&", Some(&Word::literal("2"))).0, Safety::ReadOnly);
        assert_eq!(
            judge(">&", Some(&Word::literal("out.txt"))).0,
            Safety::Writer
        );
    }

    #[test]
    fn a_dynamic_target_is_a_write() {
        assert_eq!(
            judge(">", Some(&Word::dynamic("$(mktemp)"))).0,
            Safety::Writer
        );
    }
}
