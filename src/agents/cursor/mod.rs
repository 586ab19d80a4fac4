//! Cursor's hook dialect, built from Cursor's documented format (cursor.com/docs/agent/hooks,
//! summarised in `shared/research/integrations.md`). There is no Cursor client here to run it
//! against: the fixtures in `tests/fixtures/cursor/` are written from the documentation.
//!
//! Input: `conversation_id`, `generation_id`, `hook_event_name`, `workspace_roots`, and per
//! event: `beforeShellExecution` `{command, cwd}` (becomes `Bash`), `beforeMCPExecution`
//! `{tool_name, tool_input}` where `tool_input` is a JSON *string*, plus the server's `url` or
//! `command` (becomes `mcp__<server>__<tool>`), `beforeReadFile` `{file_path, content}` (becomes
//! `Read`; the content is not sent to the console), and `preToolUse` `{tool_name, tool_input}`
//! with Cursor's tool names (`Shell`, `Read`, `Write`, `Edit`, `StrReplace`, …, mapped to the
//! core's).
//!
//! Output: `{"permission":"allow"|"deny"|"ask","user_message","agent_message"}`. A deny sends
//! the reason in both messages (one tester saw the model get `user_message`);
//! `beforeReadFile` reads only `permission`. Cursor lets a call run when a hook prints nothing
//! or crashes unless the hook has `failClosed: true` (the installer sets it), so something is
//! always printed: a defer is `ask` where Cursor enforces it (shell and MCP) and a deny that
//! says why elsewhere (`ask` is reported to act as allow on `preToolUse`).

use serde_json::{Map, Value, json};

use super::dialect::{Dialect, EventSpec, FailMode, Names, Parsed, Scope, Source, Table};
use super::hook_file::{Home, HookFile, Layout, Needs};
use super::input::{self, StdinError};
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::core::decision::Decision;

/// Cursor's dialect, as the registry lists it.
pub struct Cursor;

/// Every event only passes, carries no note, and blocks the call when the hook fails (the
/// installer sets `failClosed`). Cursor's documentation says an allow grants; a published live
/// probe of the CLI (safe-chains' harness table, cursor-agent 2026.07.16) found it honours only
/// deny and ask, so the console never promises a grant.
const fn event(name: &'static str, caps: Caps) -> EventSpec {
    EventSpec::question(name, caps, FailMode::Closed)
}

const PASSES: Caps = caps(AllowEffect::Pass, NoteEffect::None);

/// Cursor's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "cursor",
        aliases: &[],
        agent: "cursor",
        display: "Cursor",
        program: "cursor-agent",
    },
    source: Source::Reported(
        "a live probe of cursor-agent 2026.07.16 (safe-chains) found allow ignored",
    ),
    events: &[
        event("beforeShellExecution", PASSES),
        event("beforeMCPExecution", PASSES),
        event(
            "beforeReadFile",
            Caps {
                reason: false,
                ..PASSES
            },
        ),
        event("preToolUse", PASSES),
    ],
    keys: Keys {
        session: "conversation_id",
        transcript: None,
        ..Keys::CLAUDE_CODE
    },
    // The tool names once `parse` has renamed them.
    tools: Tools {
        shell: &["Bash"],
        read: &["Read", "Glob", "Grep"],
        edit: &["Write", "Edit"],
        paths: &[("file_path", &["Read", "Write", "Edit"])],
        ..Tools::NONE
    },
    // Each entry with `failClosed: true`: Cursor lets a call run when a hook crashes or times
    // out unless that is set.
    hooks: HookFile {
        layout: Layout::Flat { version: true },
        needs: Needs::All,
        notes: &["built from Cursor's documented hook format; not tested against a Cursor client."],
        ..HookFile::flat(
            Home::at("~/.cursor"),
            &[
                (Scope::User, "hooks.json"),
                (Scope::Project, ".cursor/hooks.json"),
            ],
            |command, timeout_secs| json!({"command": command, "timeout": timeout_secs, "failClosed": true}),
        )
    },
};

