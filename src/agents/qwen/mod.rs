//! Qwen Code's hook dialect (verified against Qwen Code 0.24.4,
//! `shared/realclients/README.md`), and its installer ([`install`]).
//!
//! Qwen sends Claude Code's shape (`hook_event_name`, `session_id`, `cwd`, `tool_name`,
//! `tool_input`, `tool_use_id`) with Qwen's own tool names (`run_shell_command`, `read_file`,
//! `write_file`, `edit` with Claude Code's `file_path`, `old_string`, `new_string`, …), kept
//! as they are; [`TOOLS`] says what each does.
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

use std::path::Path;

use serde_json::{Value, json};

use super::dialect::{
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Source,
    UninstallRequest,
};
use super::input::{self, StdinError};
use super::install_file::InstallError;
use super::tools;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

/// Qwen Code's dialect, as the registry lists it.
pub struct Qwen;

const NAMES: Names = Names {
    cli: "qwen",
    aliases: &["qwen-code"],
    agent: "qwen-code",
    display: "Qwen Code",
    program: "qwen",
};

const VERIFIED: Source = Source::Verified("Qwen Code 0.24.4");

/// `PreToolUse`, `PermissionRequest`, `PostToolUse`, as [`QwenEvent`] orders them.
static EVENTS: [EventSpec; 3] = [
    EventSpec {
        name: "PreToolUse",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Pass,
            note: NoteEffect::AfterTool,
            reason: true,
        },
        // Nothing, garbage, a crash or a timeout: the approved call runs.
        fail: FailMode::Open,
        source: VERIFIED,
    },
    EventSpec {
        name: "PermissionRequest",
        stage: Stage::PermissionFirst,
        caps: Caps {
            allow: AllowEffect::Grant,
            note: NoteEffect::AfterTool,
            reason: true,
        },
        // No decision: the user (or the SDK host) is asked.
        fail: FailMode::ToAgent,
        source: VERIFIED,
    },
    EventSpec {
        name: "PostToolUse",
        stage: Stage::AfterTool,
        caps: Caps::FULL,
        fail: FailMode::Open,
        source: VERIFIED,
    },
];

/// Qwen Code's built-in tool names and what each does.
const TOOLS: &[(&str, ToolKind)] = &[
    ("run_shell_command", ToolKind::Shell),
    ("read_file", ToolKind::Read),
    ("read_many_files", ToolKind::Read),
    ("list_directory", ToolKind::Read),
    ("glob", ToolKind::Read),
    ("grep_search", ToolKind::Read),
    ("write_file", ToolKind::Edit),
    ("edit", ToolKind::Edit),
    ("web_fetch", ToolKind::Web),
];

/// The key each of Qwen Code's file tools names its file under.
const PATHS: &[(&str, &str)] = &[
    ("read_file", "file_path"),
    ("write_file", "file_path"),
    ("edit", "file_path"),
];

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
        self.spec().name
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        match self {
            QwenEvent::PreToolUse => &EVENTS[0],
            QwenEvent::PermissionRequest => &EVENTS[1],
            QwenEvent::PostToolUse => &EVENTS[2],
        }
    }

    /// What a decision can do on this event (`PostToolUse` is not a question).
    pub fn caps(self) -> Caps {
        self.spec().caps
    }

    fn of(spec: &EventSpec) -> QwenEvent {
        QwenEvent::ALL
            .into_iter()
            .find(|e| e.spec().name == spec.name)
            .unwrap_or(QwenEvent::PreToolUse)
    }
}

impl Dialect for Qwen {
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
        render(QwenEvent::of(event), decision)
    }

    /// Nothing: a `PreToolUse` call stays approved as Qwen approved it, a `PermissionRequest`
    /// goes to the user; nothing Qwen reads there would block either way.
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

/// Reads Qwen Code's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(QwenEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    let event = match input::required(&input, "hook_event_name")?.as_str() {
        "PreToolUse" => QwenEvent::PreToolUse,
        "PermissionRequest" => QwenEvent::PermissionRequest,
        "PostToolUse" => QwenEvent::PostToolUse,
        other => return Err(StdinError::UnknownEvent(other.to_string())),
    };
    let tool = input::required(&input, "tool_name")?;
    let call = Call {
        transcript_path: None,
        agent: Agent::new(NAMES.agent),
        kind: Some(Qwen.kind_of(&tool)),
        path_key: tools::path_key_in(PATHS, &tool),
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: input.get("tool_input").cloned().unwrap_or(Value::Null),
        tool_use_id: input::string(&input, "tool_call_id"),
        stage: event.spec().stage,
        caps: event.caps(),
        subagent: None,
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
