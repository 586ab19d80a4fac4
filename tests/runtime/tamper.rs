//! gatehouse's own commands that change what it allows are asked of the human in every mode,
//! allow-all included, and never reach the classifier; its reading commands pass as reads.

use crate::common;

use common::bash;
use common::rig::{Rig, asked_of_the_human_and_never_raced};
use gatehouse::core::mode::Mode;
use gatehouse::core::route::Route;

/// An agent that wants its repository's allows trusted, or the gate out of its way.
const TAMPERING: [&str; 8] = [
    "gatehouse rules trust",
    "gatehouse rules add allow 'curl'",
    "env gatehouse uninstall claude",
    "sudo gatehouse devices revoke phone",
    "./target/release/gatehouse detach opencode http://127.0.0.1:4096",
    "cargo run -- rules trust",
    "echo trust | xargs ~/.cargo/bin/gatehouse rules",
    "gatehouse serve --mode allow-all",
];

#[tokio::test]
async fn in_every_mode_but_plan_a_command_that_changes_gatehouse_is_asked_and_never_raced() {
    asked_of_the_human_and_never_raced(
        &[Mode::Auto, Mode::AutoMcp, Mode::AllowAll, Mode::AllowRead],
        &TAMPERING,
        "tampering line",
    )
    .await;
}

#[tokio::test]
async fn gatehouse_reading_commands_are_allowed_as_reads() {
    let rig = Rig::new(Mode::AllowRead, None);
    for line in [
        "gatehouse explain 'rm -rf /'",
        "gatehouse rules list",
        "gatehouse agents",
        "gatehouse --version",
        "gatehouse rules trust --help",
    ] {
        let answer = rig.barrier.submit(bash(line)).await;
        assert_eq!(answer.route, Route::Allow, "{line}");
    }
}
