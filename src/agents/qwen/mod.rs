//! Qwen Code's hook dialect (verified against Qwen Code 0.24.4,
//! `shared/realclients/README.md`). Its hooks go in `settings.json` (user:
//! `$QWEN_HOME/settings.json`, else `~/.qwen/settings.json`; project: `.qwen/settings.json`) for
//! all three events, in Claude Code's layout with the timeout in milliseconds. Qwen kills a
//! hook at its timeout and then lets a `PreToolUse` call run, so the timeout is longer than the
//! console's ask timeout: the console's own answer always comes first.
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
//!   `PreToolUse` that follows from the grant it kept.
//! - a note on allow: both events drop `additionalContext`, so the console keeps the note and
//!   the `PostToolUse` hook (event `after-tool`, same session, tool and input) prints it as
//!   `hookSpecificOutput.additionalContext`; the model reads it after the output.

use serde_json::json;

use super::dialect::{Dialect, EventSpec, FailMode, Names, Scope, Source, Table};
use super::hook_file::{self, Home, HookFile, Needs};
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::call::Stage;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

/// Qwen Code's dialect, as the registry lists it.
pub struct Qwen;

/// Qwen Code's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "qwen",
        aliases: &["qwen-code"],
        agent: "qwen-code",
        display: "Qwen Code",
        program: "qwen",
    },
    source: Source::Verified("Qwen Code 0.24.4"),
    events: &[
        // Nothing, garbage, a crash or a timeout: the approved call runs.
        EventSpec::question(
            "PreToolUse",
            caps(AllowEffect::Pass, NoteEffect::AfterTool),
            FailMode::Open,
        ),
        // No decision: the user (or the SDK host) is asked.
        EventSpec::permission_first(
            "PermissionRequest",
            caps(AllowEffect::Grant, NoteEffect::AfterTool),
            FailMode::ToAgent,
        ),
        EventSpec::after_tool("PostToolUse"),
    ],
    keys: Keys {
        tool_use_id: Some("tool_call_id"),
        transcript: None,
        ..Keys::CLAUDE_CODE
    },
    tools: Tools {
        shell: &["run_shell_command"],
        read: &[
            "read_file",
            "read_many_files",
            "list_directory",
            "glob",
            "grep_search",
        ],
        edit: &["write_file", "edit"],
        web: &["web_fetch"],
        plan: &["exit_plan_mode"],
        internal: &[],
        paths: &[("file_path", &["read_file", "write_file", "edit"])],
    },
    // Without `PreToolUse` a call Qwen approves itself is not gated, without
    // `PermissionRequest` nothing can be granted, without `PostToolUse` no note arrives.
    hooks: HookFile {
        entry: hook_file::command_entry_ms,
        needs: Needs::All,
        notes: &[HOW_IT_WORKS],
        ..HookFile::groups(
            Home::var("QWEN_HOME", "~/.qwen"),
            &[
                (Scope::User, "settings.json"),
                (Scope::Project, ".qwen/settings.json"),
            ],
        )
    },
};

/// What Qwen Code does with each answer, told after an install.
pub const HOW_IT_WORKS: &str = "Qwen Code runs PreToolUse only on calls it has already \
approved, so there gatehouse can refuse but not grant; PermissionRequest, where Qwen would ask, \
grants. A note reaches the model after the output, from PostToolUse.";

impl Dialect for Qwen {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// Nothing on a defer (see the module docs).
    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match (event.stage, decision) {
            (_, Decision::Defer { .. }) => return None,
            (Stage::Question, Decision::Allow { .. }) => json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
            }),
            (Stage::Question, Decision::Deny { reason }) => json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }),
            (Stage::PermissionFirst, Decision::Allow { .. }) => json!({
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"},
            }),
            (Stage::PermissionFirst, Decision::Deny { reason }) => json!({
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason},
            }),
            (Stage::AfterTool, Decision::Allow { note, .. }) => json!({
                "hookEventName": "PostToolUse",
                "additionalContext": note.as_deref().filter(|n| !n.is_empty())?,
            }),
            // The tool has run; a refusal cannot undo it.
            (Stage::AfterTool, Decision::Deny { .. }) => return None,
            (Stage::SessionEnd, _) => return None,
        };
        Some(json!({ "hookSpecificOutput": output }).to_string())
    }

    // Unreadable input prints nothing: a `PreToolUse` call stays approved as Qwen approved it,
    // a `PermissionRequest` goes to the user; nothing Qwen reads there would block either way.
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
