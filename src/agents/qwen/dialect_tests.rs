use serde_json::Value;

use super::*;
use crate::agents::input::StdinError;
use crate::agents::testing::{self, decisions};
use crate::core::call::{Agent, Call, ToolKind};
use crate::core::caps::{AllowEffect, NoteEffect};

static PRE_TOOL_USE: &EventSpec = &TABLE.events[0];
static PERMISSION_REQUEST: &EventSpec = &TABLE.events[1];
static POST_TOOL_USE: &EventSpec = &TABLE.events[2];

fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    testing::parse(&Qwen, stdin)
}

fn render(event: &EventSpec, decision: &Decision) -> Option<String> {
    Qwen.render(event, decision, "")
}

/// The answers Qwen Code 0.24.4 was seen to ignore, fail open on, or hang on: none of them may
/// ever be printed, on any event.
fn assert_nothing_that_fails_open_or_hangs(event: &EventSpec, out: &Option<String>) {
    let Some(text) = out else { return };
    let value: Value = serde_json::from_str(text).unwrap();
    let specific = &value["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], event.name, "{text}");
    assert_ne!(
        specific["permissionDecision"], "ask",
        "ask hangs the SDK: {text}"
    );
    assert_ne!(specific["decision"]["behavior"], "ask", "{text}");
    assert!(
        value.get("decision").is_none(),
        "ignored on PermissionRequest: {text}"
    );
    assert!(value.get("continue").is_none(), "{text}");
    assert!(specific.get("updatedInput").is_none(), "{text}");
    assert!(specific["decision"].get("updatedInput").is_none(), "{text}");
    if event != POST_TOOL_USE {
        assert!(
            specific.get("additionalContext").is_none(),
            "Qwen drops a note here: {text}"
        );
    }
}

#[test]
fn every_fixture_parses_into_a_call_of_qwen_code_with_the_events_caps() {
    for (bytes, event, tool) in [
        (
            &fixture!("qwen-code", "pretooluse-run_shell_command.json")[..],
            PRE_TOOL_USE,
            "run_shell_command",
        ),
        (
            fixture!("qwen-code", "pretooluse-write_file.json"),
            PRE_TOOL_USE,
            "write_file",
        ),
        (
            fixture!("qwen-code", "pretooluse-read_file.json"),
            PRE_TOOL_USE,
            "read_file",
        ),
        (
            fixture!("qwen-code", "permissionrequest-run_shell_command.json"),
            PERMISSION_REQUEST,
            "run_shell_command",
        ),
        (
            fixture!("qwen-code", "permissionrequest-write_file.json"),
            PERMISSION_REQUEST,
            "write_file",
        ),
        (
            fixture!("qwen-code", "posttooluse-run_shell_command.json"),
            POST_TOOL_USE,
            "run_shell_command",
        ),
    ] {
        let (parsed, call) = parse(bytes).unwrap();
        assert_eq!(parsed, event);
        assert_eq!(call.agent, Agent::new("qwen-code"));
        assert_eq!(call.tool, tool);
        assert_eq!(call.cwd, "/home/dev/project");
        assert!(!call.session.is_empty());
        assert_eq!(call.caps, event.caps);
        assert_eq!(call.stage, event.stage);
    }
}

#[test]
fn pre_tool_use_cannot_grant_and_both_questions_keep_a_note_for_post_tool_use() {
    let pre = PRE_TOOL_USE.caps;
    assert_eq!(pre.allow, AllowEffect::Pass);
    assert_eq!(pre.note, NoteEffect::AfterTool);
    let asked = PERMISSION_REQUEST.caps;
    assert_eq!(asked.allow, AllowEffect::Grant);
    assert_eq!(asked.note, NoteEffect::AfterTool);
    assert_eq!(POST_TOOL_USE.stage, Stage::AfterTool);
}

#[test]
fn a_shell_call_keeps_its_line_and_the_models_call_id() {
    let (_, call) = parse(fixture!("qwen-code", "pretooluse-run_shell_command.json")).unwrap();
    assert_eq!(call.shell_line(), Some("rm -rf build"));
    assert_eq!(call.tool_use_id.as_deref(), Some("call_e2e_1"));
}

#[test]
fn qwens_tools_keep_their_names_and_carry_their_kind() {
    let stdin = json!({"hook_event_name": "PreToolUse", "tool_name": "edit",
        "tool_input": {"file_path": "a.txt", "old_string": "x", "new_string": "y"}});
    let (_, call) = parse(stdin.to_string().as_bytes()).unwrap();
    assert_eq!(call.tool, "edit");
    assert_eq!(call.kind, Some(ToolKind::Edit));
    let (_, shell) = parse(fixture!("qwen-code", "pretooluse-run_shell_command.json")).unwrap();
    assert_eq!(shell.kind, Some(ToolKind::Shell));
    let (_, read) = parse(fixture!("qwen-code", "pretooluse-read_file.json")).unwrap();
    assert_eq!(read.kind, Some(ToolKind::Read));
    let unknown = json!({"hook_event_name": "PreToolUse", "tool_name": "save_memory",
        "tool_input": {}});
    let (_, other) = parse(unknown.to_string().as_bytes()).unwrap();
    assert_eq!(other.kind, Some(ToolKind::Other));
}

#[test]
fn permission_request_says_pre_tool_use_follows_so_its_grant_is_kept() {
    // The barrier keeps a grant from a granting permission-first question, and only a
    // question that can only pass takes one (`core::barrier::kept`).
    let (_, asked) = parse(fixture!(
        "qwen-code",
        "permissionrequest-run_shell_command.json"
    ))
    .unwrap();
    assert_eq!(asked.stage, Stage::PermissionFirst);
    assert_eq!(asked.caps.allow, AllowEffect::Grant);
    let (_, pre) = parse(fixture!("qwen-code", "pretooluse-run_shell_command.json")).unwrap();
    assert_eq!(pre.stage, Stage::Question);
    assert_eq!(pre.caps.allow, AllowEffect::Pass);
}

#[test]
fn the_same_call_has_the_same_tool_and_input_on_every_event_so_its_note_is_found() {
    let (_, asked) = parse(fixture!(
        "qwen-code",
        "permissionrequest-run_shell_command.json"
    ))
    .unwrap();
    let (_, after) = parse(fixture!("qwen-code", "posttooluse-run_shell_command.json")).unwrap();
    assert_eq!(
        (&asked.session, &asked.tool, &asked.input),
        (&after.session, &after.tool, &after.input)
    );
}

#[test]
fn input_that_is_not_a_qwen_hook_call_is_an_error() {
    assert!(matches!(parse(b"not json"), Err(StdinError::NotJson(_))));
    let stop = json!({"hook_event_name": "Stop", "tool_name": "x"}).to_string();
    assert!(matches!(
        parse(stop.as_bytes()),
        Err(StdinError::UnknownEvent(_))
    ));
    let copilot = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/copilot-cli/pretooluse-bash.json"
    ));
    assert!(matches!(
        parse(copilot),
        Err(StdinError::Missing("hook_event_name"))
    ));
}

