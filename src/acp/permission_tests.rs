use serde_json::{Value, json};

use super::*;
use crate::agents::hook::fallback;
use crate::core::rules::{Pattern, Rules};

fn request(tool_call: Value, options: Value) -> RequestPermissionRequest {
    parse(&json!({"sessionId": "s1", "toolCall": tool_call, "options": options})).unwrap()
}

fn all_options() -> Value {
    json!([
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "once", "name": "Allow", "kind": "allow_once"},
        {"optionId": "never", "name": "Never", "kind": "reject_always"},
        {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    ])
}

fn shell(command: &str) -> Value {
    json!({"toolCallId": "run_shell_command-1", "title": command, "kind": "execute",
        "rawInput": {"command": command, "description": "d"}})
}

fn options(value: Value) -> Vec<PermissionOption> {
    serde_json::from_value(value).unwrap()
}

fn chosen(reply: Reply) -> Option<String> {
    match reply {
        Reply::Select(id) => Some(id.to_string()),
        _ => None,
    }
}

#[test]
fn an_allow_chooses_allow_once_and_a_deny_reject_once_never_the_lasting_ones() {
    let options = options(all_options());
    assert_eq!(
        chosen(reply_for(&Decision::allow(), &options)).as_deref(),
        Some("once")
    );
    assert_eq!(
        chosen(reply_for(&Decision::deny("no"), &options)).as_deref(),
        Some("no")
    );
    assert_eq!(reply_for(&Decision::defer("?"), &options), Reply::ToEditor);
}

#[test]
fn an_allow_without_allow_once_goes_to_the_editor_and_a_deny_without_reject_once_is_cancelled() {
    let lasting_only = options(json!([
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "never", "name": "Never", "kind": "reject_always"},
    ]));
    assert_eq!(
        reply_for(&Decision::allow(), &lasting_only),
        Reply::ToEditor
    );
    assert_eq!(
        reply_for(&Decision::deny("no"), &lasting_only),
        Reply::Cancel
    );
    assert_eq!(reply_for(&Decision::allow(), &[]), Reply::ToEditor);
    assert_eq!(reply_for(&Decision::deny("no"), &[]), Reply::Cancel);
    // What the agent reads for each.
    let cancel = serde_json::to_value(Reply::Cancel.response().unwrap()).unwrap();
    assert_eq!(cancel, json!({"outcome": {"outcome": "cancelled"}}));
    let select = Reply::Select(PermissionOptionId::new("once"))
        .response()
        .unwrap();
    assert_eq!(
        serde_json::to_value(select).unwrap(),
        json!({"outcome": {"outcome": "selected", "optionId": "once"}})
    );
    assert!(Reply::ToEditor.response().is_none());
}

#[test]
fn malformed_requests_are_refused_with_what_is_wrong() {
    for params in [
        json!(null),
        json!({"sessionId": "s1", "options": []}),
        json!({"sessionId": "s1", "toolCall": {"toolCallId": "t"}, "options": "yes"}),
        json!({"sessionId": "s1", "toolCall": {"toolCallId": "t"},
            "options": [{"optionId": "x", "name": "x", "kind": "allow_forever"}]}),
    ] {
        let why = parse(&params).unwrap_err();
        assert!(why.contains("does not read as ACP"), "{params}: {why}");
    }
}

#[test]
fn a_shell_call_is_judged_by_its_command_and_carries_what_acp_can_do() {
    let agent = Agent::new("gemini-cli");
    let call = call_of(&request(shell("ls -la"), all_options()), &agent, "/p");
    assert_eq!(call.kind, Some(ToolKind::Shell));
    assert_eq!(call.shell_line(), Some("ls -la"));
    assert_eq!((call.session.as_str(), call.cwd.as_str()), ("s1", "/p"));
    assert_eq!(call.tool, "execute");
    assert_eq!(call.tool_use_id.as_deref(), Some("run_shell_command-1"));
    assert_eq!(call.caps, CAPS);
    assert_eq!(call.agent, agent);
    let rules = Rules::default();
    assert_eq!(fallback(&call, &rules), Decision::allow());
    let rm = call_of(&request(shell("rm -rf build"), all_options()), &agent, "/p");
    assert_eq!(fallback(&rm, &rules).name(), "defer");
}

