//! End to end with the real Qwen Code CLI 0.24.4, driven by a scripted model on loopback
//! (`../shared/realclients/qwen_e2e.py`). `gatehouse install qwen` writes the hooks into a
//! throw-away home; that installed `settings.json` is what Qwen runs with.
//!
//! Qwen runs `PreToolUse` only on calls it has already approved (`--approval-mode yolo`
//! approves everything), and `PermissionRequest` only where it would ask, which headless is
//! only in its SDK mode (`--sdk`, where the script plays the host and answers `can_use_tool`).
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client): a plain `cargo test`
//! never downloads anything. Without node, npm or python3 they skip, saying so.

use crate::common;

use gatehouse::core::prompter::HumanAnswer;
use serde_json::{Value, json};

use common::e2e::{self, AgentHome, ScriptedConsole, client};

fn qwen() -> Option<String> {
    client("Qwen Code", "install_qwen.sh")
}

/// A throw-away home with gatehouse's Qwen hooks installed, a project with `build/`, and a
/// private gatehouse config and socket.
struct Setup {
    at: AgentHome,
    qwen: String,
}

impl Setup {
    fn new(qwen: String) -> Setup {
        let setup = Setup {
            at: AgentHome::new(""),
            qwen,
        };
        let printed = e2e::succeed(
            setup
                .at
                .gatehouse(&["install", "qwen"])
                .env("HOME", setup.at.home())
                .env_remove("QWEN_HOME"),
        );
        assert!(printed.contains("PostToolUse"), "{printed}");
        setup
    }

    /// Runs Qwen on `tool` with `extra` flags for the script.
    fn run(&self, tool: Value, extra: &[&str]) -> Value {
        let settings = self.at.home().join(".qwen/settings.json");
        let flags = [
            ("--qwen", self.qwen.as_ref()),
            ("--settings", settings.as_os_str()),
        ];
        self.at.drive("qwen_e2e.py", &flags, &tool, extra)
    }
}

fn rm_build() -> Value {
    json!({"name": "run_shell_command",
        "input": {"command": "rm -rf build", "description": "clean"}})
}

fn result(summary: &Value) -> &str {
    summary["tool_result"].as_str().unwrap_or("")
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_refusal_on_pre_tool_use_reaches_the_model_and_the_command_does_not_run() {
    let Some(qwen) = qwen() else { return };
    let setup = Setup::new(qwen);
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    // yolo: Qwen approves everything itself, so only PreToolUse stands in the way.
    let summary = setup.run(rm_build(), &["--approval-mode", "yolo"]);
    assert!(result(&summary).starts_with("gatehouse"), "{summary}");
    assert!(result(&summary).contains("no one is watching"), "{summary}");
    assert_eq!(summary["tool_result_is_error"], true, "{summary}");
    assert!(setup.at.built(), "rm -rf build ran: {summary}");
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"agent\":\"qwen-code\""), "{audit}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_refusal_on_permission_request_reaches_the_model_though_the_host_would_allow() {
    let Some(qwen) = qwen() else { return };
    let setup = Setup::new(qwen);
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    let summary = setup.run(rm_build(), &["--sdk", "--sdk-answer", "allow"]);
    assert!(result(&summary).starts_with("gatehouse"), "{summary}");
    assert_eq!(
        summary["sdk_can_use_tool"],
        json!([]),
        "the host was asked: {summary}"
    );
    assert!(setup.at.built(), "rm -rf build ran: {summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_grant_on_permission_request_runs_a_call_the_host_would_refuse() {
    let Some(qwen) = qwen() else { return };
    let setup = Setup::new(qwen);
    let _serve = setup.at.serve(&["--mode", "allow-all"]);
    let summary = setup.run(rm_build(), &["--sdk", "--sdk-answer", "deny"]);
    assert!(!setup.at.built(), "rm -rf build did not run: {summary}");
    assert_eq!(
        summary["sdk_can_use_tool"],
        json!([]),
        "the host was asked: {summary}"
    );
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("allow"), "{audit}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_humans_note_on_an_allow_reaches_the_model_after_the_output() {
    let Some(qwen) = qwen() else { return };
    let setup = Setup::new(qwen);
    let note = "gatehouse note: the file is scratch";
    let console = ScriptedConsole::start(
        setup.at.path(),
        HumanAnswer::Allow {
            note: Some(note.into()),
        },
    );
    let tool = json!({"name": "run_shell_command",
        "input": {"command": "touch made.txt", "description": "make a file"}});
    let summary = setup.run(tool, &["--approval-mode", "yolo"]);
    assert!(setup.at.project().join("made.txt").exists(), "{summary}");
    let text = result(&summary);
    assert!(text.contains("Exit Code: 0"), "{summary}");
    assert!(text.ends_with(&format!("\n\n{note}")), "{summary}");
    assert_eq!(console.dialogs(), 1, "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_human_who_grants_on_permission_request_is_asked_once_and_the_note_arrives() {
    let Some(qwen) = qwen() else { return };
    let setup = Setup::new(qwen);
    let note = "gatehouse note: rebuild before testing";
    let console = ScriptedConsole::start(
        setup.at.path(),
        HumanAnswer::Allow {
            note: Some(note.into()),
        },
    );
    // The host would refuse: only gatehouse's grant on PermissionRequest lets it run.
    let summary = setup.run(rm_build(), &["--sdk", "--sdk-answer", "deny"]);
    assert!(!setup.at.built(), "rm -rf build did not run: {summary}");
    assert_eq!(summary["sdk_can_use_tool"], json!([]), "{summary}");
    assert!(
        result(&summary).ends_with(&format!("\n\n{note}")),
        "{summary}"
    );
    assert_eq!(console.dialogs(), 1, "asked again on PreToolUse: {summary}");
}
