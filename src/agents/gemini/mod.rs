//! Gemini CLI's hook dialect (verified against Gemini CLI 0.61.0,
//! `shared/realclients/README.md`).
//!
//! `BeforeTool` sends `session_id`, `cwd`, `tool_name`, `tool_input` (the model's arguments as
//! sent). Gemini's built-in tool names (`run_shell_command`, `read_file`, `write_file`,
//! `replace`, …) are known to the core as they are; an MCP tool `mcp_<server>_<tool>` becomes
//! `mcp__<server>__<tool>` (the server from `mcp_context.server_name` when Gemini sends it,
//! else the name up to the next `_`).
//!
//! What is printed, from what each answer was seen to do:
//!
//! - allow: `{"decision":"allow"}`. It does not skip Gemini's own policy; the installed user
//!   policy leaves the hook as the only gate.
//! - deny: `{"decision":"deny","reason":R}`; the model reads `Tool execution blocked: R`.
//! - defer: a deny that says why. Printing nothing, non-JSON, exit 1, exit 2 without stderr or
//!   being killed all let the call run, and under the installed policy nothing else would stop
//!   it; `ask` hangs `gemini -p` forever. So on `BeforeTool` something binding is always
//!   printed.
//! - a note on allow: `BeforeTool` ignores `additionalContext`, so the console keeps the note,
//!   and the `AfterTool` hook (event `after-tool`, same session, tool and input) asks for it and
//!   prints it as `hookSpecificOutput.additionalContext`; the model reads it after the output.

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

/// Gemini CLI's dialect, as the registry lists it.
pub struct Gemini;

const NAMES: Names = Names {
    cli: "gemini",
    aliases: &["gemini-cli"],
    agent: "gemini-cli",
    display: "Gemini CLI",
    program: "gemini",
};

const VERIFIED: Source = Source::Verified("Gemini CLI 0.61.0");

/// `BeforeTool` then `AfterTool`, as [`GeminiEvent`] orders them.
static EVENTS: [EventSpec; 2] = [
    EventSpec {
        name: "BeforeTool",
        stage: Stage::Question,
        caps: Caps {
            allow: AllowEffect::Pass,
            note: NoteEffect::AfterTool,
            reason: true,
        },
        fail: FailMode::Open,
        source: VERIFIED,
    },
    EventSpec {
        name: "AfterTool",
        stage: Stage::AfterTool,
        caps: Caps::FULL,
        fail: FailMode::Open,
        source: VERIFIED,
    },
];

/// Gemini CLI's built-in tool names and what each does.
const TOOLS: &[(&str, ToolKind)] = &[
    ("run_shell_command", ToolKind::Shell),
    ("read_file", ToolKind::Read),
    ("read_many_files", ToolKind::Read),
    ("list_directory", ToolKind::Read),
    ("glob", ToolKind::Read),
    ("grep_search", ToolKind::Read),
    ("write_file", ToolKind::Edit),
    ("replace", ToolKind::Edit),
    ("web_fetch", ToolKind::Web),
    ("google_web_search", ToolKind::Web),
];

/// The Gemini CLI hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeminiEvent {
    BeforeTool,
    AfterTool,
}

impl GeminiEvent {
    /// Gemini's own name, as in `hook_event_name` and `settings.json`.
    pub fn gemini_name(self) -> &'static str {
        self.spec().name
    }

    /// This event's row of the capability table.
    pub fn spec(self) -> &'static EventSpec {
        match self {
            GeminiEvent::BeforeTool => &EVENTS[0],
            GeminiEvent::AfterTool => &EVENTS[1],
        }
    }

    fn of(spec: &EventSpec) -> GeminiEvent {
        if spec.name == EVENTS[1].name {
            GeminiEvent::AfterTool
        } else {
            GeminiEvent::BeforeTool
        }
    }
}

