//! Mean time to analyse one corpus line.

use gatehouse::core::shell::analyse;
use gatehouse::explain::decode_escaped;

fn main() {
    divan::main();
}

/// Every corpus command, decoded.
fn corpus() -> Vec<String> {
    include_str!("../tests/data/commands.tsv")
        .lines()
        .skip(1)
        .filter_map(|line| line.split('\t').next())
        .map(decode_escaped)
        .collect()
}

/// One iteration analyses every line; divan reports the time per line through the counter.
#[divan::bench]
fn all_corpus_lines(bencher: divan::Bencher) {
    let lines = corpus();
    bencher
        .counter(divan::counter::ItemsCount::new(lines.len()))
        .bench(|| {
            for line in &lines {
                divan::black_box(analyse(divan::black_box(line)));
            }
        });
}
