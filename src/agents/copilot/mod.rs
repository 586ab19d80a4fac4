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

use std::path::Path;

use serde_json::{Map, Value, json};

use super::dialect::{
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Source,
    UninstallRequest,
};
use super::input::{self, StdinError};
use super::install_file::InstallError;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

/// Copilot CLI's dialect, as the registry lists it.
pub struct Copilot;

const NAMES: Names = Names {
    cli: "copilot",
    aliases: &["copilot-cli"],
    agent: "copilot-cli",
    display: "Copilot CLI",
    program: "copilot",
};

const VERIFIED: Source = Source::Verified("Copilot CLI 1.0.102");

/// `preToolUse`, then `permissionRequest`, as [`CopilotEvent`] orders them.
static EVENTS: [EventSpec; 2] = [
    EventSpec {
        name: "preToolUse",
        stage: Stage::Question,
        caps: Caps::FULL,
        // A crash blocks, but nothing, garbage or a timeout lets the call run.
        fail: FailMode::Open,
        source: VERIFIED,
    },
    EventSpec {
        name: "permissionRequest",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Grant,
            note: NoteEffect::None,
            reason: true,
        },
        // Nothing or a timeout: Copilot's own flow; a crash or garbage: refused.
        fail: FailMode::ToAgent,
        source: VERIFIED,
    },
];

/// Copilot's tools as [`parse`] renames them, and what each does.
const TOOLS: &[(&str, ToolKind)] = &[
    ("Bash", ToolKind::Shell),
    ("Read", ToolKind::Read),
    ("Grep", ToolKind::Read),
    ("Glob", ToolKind::Read),
    ("Write", ToolKind::Edit),
    ("Edit", ToolKind::Edit),
];

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
        self.spec().name
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        match self {
            CopilotEvent::PreToolUse => &EVENTS[0],
            CopilotEvent::PermissionRequest => &EVENTS[1],
        }
    }

    /// What a decision can do on this event.
    pub fn caps(self) -> Caps {
        self.spec().caps
    }

    fn of(spec: &EventSpec) -> CopilotEvent {
        if spec.name == EVENTS[1].name {
            CopilotEvent::PermissionRequest
        } else {
            CopilotEvent::PreToolUse
        }
    }
}

impl Dialect for Copilot {
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
        render(CopilotEvent::of(event), decision)
    }

    /// Nothing: Copilot's own permission flow decides, as with no hook. (An answer in the
    /// wrong one of Copilot's two formats would be ignored anyway.)
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
    let (tool, tool_input, path_key) = normalise(&name, args.clone());
    let call = Call {
        path_key,
        transcript_path: None,
        agent: Agent::new(NAMES.agent),
        kind: Some(Copilot.kind_of(&tool)),
        session: input::string(&input, "sessionId").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: tool_input,
        tool_use_id: None,
        stage: event.spec().stage,
        caps: event.caps(),
        subagent: None,
    };
    Ok((event, call))
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
