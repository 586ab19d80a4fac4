use super::*;
use crate::agents::testing::decisions;
use crate::core::call::{Agent, Stage};
use crate::core::caps::{AllowEffect, NoteEffect};

static PRE_TOOL_USE: &EventSpec = &TABLE.events[0];
static PERMISSION_REQUEST: &EventSpec = &TABLE.events[1];

fn render(event: &EventSpec, decision: &Decision) -> Option<String> {
    Codex.render(event, decision, "")
}

/// The answers the README records as failing open or being rejected by Codex 0.169.0.
fn assert_never_fails_open(event: &EventSpec, out: &Option<String>) {
    let Some(text) = out else { return };
    let value: Value = serde_json::from_str(text).unwrap();
    let specific = &value["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], event.name, "{text}");
    let decision = specific["permissionDecision"].as_str();
    assert!(
        !matches!(decision, Some("allow" | "ask")),
        "PreToolUse allow/ask is discarded by Codex: {text}"
    );
    assert!(value.get("continue").is_none(), "{text}");
    assert!(value.get("decision").is_none(), "{text}");
    assert!(specific.get("updatedInput").is_none(), "{text}");
    assert!(specific["decision"].get("interrupt").is_none(), "{text}");
    assert!(specific["decision"].get("updatedInput").is_none(), "{text}");
    if event == PERMISSION_REQUEST {
        assert!(specific.get("additionalContext").is_none(), "{text}");
        assert!(specific.get("permissionDecision").is_none(), "{text}");
    }
}

#[test]
fn every_codex_fixture_becomes_a_codex_call_with_its_events_caps() {
    for (bytes, event, tool) in [
        (
            &fixture!("codex", "pretooluse-bash.json")[..],
            PRE_TOOL_USE,
            "Bash",
        ),
        (
            &fixture!("codex", "pretooluse-apply_patch.json")[..],
            PRE_TOOL_USE,
            "apply_patch",
        ),
        (
            &fixture!("codex", "pretooluse-mcp.json")[..],
            PRE_TOOL_USE,
            "mcp__labsrv__write_note",
        ),
        (
            &fixture!("codex", "permissionrequest-bash.json")[..],
            PERMISSION_REQUEST,
            "Bash",
        ),
        (
            &fixture!("codex", "permissionrequest-bash-escalated.json")[..],
            PERMISSION_REQUEST,
            "Bash",
        ),
        (
            &fixture!("codex", "permissionrequest-apply_patch.json")[..],
            PERMISSION_REQUEST,
            "apply_patch",
        ),
        (
            &fixture!("codex", "permissionrequest-mcp.json")[..],
            PERMISSION_REQUEST,
            "mcp__labsrv__write_note",
        ),
    ] {
        let (parsed, call) = parse(bytes).unwrap();
        assert_eq!(parsed.name, event.name);
        assert_eq!(call.agent, Agent::new("codex"));
        assert_eq!(call.tool, tool);
        assert_eq!(call.cwd, "/home/dev/project");
        assert!(call.session.starts_with("01a22bd2"));
        let caps = call.caps;
        match event.name {
            "PreToolUse" => {
                assert_eq!(call.tool_use_id.as_deref(), Some("call_e2e_1"));
                assert_eq!(call.stage, Stage::Question);
                assert_eq!(caps.allow, AllowEffect::Pass);
                assert_eq!(caps.note, NoteEffect::Model);
            }
            _ => {
                assert_eq!(call.tool_use_id, None);
                assert_eq!(call.stage, Stage::Question);
                assert_eq!(caps.allow, AllowEffect::Grant);
                assert_eq!(caps.note, NoteEffect::None);
            }
        }
    }
    let (_, bash) = parse(fixture!("codex", "pretooluse-bash.json")).unwrap();
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
}

#[test]
fn a_patch_names_its_files_and_keeps_its_text_for_the_diff() {
    let (_, call) = parse(fixture!("codex", "pretooluse-apply_patch.json")).unwrap();
    assert_eq!(call.input["files"], json!(["notes.txt"]));
    assert_eq!(call.file_path(), Some("notes.txt"));
    assert!(call.input["patch"].as_str().unwrap().contains("+goodbye"));
    assert_eq!(call.shell_line(), None, "a patch is not a shell line");
    let (_, outside) = parse(fixture!("codex", "permissionrequest-apply_patch.json")).unwrap();
    assert_eq!(outside.file_path(), Some("/home/dev/outside/p.txt"));
}

#[test]
fn patch_files_lists_added_updated_deleted_and_moved_files_once() {
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n\
                 *** Move to: c.txt\n@@\n-y\n+z\n*** Delete File: a.txt\n*** End Patch";
    assert_eq!(patch_files(patch), ["a.txt", "b.txt", "c.txt"]);
    assert!(patch_files("not a patch").is_empty());
}

#[test]
fn pre_tool_use_blocks_with_the_reason_and_never_claims_to_grant() {
    let deny = render(PRE_TOOL_USE, &Decision::deny("use make clean")).unwrap();
    let value: Value = serde_json::from_str(&deny).unwrap();
    assert_eq!(
        value,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "use make clean"}})
    );
    assert_eq!(render(PRE_TOOL_USE, &Decision::allow()), None);
    let noted = Decision::Allow {
        note: Some("mind the tests".into()),
        input: None,
    };
    let value: Value = serde_json::from_str(&render(PRE_TOOL_USE, &noted).unwrap()).unwrap();
    assert_eq!(
        value,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "additionalContext": "mind the tests"}})
    );
}

#[test]
fn permission_request_grants_and_refuses_with_a_message_and_sends_no_note_to_the_model() {
    let allow = render(PERMISSION_REQUEST, &Decision::allow()).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&allow).unwrap(),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"}}})
    );
    let deny = render(PERMISSION_REQUEST, &Decision::deny("no")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&deny).unwrap(),
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no"}}})
    );
    let noted = Decision::Allow {
        note: Some("n".into()),
        input: None,
    };
    let value: Value = serde_json::from_str(&render(PERMISSION_REQUEST, &noted).unwrap()).unwrap();
    assert_eq!(value["systemMessage"], "gatehouse note: n");
}

#[test]
fn no_decision_on_any_event_prints_an_answer_codex_discards_or_fails_open_on() {
    for event in [PRE_TOOL_USE, PERMISSION_REQUEST] {
        for decision in decisions() {
            let out = render(event, &decision);
            assert_never_fails_open(event, &out);
            if let Decision::Deny { .. } = decision {
                assert!(out.is_some(), "a deny must print its answer");
            }
        }
        assert_eq!(render(event, &Decision::defer("x")), None);
    }
}

#[test]
fn events_codex_sends_that_gatehouse_does_not_answer_are_errors() {
    let err = parse(fixture!("codex", "posttooluse-bash.json")).unwrap_err();
    assert_eq!(err, StdinError::UnknownEvent("PostToolUse".into()));
    assert!(matches!(parse(b"[]"), Err(StdinError::NotJson(_))));
    assert_eq!(
        parse(br#"{"hook_event_name":"PreToolUse"}"#).unwrap_err(),
        StdinError::Missing("tool_name")
    );
}
