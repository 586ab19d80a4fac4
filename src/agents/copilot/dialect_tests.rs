use std::path::Path;

use super::*;
use crate::agents::hook_file;
use crate::agents::install_file::Change;
use crate::agents::testing::{self, decisions};
use crate::core::call::{Agent, Call, ToolKind};
use crate::core::caps::{AllowEffect, NoteEffect};

static PRE_TOOL_USE: &EventSpec = &TABLE.events[0];
static PERMISSION_REQUEST: &EventSpec = &TABLE.events[1];

fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    testing::parse(&Copilot, stdin)
}

fn render(event: &EventSpec, decision: &Decision) -> Option<String> {
    Copilot.render(event, decision, "")
}

/// Every answer the dialect can print, on every event.
fn every_answer() -> Vec<(&'static EventSpec, Decision, Option<String>)> {
    let mut all = Vec::new();
    for event in TABLE.events {
        for decision in decisions() {
            let out = render(event, &decision);
            all.push((event, decision, out));
        }
    }
    all
}

#[test]
fn the_copilot_dialect_never_prints_claude_codes_shape() {
    // In a Copilot-format hooks file, Claude Code's `hookSpecificOutput` is ignored without a
    // word, and a deny written in it runs the command.
    for (event, decision, out) in every_answer() {
        let Some(text) = out else { continue };
        let value: Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        for key in &keys {
            assert!(
                [
                    "permissionDecision",
                    "permissionDecisionReason",
                    "additionalContext",
                    "behavior",
                    "message"
                ]
                .contains(&key.as_str()),
                "{event:?} {decision:?}: `{key}` is not Copilot's flat answer: {text}"
            );
        }
        assert!(!text.contains("hookSpecificOutput"), "{text}");
        assert!(!text.contains("hookEventName"), "{text}");
    }
}

#[test]
fn a_deny_is_always_printed_in_the_fields_its_event_reads() {
    let deny = Decision::deny("use make clean");
    let pre: Value = serde_json::from_str(&render(PRE_TOOL_USE, &deny).unwrap()).unwrap();
    assert_eq!(
        pre,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "use make clean"})
    );
    let asked: Value = serde_json::from_str(&render(PERMISSION_REQUEST, &deny).unwrap()).unwrap();
    assert_eq!(
        asked,
        json!({"behavior": "deny", "message": "use make clean"})
    );
}

