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
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Scope,
    Source, Table, UninstallRequest,
};
use super::hook_file::{Home, HookFile, Needs};
use super::input::StdinError;
use super::install_file::InstallError;
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::call::Call;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

pub mod install;
mod reviewer;

/// Codex's dialect, as the registry lists it.
pub struct Codex;

/// Codex's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "codex",
        aliases: &[],
        agent: "codex",
        display: "Codex",
        program: "codex",
    },
    source: Source::Verified("Codex 0.169.0"),
    events: &[
        EventSpec::question(
            "PreToolUse",
            caps(AllowEffect::Pass, NoteEffect::Model).taking_input(),
            FailMode::Open,
        ),
        EventSpec::question(
            "PermissionRequest",
            caps(AllowEffect::Grant, NoteEffect::None),
            FailMode::ToAgent,
        ),
    ],
    keys: Keys::CLAUDE_CODE,
    // A patch's input is built by [`parse`], its first file under `file_path`.
    tools: Tools {
        shell: &["Bash"],
        edit: &["apply_patch"],
        paths: &[("file_path", &["apply_patch"])],
        ..Tools::NONE
    },
    // Trusted by hash in the user's `config.toml` besides ([`install`]); `PreToolUse` alone
    // with `--keep-reviewer`.
    hooks: HookFile {
        needs: Needs::First,
        notes: &[
            "Codex runs the hooks because config.toml now trusts them; editing the hook entries \
             by hand makes Codex skip them until you run this again.",
        ],
        project_notes: &[
            "Codex loads .codex/hooks.json only in a trusted project ([projects.\"<path>\"] \
             trust_level = \"trusted\").",
        ],
        ..HookFile::groups(
            Home::var("CODEX_HOME", "~/.codex"),
            &[
                (Scope::User, "hooks.json"),
                (Scope::Project, ".codex/hooks.json"),
            ],
        )
    },
};

impl Dialect for Codex {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let (event, call) = parse(stdin)?;
        Ok(Parsed { event, call })
    }

    /// Nothing on a defer, and nothing on a plain `PreToolUse` allow, which cannot grant
    /// (see the module docs).
    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match (event.name, decision) {
            (_, Decision::Defer { .. }) => return None,
            // An edited command runs in place of the original; Codex's own approvals still
            // apply to it.
            (
                "PreToolUse",
                Decision::Allow {
                    note,
                    input: Some(input),
                },
            ) => {
                let mut out = json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": input,
                }});
                if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                    out["hookSpecificOutput"]["additionalContext"] = json!(note);
                }
                out
            }
            ("PreToolUse", Decision::Allow { note, input: None }) => {
                let note = note.as_deref().filter(|n| !n.is_empty())?;
                json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "additionalContext": note,
                }})
            }
            ("PreToolUse", Decision::Deny { reason }) => json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }}),
            // The other event, PermissionRequest.
            (_, Decision::Allow { note, .. }) => {
                let mut out = json!({"hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "allow"},
                }});
                if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                    out["systemMessage"] = json!(format!("gatehouse note: {note}"));
                }
                out
            }
            (_, Decision::Deny { reason }) => json!({"hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason},
            }}),
        };
        Some(output.to_string())
    }

    /// The hooks and their trust entries; says when Codex's config routes approvals to its
    /// automatic reviewer.
    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        install::install_for(request)
    }

    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError> {
        install::uninstall_for(request)
    }

    /// Active only where Codex trusts each hook by its hash.
    fn hook_places(&self, project: &Path) -> Vec<HookPlace> {
        install::places(project)
    }
}

/// Reads Codex's hook input: which event fired, and the call it is about. The table's plain
/// shape, but for a patch, whose raw text becomes `{"patch", "files", "file_path"}`.
pub fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    let hook = TABLE.read(stdin)?;
    let tool = hook.tool()?;
    let mut input = hook.tool_input();
    if tool == "apply_patch" {
        input = patch_input(input.get("command").and_then(Value::as_str).unwrap_or(""));
    }
    let parsed = hook.call(tool, input);
    Ok((parsed.event, parsed.call))
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

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
