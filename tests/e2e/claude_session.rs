//! Claude Code says when its session ends: `gatehouse install claude` also installs the
//! `SessionEnd` hook, and the real Claude Code 2.1.328 runs it when `claude -p` finishes, so the
//! console stops counting that session as live. Only with `GATEHOUSE_E2E=1` (`.ci/e2e`).

use crate::common;

use serde_json::json;

use common::e2e::{self, AgentHome, ScriptedConsole, client};
use gatehouse::core::prompter::HumanAnswer;

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_finished_claude_session_is_told_to_the_console_as_ended() {
    let Some(claude) = client("Claude Code", "install_claude.sh") else {
        return;
    };
    let at = AgentHome::new("");
    std::fs::write(at.path().join("empty-settings.json"), "{}").unwrap();
    e2e::succeed(
        at.gatehouse(&["install", "claude", "--scope", "local"])
            .current_dir(at.project()),
    );
    let console = ScriptedConsole::start(at.path(), HumanAnswer::Allow { note: None });
    let settings = at.path().join("empty-settings.json");
    let flags = [
        ("--claude", claude.as_ref()),
        ("--settings", settings.as_os_str()),
    ];
    let tool = json!({"name": "Bash", "input": {"command": "touch made.txt"}});
    let summary = at.drive("claude_e2e.py", &flags, &tool, &[]);
    assert!(at.project().join("made.txt").exists(), "{summary}");

    // The session the call came from, as the audit names it, is the one that ended.
    let audit = std::fs::read_to_string(at.path().join("audit.jsonl")).unwrap();
    let record: serde_json::Value =
        serde_json::from_str(audit.lines().last().expect("the call is audited")).unwrap();
    let session = record["session"].as_str().unwrap();
    assert_eq!(
        console.ended(),
        [format!("claude-code:{session}")],
        "{summary}"
    );
    assert_eq!(
        audit.lines().count(),
        1,
        "the session's end is not audited: {audit}"
    );
}
