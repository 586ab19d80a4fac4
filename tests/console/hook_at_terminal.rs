//! `gatehouse hook claude` typed by a person at a terminal says what it is for instead of
//! waiting silently, and still answers a call pasted on its stdin.

use crate::common;

use std::path::Path;

use common::e2e::GATEHOUSE;
use common::tmux::{Tmux, quoted};

#[test]
fn the_hook_typed_at_a_terminal_says_agents_run_it_and_still_answers_a_pasted_call() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("no-console.sock");
    let line = format!(
        "{exe} --socket {socket} hook claude; echo EXITED $?; sleep 60",
        exe = quoted(Path::new(GATEHOUSE)),
        socket = quoted(&socket),
    );
    let Some(tui) = Tmux::start(&line, 120, 30) else {
        return;
    };
    tui.wait_for("is run by Claude Code before each tool call", 20);
    let call = r#"{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    tui.type_text(call);
    tui.keys(&["Enter", "C-d"]);
    let screen = tui.wait_for("EXITED 0", 20);
    assert!(
        screen.contains("\"permissionDecision\":\"allow\""),
        "{screen}"
    );
}
