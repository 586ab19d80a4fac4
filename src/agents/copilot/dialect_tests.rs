use super::*;
use crate::core::caps::{AllowEffect, NoteEffect};

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/copilot-cli/",
            $name
        ))
    };
}

fn decisions() -> Vec<Decision> {
    vec![
        Decision::allow(),
        Decision::Allow {
            note: Some("run the tests after".into()),
        },
        Decision::deny("use make clean"),
        Decision::defer("no console"),
    ]
}

/// Every answer the dialect can print, on every event.
fn every_answer() -> Vec<(CopilotEvent, Decision, Option<String>)> {
    let mut all = Vec::new();
    for event in CopilotEvent::ALL {
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
    let pre: Value =
        serde_json::from_str(&render(CopilotEvent::PreToolUse, &deny).unwrap()).unwrap();
    assert_eq!(
        pre,
        json!({"permissionDecision": "deny", "permissionDecisionReason": "use make clean"})
    );
    let asked: Value =
        serde_json::from_str(&render(CopilotEvent::PermissionRequest, &deny).unwrap()).unwrap();
    assert_eq!(
        asked,
        json!({"behavior": "deny", "message": "use make clean"})
    );
}

#[test]
fn pre_tool_use_grants_with_the_note_as_additional_context() {
    let note = Decision::Allow {
        note: Some("run the tests after".into()),
    };
    let pre: Value =
        serde_json::from_str(&render(CopilotEvent::PreToolUse, &note).unwrap()).unwrap();
    assert_eq!(
        pre,
        json!({"permissionDecision": "allow", "additionalContext": "run the tests after"})
    );
    let plain = render(CopilotEvent::PreToolUse, &Decision::allow()).unwrap();
    assert_eq!(plain, r#"{"permissionDecision":"allow"}"#);
    let caps = CopilotEvent::PreToolUse.caps();
    assert_eq!(
        (caps.allow, caps.note),
        (AllowEffect::Grant, NoteEffect::Model)
    );
}

#[test]
fn permission_request_grants_flat_and_offers_no_note() {
    let note = Decision::Allow {
        note: Some("dropped".into()),
    };
    assert_eq!(
        render(CopilotEvent::PermissionRequest, &note).unwrap(),
        r#"{"behavior":"allow"}"#
    );
    assert_eq!(
        CopilotEvent::PermissionRequest.caps().note,
        NoteEffect::None
    );
}

#[test]
fn defer_prints_nothing_so_copilots_own_permission_flow_decides() {
    for event in CopilotEvent::ALL {
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
    let (event, bash) = parse(fixture!("pretooluse-bash.json")).unwrap();
    assert_eq!(event, CopilotEvent::PreToolUse);
    assert_eq!(bash.agent, Agent::new("copilot-cli"));
    assert_eq!(bash.kind, Some(ToolKind::Shell));
    assert_eq!(bash.tool, "Bash");
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
    assert_eq!(bash.session, "967cc221-1509-4299-bd98-4cb7c7d22ec6");
    assert_eq!(bash.cwd, "/home/dev/project");
    assert_eq!(bash.caps, CopilotEvent::PreToolUse.caps());

    let (_, create) = parse(fixture!("pretooluse-create.json")).unwrap();
    assert_eq!(create.tool, "Write");
    assert_eq!(create.kind, Some(ToolKind::Edit));
    assert_eq!(
        create.input,
        json!({"file_path": "/home/dev/project/new.txt", "content": "hi\n"})
    );
    let (_, edit) = parse(fixture!("pretooluse-edit.json")).unwrap();
    assert_eq!(edit.tool, "Edit");
    assert_eq!(
        edit.input,
        json!({"file_path": "/home/dev/project/config.txt",
            "old_string": "mode = debug", "new_string": "mode = release"})
    );
    let (_, view) = parse(fixture!("pretooluse-view.json")).unwrap();
    assert_eq!(view.tool, "Read");
    assert_eq!(view.kind, Some(ToolKind::Read));
    assert_eq!(view.file_path(), Some("/home/dev/project/config.txt"));
}

#[test]
fn permission_request_payloads_are_known_by_their_hook_name() {
    let (event, bash) = parse(fixture!("permissionrequest-bash.json")).unwrap();
    assert_eq!(event, CopilotEvent::PermissionRequest);
    assert_eq!(bash.tool, "Bash");
    assert_eq!(bash.shell_line(), Some("rm -rf build"));
    assert_eq!(bash.caps, CopilotEvent::PermissionRequest.caps());
    for bytes in [
        &fixture!("permissionrequest-create.json")[..],
        fixture!("permissionrequest-edit.json"),
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
        &fixture!("claude-format-pretooluse-bash.json")[..],
        fixture!("claude-format-pretooluse-create.json"),
        fixture!("claude-format-posttooluse-bash.json"),
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
        parse(fixture!("posttooluse-bash.json")),
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
