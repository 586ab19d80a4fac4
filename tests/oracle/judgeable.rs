//! Issue 21's invariant, over every line the oracle knows (the corpus, the adversarial set and
//! both fuzzers): the only unverified parts a classifier may be asked about are commands whose
//! obstacle is missing knowledge (a program or option the tables lack) written out in words
//! the line spells out, so the model is shown every word that runs. Every unverified finding
//! (a parse failure, an assignment, a redirection, arithmetic) names its risk, and so does a
//! command with a word only the running line knows. Runs without the sandbox: it only analyses.

use gatehouse::core::shell::{Obstacle, Origin, Safety, analyse};

use super::{fuzz, lexical, lines};

/// The problems of one line's analysis, if any.
fn unjudgeable_unknowns(line: &str) -> Vec<String> {
    let analysis = analyse(line);
    let mut problems = Vec::new();
    for finding in &analysis.findings {
        if finding.safety == Safety::Unverified && finding.obstacle == Obstacle::Unknown {
            problems.push(format!("finding {:?}: {}", finding.what, finding.why));
        }
    }
    for command in &analysis.commands {
        if command.safety != Safety::Unverified || command.obstacle != Obstacle::Unknown {
            continue;
        }
        assert_eq!(command.words.len(), command.origins.len(), "{line:?}");
        if !command.is_static || command.origins.contains(&Origin::RunTime) {
            problems.push(format!("command {:?}: {}", command.words, command.why));
        }
    }
    problems
}

#[test]
fn only_missing_knowledge_in_plain_words_is_left_for_the_model() {
    let labelled: Vec<lines::Labelled> = lines::corpus()
        .into_iter()
        .chain(lines::adversarial())
        .chain(lines::heldout())
        .collect();
    let texts: Vec<String> = labelled.iter().map(|l| l.command.clone()).collect();
    let mut all = texts.clone();
    all.extend(fuzz::lines(21, 4_000));
    all.extend(lexical::lines(21, 4_000, &texts));
    let mut failures = Vec::new();
    for line in &all {
        let problems = unjudgeable_unknowns(line);
        if !problems.is_empty() {
            failures.push(format!("{line:?}: {}", problems.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} lines leave the model something it cannot see:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    // The figure the issue asks for: the labelled write lines a model answering read-only to
    // everything could still get allowed (all of them unknown programs or options in plain
    // words, as checked above). It was 175 before issue 21.
    // The held-out set is counted apart, so the figure stays comparable with the one before.
    let raced = |set: &[lines::Labelled]| {
        set.iter()
            .filter(|l| l.label == "write")
            .filter(|l| analyse(&l.command).obstacle() == Some(Obstacle::Unknown))
            .count()
    };
    let heldout = lines::heldout();
    let raced_writes = raced(&labelled[..labelled.len() - heldout.len()]);
    println!("judgeable: {raced_writes} labelled write lines are left for the model");
    println!(
        "judgeable: {} of the held-out set's write lines are left for the model",
        raced(&heldout)
    );
    assert!(raced_writes <= 40, "{raced_writes} write lines race");
}
