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
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Scope,
    Source, Table, UninstallRequest,
};
use super::hook_file::{self, Home, HookFile, Needs};
use super::input::StdinError;
use super::install_file::InstallError;
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::call::{Call, Stage};
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

pub mod install;

/// Gemini CLI's dialect, as the registry lists it.
pub struct Gemini;

/// Gemini CLI's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "gemini",
        aliases: &["gemini-cli"],
        agent: "gemini-cli",
        display: "Gemini CLI",
        program: "gemini",
    },
    source: Source::Verified("Gemini CLI 0.61.0"),
    events: &[
        EventSpec::question(
            "BeforeTool",
            caps(AllowEffect::Pass, NoteEffect::AfterTool).taking_input(),
            FailMode::Open,
        ),
        EventSpec::after_tool("AfterTool"),
    ],
    keys: Keys {
        tool_use_id: None,
        ..Keys::CLAUDE_CODE
    },
    // Its listing and search tools have named their folder differently across versions; the
    // core reads the first path key present.
    tools: Tools {
        shell: &["run_shell_command"],
        read: &[
            "read_file",
            "read_many_files",
            "list_directory",
            "glob",
            "grep_search",
        ],
        edit: &["write_file", "replace"],
        web: &["web_fetch", "google_web_search"],
        plan: &["exit_plan_mode"],
        internal: &[],
        paths: &[("file_path", &["read_file", "write_file", "replace"])],
    },
    // The timeout in milliseconds, and the user policy file besides ([`install`]).
    hooks: HookFile {
        entry: hook_file::command_entry_ms,
        needs: Needs::First,
        notes: &[install::STILL_REFUSED],
        ..HookFile::groups(
            Home::under("GEMINI_CLI_HOME", ".gemini", "~/.gemini"),
            &[
                (Scope::User, "settings.json"),
                (Scope::Project, ".gemini/settings.json"),
            ],
        )
    },
};

impl Dialect for Gemini {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn parse(&self, stdin: &[u8]) -> Result<Parsed, StdinError> {
        let (event, call) = parse(stdin)?;
        Ok(Parsed { event, call })
    }

    /// On `BeforeTool` always an answer (see the module docs); on `AfterTool`, only a note.
    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match (event.stage, decision) {
            (Stage::AfterTool, Decision::Allow { note, .. }) => {
                let note = note.as_deref().filter(|n| !n.is_empty())?;
                json!({"hookSpecificOutput": {
                    "hookEventName": "AfterTool",
                    "additionalContext": note,
                }})
            }
            (Stage::AfterTool, _) => return None,
            (_, Decision::Allow { input: None, .. }) => json!({"decision": "allow"}),
            // Gemini merges `tool_input` into the call's arguments: the edited command runs.
            (
                _,
                Decision::Allow {
                    input: Some(input), ..
                },
            ) => json!({
                "decision": "allow",
                "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": input},
            }),
            (_, Decision::Deny { reason }) => json!({"decision": "deny", "reason": reason}),
            (_, Decision::Defer { reason }) => json!({
                "decision": "deny",
                "reason": deferred_reason(reason.as_deref()),
            }),
        };
        Some(output.to_string())
    }

    /// An `AfterTool` input gatehouse cannot read only loses a note; anything else might be a
    /// `BeforeTool`, which runs unless it is refused.
    fn unreadable(&self, why: &str, stdin: &[u8]) -> Option<String> {
        let after_tool = serde_json::from_slice::<Value>(stdin)
            .is_ok_and(|v| v["hook_event_name"] == "AfterTool");
        (!after_tool).then(|| unreadable(why))
    }

    /// The hooks and the policy file that leaves them the only gate.
    fn install(&self, request: &InstallRequest) -> Result<Installed, InstallError> {
        install::install_for(request)
    }

    fn uninstall(&self, request: &UninstallRequest) -> Result<Installed, InstallError> {
        install::uninstall_for(request)
    }

    /// Active only with the policy file in place.
    fn hook_places(&self, project: &Path) -> Vec<HookPlace> {
        install::places(project)
    }
}

/// Reads Gemini CLI's hook input: which event fired, and the call it is about. The table's
/// plain shape, an MCP tool's name aside.
pub fn parse(stdin: &[u8]) -> Result<(&'static EventSpec, Call), StdinError> {
    let hook = TABLE.read(stdin)?;
    let tool = tool_name(&hook.fields, hook.tool()?);
    let parsed = hook.call(tool, hook.tool_input());
    Ok((parsed.event, parsed.call))
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
