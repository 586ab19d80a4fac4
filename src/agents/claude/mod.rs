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

use super::dialect::{
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Scope,
    Source, UninstallRequest,
};
use super::install_file::InstallError;
use super::tools;
use crate::core::call::{Agent, Call, Stage, SubAgent, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

pub mod install;

pub use super::input::StdinError;

/// Claude Code's dialect, as the registry lists it.
pub struct Claude;

const NAMES: Names = Names {
    cli: "claude",
    aliases: &["claude-code"],
    agent: "claude-code",
    display: "Claude Code",
    program: "claude",
};

const VERIFIED: Source = Source::Verified("Claude Code 2.1.328");

/// `PreToolUse` then `PermissionRequest`, as [`HookEvent`] orders them.
static EVENTS: [EventSpec; 2] = [
    EventSpec {
        name: "PreToolUse",
        stage: Stage::Question,
        caps: Caps::FULL,
        fail: FailMode::ToAgent,
        source: VERIFIED,
    },
    EventSpec {
        name: "PermissionRequest",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Grant,
            note: NoteEffect::User,
            reason: true,
        },
        fail: FailMode::ToAgent,
        source: VERIFIED,
    },
];

/// The hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    PreToolUse,
    PermissionRequest,
}

impl HookEvent {
    /// Claude Code's own name, as in `hook_event_name` and the settings file.
    pub fn claude_name(self) -> &'static str {
        self.spec().name
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        match self {
            HookEvent::PreToolUse => &EVENTS[0],
            HookEvent::PermissionRequest => &EVENTS[1],
        }
    }

    fn of(spec: &EventSpec) -> HookEvent {
        if spec.name == EVENTS[1].name {
            HookEvent::PermissionRequest
        } else {
            HookEvent::PreToolUse
        }
    }
}

/// Claude Code's tool names and what each does.
const TOOLS: &[(&str, ToolKind)] = &[
    ("Bash", ToolKind::Shell),
    ("Read", ToolKind::Read),
    ("Glob", ToolKind::Read),
    ("Grep", ToolKind::Read),
    ("LS", ToolKind::Read),
    ("NotebookRead", ToolKind::Read),
    ("Write", ToolKind::Edit),
    ("Edit", ToolKind::Edit),
    ("MultiEdit", ToolKind::Edit),
    ("NotebookEdit", ToolKind::Edit),
    ("WebFetch", ToolKind::Web),
    ("WebSearch", ToolKind::Web),
];

/// Claude Code's own bookkeeping tools: they change nothing outside the agent, and
/// `Agent`/`Task` start sub-agents whose calls are gated one by one.
pub const INTERNAL_TOOLS: &[&str] = &[
    "TodoWrite",
    "TodoRead",
    "ToolSearch",
    "Skill",
    "AskUserQuestion",
    "EnterPlanMode",
    "ExitPlanMode",
    "ListAgents",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskOutput",
    "TaskStop",
    "Agent",
    "Task",
];

/// The kind of Claude Code's tool `name`; `mcp__<server>__<tool>` is an MCP tool.
pub fn kind_of(name: &str) -> ToolKind {
    tools::kind_in(TOOLS, name)
}

impl Dialect for Claude {
    fn names(&self) -> &'static Names {
        &NAMES
    }

    fn events(&self) -> &'static [EventSpec] {
        &EVENTS
    }

    fn tools(&self) -> &'static [(&'static str, ToolKind)] {
        TOOLS
    }

    fn internal_tools(&self) -> &'static [&'static str] {
        INTERNAL_TOOLS
    }

    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let (event, call) = parse(stdin)?;
        Ok(Parsed {
            event: event.spec(),
            call,
        })
    }

    fn render(&self, event: &EventSpec, decision: &Decision, why: &str) -> Option<String> {
        render(HookEvent::of(event), decision, why)
    }

    fn unreadable(&self, _why: &str, _stdin: &[u8]) -> Option<String> {
        None
    }

    fn scopes(&self) -> &'static [Scope] {
        &[Scope::User, Scope::Project, Scope::Local]
    }

    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        install::install_for(request)
    }

    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError> {
        install::uninstall_for(request)
    }

    fn hook_places(&self, project: &std::path::Path) -> Vec<HookPlace> {
        install::places(project)
    }
}

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
    /// Set inside a sub-agent: its id and type.
    #[serde(default)]
    agent_id: Option<String>,
    #[serde(default)]
    agent_type: Option<String>,
}

/// The key each of Claude Code's file tools names its file under.
const PATHS: &[(&str, &str)] = &[
    ("Read", "file_path"),
    ("Write", "file_path"),
    ("Edit", "file_path"),
    ("MultiEdit", "file_path"),
    ("NotebookRead", "notebook_path"),
    ("NotebookEdit", "notebook_path"),
    ("Glob", "path"),
    ("Grep", "path"),
    ("LS", "path"),
];

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
        agent: Agent::new(NAMES.agent),
        session: input.session_id.unwrap_or_default(),
        cwd: input.cwd.unwrap_or_default(),
        kind: Some(kind_of(&tool)),
        path_key: tools::path_key_in(PATHS, &tool),
        subagent: input
            .agent_id
            .filter(|id| !id.is_empty())
            .map(|id| SubAgent {
                id,
                kind: input.agent_type.filter(|t| !t.is_empty()),
            }),
        tool,
        input: input.tool_input,
        tool_use_id: input.tool_use_id,
        stage: event.spec().stage,
        caps: event.spec().caps,
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
#[path = "tests.rs"]
mod tests;
