//! The fixtures here are written from Cursor's documentation, not captured from a client.

use super::*;
use crate::core::call::ToolKind;
use crate::core::caps::{AllowEffect, NoteEffect};

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/cursor/",
            $name
        ))
    };
}

fn all_fixtures() -> Vec<(CursorEvent, &'static [u8])> {
    vec![
        (
            CursorEvent::BeforeShellExecution,
            &fixture!("beforeShellExecution.json")[..],
        ),
        (
            CursorEvent::BeforeMcpExecution,
            &fixture!("beforeMCPExecution.json")[..],
        ),
        (
            CursorEvent::BeforeReadFile,
            &fixture!("beforeReadFile.json")[..],
        ),
        (CursorEvent::PreToolUse, &fixture!("preToolUse.json")[..]),
    ]
}

#[test]
fn every_documented_cursor_event_becomes_a_cursor_call() {
    for (event, bytes) in all_fixtures() {
        let (parsed, call) = parse(bytes).unwrap();
        assert_eq!(parsed, event);
        assert_eq!(call.agent, Agent::new("cursor"));
        assert_eq!(call.session, "conv-doc-1");
        assert_eq!(call.cwd, "/home/dev/project");
        assert_eq!(call.caps.allow, AllowEffect::Grant);
        assert_eq!(call.caps.note, NoteEffect::None);
    }
    let (_, shell) = parse(fixture!("beforeShellExecution.json")).unwrap();
    assert_eq!(
        (shell.tool.as_str(), shell.shell_line()),
        ("Bash", Some("rm -rf build"))
    );
    let (_, read) = parse(fixture!("beforeReadFile.json")).unwrap();
    assert_eq!(read.tool, "Read");
    assert_eq!(read.input, json!({"file_path": "/home/dev/project/.env"}));
    assert!(!read.caps.reason, "beforeReadFile carries no message");
    let (_, edit) = parse(fixture!("preToolUse.json")).unwrap();
    assert_eq!(edit.tool, "Edit");
    assert_eq!(edit.kind, Some(ToolKind::Edit));
}

#[test]
fn an_mcp_calls_json_string_input_becomes_its_arguments_and_the_url_names_the_server() {
    let (_, call) = parse(fixture!("beforeMCPExecution.json")).unwrap();
    assert_eq!(call.tool, "mcp__mcp.github.example__create_issue");
    assert_eq!(call.input, json!({"title": "bug", "body": "it broke"}));
    let by_command = json!({"hook_event_name": "beforeMCPExecution", "tool_name": "t",
        "tool_input": "not json", "command": "/usr/bin/notes-server --stdio"});
    let (_, call) = parse(by_command.to_string().as_bytes()).unwrap();
    assert_eq!(call.tool, "mcp__notes-server__t");
    assert_eq!(call.input, json!("not json"));
}

#[test]
fn every_decision_prints_a_binding_permission_and_deny_carries_the_reason() {
    for (event, _) in all_fixtures() {
        for decision in [
            Decision::allow(),
            Decision::deny("use make clean"),
            Decision::defer("console not running"),
            Decision::Defer { reason: None },
        ] {
            let out: Value = serde_json::from_str(&render(event, &decision)).unwrap();
            let permission = out["permission"].as_str().unwrap();
            match (&decision, permission) {
                (Decision::Allow { .. }, "allow") => {}
                (Decision::Deny { .. }, "deny") => {}
                (Decision::Defer { .. }, "ask") => assert!(event.can_ask(), "{event:?}"),
                (Decision::Defer { .. }, "deny") => assert!(!event.can_ask(), "{event:?}"),
                other => panic!("{event:?}: {other:?}"),
            }
            if permission == "deny" && event != CursorEvent::BeforeReadFile {
                assert!(!out["agent_message"].as_str().unwrap().is_empty());
                assert!(!out["user_message"].as_str().unwrap().is_empty());
            }
            if event == CursorEvent::BeforeReadFile {
                assert_eq!(out.as_object().unwrap().len(), 1, "{out}");
            }
        }
    }
    let deny: Value = serde_json::from_str(&render(
        CursorEvent::BeforeShellExecution,
        &Decision::deny("use make clean"),
    ))
    .unwrap();
    assert_eq!(
        deny,
        json!({"permission": "deny", "user_message": "use make clean",
            "agent_message": "use make clean"})
    );
    let unreadable: Value = serde_json::from_str(&unreadable("x")).unwrap();
    assert_eq!(unreadable["permission"], "deny");
}

#[test]
fn unknown_cursor_events_are_errors() {
    let err = parse(br#"{"hook_event_name":"stop"}"#).unwrap_err();
    assert_eq!(err, StdinError::UnknownEvent("stop".into()));
}
