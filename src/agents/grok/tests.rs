//! Grok Build's envelope, through its own hook and through Claude Code's and Cursor's.

use super::*;
use crate::agents::registry::REGISTRY;
use crate::core::call::ToolKind;

fn grok_input(tool: &str, input: serde_json::Value) -> Vec<u8> {
    json!({
        "hookEventName": "PreToolUse",
        "sessionId": "g-1",
        "cwd": "/tmp/project",
        "workspaceRoot": "/tmp/project",
        "toolName": tool,
        "toolInput": input,
    })
    .to_string()
    .into_bytes()
}

#[test]
fn grok_s_envelope_at_the_claude_or_cursor_hook_is_read_as_grok_s() {
    let stdin = grok_input("Bash", json!({"command": "rm -rf build"}));
    for host in ["claude", "cursor"] {
        let host = REGISTRY.find(host).unwrap();
        let dialect = through(host, &stdin);
        assert_eq!(dialect.names().agent, "grok-build");
        let parsed = dialect.parse(&stdin).unwrap();
        assert_eq!(parsed.call.agent.as_str(), "grok-build");
        assert_eq!(parsed.call.session, "g-1");
        assert_eq!(parsed.call.shell_line(), Some("rm -rf build"));
        assert_eq!(parsed.call.kind(&[]), ToolKind::Shell);
        // Grok's allow only declines to deny: the console does not promise a grant.
        assert_eq!(parsed.call.caps.allow, AllowEffect::Pass);
        assert_eq!(parsed.call.caps.note, NoteEffect::None);
    }
    // Claude Code's own envelope stays Claude Code's, even with the word in its input, and
    // another agent's hook is never re-read.
    let claude = br#"{"hook_event_name":"PreToolUse","session_id":"c","cwd":"/tmp","tool_name":"Write","tool_input":{"file_path":"a","content":"\"hookEventName\""}}"#;
    let host = REGISTRY.find("claude").unwrap();
    assert_eq!(through(host, claude).names().agent, "claude-code");
    let codex = REGISTRY.find("codex").unwrap();
    assert_eq!(through(codex, &stdin).names().agent, codex.names().agent);
}

#[test]
fn a_deny_is_printed_with_its_reason_and_nothing_else_is() {
    let event = &TABLE.events[0];
    let out = Grok
        .render(event, &Decision::deny("gatehouse: no"), "")
        .unwrap();
    let out: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "gatehouse: no"
    );
    assert_eq!(out["decision"], "block");
    assert_eq!(Grok.render(event, &Decision::allow(), "why"), None);
    assert_eq!(Grok.render(event, &Decision::defer("x"), ""), None);
}
