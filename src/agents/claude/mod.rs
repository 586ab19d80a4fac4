//! Claude Code's hook dialect: its hook JSON on stdin becomes a call, and a [`Decision`]
//! becomes the exact JSON Claude Code reads on stdout for that event.
//!
//! `PreToolUse` fires before every tool call: `allow` may carry `additionalContext` (a note the
//! model reads after the tool's result) and `updatedInput` (the command the human edited, run
//! in place of the one asked about), `deny` carries `permissionDecisionReason` (the model
//! reads it as the tool result). `PermissionRequest` fires only where Claude would prompt:
//! `decision.behavior` allow or deny, and a deny `message` reaches the model; an allow has no
//! channel to the model, so its note is shown to the user as a `systemMessage`. `defer` prints
//! nothing, which leaves the call to Claude's own permission flow.

use std::path::Path;

use serde_json::{Value, json};

use super::dialect::{
    Dialect, EventSpec, FailMode, InstallRequest, Installed, Names, Parsed, Scope, Source, Table,
};
use super::hook_file::{Home, HookFile};
use super::install_file::InstallError;
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::call::{Stage, SubAgent, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

pub mod fail_closed;
pub mod install;

pub use super::input::StdinError;

/// Claude Code's dialect, as the registry lists it.
pub struct Claude;

/// Claude Code's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "claude",
        aliases: &["claude-code"],
        agent: "claude-code",
        display: "Claude Code",
        program: "claude",
    },
    source: Source::Verified("Claude Code 2.1.328"),
    events: &[
        EventSpec::question("PreToolUse", Caps::FULL, FailMode::ToAgent),
        EventSpec::question(
            "PermissionRequest",
            caps(AllowEffect::Grant, NoteEffect::User),
            FailMode::ToAgent,
        ),
        EventSpec::session_end("SessionEnd"),
    ],
    keys: Keys::CLAUDE_CODE,
    tools: Tools {
        shell: &["Bash"],
        read: &["Read", "Glob", "Grep", "LS", "NotebookRead"],
        edit: &["Write", "Edit", "MultiEdit", "NotebookEdit"],
        web: &["WebFetch", "WebSearch"],
        plan: &["ExitPlanMode"],
        internal: INTERNAL_TOOLS,
        paths: &[
            ("file_path", &["Read", "Write", "Edit", "MultiEdit"]),
            ("notebook_path", &["NotebookRead", "NotebookEdit"]),
            ("path", &["Glob", "Grep", "LS"]),
        ],
    },
    // One event's hook, `--event` choosing which ([`install`]).
    hooks: HookFile::groups(
        Home::var("CLAUDE_CONFIG_DIR", "~/.claude"),
        &[
            (Scope::User, "settings.json"),
            (Scope::Project, ".claude/settings.json"),
            (Scope::Local, ".claude/settings.local.json"),
        ],
    ),
};

/// Claude Code's own bookkeeping tools: they change nothing outside the agent, and
/// `Agent`/`Task` start sub-agents whose calls are gated one by one.
pub const INTERNAL_TOOLS: &[&str] = &[
    "TodoWrite",
    "TodoRead",
    "ToolSearch",
    "Skill",
    "AskUserQuestion",
    "EnterPlanMode",
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
    TABLE.kind_of(name)
}

impl Dialect for Claude {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// Whether gatehouse's entry there carries `onFailure: "block"`.
    fn on_failure(&self, path: &Path) -> Option<String> {
        Some(fail_closed::describe(path))
    }

    /// The table's plain shape, and the sub-agent that made the call (`agent_id`,
    /// `agent_type`), which the console shows under its parent session.
    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let hook = TABLE.read(stdin)?;
        if hook.event.stage == Stage::SessionEnd {
            // No tool: the call only names the session that ended.
            return Ok(hook.call(hook.event.name.to_string(), Value::Null));
        }
        let mut parsed = hook.call(hook.tool()?, hook.tool_input());
        let present = |key| hook.string(key).filter(|s| !s.is_empty());
        parsed.call.subagent = present("agent_id").map(|id| SubAgent {
            id,
            kind: present("agent_type"),
        });
        Ok(parsed)
    }

    /// Nothing on a defer or at a session's end. `why_allowed` is shown to the user (not the
    /// model) on a `PreToolUse` allow.
    fn render(&self, event: &EventSpec, decision: &Decision, why_allowed: &str) -> Option<String> {
        let output = match (event.name, decision) {
            (_, Decision::Defer { .. }) | ("SessionEnd", _) => return None,
            ("PreToolUse", Decision::Allow { note, input }) => {
                let mut out = json!({
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "permissionDecisionReason": why_allowed,
                });
                if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                    out["additionalContext"] = json!(note);
                }
                // The whole input, which Claude Code runs in place of the one it asked about.
                if let Some(input) = input {
                    out["updatedInput"] = input.clone();
                }
                out
            }
            ("PreToolUse", Decision::Deny { reason }) => json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }),
            // The other event, PermissionRequest.
            (_, Decision::Allow { note, .. }) => {
                let output = json!({
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow"},
                });
                // Claude Code 2.1.328 gives a PermissionRequest hook no way to reach the model
                // on an allow (tried: `additionalContext`, `decision.message`,
                // `systemMessage`), so the note goes to the user as a system message.
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
            (_, Decision::Deny { reason }) => json!({
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason},
            }),
        };
        Some(json!({ "hookSpecificOutput": output }).to_string())
    }

    /// The hook for the one event `--event` names.
    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        install::install_for(request)
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
