//! The labelled lines the oracle and the adversarial test read: the shared corpus copy, the
//! adversarial set and the held-out set, in the corpus README's escaped TSV format.
//!
//! Both files open with a header line. Columns are `command`, `label`, `source` and, in the
//! adversarial set only, an optional fourth `why` that says why a `write` line is not read-only
//! when the oracle cannot show it (network, pagers, code the sandbox does not hold).

use gatehouse::explain::decode_escaped;

/// One labelled line.
#[derive(Debug, Clone)]
pub struct Labelled {
    /// The bash line, decoded.
    pub command: String,
    /// `read_only` or `write`.
    pub label: String,
    /// Where the case comes from (`gtfobins:tar`, `bash-manual:redirections`, `own`).
    pub source: String,
    /// Why a `write` line is not read-only when running it cannot show it; empty otherwise.
    #[allow(dead_code)]
    pub why: String,
}

/// Parses an escaped TSV file with a header line; blank lines are skipped.
pub fn parse(text: &str) -> Vec<Labelled> {
    text.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split('\t');
            let command = decode_escaped(fields.next().unwrap_or(""));
            let label = fields.next().unwrap_or("").to_string();
            let source = fields.next().unwrap_or("").to_string();
            let why = fields.next().unwrap_or("").trim().to_string();
            Labelled {
                command,
                label,
                source,
                why,
            }
        })
        .collect()
}

/// The shared corpus copy, `tests/data/commands.tsv`.
#[allow(dead_code)]
pub fn corpus() -> Vec<Labelled> {
    parse(include_str!("../data/commands.tsv"))
}

/// The held-out set, `tests/data/heldout.tsv`: lines from manuals and everyday agent use,
/// written before the program tables they measure.
#[allow(dead_code)]
pub fn heldout() -> Vec<Labelled> {
    parse(include_str!("../data/heldout.tsv"))
}

/// The adversarial set, `tests/data/adversarial.tsv`.
#[allow(dead_code)]
pub fn adversarial() -> Vec<Labelled> {
    parse(include_str!("../data/adversarial.tsv"))
}
