//! GitHub Copilot CLI's hook dialect, in Copilot's own hooks format (verified against Copilot
//! CLI 1.0.102, `shared/realclients/README.md`), and its installer ([`install`]).
//!
//! Copilot's payloads are camelCase and name no event on `preToolUse`:
//!
//! - `preToolUse`: `sessionId`, `cwd`, `toolName`, `toolArgs` (the model's arguments);
//! - `permissionRequest`: `hookName: "permissionRequest"`, `toolName`, `toolInput` (the shell
//!   without its `description`; `create` and `edit` both asked as `edit` with `file_path` and
//!   a unified `diff`);
//! - `postToolUse` (not installed): `toolArgs` and `toolResult`.
//!
//! Copilot's tools become Claude Code's, which the core knows: `bash` → `Bash`, `view` →
//! `Read`, `create` → `Write` (`path`, `file_text` → `file_path`, `content`), `edit` → `Edit`
//! (`path`, `old_str`, `new_str` → `file_path`, `old_string`, `new_string`), `grep` → `Grep`,
//! `glob` → `Glob`; other names stay as they are.
//!
//! What is printed is always Copilot's flat answer, never Claude Code's `hookSpecificOutput`:
//! in a Copilot-format hooks file Copilot ignores that shape without a word, and a deny
//! written in it lets the command run. A payload in Claude Code's format (from a hook of
//! `gatehouse hook copilot` put in a Claude-format file) is refused as unreadable, so nothing
//! is answered in a shape that file would ignore.
//!
//! - `preToolUse` allow: `{"permissionDecision":"allow"}`, which **grants**: Copilot skips its
//!   own permission check, even the user's `--deny-tool`. A note rides on `additionalContext`
//!   (the model reads `Additional context from preToolUse hook:` and the note). Deny:
//!   `permissionDecision: deny` with `permissionDecisionReason` (the model reads `Denied by
//!   preToolUse hook: <reason>`). Defer: nothing, so Copilot's own permission flow decides
//!   (the `permissionRequest` hook first).
//! - `permissionRequest` allow: `{"behavior":"allow"}`; deny: `behavior: deny` with `message`
//!   (the model reads `Permission denied by a PermissionRequest hook: <message>`); no note
//!   channel; defer: nothing, the normal flow. `interrupt` is never sent (it ends the turn).
//! - `ask` is never printed: `copilot -p` turns it into a refusal.

pub mod install;

use serde_json::{Map, Value, json};

use super::capability;
use super::input::{self, StdinError};
use crate::core::call::{Agent, Call};
use crate::core::caps::Caps;
use crate::core::decision::Decision;

/// The Copilot CLI hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopilotEvent {
    PreToolUse,
    PermissionRequest,
}

impl CopilotEvent {
    /// Every event, in the order the installer writes them.
    pub const ALL: [CopilotEvent; 2] = [CopilotEvent::PreToolUse, CopilotEvent::PermissionRequest];

    /// Copilot's own name, as in its hooks file.
    pub fn copilot_name(self) -> &'static str {
        match self {
            CopilotEvent::PreToolUse => "preToolUse",
            CopilotEvent::PermissionRequest => "permissionRequest",
        }
    }

    /// The normalised name carried in [`Call::event`].
    pub fn wire_name(self) -> &'static str {
        match self {
            CopilotEvent::PreToolUse => "pre-tool-use",
            CopilotEvent::PermissionRequest => "permission-request",
        }
    }

    /// What a decision can do on this event.
    pub fn caps(self) -> Caps {
        match self {
            CopilotEvent::PreToolUse => capability::Event::CopilotPreToolUse.caps(),
            CopilotEvent::PermissionRequest => capability::Event::CopilotPermissionRequest.caps(),
        }
    }
}

/// Reads Copilot CLI's hook input: which event fired, and the call it is about. The event is
/// `hookName` where Copilot sends one, else `preToolUse` for a call that has not run
/// (`toolArgs` and no `toolResult`).
pub fn parse(stdin: &[u8]) -> Result<(CopilotEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    if let Some(event) = input::string(&input, "hook_event_name") {
        return Err(StdinError::ClaudeFormat(event));
    }
    let (event, args) = match input::string(&input, "hookName").as_deref() {
        Some("permissionRequest") => (CopilotEvent::PermissionRequest, "toolInput"),
        Some(other) => return Err(StdinError::UnknownEvent(other.to_string())),
        None if input.contains_key("toolResult") => {
            return Err(StdinError::UnknownEvent("postToolUse".into()));
        }
        None => (CopilotEvent::PreToolUse, "toolArgs"),
    };
    let name = input::required(&input, "toolName")?;
    let Some(Value::Object(args)) = input.get(args) else {
        return Err(StdinError::Missing(args));
    };
    let (tool, tool_input) = normalise(&name, args.clone());
    let call = Call {
        agent: Agent::CopilotCli,
        session: input::string(&input, "sessionId").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: tool_input,
        tool_use_id: None,
        event: Some(event.wire_name().to_string()),
        caps: event.caps(),
    };
    Ok((event, call))
}

/// Copilot's tool as the core's: its name, and its arguments under Claude Code's keys.
fn normalise(name: &str, mut args: Map<String, Value>) -> (String, Value) {
    let (tool, renames): (&str, &[(&str, &str)]) = match name {
        "bash" => ("Bash", &[]),
        "view" => ("Read", &[("path", "file_path")]),
        "create" => ("Write", &[("path", "file_path"), ("file_text", "content")]),
        "edit" => (
            "Edit",
            &[
                ("path", "file_path"),
                ("old_str", "old_string"),
                ("new_str", "new_string"),
            ],
        ),
        "grep" => ("Grep", &[]),
        "glob" => ("Glob", &[]),
        other => return (other.to_string(), Value::Object(args)),
    };
    for (from, to) in renames {
        if !args.contains_key(*to)
            && let Some(value) = args.remove(*from)
        {
            args.insert((*to).to_string(), value);
        }
    }
    (tool.to_string(), Value::Object(args))
}

/// The stdout for `decision` on `event`, or `None` to print nothing (defer): always Copilot's
/// flat answer (see the module docs).
pub fn render(event: CopilotEvent, decision: &Decision) -> Option<String> {
    let output = match (event, decision) {
        (_, Decision::Defer { .. }) => return None,
        (CopilotEvent::PreToolUse, Decision::Allow { note }) => {
            let mut out = json!({"permissionDecision": "allow"});
            if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                out["additionalContext"] = json!(note);
            }
            out
        }
        (CopilotEvent::PreToolUse, Decision::Deny { reason }) => json!({
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }),
        (CopilotEvent::PermissionRequest, Decision::Allow { .. }) => json!({"behavior": "allow"}),
        (CopilotEvent::PermissionRequest, Decision::Deny { reason }) => {
            json!({"behavior": "deny", "message": reason})
        }
    };
    Some(output.to_string())
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
