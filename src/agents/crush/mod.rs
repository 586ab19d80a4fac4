//! Crush's hook dialect, built from its documented hook format (Crush's source at about
//! v0.90, summarised in `shared/realclients/README.md`, section "Crush"). No Crush client can
//! be installed here: the fixtures in `tests/fixtures/crush/` are written from that text.
//!
//! Input: `{"event":"PreToolUse","session_id","cwd","tool_name","tool_input"}` with Crush's
//! own tool names (`bash`, `view`, `ls`, `glob`, `grep`, `write`, `edit`, `multiedit`,
//! `fetch`), whose inputs use Claude Code's field names (`command`, `file_path`,
//! `old_string`, `edits`). `PreToolUse` is Crush's only hook event, and it runs before Crush's
//! own permission check.
//!
//! Output: `{"decision":"allow"|"deny","reason":R,"context":N}`. `allow` pre-approves (no
//! prompt); `deny` gives the model `Tool call blocked by hook. Reason: R`; `context` is appended
//! to the tool's output, so a note reaches the model. Any other exit, output Crush cannot read,
//! or a timeout is no opinion: the call goes on to Crush's own permission flow, so `defer`
//! prints nothing.

use std::path::Path;

use serde_json::{Value, json};

use super::dialect::{
    Dialect, EventSpec, FailMode, HookPlace, InstallRequest, Installed, Names, Parsed, Source,
    UninstallRequest,
};
use super::input::{self, StdinError};
use super::install_file::InstallError;
use super::tools;
use crate::core::call::{Agent, Call, Stage, ToolKind};
use crate::core::caps::Caps;
use crate::core::decision::Decision;

pub mod install;

/// Crush's dialect, as the registry lists it.
pub struct Crush;

const NAMES: Names = Names {
    cli: "crush",
    aliases: &[],
    agent: "crush",
    display: "Crush",
    program: "crush",
};

/// `PreToolUse`, Crush's one hook event: it grants, notes and refuses with a reason.
static EVENTS: [EventSpec; 1] = [EventSpec {
    name: "PreToolUse",
    stage: Stage::Question,
    caps: Caps::FULL,
    fail: FailMode::ToAgent,
    source: Source::Documented,
}];

/// Crush's tool names and what each does.
const TOOLS: &[(&str, ToolKind)] = &[
    ("bash", ToolKind::Shell),
    ("view", ToolKind::Read),
    ("ls", ToolKind::Read),
    ("glob", ToolKind::Read),
    ("grep", ToolKind::Read),
    ("write", ToolKind::Edit),
    ("edit", ToolKind::Edit),
    ("multiedit", ToolKind::Edit),
    ("fetch", ToolKind::Web),
];

/// The key each of Crush's file tools names its file under.
const PATHS: &[(&str, &str)] = &[
    ("view", "file_path"),
    ("write", "file_path"),
    ("edit", "file_path"),
    ("multiedit", "file_path"),
    ("ls", "path"),
    ("glob", "path"),
    ("grep", "path"),
];

impl Dialect for Crush {
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
        Ok(Parsed {
            event: &EVENTS[0],
            call: parse(stdin)?,
        })
    }

    fn render(&self, _event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        render(decision)
    }

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

/// Reads Crush's hook input into the call it is about.
pub fn parse(stdin: &[u8]) -> Result<Call, StdinError> {
    let input = input::object(stdin)?;
    let event = input::required(&input, "event")?;
    if event != EVENTS[0].name {
        return Err(StdinError::UnknownEvent(event));
    }
    let tool = input::required(&input, "tool_name")?;
    Ok(Call {
        transcript_path: None,
        path_key: tools::path_key_in(PATHS, &tool),
        agent: Agent::new(NAMES.agent),
        session: input::string(&input, "session_id").unwrap_or_default(),
        cwd: input::string(&input, "cwd").unwrap_or_default(),
        kind: Some(Crush.kind_of(&tool)),
        subagent: None,
        tool,
        input: input.get("tool_input").cloned().unwrap_or(Value::Null),
        tool_use_id: None,
        stage: EVENTS[0].stage,
        caps: EVENTS[0].caps,
    })
}

/// The stdout for `decision`, or `None` (defer: Crush's own permission flow decides).
pub fn render(decision: &Decision) -> Option<String> {
    let output = match decision {
        Decision::Defer { .. } => return None,
        Decision::Allow { note } => match note.as_deref().filter(|n| !n.is_empty()) {
            Some(note) => json!({"decision": "allow", "context": note}),
            None => json!({"decision": "allow"}),
        },
        Decision::Deny { reason } => json!({"decision": "deny", "reason": reason}),
    };
    Some(output.to_string())
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
