//! The held-out set (`tests/data/heldout.tsv`, see `tests/data/heldout.README.md`): lines from
//! programs' manuals and everyday agent use, written before the program tables were, to
//! measure recognition away from the corpus the analyser was fitted to. No `write` line may be
//! read-only; recognition of the `read_only` lines is printed and must not fall below what
//! the tables reached when they were written (95%).

use crate::lines;

use gatehouse::core::shell::{Safety, analyse};

#[test]
fn no_held_out_write_line_is_read_only_and_95_percent_of_reads_are_recognised() {
    let mut allowed_writes = Vec::new();
    let mut missed = Vec::new();
    let mut read_only_total = 0;
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
            "write" => {}
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
    assert!(
        allowed_writes.is_empty(),
        "held-out write lines classed read-only:\n{}",
        allowed_writes.join("\n")
    );
    assert!(rate >= 95.0, "only {rate:.1}% of held-out reads recognised");
}