#[test]
fn a_title_is_never_judged_as_the_shell_line() {
    let tool_call = json!({"toolCallId": "t", "title": "ls", "kind": "execute",
        "rawInput": {"command": ["rm", "-rf", "/"]}});
    let call = call_of(&request(tool_call, all_options()), &Agent::new("x"), "/");
    assert_eq!(call.shell_line(), None);
    assert_eq!(fallback(&call, &Rules::default()).name(), "defer");
    let untitled = json!({"toolCallId": "t", "title": "ls", "kind": "execute"});
    let call = call_of(&request(untitled, all_options()), &Agent::new("x"), "/");
    assert_eq!(call.shell_line(), None);
    assert_eq!(fallback(&call, &Rules::default()).name(), "defer");
}

#[test]
fn a_denied_command_is_denied_through_acp_too() {
    let rules = Rules {
        denied_commands: vec![Pattern::new("git push")],
        ..Rules::default()
    };
    let call = call_of(
        &request(shell("git push -f"), all_options()),
        &Agent::new("x"),
        "/",
    );
    let decision = fallback(&call, &rules);
    assert_eq!(decision.name(), "deny");
    assert_eq!(
        chosen(reply_for(&decision, &options(all_options()))).as_deref(),
        Some("no")
    );
}

#[test]
fn file_calls_name_their_file_from_raw_input_else_the_first_location() {
    let edit = json!({"toolCallId": "t", "title": "Write a.txt", "kind": "edit",
        "locations": [{"path": "/p/a.txt"}], "rawInput": {"content": "x"}});
    let call = call_of(&request(edit, all_options()), &Agent::new("x"), "/p");
    assert_eq!(call.kind, Some(ToolKind::Edit));
    assert_eq!(call.file_path(), Some("/p/a.txt"));
    assert_eq!(fallback(&call, &Rules::default()).name(), "defer");

    let own = json!({"toolCallId": "t", "kind": "edit", "locations": [{"path": "/p/b"}],
        "rawInput": {"file_path": "/p/a.txt", "old_string": "x", "new_string": "y"}});
    let call = call_of(&request(own, all_options()), &Agent::new("x"), "/p");
    assert_eq!(call.paths(), vec![("file_path", Some("/p/a.txt"))]);

    let read = json!({"toolCallId": "t", "kind": "read", "locations": [{"path": "/etc/hostname"}]});
    let call = call_of(&request(read, all_options()), &Agent::new("x"), "/");
    assert_eq!(call.kind, Some(ToolKind::Read));
    assert_eq!(fallback(&call, &Rules::default()), Decision::allow());
}

#[test]
fn kinds_that_change_or_reach_out_are_never_read_only_and_the_agents_name_is_the_tool() {
    for (kind, expected) in [
        ("delete", ToolKind::Edit),
        ("move", ToolKind::Edit),
        ("fetch", ToolKind::Web),
        ("think", ToolKind::Other),
        ("switch_mode", ToolKind::Other),
        ("other", ToolKind::Other),
        ("something_new", ToolKind::Other),
    ] {
        let tool_call = json!({"toolCallId": "t", "kind": kind, "name": "frob",
            "rawInput": {"x": 1}});
        let call = call_of(&request(tool_call, all_options()), &Agent::new("x"), "/");
        assert_eq!(call.kind, Some(expected), "{kind}");
        assert_eq!(call.tool, "frob");
        assert_eq!(fallback(&call, &Rules::default()).name(), "defer", "{kind}");
    }
}

#[test]
fn qwen_codes_meta_tool_name_is_the_tool_and_a_gemini_title_alone_proves_nothing() {
    let qwen = json!({"toolCallId": "call_1", "title": "ls (list)", "kind": "execute",
        "rawInput": {"command": "ls"}, "_meta": {"toolName": "run_shell_command"}});
    let call = call_of(&request(qwen, all_options()), &Agent::new("qwen-code"), "/");
    assert_eq!(call.tool, "run_shell_command");
    assert_eq!(fallback(&call, &Rules::default()), Decision::allow());
    // As Gemini CLI 0.61.0 asks: the command only in the title.
    let gemini = json!({"toolCallId": "run_shell_command__1", "title": "ls", "kind": "execute",
        "content": [{"type": "content", "content": {"type": "text", "text": "(list)"}}],
        "locations": []});
    let call = call_of(
        &request(gemini, all_options()),
        &Agent::new("gemini-cli"),
        "/",
    );
    assert_eq!(call.shell_line(), None);
    assert_eq!(call.input, json!({"title": "ls"}));
    assert_eq!(fallback(&call, &Rules::default()).name(), "defer");
}
