use serde_json::{Value, json};

use super::*;
use crate::agents::testing;
use crate::core::call::{Agent, Call, Stage};

static PRE_TOOL_USE: &EventSpec = &TABLE.events[0];
static PERMISSION_REQUEST: &EventSpec = &TABLE.events[1];

fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    testing::parse(&Claude, stdin)
}

fn output(event: &EventSpec, decision: Decision) -> Option<Value> {
    let said = Claude.render(event, &decision, "why");
    said.map(|s| serde_json::from_str(&s).unwrap())
}

#[test]
fn every_pre_tool_use_fixture_becomes_a_claude_code_call() {
    for (bytes, tool) in [
        (&fixture!("claude-code", "pretooluse-bash.json")[..], "Bash"),
        (&fixture!("claude-code", "pretooluse-read.json")[..], "Read"),
        (
            &fixture!("claude-code", "pretooluse-write.json")[..],
            "Write",
        ),
        (&fixture!("claude-code", "pretooluse-edit.json")[..], "Edit"),
    ] {
        let (event, call) = parse(bytes).unwrap();
        assert_eq!(event, PRE_TOOL_USE);
        assert_eq!(call.agent, Agent::new("claude-code"));
        assert_eq!(call.tool, tool);
        assert_eq!(call.cwd, "/home/dev/project");
        assert_eq!(call.stage, Stage::Question);
        assert_eq!(call.tool_use_id.as_deref(), Some("toolu_01FAKE2"));
        assert!(!call.session.is_empty());
    }
    let (_, bash) = parse(fixture!("claude-code", "pretooluse-bash.json")).unwrap();
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
    let (_, edit) = parse(fixture!("claude-code", "pretooluse-edit.json")).unwrap();
    assert_eq!(edit.input["old_string"], "hello");
}

#[test]
fn the_permission_request_fixture_becomes_a_call_without_a_tool_use_id() {
    let (event, call) = parse(fixture!("claude-code", "permissionrequest-bash.json")).unwrap();
    assert_eq!(event, PERMISSION_REQUEST);
    assert_eq!(call.stage, Stage::Question);
    assert_eq!(call.shell_line(), Some("echo hi > out.txt"));
    assert_eq!(call.tool_use_id, None);
    assert_eq!(call.session, "84302c7a-e91a-4b35-8c81-dd1c678c498a");
}

#[test]
fn bad_stdin_is_an_error_that_says_what_is_wrong() {
    assert!(matches!(parse(b"not json"), Err(StdinError::NotJson(_))));
    assert!(matches!(parse(b""), Err(StdinError::NotJson(_))));
    assert!(matches!(parse(b"[]"), Err(StdinError::NotJson(_))));
    assert_eq!(
        parse(br#"{"tool_name":"Bash"}"#),
        Err(StdinError::Missing("hook_event_name"))
    );
    assert_eq!(
        parse(br#"{"hook_event_name":"PreToolUse"}"#),
        Err(StdinError::Missing("tool_name"))
    );
    let err = parse(br#"{"hook_event_name":"PostToolUse","tool_name":"Bash"}"#).unwrap_err();
    assert_eq!(err, StdinError::UnknownEvent("PostToolUse".into()));
    assert!(err.to_string().contains("PreToolUse"));
}

#[test]
fn pre_tool_use_decisions_print_claude_codes_exact_shape() {
    assert_eq!(
        output(PRE_TOOL_USE, Decision::allow()),
        Some(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "why"
        }}))
    );
    assert_eq!(
        output(
            PRE_TOOL_USE,
            Decision::Allow {
                note: Some("tests are slow".into()),
                input: None,
            }
        ),
        Some(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "why",
            "additionalContext": "tests are slow"
        }}))
    );
    assert_eq!(
        output(PRE_TOOL_USE, Decision::deny("use cargo clean")),
        Some(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "use cargo clean"
        }}))
    );
}

#[test]
fn permission_request_decisions_print_claude_codes_exact_shape() {
    assert_eq!(
        output(PERMISSION_REQUEST, Decision::allow()),
        Some(json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"}
        }}))
    );
    assert_eq!(
        output(
            PERMISSION_REQUEST,
            Decision::Allow {
                note: Some("n".into()),
                input: None,
            }
        ),
        Some(json!({
            "systemMessage": "gatehouse note: n",
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"}
            }
        }))
    );
    assert_eq!(
        output(PERMISSION_REQUEST, Decision::deny("no")),
        Some(json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no"}
        }}))
    );
}

#[test]
fn defer_prints_nothing_for_either_event() {
    for event in [PRE_TOOL_USE, PERMISSION_REQUEST] {
        assert_eq!(output(event, Decision::defer("x")), None);
        assert_eq!(output(event, Decision::Defer { reason: None }), None);
    }
}

#[test]
fn a_sub_agents_call_names_it_and_keeps_its_parents_session() {
    let mut input: Value =
        serde_json::from_slice(fixture!("claude-code", "pretooluse-bash.json")).unwrap();
    let (_, parent) = parse(input.to_string().as_bytes()).unwrap();
    assert_eq!(parent.subagent, None);
    input["agent_id"] = json!("a1b2c3");
    input["agent_type"] = json!("Explore");
    let (_, call) = parse(input.to_string().as_bytes()).unwrap();
    assert_eq!(call.session, parent.session);
    let subagent = call.subagent.clone().unwrap();
    assert_eq!(
        (subagent.id.as_str(), subagent.label()),
        ("a1b2c3", "Explore")
    );
    let wire = serde_json::to_value(&call).unwrap();
    assert_eq!(wire["subagent"], json!({"id": "a1b2c3", "type": "Explore"}));
}

#[test]
fn each_claude_tool_is_judged_by_the_key_it_writes_and_not_by_a_decoy_beside_it() {
    let decoy = |tool: &str, input: Value| {
        let stdin = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p",
            "tool_name": tool, "tool_input": input});
        parse(stdin.to_string().as_bytes()).unwrap().1
    };
    let notebook = decoy(
        "NotebookEdit",
        json!({"notebook_path": "/etc/real.ipynb", "file_path": "/p/decoy", "new_source": ""}),
    );
    assert_eq!(notebook.file_path(), Some("/etc/real.ipynb"));
    assert_eq!(notebook.subject(), "/etc/real.ipynb");
    let write = decoy(
        "Write",
        json!({"path": "/p/decoy", "file_path": "/etc/real", "content": ""}),
    );
    assert_eq!(write.file_path(), Some("/etc/real"));
    let grep = decoy(
        "Grep",
        json!({"pattern": "x", "path": "/etc", "file_path": "/p"}),
    );
    assert_eq!(grep.file_path(), Some("/etc"));
}
