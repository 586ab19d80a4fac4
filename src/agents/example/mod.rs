//! A hypothetical agent, for tests only: what adding an agent takes. This folder and one line
//! in a [`Registry`](crate::agents::registry::Registry) list are all of it; its tests show it
//! going everywhere the real agents go (the hook's flow, `gatehouse agents`, install and
//! uninstall, the install hint, tool kinds).
//!
//! Its hook sends `{"event":"before_tool"|"after_tool","session","cwd","tool","args"}` and
//! reads `{"verdict":"allow"|"deny","message"}`; it runs a call whose hook prints nothing, so
//! an input gatehouse cannot read is refused. A note on allow arrives from `after_tool` as
//! `{"note"}`.

use serde_json::json;

use super::dialect::{Dialect, EventSpec, FailMode, Names, Scope, Source, Table};
use super::hook_file::{Home, HookFile, Needs};
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::call::Stage;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

/// The example agent's dialect.
pub struct Example;

/// The example agent's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "example",
        aliases: &["example-agent"],
        agent: "example-agent",
        display: "Example Agent",
        program: "gatehouse-example-agent",
    },
    source: Source::Documented,
    events: &[
        EventSpec::question(
            "before_tool",
            caps(AllowEffect::Grant, NoteEffect::AfterTool),
            FailMode::Open,
        ),
        EventSpec::after_tool("after_tool"),
    ],
    keys: Keys {
        event: "event",
        tool: "tool",
        input: "args",
        session: "session",
        tool_use_id: None,
        transcript: None,
    },
    tools: Tools {
        shell: &["shell"],
        read: &["read"],
        edit: &["write"],
        internal: &["todo"],
        paths: &[("path", &["read", "write"])],
        ..Tools::NONE
    },
    hooks: HookFile {
        needs: Needs::All,
        notes: &["the example agent exists only in gatehouse's tests."],
        ..HookFile::flat(
            Home::var("GATEHOUSE_EXAMPLE_AGENT_HOME", "~/.example-agent"),
            &[
                (Scope::User, "hooks.json"),
                (Scope::Project, ".example-agent/hooks.json"),
            ],
            |command, timeout_secs| json!({"command": command, "timeout": timeout_secs}),
        )
    },
};

impl Dialect for Example {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    fn render(&self, event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match (event.stage, decision) {
            (_, Decision::Defer { .. }) => return None,
            (Stage::Question | Stage::PermissionFirst, Decision::Allow { .. }) => {
                json!({"verdict": "allow"})
            }
            (Stage::Question | Stage::PermissionFirst, Decision::Deny { reason }) => {
                json!({"verdict": "deny", "message": reason})
            }
            (Stage::AfterTool, Decision::Allow { note, .. }) => {
                json!({"note": note.as_deref().filter(|n| !n.is_empty())?})
            }
            (Stage::AfterTool, Decision::Deny { .. }) | (Stage::SessionEnd, _) => return None,
        };
        Some(output.to_string())
    }

    fn unreadable(&self, why: &str, _stdin: &[u8]) -> Option<String> {
        Some(json!({"verdict": "deny", "message": format!("gatehouse: {why}")}).to_string())
    }
}

mod tests;
