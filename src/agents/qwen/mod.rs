//! Qwen Code's hook dialect (verified against Qwen Code 0.24.4,
//! `shared/realclients/README.md`), and its installer ([`install`]).
//!
//! Qwen sends Claude Code's shape (`hook_event_name`, `session_id`, `cwd`, `tool_name`,
//! `tool_input`, `tool_use_id`) with Qwen's own tool names. The core knows them as they are
//! (`run_shell_command`, `read_file`, `write_file`, `glob`, `grep_search`, …) except `edit`,
//! whose `file_path`, `old_string`, `new_string` are Claude Code's `Edit`, and becomes that.
//!
//! Qwen decides approval first (its rules and approval mode, then, where it would ask, the
//! `PermissionRequest` hook, then the user or the SDK host), and runs `PreToolUse` only for a
//! call already approved. So what is printed, from what each answer was seen to do:
//!
//! - `PreToolUse` allow: `permissionDecision: allow`, which only declines to block (there is
//!   nothing left to grant). Deny: `permissionDecision: deny` with the reason, which the model
//!   reads as the tool result. Defer: nothing, so the approval Qwen already gave stands.
//! - `PermissionRequest` allow: `decision.behavior: allow`, which grants. Deny:
//!   `decision.behavior: deny` with `message`, which the model reads. Defer: nothing, so the
//!   user (or the SDK host) is asked. Exit 2 and `{"decision":"block"}` mean nothing on this
//!   event, so they are never used.
//! - `ask` is never printed: after the SDK host approved, a `PreToolUse` ask hangs the run.
//! - the `PreToolUse` of a call the console allowed on its `PermissionRequest` is not asked
//!   again: the event is sent as `permission-request-first`, and the server answers the
//!   `PreToolUse` that follows from the grant it kept (`server::grants`).
//! - a note on allow: both events drop `additionalContext`, so the console keeps the note and
//!   the `PostToolUse` hook (event `after-tool`, same session, tool and input) prints it as
//!   `hookSpecificOutput.additionalContext`; the model reads it after the output.

pub mod install;

use serde_json::{Value, json};

use super::capability;
use super::input::{self, StdinError};
use crate::core::call::{Agent, Call};
use crate::core::caps::{AFTER_TOOL, Caps};
use crate::core::decision::Decision;
use crate::server::grants::PERMISSION_REQUEST_FIRST;

/// The Qwen Code hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QwenEvent {
    PreToolUse,
    PermissionRequest,
    PostToolUse,
}

impl QwenEvent {
    /// Every event, in the order the installer writes them.
    pub const ALL: [QwenEvent; 3] = [
        QwenEvent::PreToolUse,
        QwenEvent::PermissionRequest,
        QwenEvent::PostToolUse,
    ];

    /// Qwen's own name, as in `hook_event_name` and `settings.json`.
    pub fn qwen_name(self) -> &'static str {
        match self {
            QwenEvent::PreToolUse => "PreToolUse",
            QwenEvent::PermissionRequest => "PermissionRequest",
            QwenEvent::PostToolUse => "PostToolUse",
        }
    }

    /// The normalised name carried in [`Call::event`].
    pub fn wire_name(self) -> &'static str {
        match self {
            QwenEvent::PreToolUse => "pre-tool-use",
            QwenEvent::PermissionRequest => PERMISSION_REQUEST_FIRST,
            QwenEvent::PostToolUse => AFTER_TOOL,
        }
    }

    /// What a decision can do on this event (`PostToolUse` is not a question).
    pub fn caps(self) -> Caps {
        match self {
            QwenEvent::PreToolUse => capability::Event::QwenPreToolUse.caps(),
            QwenEvent::PermissionRequest => capability::Event::QwenPermissionRequest.caps(),
            QwenEvent::PostToolUse => Caps::FULL,
        }
    }
}

/// Reads Qwen Code's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(QwenEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    let event = match input::required(&input, "hook_event_name")?.as_str() {
        "PreToolUse" => QwenEvent::PreToolUse,
        "PermissionRequest" => QwenEvent::PermissionRequest,
        "PostToolUse" => QwenEvent::PostToolUse,
        other => return Err(StdinError::UnknownEvent(other.to_string())),
    };
    let tool = match input::required(&input, "tool_name")?.as_str() {
        "edit" => "Edit".to_string(),
        other => other.to_string(),
    };
    let call = Call {
        agent: Agent::QwenCode,
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: input.get("tool_input").cloned().unwrap_or(Value::Null),
        tool_use_id: input::string(&input, "tool_call_id"),
        event: Some(event.wire_name().to_string()),
        caps: event.caps(),
    };
    Ok((event, call))
}

/// The stdout for `decision` on `event`, or `None` to print nothing (see the module docs).
pub fn render(event: QwenEvent, decision: &Decision) -> Option<String> {
    let output = match (event, decision) {
        (_, Decision::Defer { .. }) => return None,
        (QwenEvent::PreToolUse, Decision::Allow { .. }) => json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
        }),
        (QwenEvent::PreToolUse, Decision::Deny { reason }) => json!({
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }),
        (QwenEvent::PermissionRequest, Decision::Allow { .. }) => json!({
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }),
        (QwenEvent::PermissionRequest, Decision::Deny { reason }) => json!({
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": reason},
        }),
        (QwenEvent::PostToolUse, Decision::Allow { note }) => json!({
            "hookEventName": "PostToolUse",
            "additionalContext": note.as_deref().filter(|n| !n.is_empty())?,
        }),
        // The tool has run; a refusal cannot undo it.
        (QwenEvent::PostToolUse, Decision::Deny { .. }) => return None,
    };
    Some(json!({ "hookSpecificOutput": output }).to_string())
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
