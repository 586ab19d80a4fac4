//! Codex's hook dialect (verified against Codex 0.169.0, `shared/realclients/README.md`).
//!
//! Codex sends Claude Code's shape: `hook_event_name`, `tool_name`, `tool_input`,
//! `session_id`, `cwd`, `tool_use_id` (not on `PermissionRequest`). The shell is `Bash` with
//! `{"command"}`; `apply_patch` carries the raw `*** Begin Patch` text in `command`, which
//! becomes `{"patch", "files", "file_path"}` here so the console can name the files and show
//! the patch as a diff; MCP tools are `mcp__<server>__<tool>`.
//!
//! What each answer really does there decides what is printed:
//!
//! - `PreToolUse` cannot grant: a `permissionDecision` of `allow` or `ask` makes Codex discard
//!   the whole answer, note included. So an allow prints nothing (the call goes on to Codex's
//!   own sandbox and approvals), an allow with a note prints only `additionalContext` (the
//!   model reads it as a developer message), and a deny prints `permissionDecision: deny` with
//!   the reason (the model reads `Command blocked by PreToolUse hook: <reason>`).
//! - `PermissionRequest` grants with `decision.behavior: allow` and refuses with `deny` and a
//!   `message`. It has no channel to the model on allow (`additionalContext` there makes Codex
//!   reject the answer), so a note goes to the user as `systemMessage`. `interrupt` and
//!   `updatedInput` are never sent: Codex rejects them.
//! - `defer` prints nothing: Codex's own flow decides.

use std::path::Path;

use serde_json::{Value, json};

use super::dialect::{
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Source,
    UninstallRequest,
};
use super::input::{self, StdinError};
use super::install_file::InstallError;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

pub mod install;
mod reviewer;

/// Codex's dialect, as the registry lists it.
pub struct Codex;

const NAMES: Names = Names {
    cli: "codex",
    aliases: &[],
    agent: "codex",
    display: "Codex",
    program: "codex",
};

const VERIFIED: Source = Source::Verified("Codex 0.169.0");

/// `PreToolUse` then `PermissionRequest`, as [`CodexEvent`] orders them.
static EVENTS: [EventSpec; 2] = [
    EventSpec {
        name: "PreToolUse",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Pass,
            note: NoteEffect::Model,
            reason: true,
        },
        fail: FailMode::Open,
        source: VERIFIED,
    },
    EventSpec {
        name: "PermissionRequest",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Grant,
            note: NoteEffect::None,
            reason: true,
        },
        fail: FailMode::ToAgent,
        source: VERIFIED,
    },
];

/// Codex's tool names as its hooks send them.
const TOOLS: &[(&str, ToolKind)] = &[("Bash", ToolKind::Shell), ("apply_patch", ToolKind::Edit)];

/// The Codex hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodexEvent {
    PreToolUse,
    PermissionRequest,
}

impl CodexEvent {
    /// Codex's own name, as in `hook_event_name` and `hooks.json`.
    pub fn codex_name(self) -> &'static str {
        self.spec().name
    }

    /// The name Codex uses in its trust keys and hashes (`pre_tool_use`).
    pub fn snake_name(self) -> &'static str {
        match self {
            CodexEvent::PreToolUse => "pre_tool_use",
            CodexEvent::PermissionRequest => "permission_request",
        }
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        match self {
            CodexEvent::PreToolUse => &EVENTS[0],
            CodexEvent::PermissionRequest => &EVENTS[1],
        }
    }

    fn of(spec: &EventSpec) -> CodexEvent {
        if spec.name == EVENTS[1].name {
            CodexEvent::PermissionRequest
        } else {
            CodexEvent::PreToolUse
        }
    }
}

impl Dialect for Codex {
    fn names(&self) -> &'static Names {
        &NAMES
    }

    fn events(&self) -> &'static [EventSpec] {
        &EVENTS
    }

    fn tools(&self) -> &'static [(&'static str, ToolKind)] {
        TOOLS
    }

    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let (event, call) = parse(stdin)?;
        Ok(Parsed {
            event: event.spec(),
            call,
        })
    }

    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        render(CodexEvent::of(event), decision)
    }

    fn unreadable(&self, _why: &str, _stdin: &[u8]) -> Option<String> {
        None
    }

    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        install::install_for(request)
    }

    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError> {
        install::uninstall_for(request)
    }

    fn hook_places(&self, project: &Path) -> Vec<HookPlace> {
        install::places(project)
    }
}

/// Reads Codex's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(CodexEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    let event = match input::required(&input, "hook_event_name")?.as_str() {
        "PreToolUse" => CodexEvent::PreToolUse,
        "PermissionRequest" => CodexEvent::PermissionRequest,
        other => return Err(StdinError::UnknownEvent(other.to_string())),
    };
    let tool = input::required(&input, "tool_name")?;
    let mut tool_input = input.get("tool_input").cloned().unwrap_or(Value::Null);
    if tool == "apply_patch" {
        let patch = tool_input.get("command").and_then(Value::as_str);
        tool_input = patch_input(patch.unwrap_or(""));
    }
    let call = Call {
        agent: Agent::new(NAMES.agent),
        kind: Some(Codex.kind_of(&tool)),
        // A patch's input is built here, its first file under `file_path`.
        path_key: (tool == "apply_patch").then(|| "file_path".to_string()),
        subagent: None,
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: tool_input,
        tool_use_id: input::string(&input, "tool_use_id"),
        stage: event.spec().stage,
        caps: event.spec().caps,
        transcript_path: input::string(&input, "transcript_path"),
    };
    Ok((event, call))
}

/// The call input for a patch: the text itself, the files it touches in order, and the first
/// of them as `file_path` (what the queue shows).
fn patch_input(patch: &str) -> Value {
    let files = patch_files(patch);
    let mut value = json!({"patch": patch, "files": files});
    if let Some(first) = files.first() {
        value["file_path"] = json!(first);
    }
    value
}

/// The files an `apply_patch` text adds, updates, deletes or moves to, each once, in order.
pub fn patch_files(patch: &str) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for line in patch.lines() {
        let path = [
            "*** Add File: ",
            "*** Update File: ",
            "*** Delete File: ",
            "*** Move to: ",
        ]
        .iter()
        .find_map(|marker| line.strip_prefix(marker));
        if let Some(path) = path.map(str::trim).filter(|p| !p.is_empty())
            && !files.iter().any(|f| f == path)
        {
            files.push(path.to_string());
        }
    }
    files
}

/// The stdout for `decision` on `event`, or `None` to print nothing.
pub fn render(event: CodexEvent, decision: &Decision) -> Option<String> {
    let output = match (event, decision) {
        (_, Decision::Defer { .. }) => return None,
        (CodexEvent::PreToolUse, Decision::Allow { note }) => {
            let note = note.as_deref().filter(|n| !n.is_empty())?;
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "additionalContext": note,
            }})
        }
        (CodexEvent::PreToolUse, Decision::Deny { reason }) => json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }}),
        (CodexEvent::PermissionRequest, Decision::Allow { note }) => {
            let mut out = json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"},
            }});
            if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                out["systemMessage"] = json!(format!("gatehouse note: {note}"));
            }
            out
        }
        (CodexEvent::PermissionRequest, Decision::Deny { reason }) => {
            json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason},
            }})
        }
    };
    Some(output.to_string())
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
