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
//! to the tool's output, so a note reaches the model; `updated_input` is merged over the
//! call's input, which carries a command the human edited. Any other exit, output Crush cannot read,
//! or a timeout is no opinion: the call goes on to Crush's own permission flow, so `defer`
//! prints nothing.
//!
//! The hook goes in Crush's `crush.json` (user: `$XDG_CONFIG_HOME/crush/crush.json`, else
//! `~/.config/crush/crush.json`; project: `crush.json`) as a `hooks.PreToolUse[]` entry
//! `{"matcher":".*","command","timeout"}`, the matcher a regular expression over the tool name
//! and the timeout in seconds (Crush's default, 30 s, is shorter than the console's ask
//! timeout).

use serde_json::json;

use super::dialect::{Dialect, EventSpec, FailMode, Names, Scope, Source, Table};
use super::hook_file::{Home, HookFile};
use super::table::Keys;
use super::tools::Tools;
use crate::core::caps::Caps;
use crate::core::decision::Decision;

/// Crush's dialect, as the registry lists it.
pub struct Crush;

/// Crush's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "crush",
        aliases: &[],
        agent: "crush",
        display: "Crush",
        program: "crush",
    },
    source: Source::Documented,
    // `PreToolUse`, Crush's one hook event: it grants, notes and refuses with a reason.
    events: &[EventSpec::question(
        "PreToolUse",
        Caps::FULL,
        FailMode::ToAgent,
    )],
    keys: Keys {
        event: "event",
        tool_use_id: None,
        transcript: None,
        ..Keys::CLAUDE_CODE
    },
    tools: Tools {
        shell: &["bash"],
        read: &["view", "ls", "glob", "grep"],
        edit: &["write", "edit", "multiedit"],
        web: &["fetch"],
        plan: &[],
        internal: &[],
        paths: &[
            ("file_path", &["view", "write", "edit", "multiedit"]),
            ("path", &["ls", "glob", "grep"]),
        ],
    },
    hooks: HookFile {
        notes: &[
            "built from Crush's documented hook format; not tested against a Crush client. \
             `crush run` approves every permission of its session, so headless only a deny \
             shows.",
        ],
        ..HookFile::flat(
            Home::under("XDG_CONFIG_HOME", "crush", "~/.config/crush"),
            &[(Scope::User, "crush.json"), (Scope::Project, "crush.json")],
            |command, timeout_secs| json!({"matcher": ".*", "command": command, "timeout": timeout_secs}),
        )
    },
};

impl Dialect for Crush {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// Nothing on a defer: Crush's own permission flow decides.
    fn render(&self, _event: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let output = match decision {
            Decision::Defer { .. } => return None,
            Decision::Allow { note, input } => {
                let mut out = json!({"decision": "allow"});
                if let Some(note) = note.as_deref().filter(|n| !n.is_empty()) {
                    out["context"] = json!(note);
                }
                // Crush merges `updated_input` over the call's input (documented, not run
                // here): the edited command replaces the original's.
                if let Some(input) = input {
                    out["updated_input"] = input.clone();
                }
                out
            }
            Decision::Deny { reason } => json!({"decision": "deny", "reason": reason}),
        };
        Some(output.to_string())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