#[test]
fn a_deny_reason_goes_where_each_question_event_hands_it_to_the_model() {
    let deny = Decision::deny("use make clean");
    let pre: Value = serde_json::from_str(&render(PRE_TOOL_USE, &deny).unwrap()).unwrap();
    assert_eq!(
        pre,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "use make clean"}})
    );
    let asked: Value = serde_json::from_str(&render(PERMISSION_REQUEST, &deny).unwrap()).unwrap();
    assert_eq!(
        asked,
        json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "use make clean"}}})
    );
}

#[test]
fn permission_request_allow_grants_and_pre_tool_use_allow_only_declines_to_block() {
    let allow = Decision::allow();
    let asked: Value = serde_json::from_str(&render(PERMISSION_REQUEST, &allow).unwrap()).unwrap();
    assert_eq!(
        asked["hookSpecificOutput"]["decision"],
        json!({"behavior": "allow"})
    );
    let pre: Value = serde_json::from_str(&render(PRE_TOOL_USE, &allow).unwrap()).unwrap();
    assert_eq!(pre["hookSpecificOutput"]["permissionDecision"], "allow");
}

#[test]
fn defer_prints_nothing_so_qwens_own_approval_decides() {
    for event in TABLE.events {
        assert_eq!(
            render(event, &Decision::defer("no console")),
            None,
            "{event:?}"
        );
    }
}

#[test]
fn a_note_is_printed_only_by_post_tool_use_where_the_model_reads_it() {
    let note = Decision::Allow {
        note: Some("run the tests after".into()),
        input: None,
    };
    let after: Value = serde_json::from_str(&render(POST_TOOL_USE, &note).unwrap()).unwrap();
    assert_eq!(
        after,
        json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
            "additionalContext": "run the tests after"}})
    );
    assert_eq!(render(POST_TOOL_USE, &Decision::allow()), None);
    assert_eq!(render(POST_TOOL_USE, &Decision::deny("too late")), None);
}

#[test]
fn no_event_is_ever_answered_in_a_form_that_fails_open_or_hangs() {
    for event in TABLE.events {
        for decision in decisions() {
            let out = render(event, &decision);
            assert_nothing_that_fails_open_or_hangs(event, &out);
            if let (Stage::Question | Stage::PermissionFirst, Decision::Deny { .. }) =
                (event.stage, &decision)
            {
                assert!(out.is_some(), "a deny must be printed on {event:?}");
            }
        }
    }
}

#[test]
fn the_hook_goes_in_claude_codes_layout_for_all_three_events_with_the_timeout_in_milliseconds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".qwen/settings.json");
    let events = hook_file::event_names(&TABLE);
    hook_file::add(
        &TABLE,
        &path,
        &events,
        "/bin/gatehouse hook qwen",
        660,
        false,
    )
    .unwrap();
    let settings: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for event in ["PreToolUse", "PermissionRequest", "PostToolUse"] {
        assert_eq!(
            settings["hooks"][event],
            json!([{"matcher": "*", "hooks": [{"type": "command",
                "command": "/bin/gatehouse hook qwen", "timeout": 660_000}]}]),
            "{event}"
        );
    }
}
