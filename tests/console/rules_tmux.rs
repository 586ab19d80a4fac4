//! Lasting rules in the real console in a real terminal (tmux): after three identical
//! approvals typed in the console a rule is offered, `L` saves it to the saved-rules file and
//! it then decides the same call without a dialog; the rules panel (`s`) lists it with its file
//! and hits, and `x` deletes it in place.

use crate::common;

use std::path::Path;
use std::process::Child;
use std::time::Duration;

use common::e2e::GATEHOUSE;
use common::tmux::{Tmux, quoted};
use serde_json::{Value, json};

fn hook(dir: &Path, command: &str) -> Child {
    let payload = json!({
        "session_id": "tmux-rules",
        "cwd": dir,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_rules",
    });
    common::claude_hook(&dir.join("run/gatehouse.sock"), &payload)
}

fn decision(child: Child) -> Value {
    let out = child.wait_with_output().unwrap();
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    value["hookSpecificOutput"]["permissionDecision"].clone()
}

#[test]
fn repeated_approvals_offer_a_rule_that_l_saves_and_the_panel_lists_and_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "ask_timeout_secs = 30\nsuggest_after = 3\n").unwrap();
    std::fs::write(dir.path().join("no-floor.toml"), "").unwrap();
    let line = format!(
        "env XDG_STATE_HOME={state} GATEHOUSE_POLICY={floor} {exe} --config {config} --socket {socket}; sleep 60",
        state = quoted(&dir.path().join("state")),
        floor = quoted(&dir.path().join("no-floor.toml")),
        config = quoted(&config),
        exe = quoted(Path::new(GATEHOUSE)),
        socket = quoted(&dir.path().join("run/gatehouse.sock")),
    );
    let Some(tui) = Tmux::start(&line, 110, 32) else {
        return;
    };
    tui.wait_for("Waiting for agents", 20);

    for _ in 0..3 {
        let call = hook(dir.path(), "make lint");
        tui.wait_for("$ make lint", 10);
        // A newly shown dialog ignores decision keys for about 250 ms.
        std::thread::sleep(Duration::from_millis(400));
        tui.keys(&["y"]);
        assert_eq!(decision(call), "allow");
    }
    tui.wait_for("L saves it", 5);
    tui.keys(&["L"]);
    tui.wait_for("saved:", 5);
    let saved = std::fs::read_to_string(dir.path().join("rules.toml")).unwrap();
    assert!(saved.contains("command = \"make lint\""), "{saved}");

    let call = hook(dir.path(), "make lint");
    assert_eq!(decision(call), "allow", "the saved rule decides, no dialog");

    tui.keys(&["s"]);
    let screen = tui.wait_for("rules in force", 5);
    assert!(screen.contains("saved learned-allow"), "{screen}");
    assert!(screen.contains("rules.toml"), "{screen}");
    tui.wait_for("1 hit", 5);
    tui.keys(&["x"]);
    tui.wait_for("deleted", 5);
    let saved = std::fs::read_to_string(dir.path().join("rules.toml")).unwrap();
    assert!(!saved.contains("make lint"), "{saved}");
    assert!(dir.path().join("rules.toml.bak").exists());
    tui.keys(&["Escape", "q"]);
}
