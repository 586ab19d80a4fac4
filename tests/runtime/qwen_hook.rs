//! The real `gatehouse hook qwen` against a console in the test process whose human is
//! scripted: Qwen Code asks `PermissionRequest` and then `PreToolUse` about the same call, and
//! the human is asked once.

use crate::common;

use std::path::Path;

use gatehouse::core::prompter::HumanAnswer;
use serde_json::Value;

use common::e2e::{self, ScriptedConsole};
use common::fixture;

/// Runs `gatehouse hook qwen` on `stdin` with the place in `dir`; returns its stdout as JSON
/// (`Null` for nothing).
fn hook(dir: &Path, stdin: &[u8]) -> Value {
    let out = common::output_with(&mut e2e::gatehouse(dir, &["hook", "qwen"]), stdin);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    match text.trim() {
        "" => Value::Null,
        line => serde_json::from_str(line).unwrap(),
    }
}

/// A console that allows, and Qwen's permission request for a shell call sent through the real
/// hook and allowed there: the grant its pre-tool-use will find.
fn granted_permission_request(dir: &Path) -> ScriptedConsole {
    let console = ScriptedConsole::start(dir, HumanAnswer::Allow { note: None });
    let asked = hook(
        dir,
        &fixture("qwen-code/permissionrequest-run_shell_command.json"),
    );
    assert_eq!(
        asked["hookSpecificOutput"]["decision"]["behavior"], "allow",
        "{asked}"
    );
    console
}

#[test]
fn a_call_allowed_on_permission_request_is_not_asked_again_on_its_pre_tool_use() {
    let dir = e2e::place("");
    let console = granted_permission_request(dir.path());
    assert_eq!(console.dialogs(), 1);
    let pre = fixture("qwen-code/pretooluse-run_shell_command.json");
    let first = hook(dir.path(), &pre);
    assert_eq!(
        first["hookSpecificOutput"]["permissionDecision"], "allow",
        "{first}"
    );
    assert_eq!(
        console.dialogs(),
        1,
        "the human was asked twice about one call"
    );
    // The grant was for that one call: the same line again is a new question.
    hook(dir.path(), &pre);
    assert_eq!(console.dialogs(), 2);
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"decider\":\"grant\""), "{audit}");
}

#[test]
fn a_call_denied_on_permission_request_leaves_no_grant_behind() {
    let dir = e2e::place("");
    let console = ScriptedConsole::start(
        dir.path(),
        HumanAnswer::Deny {
            reason: "not now".into(),
        },
    );
    let asked = hook(
        dir.path(),
        &fixture("qwen-code/permissionrequest-run_shell_command.json"),
    );
    assert_eq!(
        asked["hookSpecificOutput"]["decision"]["message"], "not now",
        "{asked}"
    );
    let pre = hook(
        dir.path(),
        &fixture("qwen-code/pretooluse-run_shell_command.json"),
    );
    assert_eq!(
        pre["hookSpecificOutput"]["permissionDecision"], "deny",
        "{pre}"
    );
    assert_eq!(console.dialogs(), 2);
}

#[test]
fn contract_6_a_grant_whose_audit_record_cannot_be_written_is_a_deny_that_says_so() {
    let dir = e2e::place("");
    let console = granted_permission_request(dir.path());
    // The audit log becomes a folder: no record can be written any more.
    let audit = dir.path().join("audit.jsonl");
    std::fs::remove_file(&audit).unwrap();
    std::fs::create_dir(&audit).unwrap();
    let pre = hook(
        dir.path(),
        &fixture("qwen-code/pretooluse-run_shell_command.json"),
    );
    let out = &pre["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "deny", "{pre}");
    let reason = out["permissionDecisionReason"].as_str().unwrap_or("");
    assert!(reason.contains("audit log"), "{pre}");
    assert_eq!(console.dialogs(), 1, "the grant was taken, not asked again");
}
