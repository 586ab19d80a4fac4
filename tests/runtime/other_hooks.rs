//! Hooks that are not Claude Code's questions, through the real `gatehouse hook claude` and a real
//! `serve`: Grok Build running Claude Code's hook, answered as Grok honours (a deny with its
//! reason; nothing for an allow, which Grok reads only as "no objection"), and Claude Code's own
//! `SessionEnd`, which only tells the console the session ended.

use crate::common;

use common::place::Place;
use serde_json::{Value, json};

fn grok_call(command: &str, cwd: &std::path::Path) -> Vec<u8> {
    json!({
        "hookEventName": "PreToolUse",
        "sessionId": "grok-7",
        "cwd": cwd,
        "workspaceRoot": cwd,
        "toolName": "Bash",
        "toolInput": {"command": command},
    })
    .to_string()
    .into_bytes()
}

#[test]
fn grok_s_call_through_the_claude_hook_is_audited_as_grok_and_answered_as_grok_honours() {
    let place = Place::new(r#"denied_commands = ["git push"]"#);
    let _serve = place.serve(&["--mode", "allow-read"]);
    let cwd = place.path();

    let (out, err) = place.hook(&grok_call("git push origin main", cwd));
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out} {err}"
    );
    assert_eq!(out["decision"], "block", "{out}");
    let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("denied command"), "{reason}");

    // A proven read is allowed at the console; Grok is told nothing, its own mode decides.
    let (out, err) = place.hook(&grok_call("ls -la", cwd));
    assert_eq!(out, Value::Null, "{err}");

    let audit = place.audit();
    assert_eq!(audit.len(), 2, "{audit:?}");
    for record in &audit {
        assert_eq!(record["agent"], "grok-build", "{record}");
        assert_eq!(record["session"], "grok-7", "{record}");
    }
    assert_eq!(audit[1]["decision"], "allow", "{}", audit[1]);
}

#[test]
fn claude_s_session_end_reaches_serve_and_prints_nothing_for_claude() {
    let place = Place::new("");
    let serve = place.serve(&[]);
    let end = json!({
        "hook_event_name": "SessionEnd",
        "session_id": "c-42",
        "cwd": place.path(),
        "reason": "other",
    });
    let (out, err) = place.hook(end.to_string().as_bytes());
    assert_eq!(out, Value::Null, "{err}");
    let (_, log) = serve.stop();
    assert!(log.contains("claude-code session c-42 ended"), "{log}");
    assert!(
        place.audit().is_empty(),
        "a session's end is not a decision"
    );
}
