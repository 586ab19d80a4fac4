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

use serde_json::{Map, Value, json};

use super::capability;
use super::input::{self, StdinError};
use crate::core::call::{Agent, Call};
use crate::core::caps::Caps;
use crate::core::decision::Decision;

/// The Gemini CLI hook events gatehouse answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeminiEvent {
    BeforeTool,
    AfterTool,
}

impl GeminiEvent {
    /// Gemini's own name, as in `hook_event_name` and `settings.json`.
    pub fn gemini_name(self) -> &'static str {
        match self {
            GeminiEvent::BeforeTool => "BeforeTool",
            GeminiEvent::AfterTool => "AfterTool",
        }
    }

    /// The normalised name carried in [`Call::event`].
    pub fn wire_name(self) -> &'static str {
        match self {
            GeminiEvent::BeforeTool => "before-tool",
            GeminiEvent::AfterTool => AFTER_TOOL,
        }
    }
}

pub use crate::core::caps::AFTER_TOOL;

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
        agent: Agent::GeminiCli,
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        tool,
        input: input.get("tool_input").cloned().unwrap_or(Value::Null),
        tool_use_id: None,
        event: Some(event.wire_name().to_string()),
        caps: match event {
            GeminiEvent::BeforeTool => capability::Event::GeminiBeforeTool.caps(),
            GeminiEvent::AfterTool => Caps::FULL,
        },
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
#[path = "gemini_tests.rs"]
mod tests;
