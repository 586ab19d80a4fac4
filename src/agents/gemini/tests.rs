use super::*;
use crate::core::call::{Agent, ToolKind};
use crate::core::caps::{AllowEffect, NoteEffect};

static BEFORE_TOOL: &EventSpec = &TABLE.events[0];
static AFTER_TOOL: &EventSpec = &TABLE.events[1];

fn render(event: &EventSpec, decision: &Decision) -> Option<String> {
    Gemini.render(event, decision, "")
}

/// Every answer the README records as letting a `BeforeTool` call run without our say, or as
/// ignored: nothing, non-JSON, `ask` (hangs `-p`), Claude's shape, `continue:false`.
fn assert_binding_before_tool_answer(out: &Option<String>) -> Value {
    let text = out
        .as_ref()
        .expect("BeforeTool must always print an answer");
    let value: Value = serde_json::from_str(text).expect("the answer must be JSON");
    let decision = value["decision"].as_str().unwrap();
    assert!(matches!(decision, "allow" | "deny"), "{text}");
    assert!(value.get("hookSpecificOutput").is_none(), "{text}");
    assert!(value.get("continue").is_none(), "{text}");
    if decision == "deny" {
        assert!(!value["reason"].as_str().unwrap().is_empty(), "{text}");
    }
    value
}

#[test]
fn every_gemini_fixture_becomes_a_gemini_call_of_the_right_kind() {
    for (bytes, tool, kind) in [
        (
            &fixture!("gemini-cli", "beforetool-run_shell_command.json")[..],
            "run_shell_command",
            ToolKind::Shell,
        ),
        (
            &fixture!("gemini-cli", "beforetool-read_file.json")[..],
            "read_file",
            ToolKind::Read,
        ),
        (
            &fixture!("gemini-cli", "beforetool-write_file.json")[..],
            "write_file",
            ToolKind::Edit,
        ),
        (
            &fixture!("gemini-cli", "beforetool-replace.json")[..],
            "replace",
            ToolKind::Edit,
        ),
    ] {
        let (event, call) = parse(bytes).unwrap();
        assert_eq!(event, BEFORE_TOOL);
        assert_eq!(call.agent, Agent::new("gemini-cli"));
        assert_eq!(call.tool, tool);
        assert_eq!(call.kind, Some(kind));
        assert_eq!(call.cwd, "/home/dev/project");
        assert_eq!(call.stage, Stage::Question);
        assert_eq!(call.caps.allow, AllowEffect::Pass);
        assert_eq!(call.caps.note, NoteEffect::AfterTool);
        assert!(!call.session.is_empty());
    }
    let (_, shell) = parse(fixture!("gemini-cli", "beforetool-run_shell_command.json")).unwrap();
    assert_eq!(shell.shell_line(), Some("rm -rf build"));
    let (_, read) = parse(fixture!("gemini-cli", "beforetool-read_file.json")).unwrap();
    assert_eq!(read.file_path(), Some("/home/dev/project/notes.txt"));
}

#[test]
fn an_after_tool_call_carries_the_same_session_tool_and_input_as_its_before_tool() {
    let before = fixture!("gemini-cli", "beforetool-run_shell_command.json");
    let mut after: Value = serde_json::from_slice(before).unwrap();
    after["hook_event_name"] = json!("AfterTool");
    after["tool_response"] = json!({"llmContent": "done"});
    let (_, b) = parse(before).unwrap();
    let (event, a) = parse(after.to_string().as_bytes()).unwrap();
    assert_eq!(event, AFTER_TOOL);
    assert_eq!(a.stage, Stage::AfterTool);
    assert_eq!(
        (&a.session, &a.tool, &a.input),
        (&b.session, &b.tool, &b.input)
    );
}

#[test]
fn mcp_tools_become_the_cores_mcp_names() {
    let call = |name: &str, extra: Value| {
        let mut input = json!({"hook_event_name": "BeforeTool", "tool_name": name,
            "tool_input": {}});
        if let Value::Object(extra) = extra {
            input.as_object_mut().unwrap().extend(extra);
        }
        parse(input.to_string().as_bytes()).unwrap().1.tool
    };
    assert_eq!(
        call("mcp_github_create_issue", json!({})),
        "mcp__github__create_issue"
    );
    assert_eq!(
        call(
            "mcp_my_srv_do_it",
            json!({"mcp_context": {"server_name": "my_srv"}})
        ),
        "mcp__my_srv__do_it"
    );
    assert_eq!(call("mcp_", json!({})), "mcp_");
    assert_eq!(call("read_file", json!({})), "read_file");
}

#[test]
fn before_tool_allows_and_denies_with_the_reason_the_model_reads() {
    let allow = assert_binding_before_tool_answer(&render(
        BEFORE_TOOL,
        &Decision::Allow {
            note: Some("kept for AfterTool".into()),
            input: None,
        },
    ));
    assert_eq!(allow, json!({"decision": "allow"}));
    let deny =
        assert_binding_before_tool_answer(&render(BEFORE_TOOL, &Decision::deny("use make clean")));
    assert_eq!(
        deny,
        json!({"decision": "deny", "reason": "use make clean"})
    );
}

#[test]
fn a_defer_on_before_tool_is_a_deny_because_nothing_else_stops_the_call() {
    let out = render(BEFORE_TOOL, &Decision::defer("console not running"));
    let value = assert_binding_before_tool_answer(&out);
    assert_eq!(value["decision"], "deny");
    assert!(
        value["reason"]
            .as_str()
            .unwrap()
            .contains("console not running")
    );
    let bare = render(BEFORE_TOOL, &Decision::Defer { reason: None });
    assert_binding_before_tool_answer(&bare);
    let unreadable: Value = serde_json::from_str(&unreadable("not JSON")).unwrap();
    assert_eq!(unreadable["decision"], "deny");
}

#[test]
fn after_tool_prints_only_a_kept_note_as_additional_context() {
    let note = Decision::Allow {
        note: Some("run the tests next".into()),
        input: None,
    };
    let out: Value = serde_json::from_str(&render(AFTER_TOOL, &note).unwrap()).unwrap();
    assert_eq!(
        out,
        json!({"hookSpecificOutput": {"hookEventName": "AfterTool",
            "additionalContext": "run the tests next"}})
    );
    assert_eq!(render(AFTER_TOOL, &Decision::allow()), None);
    assert_eq!(render(AFTER_TOOL, &Decision::deny("x")), None);
    assert_eq!(render(AFTER_TOOL, &Decision::defer("x")), None);
}

#[test]
fn other_gemini_events_are_errors() {
    let err = parse(br#"{"hook_event_name":"Notification","tool_name":"x"}"#).unwrap_err();
    assert_eq!(err, StdinError::UnknownEvent("Notification".into()));
}
