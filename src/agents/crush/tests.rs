use serde_json::Value;

use super::*;
use crate::agents::hook_file;
use crate::agents::input::StdinError;
use crate::core::call::{Call, Stage, ToolKind};

fn parse(stdin: &[u8]) -> Result<Call, StdinError> {
    Crush.parse(stdin).map(|parsed| parsed.call)
}

fn output(decision: Decision) -> Option<Value> {
    let said = Crush.render(&TABLE.events[0], &decision, "");
    said.map(|s| serde_json::from_str(&s).unwrap())
}

#[test]
fn the_fixtures_become_crush_calls_of_their_kind() {
    for (bytes, tool, kind) in [
        (
            &fixture!("crush", "pretooluse-bash.json")[..],
            "bash",
            ToolKind::Shell,
        ),
        (
            &fixture!("crush", "pretooluse-view.json")[..],
            "view",
            ToolKind::Read,
        ),
        (
            &fixture!("crush", "pretooluse-edit.json")[..],
            "edit",
            ToolKind::Edit,
        ),
    ] {
        let call = parse(bytes).unwrap();
        assert_eq!(call.agent.as_str(), "crush");
        assert_eq!(call.tool, tool);
        assert_eq!(call.kind, Some(kind));
        assert_eq!(call.cwd, "/home/dev/project");
        assert_eq!(call.stage, Stage::Question);
        assert_eq!(call.session, "0b6a2f3e-5c1d-4e8f-9a7b-2c4d6e8f0a1b");
    }
    assert_eq!(
        parse(fixture!("crush", "pretooluse-bash.json"))
            .unwrap()
            .shell_line(),
        Some("rm -rf build")
    );
}

#[test]
fn an_unknown_tool_is_never_read_only_and_other_events_are_refused() {
    let call = parse(br#"{"event":"PreToolUse","tool_name":"download","tool_input":{}}"#);
    assert_eq!(call.unwrap().kind, Some(ToolKind::Other));
    assert!(matches!(
        parse(br#"{"event":"PostToolUse","tool_name":"bash"}"#),
        Err(StdinError::UnknownEvent(_))
    ));
    assert!(matches!(
        parse(br#"{"tool_name":"bash"}"#),
        Err(StdinError::Missing("event"))
    ));
}

#[test]
fn decisions_print_crushs_documented_shape_and_defer_prints_nothing() {
    assert_eq!(
        output(Decision::allow()),
        Some(json!({"decision": "allow"}))
    );
    assert_eq!(
        output(Decision::Allow {
            note: Some("careful".into()),
            input: None,
        }),
        Some(json!({"decision": "allow", "context": "careful"}))
    );
    assert_eq!(
        output(Decision::deny("use make clean")),
        Some(json!({"decision": "deny", "reason": "use make clean"}))
    );
    assert_eq!(output(Decision::defer("no console")), None);
    assert_eq!(Crush.unreadable("bad", b""), None);
}

#[test]
fn the_hook_is_one_pre_tool_use_entry_matching_every_tool_with_the_timeout_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crush.json");
    let command = "/bin/gatehouse hook crush";
    hook_file::add(&TABLE, &path, &["PreToolUse"], command, 180, false).unwrap();
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        file,
        json!({"hooks": {"PreToolUse": [{"matcher": ".*", "command": command, "timeout": 180}]}})
    );
}