#[test]
fn pre_tool_use_grants_with_the_note_as_additional_context() {
    let note = Decision::Allow {
        note: Some("run the tests after".into()),
        input: None,
    };
    let pre: Value = serde_json::from_str(&render(PRE_TOOL_USE, &note).unwrap()).unwrap();
    assert_eq!(
        pre,
        json!({"permissionDecision": "allow", "additionalContext": "run the tests after"})
    );
    let plain = render(PRE_TOOL_USE, &Decision::allow()).unwrap();
    assert_eq!(plain, r#"{"permissionDecision":"allow"}"#);
    let caps = PRE_TOOL_USE.caps;
    assert_eq!(
        (caps.allow, caps.note),
        (AllowEffect::Grant, NoteEffect::Model)
    );
}

#[test]
fn permission_request_grants_flat_and_offers_no_note() {
    let note = Decision::Allow {
        note: Some("dropped".into()),
        input: None,
    };
    assert_eq!(
        render(PERMISSION_REQUEST, &note).unwrap(),
        r#"{"behavior":"allow"}"#
    );
    assert_eq!(PERMISSION_REQUEST.caps.note, NoteEffect::None);
}

#[test]
fn defer_prints_nothing_so_copilots_own_permission_flow_decides() {
    for event in TABLE.events {
        assert_eq!(render(event, &Decision::defer("x")), None);
    }
}

#[test]
fn nothing_that_ends_the_turn_or_asks_is_ever_printed() {
    for (_, _, out) in every_answer() {
        let Some(text) = out else { continue };
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(value.get("interrupt").is_none(), "{text}");
        assert_ne!(value["permissionDecision"], "ask", "{text}");
        assert!(value.get("modifiedArgs").is_none(), "{text}");
    }
}

#[test]
fn pre_tool_use_payloads_become_claude_codes_tools() {
    let (event, bash) = parse(fixture!("copilot-cli", "pretooluse-bash.json")).unwrap();
    assert_eq!(event, PRE_TOOL_USE);
    assert_eq!(bash.agent, Agent::new("copilot-cli"));
    assert_eq!(bash.kind, Some(ToolKind::Shell));
    assert_eq!(bash.tool, "Bash");
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
    assert_eq!(bash.session, "967cc221-1509-4299-bd98-4cb7c7d22ec6");
    assert_eq!(bash.cwd, "/home/dev/project");
    assert_eq!(bash.caps, PRE_TOOL_USE.caps);

    let (_, create) = parse(fixture!("copilot-cli", "pretooluse-create.json")).unwrap();
    assert_eq!(create.tool, "Write");
    assert_eq!(create.kind, Some(ToolKind::Edit));
    assert_eq!(
        create.input,
        json!({"file_path": "/home/dev/project/new.txt", "content": "hi\n"})
    );
    let (_, edit) = parse(fixture!("copilot-cli", "pretooluse-edit.json")).unwrap();
    assert_eq!(edit.tool, "Edit");
    assert_eq!(
        edit.input,
        json!({"file_path": "/home/dev/project/config.txt",
            "old_string": "mode = debug", "new_string": "mode = release"})
    );
    let (_, view) = parse(fixture!("copilot-cli", "pretooluse-view.json")).unwrap();
    assert_eq!(view.tool, "Read");
    assert_eq!(view.kind, Some(ToolKind::Read));
    assert_eq!(view.file_path(), Some("/home/dev/project/config.txt"));
}

#[test]
fn permission_request_payloads_are_known_by_their_hook_name() {
    let (event, bash) = parse(fixture!("copilot-cli", "permissionrequest-bash.json")).unwrap();
    assert_eq!(event, PERMISSION_REQUEST);
    assert_eq!(bash.tool, "Bash");
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
    assert_eq!(bash.caps, PERMISSION_REQUEST.caps);
    for bytes in [
        &fixture!("copilot-cli", "permissionrequest-create.json")[..],
        fixture!("copilot-cli", "permissionrequest-edit.json"),
    ] {
        let (_, edit) = parse(bytes).unwrap();
        assert_eq!(edit.tool, "Edit");
        assert!(edit.file_path().unwrap().starts_with("/home/dev/project/"));
        assert!(edit.input["diff"].as_str().unwrap().contains("diff --git"));
    }
}

#[test]
fn a_claude_format_payload_is_refused_so_no_answer_goes_where_it_is_ignored() {
    for bytes in [
        &fixture!("copilot-cli", "claude-format-pretooluse-bash.json")[..],
        fixture!("copilot-cli", "claude-format-pretooluse-create.json"),
        fixture!("copilot-cli", "claude-format-posttooluse-bash.json"),
    ] {
        assert!(
            matches!(parse(bytes), Err(StdinError::ClaudeFormat(_))),
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn post_tool_use_and_other_input_are_not_calls_to_answer() {
    assert!(matches!(
        parse(fixture!("copilot-cli", "posttooluse-bash.json")),
        Err(StdinError::UnknownEvent(_))
    ));
    assert!(matches!(parse(b"[]"), Err(StdinError::NotJson(_))));
    let no_args = json!({"sessionId": "s", "toolName": "bash"}).to_string();
    assert!(matches!(
        parse(no_args.as_bytes()),
        Err(StdinError::Missing("toolArgs"))
    ));
}

#[test]
fn a_create_or_edit_is_judged_by_its_path_and_not_by_a_decoy_file_path_beside_it() {
    for (tool, extra) in [
        ("create", json!({"file_text": "x"})),
        ("edit", json!({"old_str": "a", "new_str": "b"})),
        ("view", json!({})),
    ] {
        let mut args = extra;
        args["path"] = json!("/etc/real");
        args["file_path"] = json!("/home/dev/project/decoy");
        let stdin = json!({"sessionId": "s", "cwd": "/home/dev/project", "toolName": tool,
            "toolArgs": args});
        let (_, call) = parse(stdin.to_string().as_bytes()).unwrap();
        assert_eq!(call.file_path(), Some("/etc/real"), "{tool}");
        assert_eq!(call.subject(), "/etc/real", "{tool}");
    }
}

const COMMAND: &str = "/bin/gatehouse hook copilot";

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn install_writes_a_copilot_format_file_with_both_events_and_no_claude_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks/gatehouse.json");
    let events = hook_file::event_names(&TABLE);
    let report = hook_file::add(&TABLE, &path, &events, COMMAND, 660, false).unwrap();
    assert_eq!(report.change, Change::Added);
    let file = read(&path);
    assert_eq!(file["version"], 1);
    for event in ["preToolUse", "permissionRequest"] {
        let entries = file["hooks"][event].as_array().unwrap();
        assert_eq!(
            entries,
            &vec![json!({"type": "command", "bash": COMMAND, "timeoutSec": 660})],
            "{event:?}"
        );
    }
    // Claude Code's layout (`PreToolUse`, `matcher`, `command`, `timeout`) would make Copilot
    // send Claude-shaped payloads, which the dialect refuses.
    let text = std::fs::read_to_string(&path).unwrap();
    for claude in ["PreToolUse", "matcher", "\"command\":", "\"timeout\":"] {
        assert!(!text.contains(claude), "{claude} in {text}");
    }
}

#[test]
fn uninstall_removes_a_file_left_with_nothing_and_a_dry_run_removes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gatehouse.json");
    let events = hook_file::event_names(&TABLE);
    hook_file::add(&TABLE, &path, &events, COMMAND, 660, false).unwrap();
    let dry = hook_file::remove(&TABLE, &path, true).unwrap();
    assert_eq!(dry.change, Change::Removed(2));
    assert!(dry.dry_run);
    assert!(path.exists());
    hook_file::remove(&TABLE, &path, false).unwrap();
    assert!(!path.exists());
    let again = hook_file::remove(&TABLE, &path, false).unwrap();
    assert_eq!(again.change, Change::Unchanged);
}
