//! Credential reads in the corpus: the read-only lines that now ask because they may print a
//! secret are listed, and few (each is a read of a secret, the environment or a token).

use gatehouse::core::shell::{Obstacle, Risk, analyse};

use crate::corpus::corpus;

#[test]
fn few_corpus_read_only_lines_become_credential_reads_and_each_is_listed() {
    let mut changed = Vec::new();
    let mut read_only = 0;
    for (command, label) in corpus() {
        if label != "read_only" {
            continue;
        }
        read_only += 1;
        let analysis = analyse(&command);
        if analysis.obstacle() == Some(Obstacle::Known(Risk::Credential)) {
            changed.push(format!("{command:?}: {}", analysis.explanation()));
        }
    }
    println!(
        "read_only lines now credential reads: {} of {read_only}",
        changed.len()
    );
    for line in &changed {
        println!("credential: {line}");
    }
    assert!(
        changed.len() <= CHANGED_AT_MOST,
        "{} corpus read-only lines are credential reads, more than {CHANGED_AT_MOST}:\n{}",
        changed.len(),
        changed.join("\n")
    );
}
/// The env family (7 lines: they print the environment) and `openssl x509 -in cert.pem` (a
/// `.pem` may hold a private key).
const CHANGED_AT_MOST: usize = 8;
