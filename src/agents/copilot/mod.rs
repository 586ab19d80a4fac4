//! GitHub Copilot CLI's hook dialect, in Copilot's own hooks format (verified against Copilot
//! CLI 1.0.102, `shared/realclients/README.md`).
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
//!
//! The hooks go in gatehouse's own hooks file in Copilot's format, `gatehouse.json` in the
//! user's hooks folder (`$COPILOT_HOME/hooks/`, else `~/.copilot/hooks/`) or the project's
//! `.github/hooks/`, with `preToolUse` (gates and grants every call) and `permissionRequest`
//! (answers what reaches Copilot's own permission check when `preToolUse` left it to Copilot):
//!
//! ```json
//! {"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"… hook copilot","timeoutSec":N}],
//!                       "permissionRequest":[{"type":"command","bash":"… hook copilot","timeoutSec":N}]}}
//! ```
//!
//! Copilot format, never Claude Code's: the dialect answers only in Copilot's flat shape, which
//! a Claude-format file would ignore. Copilot lets a `preToolUse` call run when it kills a hook
//! at `timeoutSec`, so the timeout is longer than the console's ask timeout. Uninstall removes
//! gatehouse's entries and, when nothing else is left in the file, the file.

use serde_json::{Map, Value, json};

use super::dialect::{Dialect, EventSpec, FailMode, Names, Parsed, Scope, Source, Table};
use super::hook_file::{Home, HookFile, Layout, Needs};
use super::input::{self, StdinError};
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

/// Copilot CLI's dialect, as the registry lists it.
pub struct Copilot;

/// Copilot CLI's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "copilot",
        aliases: &["copilot-cli"],
        agent: "copilot-cli",
        display: "Copilot CLI",
        program: "copilot",
    },
    source: Source::Verified("Copilot CLI 1.0.102"),
    events: &[
        // A crash blocks, but nothing, garbage or a timeout lets the call run.
        EventSpec::question("preToolUse", Caps::FULL, FailMode::Open),
        // Nothing or a timeout: Copilot's own flow; a crash or garbage: refused.
        EventSpec::question(
            "permissionRequest",
            caps(AllowEffect::Grant, NoteEffect::None),
            FailMode::ToAgent,
        ),
    ],
    // The tool's input is under `toolArgs` on `preToolUse`, `toolInput` on
    // `permissionRequest`.
    keys: Keys {
        event: "hookName",
        tool: "toolName",
        input: "toolArgs",
        session: "sessionId",
        tool_use_id: None,
        transcript: None,
    },
    // The tools as `parse` renames them, which also says where each names its file.
    tools: Tools {
        shell: &["Bash"],
        read: &["Read", "Grep", "Glob"],
        edit: &["Write", "Edit"],
        ..Tools::NONE
    },
    // Active with `preToolUse`, which gates every call (`permissionRequest` alone sees only
    // what reaches Copilot's own check).
    hooks: HookFile {
        layout: Layout::Flat { version: true },
        needs: Needs::First,
        owned: true,
        notes: &[GRANTS],
        project_notes: &[PROJECT_TRUST],
        ..HookFile::flat(
            Home::var("COPILOT_HOME", "~/.copilot"),
            &[
                (Scope::User, "hooks/gatehouse.json"),
                (Scope::Project, ".github/hooks/gatehouse.json"),
            ],
            |command, timeout_secs| json!({"type": "command", "bash": command, "timeoutSec": timeout_secs}),
        )
    },
};

/// Told after every install: what an allow means in Copilot.
pub const GRANTS: &str = "an allow from gatehouse grants the call in Copilot CLI, even one \
your --deny-tool rules refuse.";

/// Told after a project install.
pub const PROJECT_TRUST: &str = "`copilot -p` loads .github/hooks only with --trust-folder (or \
GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true); without it the calls run ungated.";

impl Dialect for Copilot {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// The event is `hookName` where Copilot sends one, else `preToolUse` for a call that has
    /// not run (`toolArgs` and no `toolResult`); the tool is renamed to Claude Code's.
    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let fields = input::object(stdin)?;
        if let Some(event) = input::string(&fields, "hook_event_name") {
            return Err(StdinError::ClaudeFormat(event));
        }
        let (event, args) = match input::string(&fields, TABLE.keys.event).as_deref() {
            Some("permissionRequest") => (&TABLE.events[1], "toolInput"),
            Some(other) => return Err(StdinError::UnknownEvent(other.to_string())),
            None if fields.contains_key("toolResult") => {
                return Err(StdinError::UnknownEvent("postToolUse".into()));
            }
            None => (&TABLE.events[0], TABLE.keys.input),
        };
        let hook = TABLE.input(fields, event);
        let name = hook.tool()?;
        let Some(Value::Object(args)) = hook.fields.get(args) else {
            return Err(StdinError::Missing(args));
        };
        let (tool, tool_input, path_key) = normalise(&name, args.clone());
        let mut parsed = hook.call(tool, tool_input);
        parsed.call.path_key = path_key;
        Ok(parsed)
    }

    /// Nothing on a defer; always Copilot's flat answer (see the module docs).
    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match (event.name, decision) {
            (_, Decision::Defer { .. }) => return None,
            ("preToolUse", Decision::Allow { note, input }) => {
                let mut out = json!({"permissionDecision": "allow"});
                if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                    out["additionalContext"] = json!(note);
                }
                // Copilot runs `modifiedArgs` in place of the arguments it asked about (a
                // shell call's arguments are not renamed by `parse`).
                if let Some(input) = input {
                    out["modifiedArgs"] = input.clone();
                }
                out
            }
            ("preToolUse", Decision::Deny { reason }) => json!({
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }),
            // The other event, permissionRequest.
            (_, Decision::Allow { .. }) => json!({"behavior": "allow"}),
            (_, Decision::Deny { reason }) => json!({"behavior": "deny", "message": reason}),
        };
        Some(output.to_string())
    }

    // Unreadable input prints nothing: Copilot's own permission flow decides, as with no
    // hook. (An answer in the wrong one of Copilot's two formats would be ignored anyway.)
}

/// Copilot's tool as the core's: its name, its arguments under Claude Code's keys, and the key
/// that now names its file. Its own `view`, `create` and `edit` name the file `path` (a
/// permission request's `edit` already `file_path`); a decoy `file_path` beside a `path` is
/// left where it is, the file is still read from `path`, and the core asks such a call.
fn normalise(name: &str, mut args: Map<String, Value>) -> (String, Value, Option<String>) {
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
        "grep" | "glob" => {
            let tool = if name == "grep" { "Grep" } else { "Glob" };
            return (tool.to_string(), Value::Object(args), Some("path".into()));
        }
        other => return (other.to_string(), Value::Object(args), None),
    };
    let path_key = if tool == "Bash" {
        None
    } else if args.contains_key("path") && args.contains_key("file_path") {
        Some("path".to_string())
    } else {
        Some("file_path".to_string())
    };
    for (from, to) in renames {
        if !args.contains_key(*to)
            && let Some(value) = args.remove(*from)
        {
            args.insert((*to).to_string(), value);
        }
    }
    (tool.to_string(), Value::Object(args), path_key)
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
