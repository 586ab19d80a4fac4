//! The fixtures here are written from Cursor's documentation, not captured from a client.

use std::path::Path;

use super::*;
use crate::agents::hook_file;
use crate::agents::testing;
use crate::core::call::{Agent, Call, ToolKind};

fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    testing::parse(&Cursor, stdin)
}

/// Each event, and the fixture of its input.
fn all_fixtures() -> Vec<(&'static EventSpec, &'static [u8])> {
    let fixtures: [&[u8]; 4] = [
        fixture!("cursor", "beforeShellExecution.json"),
        fixture!("cursor", "beforeMCPExecution.json"),
        fixture!("cursor", "beforeReadFile.json"),
        fixture!("cursor", "preToolUse.json"),
    ];
    TABLE.events.iter().zip(fixtures).collect()
}

#[test]
fn every_documented_cursor_event_becomes_a_cursor_call() {
    for (event, bytes) in all_fixtures() {
        let (parsed, call) = parse(bytes).unwrap();
        assert_eq!(parsed, event);
        assert_eq!(call.agent, Agent::new("cursor"));
        assert_eq!(call.session, "conv-doc-1");
        assert_eq!(call.cwd, "/home/dev/project");
        // The CLI was seen ignoring a hook's allow: the console never promises a grant.
        assert_eq!(call.caps.allow, AllowEffect::Pass);
        assert_eq!(call.caps.note, NoteEffect::None);
    }
    let (_, shell) = parse(fixture!("cursor", "beforeShellExecution.json")).unwrap();
    assert_eq!(
        (shell.tool.as_str(), shell.shell_line()),
        ("Bash", Some("rm -rf build"))
    );
    let (_, read) = parse(fixture!("cursor", "beforeReadFile.json")).unwrap();
    assert_eq!(read.tool, "Read");
    assert_eq!(read.input, json!({"file_path": "/home/dev/project/.env"}));
    assert!(!read.caps.reason, "beforeReadFile carries no message");
    let (_, edit) = parse(fixture!("cursor", "preToolUse.json")).unwrap();
    assert_eq!(edit.tool, "Edit");
    assert_eq!(edit.kind, Some(ToolKind::Edit));
}

#[test]
fn an_mcp_calls_json_string_input_becomes_its_arguments_and_the_url_names_the_server() {
    let (_, call) = parse(fixture!("cursor", "beforeMCPExecution.json")).unwrap();
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
                (Decision::Defer { .. }, "ask") => assert!(can_ask(event), "{event:?}"),
                (Decision::Defer { .. }, "deny") => assert!(!can_ask(event), "{event:?}"),
                other => panic!("{event:?}: {other:?}"),
            }
            if permission == "deny" && event.name != "beforeReadFile" {
                assert!(!out["agent_message"].as_str().unwrap().is_empty());
                assert!(!out["user_message"].as_str().unwrap().is_empty());
            }
            if event.name == "beforeReadFile" {
                assert_eq!(out.as_object().unwrap().len(), 1, "{out}");
            }
        }
    }
    let deny: Value =
        serde_json::from_str(&render(&TABLE.events[0], &Decision::deny("use make clean"))).unwrap();
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

#[test]
fn install_gates_every_event_fail_closed_beside_the_users_own_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".cursor/hooks.json");
    let command = "/bin/gatehouse hook cursor";
    let events = hook_file::event_names(&TABLE);
    hook_file::add(&TABLE, &path, &events, command, 600, false).unwrap();
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(file["version"], 1);
    for event in TABLE.events {
        assert_eq!(
            file["hooks"][event.name],
            json!([{"command": command, "timeout": 600, "failClosed": true}])
        );
    }
    assert_eq!(
        hook_file::path(&TABLE, Scope::Project, Path::new("/p")).unwrap(),
        Path::new("/p/.cursor/hooks.json")
    );
}
