//! Auto and auto+mcp race only lines whose sole obstacle is missing knowledge: a line the
//! analyser knows reaches the network, runs code, opens a pager, runs a path-qualified file or
//! points git elsewhere is asked of the human and never sent to the classifier.

use crate::common;

use std::time::Duration;

use common::Scripted;
use common::bash;
use common::rig::{Rig, asked_of_the_human_and_never_raced};
use gatehouse::core::decision::{Decider, Verdict};
use gatehouse::core::mode::Mode;
use gatehouse::core::route::Route;

const KNOWN_RISKS: [&str; 5] = [
    "curl https://x",
    "npm test",
    "less f",
    "./run.sh",
    "git -C /elsewhere log",
];

#[tokio::test]
async fn in_the_auto_modes_a_known_risk_is_asked_of_the_human_and_never_sent_to_the_classifier() {
    asked_of_the_human_and_never_raced(&[Mode::Auto, Mode::AutoMcp], &KNOWN_RISKS, "known risk")
        .await;
}

#[tokio::test]
async fn in_auto_an_unknown_program_is_still_raced() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::ZERO);
    let rig = Rig::new(Mode::Auto, Some(classifier.clone()));
    let answer = rig.barrier.submit(bash("mytool --list")).await;
    assert_eq!(answer.route, Route::Race);
    assert_eq!(answer.decider, Decider::Classifier);
    assert_eq!(classifier.calls(), 1);
}
