//! Claude Code's hook dialect: its hook JSON on stdin becomes a [`Call`], and a [`Decision`]
//! becomes the exact JSON Claude Code reads on stdout for that event.
//!
//! `PreToolUse` fires before every tool call: `allow` may carry `additionalContext` (a note the
//! model reads after the tool's result), `deny` carries `permissionDecisionReason` (the model
//! reads it as the tool result). `PermissionRequest` fires only where Claude would prompt:
//! `decision.behavior` allow or deny, and a deny `message` reaches the model; an allow has no
//! channel to the model, so its note is shown to the user as a `systemMessage`. `defer` prints
//! nothing, which leaves the call to Claude's own permission flow.

use serde::Deserialize;
use serde_json::{Value, json};

use super::capability;
use crate::core::call::{Agent, Call};
use crate::core::decision::Decision;

/// The hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    PreToolUse,
    PermissionRequest,
}

impl HookEvent {
    /// Claude Code's own name, as in `hook_event_name` and the settings file.
    pub fn claude_name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PermissionRequest => "PermissionRequest",
        }
    }

    /// The normalised name carried in [`Call::event`] and given to `--event`.
    pub fn wire_name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "pre-tool-use",
            HookEvent::PermissionRequest => "permission-request",
        }
    }
}

pub use super::input::StdinError;

/// The fields of Claude Code's hook input that gatehouse reads; the rest are ignored.
#[derive(Debug, Deserialize)]
struct HookInput {
    hook_event_name: Option<String>,
    tool_name: Option<String>,
    #[serde(default)]
    tool_input: Value,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    tool_use_id: Option<String>,
    #[serde(default)]
    transcript_path: Option<String>,
}

/// Reads Claude Code's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(HookEvent, Call), StdinError> {
    let input: HookInput =
        serde_json::from_slice(stdin).map_err(|e| StdinError::NotJson(e.to_string()))?;
    let event = match input.hook_event_name.as_deref() {
        Some("PreToolUse") => HookEvent::PreToolUse,
        Some("PermissionRequest") => HookEvent::PermissionRequest,
        Some(other) => return Err(StdinError::UnknownEvent(other.to_string())),
        None => return Err(StdinError::Missing("hook_event_name")),
    };
    let tool = input
        .tool_name
        .filter(|t| !t.is_empty())
        .ok_or(StdinError::Missing("tool_name"))?;
    let call = Call {
        agent: Agent::ClaudeCode,
        session: input.session_id.unwrap_or_default(),
        cwd: input.cwd.unwrap_or_default(),
        tool,
        input: input.tool_input,
        tool_use_id: input.tool_use_id,
        event: Some(event.wire_name().to_string()),
        caps: match event {
            HookEvent::PreToolUse => capability::Event::ClaudePreToolUse,
            HookEvent::PermissionRequest => capability::Event::ClaudePermissionRequest,
        }
        .caps(),
        transcript_path: input.transcript_path,
    };
    Ok((event, call))
}

/// The stdout for `decision` on `event`, or `None` to print nothing (defer). `why_allowed` is
/// shown to the user (not the model) on a `PreToolUse` allow.
pub fn render(event: HookEvent, decision: &Decision, why_allowed: &str) -> Option<String> {
    let output = match (event, decision) {
        (_, Decision::Defer { .. }) => return None,
        (HookEvent::PreToolUse, Decision::Allow { note }) => {
            let mut out = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": why_allowed,
            });
            if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                out["additionalContext"] = json!(note);
            }
            out
        }
        (HookEvent::PreToolUse, Decision::Deny { reason }) => json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }),
        (HookEvent::PermissionRequest, Decision::Allow { note }) => {
            let output = json!({
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"},
            });
            // Claude Code 2.1.328 gives a PermissionRequest hook no way to reach the model on
            // an allow (tried: `additionalContext`, `decision.message`, `systemMessage`), so
            // the note goes to the user as a system message.
            return Some(
                match note.as_deref().filter(|n| !n.is_empty()) {
                    Some(note) => json!({
                        "systemMessage": format!("gatehouse note: {note}"),
                        "hookSpecificOutput": output,
                    }),
                    None => json!({ "hookSpecificOutput": output }),
                }
                .to_string(),
            );
        }
        (HookEvent::PermissionRequest, Decision::Deny { reason }) => json!({
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": reason},
        }),
    };
    Some(json!({ "hookSpecificOutput": output }).to_string())
}

#[cfg(test)]
#[path = "claude_tests.rs"]
mod tests;
