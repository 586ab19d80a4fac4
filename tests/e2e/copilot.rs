//! End to end with the real GitHub Copilot CLI 1.0.102, offline against a scripted model on
//! loopback (`../shared/realclients/copilot_e2e.py`). `gatehouse install copilot` writes its
//! hooks file (Copilot's own format) into a throw-away home; that installed file is the one
//! Copilot runs.
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client): a plain `cargo test`
//! never downloads anything. Without node, npm or python3 they skip, saying so.

use crate::common;

use std::path::PathBuf;

use gatehouse::core::prompter::HumanAnswer;
use serde_json::{Value, json};

use common::e2e::{self, AgentHome, ScriptedConsole, client};

fn copilot() -> Option<String> {
    client("Copilot CLI", "install_copilot.sh")
}

/// A throw-away home with gatehouse's Copilot hooks installed, a project with `build/`, and a
/// private gatehouse config and socket.
struct Setup {
    at: AgentHome,
    copilot: String,
}

impl Setup {
    fn new(copilot: String) -> Setup {
        let setup = Setup {
            at: AgentHome::new(""),
            copilot,
        };
        e2e::succeed(
            setup
                .at
                .gatehouse(&["install", "copilot"])
                .env("HOME", setup.at.home())
                .env_remove("COPILOT_HOME"),
        );
        let hooks: Value =
            serde_json::from_str(&std::fs::read_to_string(setup.hooks()).unwrap()).unwrap();
        assert_eq!(hooks["version"], 1, "{hooks}");
        setup
    }

    fn hooks(&self) -> PathBuf {
        self.at.home().join(".copilot/hooks/gatehouse.json")
    }

    /// The installed hooks file with only its `event` hook kept, written beside it: a call
    /// then reaches gatehouse on that event alone, as it would if the others had deferred.
    fn only(&self, event: &str) -> PathBuf {
        let mut hooks: Value =
            serde_json::from_str(&std::fs::read_to_string(self.hooks()).unwrap()).unwrap();
        let kept = hooks["hooks"][event].take();
        assert!(kept.is_array(), "no {event} hook installed: {hooks}");
        hooks["hooks"] = json!({ event: kept });
        let path = self.at.path().join(format!("only-{event}.json"));
        std::fs::write(&path, hooks.to_string()).unwrap();
        path
    }

    /// Runs Copilot on `tool` with `extra` flags for the script.
    fn run(&self, tool: Value, extra: &[&str]) -> Value {
        self.run_with(&self.hooks(), tool, extra)
    }

    /// Runs Copilot with the hooks file `hooks` on `tool` with `extra` flags for the script.
    fn run_with(&self, hooks: &std::path::Path, tool: Value, extra: &[&str]) -> Value {
        let flags = [
            ("--copilot", self.copilot.as_ref()),
            ("--hooks", hooks.as_os_str()),
        ];
        self.at.drive("copilot_e2e.py", &flags, &tool, extra)
    }
}

fn rm_build() -> Value {
    json!({"name": "bash", "input": {"command": "rm -rf build", "description": "clean"}})
}

fn result(summary: &Value) -> &str {
    summary["tool_result"].as_str().unwrap_or("")
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_refusal_reaches_the_model_and_the_command_does_not_run_under_allow_all_tools() {
    let Some(copilot) = copilot() else { return };
    let setup = Setup::new(copilot);
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    let summary = setup.run(rm_build(), &[]);
    assert!(
        result(&summary).starts_with("Denied by preToolUse hook: gatehouse"),
        "{summary}"
    );
    assert!(result(&summary).contains("no one is watching"), "{summary}");
    assert!(setup.at.built(), "rm -rf build ran: {summary}");
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"agent\":\"copilot-cli\""), "{audit}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_refusal_at_permission_request_reaches_the_model_and_outranks_allow_all_tools() {
    let Some(copilot) = copilot() else { return };
    let setup = Setup::new(copilot);
    let _serve = setup.at.serve(&["--on-ask", "deny"]);
    let hooks = setup.only("permissionRequest");
    let summary = setup.run_with(&hooks, rm_build(), &[]);
    assert!(
        result(&summary).starts_with("Permission denied by a PermissionRequest hook: gatehouse"),
        "{summary}"
    );
    assert!(result(&summary).contains("no one is watching"), "{summary}");
    assert!(setup.at.built(), "rm -rf build ran: {summary}");
    let audit = std::fs::read_to_string(setup.at.path().join("audit.jsonl")).unwrap();
    let records: Vec<Value> = audit
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(
        records
            .iter()
            .any(|r| r["subject"] == "rm -rf build" && r["decision"] == "deny"),
        "{audit}"
    );
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_grant_runs_a_call_that_copilot_and_the_users_deny_tool_would_refuse() {
    let Some(copilot) = copilot() else { return };
    let setup = Setup::new(copilot);
    let _serve = setup.at.serve(&["--mode", "allow-all"]);
    let summary = setup.run(
        rm_build(),
        &["--no-allow-all-tools", "--arg=--deny-tool=shell(rm)"],
    );
    assert!(!setup.at.built(), "rm -rf build did not run: {summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn with_no_console_an_unproven_command_is_left_to_copilot_which_refuses_it_headless() {
    let Some(copilot) = copilot() else { return };
    let setup = Setup::new(copilot);
    let summary = setup.run(rm_build(), &["--no-allow-all-tools"]);
    assert!(setup.at.built(), "rm -rf build ran: {summary}");
    assert!(
        result(&summary).contains("no interactive user response"),
        "{summary}"
    );
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_humans_note_on_an_allow_reaches_the_model_as_additional_context() {
    let Some(copilot) = copilot() else { return };
    let setup = Setup::new(copilot);
    let note = "gatehouse note: the file is scratch";
    let console = ScriptedConsole::start(
        setup.at.path(),
        HumanAnswer::Allow {
            note: Some(note.into()),
        },
    );
    let tool = json!({"name": "bash",
        "input": {"command": "touch made.txt", "description": "make a file"}});
    let summary = setup.run(tool, &["--no-allow-all-tools"]);
    assert!(setup.at.project().join("made.txt").exists(), "{summary}");
    let after = summary["messages_after_result"].to_string();
    assert!(
        after.contains(&format!(
            "Additional context from preToolUse hook:\\n{note}"
        )),
        "{summary}"
    );
    assert_eq!(console.dialogs(), 1, "{summary}");
}
