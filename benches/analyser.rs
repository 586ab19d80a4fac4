//! Mean time to analyse one corpus line, and how much of it tree-sitter's parse alone takes.

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

/// The floor under `all_corpus_lines`: one parser parsing every line with tree-sitter-bash,
/// and nothing else (no walk, and none of the nested scripts the analyser parses too).
#[divan::bench]
fn parse_only(bencher: divan::Bencher) {
    let lines = corpus();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .expect("the bash grammar loads");
    bencher
        .counter(divan::counter::ItemsCount::new(lines.len()))
        .bench_local(|| {
            for line in &lines {
                divan::black_box(parser.parse(divan::black_box(line), None));
            }
        });
}