impl Dialect for Gemini {
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
        render(GeminiEvent::of(event), decision)
    }

    /// An `AfterTool` input gatehouse cannot read only loses a note; anything else might be a
    /// `BeforeTool`, which runs unless it is refused.
    fn unreadable(&self, why: &str, stdin: &[u8]) -> Option<String> {
        let after_tool = serde_json::from_slice::<Value>(stdin)
            .is_ok_and(|v| v["hook_event_name"] == EVENTS[1].name);
        (!after_tool).then(|| unreadable(why))
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

/// The key each of Gemini CLI's file tools names its file under (its listing and search
/// tools have named theirs differently across versions; the core reads the first present).
const PATHS: &[(&str, &str)] = &[
    ("read_file", "file_path"),
    ("write_file", "file_path"),
    ("replace", "file_path"),
];

/// Reads Gemini CLI's hook input: which event fired, and the call it is about.
pub fn parse(stdin: &[u8]) -> Result<(GeminiEvent, Call), StdinError> {
    let input = input::object(stdin)?;
    let event = match input::required(&input, "hook_event_name")?.as_str() {
        "BeforeTool" => GeminiEvent::BeforeTool,
        "AfterTool" => GeminiEvent::AfterTool,
        other => return Err(StdinError::UnknownEvent(other.to_string())),
    };
    let tool = tool_name(&input, input::required(&input, "tool_name")?);
    let call = Call {
        agent: Agent::new(NAMES.agent),
        kind: Some(Gemini.kind_of(&tool)),
        path_key: tools::path_key_in(PATHS, &tool),
        subagent: None,
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: input.get("tool_input").cloned().unwrap_or(Value::Null),
        tool_use_id: None,
        stage: event.spec().stage,
        caps: event.spec().caps,
        transcript_path: input::string(&input, "transcript_path"),
    };
    Ok((event, call))
}

/// `mcp_<server>_<tool>` as the core's `mcp__<server>__<tool>`; other names unchanged.
fn tool_name(input: &Map<String, Value>, name: String) -> String {
    let Some(rest) = name.strip_prefix("mcp_").filter(|r| !r.starts_with('_')) else {
        return name;
    };
    let server = input
        .get("mcp_context")
        .and_then(|c| c.get("server_name"))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let split = match server {
        Some(server) => rest
            .strip_prefix(server)
            .and_then(|t| t.strip_prefix('_'))
            .map(|tool| (server, tool)),
        None => rest.split_once('_'),
    };
    match split {
        Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
            format!("mcp__{server}__{tool}")
        }
        _ => name,
    }
}

/// The stdout for `decision` on `event`. On `BeforeTool` there is always an answer (see the
/// module docs); on `AfterTool`, only a note.
pub fn render(event: GeminiEvent, decision: &Decision) -> Option<String> {
    let output = match (event, decision) {
        (GeminiEvent::BeforeTool, Decision::Allow { .. }) => json!({"decision": "allow"}),
        (GeminiEvent::BeforeTool, Decision::Deny { reason }) => {
            json!({"decision": "deny", "reason": reason})
        }
        (GeminiEvent::BeforeTool, Decision::Defer { reason }) => json!({
            "decision": "deny",
            "reason": deferred_reason(reason.as_deref()),
        }),
        (GeminiEvent::AfterTool, Decision::Allow { note }) => {
            let note = note.as_deref().filter(|n| !n.is_empty())?;
            json!({"hookSpecificOutput": {
                "hookEventName": "AfterTool",
                "additionalContext": note,
            }})
        }
        (GeminiEvent::AfterTool, _) => return None,
    };
    Some(output.to_string())
}

/// What the model reads when gatehouse could not decide: Gemini has no prompt to defer to.
pub fn deferred_reason(why: Option<&str>) -> String {
    let why = why.filter(|w| !w.is_empty()).unwrap_or("no decision");
    format!(
        "gatehouse could not get a decision ({why}); Gemini CLI's own prompt is off under \
         gatehouse's policy, so the call is blocked. Start the gatehouse console and try again."
    )
}

/// The stdout when the hook input cannot be read: on `BeforeTool` anything but a decision
/// lets the call run, so this is a deny.
pub fn unreadable(why: &str) -> String {
    json!({"decision": "deny", "reason": deferred_reason(Some(why))}).to_string()
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