impl Dialect for Cursor {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// Each event names its call in its own fields: a shell line, an MCP tool and its server,
    /// a file read, or a tool of Cursor's own.
    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let hook = TABLE.read(stdin)?;
        let (tool, tool_input) = match hook.event.name {
            "beforeShellExecution" => (
                "Bash".to_string(),
                json!({"command": hook.required("command")?}),
            ),
            "beforeMCPExecution" => {
                let tool = hook.tool()?;
                let server = mcp_server(&hook.fields);
                (
                    format!("mcp__{server}__{tool}"),
                    arguments(hook.fields.get("tool_input")),
                )
            }
            "beforeReadFile" => (
                "Read".to_string(),
                json!({"file_path": hook.required("file_path")?}),
            ),
            _ => (
                core_tool_name(&hook.tool()?),
                arguments(hook.fields.get("tool_input")),
            ),
        };
        let mut parsed = hook.call(tool, tool_input);
        if hook.string("cwd").is_none() {
            // The first workspace root, where the event names no folder.
            let roots = hook.fields.get("workspace_roots").and_then(Value::as_array);
            let root = roots.and_then(|r| r.first()?.as_str());
            parsed.call.cwd = root.unwrap_or_default().to_string();
        }
        Ok(parsed)
    }

    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        Some(render(event, decision))
    }

    fn unreadable(&self, why: &str, _stdin: &[u8]) -> Option<String> {
        Some(unreadable(why))
    }
}

/// Whether Cursor honours `ask` on `event` (documented for shell and MCP only).
fn can_ask(event: &EventSpec) -> bool {
    matches!(event.name, "beforeShellExecution" | "beforeMCPExecution")
}

/// Tool arguments, which Cursor may send as a JSON string; a string that is not JSON is kept
/// as a string.
fn arguments(value: Option<&Value>) -> Value {
    match value {
        Some(Value::String(text)) => serde_json::from_str(text).unwrap_or(json!(text)),
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

/// A name for an MCP server from its `url` (the host) or `command` (the program's name).
fn mcp_server(input: &Map<String, Value>) -> String {
    let from_url = input::string(input, "url").and_then(|url| {
        let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
        let host = rest.split(['/', ':', '?']).next()?;
        (!host.is_empty()).then(|| host.to_string())
    });
    let from_command = || {
        let command = input::string(input, "command")?;
        let program = command.split_whitespace().next()?;
        Some(program.rsplit('/').next()?.to_string())
    };
    let name = from_url.or_else(from_command).unwrap_or_default();
    let name: String = name.replace("__", "_");
    if name.is_empty() {
        "unknown".to_string()
    } else {
        name
    }
}

/// Cursor's `preToolUse` tool names as the core's.
fn core_tool_name(name: &str) -> String {
    match name {
        "Shell" => "Bash".into(),
        "Read" | "Glob" | "Grep" | "Write" | "Edit" => name.into(),
        "StrReplace" => "Edit".into(),
        other => match other.strip_prefix("MCP:") {
            Some(tool) if !tool.is_empty() => format!("mcp__cursor__{tool}"),
            _ => other.into(),
        },
    }
}

/// The stdout for `decision` on `event`: always an answer.
pub fn render(event: &EventSpec, decision: &Decision) -> String {
    let with_messages = |permission: &str, text: &str| {
        if !event.caps.reason {
            json!({"permission": permission})
        } else {
            json!({"permission": permission, "user_message": text, "agent_message": text})
        }
    };
    let output = match decision {
        Decision::Allow { .. } => json!({"permission": "allow"}),
        Decision::Deny { reason } => with_messages("deny", reason),
        Decision::Defer { reason } => {
            let why = reason
                .as_deref()
                .filter(|r| !r.is_empty())
                .unwrap_or("no decision");
            if can_ask(event) {
                json!({"permission": "ask", "user_message": format!("gatehouse: {why}")})
            } else {
                with_messages(
                    "deny",
                    &format!(
                        "gatehouse could not get a decision ({why}); start the gatehouse console and try again"
                    ),
                )
            }
        }
    };
    output.to_string()
}

/// The stdout when the hook input cannot be read: a deny (Cursor fails open on nothing).
pub fn unreadable(why: &str) -> String {
    json!({"permission": "deny",
        "user_message": format!("gatehouse could not read the hook input ({why})"),
        "agent_message": format!("gatehouse could not read the hook input ({why})")})
    .to_string()
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
