//! The adversarial set (`tests/data/adversarial.tsv`, built from GTFOBins, public reports of
//! agent permission bypasses and the bash manual; see `tests/data/adversarial.README.md`): no
//! `write` line may be read-only, and at least 97% of the `read_only` lines must be recognised.

use crate::lines;

use gatehouse::core::shell::{Safety, analyse};

#[test]
fn no_adversarial_write_line_is_read_only_and_97_percent_of_reads_are_recognised() {
    let mut allowed_writes = Vec::new();
    let mut missed = Vec::new();
    let mut read_only_total = 0;
    for item in lines::adversarial() {
        let analysis = analyse(&item.command);
        match item.label.as_str() {
            "write" if analysis.safety == Safety::ReadOnly => allowed_writes.push(format!(
                "{:?} ({}): {}",
                item.command,
                item.source,
                analysis.explanation()
            )),
            "read_only" => {
                read_only_total += 1;
                if analysis.safety != Safety::ReadOnly {
                    missed.push(format!(
                        "{:?} ({}): {}",
                        item.command,
                        item.source,
                        analysis.explanation()
                    ));
                }
            }
            "write" => {}
            other => panic!("unknown label {other:?} for {:?}", item.command),
        }
    }
    let recognised = read_only_total - missed.len();
    let rate = recognised as f64 / read_only_total as f64 * 100.0;
    for line in &missed {
        println!("missed read_only: {line}");
    }
    for line in &allowed_writes {
        println!("WRITE ALLOWED: {line}");
    }
    println!("adversarial read_only recognised: {recognised}/{read_only_total} ({rate:.1}%)");
    println!("adversarial write lines allowed: {}", allowed_writes.len());
    assert!(
        allowed_writes.is_empty(),
        "{} adversarial write lines classed read-only",
        allowed_writes.len()
    );
    assert!(
        rate >= 97.0,
        "only {rate:.1}% of adversarial read_only lines recognised"
    );
}

#[test]
fn the_adversarial_set_is_large_labelled_and_sourced() {
    let all = lines::adversarial();
    assert!(all.len() >= 300, "only {} lines", all.len());
    let reads = all.iter().filter(|item| item.label == "read_only").count();
    assert!(
        reads * 100 >= all.len() * 35,
        "only {reads} read_only lines"
    );
    for item in &all {
        assert!(!item.source.is_empty(), "no source for {:?}", item.command);
        assert!(
            item.label == "write" || item.why.is_empty(),
            "a read_only line has a why: {:?}",
            item.command
        );
    }
}
