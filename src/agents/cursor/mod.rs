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

use std::path::Path;

use serde_json::{Map, Value, json};

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

pub mod install;

/// Cursor's dialect, as the registry lists it.
pub struct Cursor;

const NAMES: Names = Names {
    cli: "cursor",
    aliases: &[],
    agent: "cursor",
    display: "Cursor",
    program: "cursor-agent",
};

const GRANTS: Caps = Caps {
    allow: AllowEffect::Grant,
    note: NoteEffect::None,
    reason: true,
};

const fn event(name: &'static str, caps: Caps) -> EventSpec {
    EventSpec {
        name,
        stage: Stage::Question,
        caps,
        fail: FailMode::Closed,
        source: Source::Documented,
    }
}

/// The events in [`CursorEvent::ALL`]'s order.
static EVENTS: [EventSpec; 4] = [
    event("beforeShellExecution", GRANTS),
    event("beforeMCPExecution", GRANTS),
    event(
        "beforeReadFile",
        Caps {
            reason: false,
            ..GRANTS
        },
    ),
    event("preToolUse", GRANTS),
];

/// The tool names Cursor's calls carry once [`parse`] has renamed them.
const TOOLS: &[(&str, ToolKind)] = &[
    ("Bash", ToolKind::Shell),
    ("Read", ToolKind::Read),
    ("Glob", ToolKind::Read),
    ("Grep", ToolKind::Read),
    ("Write", ToolKind::Edit),
    ("Edit", ToolKind::Edit),
];

/// The key each of Cursor's file tools names its file under, once [`parse`] has renamed them.
const PATHS: &[(&str, &str)] = &[
    ("Read", "file_path"),
    ("Write", "file_path"),
    ("Edit", "file_path"),
];

/// The Cursor hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorEvent {
    BeforeShellExecution,
    BeforeMcpExecution,
    BeforeReadFile,
    PreToolUse,
}

impl CursorEvent {
    /// Every event, in the order the installer writes them.
    pub const ALL: [CursorEvent; 4] = [
        CursorEvent::BeforeShellExecution,
        CursorEvent::BeforeMcpExecution,
        CursorEvent::BeforeReadFile,
        CursorEvent::PreToolUse,
    ];

    /// Cursor's own name, as in `hook_event_name` and `hooks.json`.
    pub fn cursor_name(self) -> &'static str {
        self.spec().name
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        &EVENTS[self as usize]
    }

    fn of(spec: &EventSpec) -> CursorEvent {
        CursorEvent::ALL
            .into_iter()
            .find(|e| e.spec().name == spec.name)
            .unwrap_or(CursorEvent::PreToolUse)
    }

    /// Whether Cursor honours `ask` here (documented for shell and MCP only).
    fn can_ask(self) -> bool {
        matches!(
            self,
            CursorEvent::BeforeShellExecution | CursorEvent::BeforeMcpExecution
        )
    }
}

impl Dialect for Cursor {
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
        Some(render(CursorEvent::of(event), decision))
    }

    fn unreadable(&self, why: &str, _stdin: &[u8]) -> Option<String> {
        Some(unreadable(why))
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

/// Reads Cursor's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(CursorEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    let name = input::required(&input, "hook_event_name")?;
    let event = CursorEvent::ALL
        .into_iter()
        .find(|e| e.cursor_name() == name)
        .ok_or(StdinError::UnknownEvent(name))?;
    let (tool, tool_input) = match event {
        CursorEvent::BeforeShellExecution => (
            "Bash".to_string(),
            json!({"command": input::required(&input, "command")?}),
        ),
        CursorEvent::BeforeMcpExecution => {
            let tool = input::required(&input, "tool_name")?;
            (
                format!("mcp__{}__{tool}", mcp_server(&input)),
                arguments(input.get("tool_input")),
            )
        }
        CursorEvent::BeforeReadFile => (
            "Read".to_string(),
            json!({"file_path": input::required(&input, "file_path")?}),
        ),
        CursorEvent::PreToolUse => {
            let tool = input::required(&input, "tool_name")?;
            (core_tool_name(&tool), arguments(input.get("tool_input")))
        }
    };
    let cwd = input::string(&input, "cwd").or_else(|| {
        let roots = input.get("workspace_roots")?.as_array()?;
        roots.first()?.as_str().map(str::to_string)
    });
    let call = Call {
        agent: Agent::new(NAMES.agent),
        kind: Some(Cursor.kind_of(&tool)),
        path_key: tools::path_key_in(PATHS, &tool),
        subagent: None,
        session: input::string(&input, "conversation_id").unwrap_or_default(),
        cwd: cwd.unwrap_or_default(),
        tool,
        input: tool_input,
        tool_use_id: input::string(&input, "tool_use_id"),
        stage: event.spec().stage,
        caps: event.spec().caps,
        transcript_path: None,
    };
    Ok((event, call))
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
pub fn render(event: CursorEvent, decision: &Decision) -> String {
    let with_messages = |permission: &str, text: &str| {
        if event == CursorEvent::BeforeReadFile {
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
            if event.can_ask() {
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
