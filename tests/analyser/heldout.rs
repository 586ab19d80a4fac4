//! The held-out set (`tests/data/heldout.tsv`, see `tests/data/heldout.README.md`): lines from
//! programs' manuals and everyday agent use, written before the program tables were, to
//! measure recognition away from the corpus the analyser was fitted to. No `write` line may be
//! read-only; recognition of the `read_only` lines is printed and must not fall below what
//! the tables reached when they were written (95%); the `write` lines known only as unknown
//! (raced against the classifier in auto mode) are printed and held to issue 22's share.

use crate::lines;

use gatehouse::core::shell::{Obstacle, Safety, analyse};

#[test]
fn no_held_out_write_line_is_read_only_and_95_percent_of_reads_are_recognised() {
    let mut allowed_writes = Vec::new();
    let mut missed = Vec::new();
    let mut read_only_total = 0;
    let (mut writes, mut unknown_writes) = (0, Vec::new());
    for item in lines::heldout() {
        let analysis = analyse(&item.command);
        let line = format!(
            "{:?} ({}): {}",
            item.command,
            item.source,
            analysis.explanation()
        );
        match item.label.as_str() {
            "write" if analysis.safety == Safety::ReadOnly => allowed_writes.push(line),
            "write" => {
                writes += 1;
                // Only missing knowledge is raced in auto mode; a known write or risk is not.
                if analysis.obstacle() == Some(Obstacle::Unknown) {
                    unknown_writes.push(line);
                }
            }
            "read_only" => {
                read_only_total += 1;
                if analysis.safety != Safety::ReadOnly {
                    missed.push(line);
                }
            }
            other => panic!("unknown label {other:?} for {:?}", item.command),
        }
    }
    for line in &missed {
        println!("missed read_only: {line}");
    }
    let recognised = read_only_total - missed.len();
    let rate = recognised as f64 / read_only_total as f64 * 100.0;
    println!("held-out read_only recognised: {recognised}/{read_only_total} ({rate:.1}%)");
    for line in &unknown_writes {
        println!("unknown write (raced in auto): {line}");
    }
    println!(
        "held-out write lines unknown (raced in auto): {}/{writes}",
        unknown_writes.len()
    );
    assert!(
        allowed_writes.is_empty(),
        "held-out write lines classed read-only:\n{}",
        allowed_writes.join("\n")
    );
    assert!(rate >= 95.0, "only {rate:.1}% of held-out reads recognised");
    // Issue 22's goal on the larger held-back set: at most 60 of 628 write lines raced.
    assert!(
        unknown_writes.len() * 628 <= writes * 60,
        "{} of {writes} held-out write lines are unknown and would be raced in auto",
        unknown_writes.len()
    );
}
