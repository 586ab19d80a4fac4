//! Grok Build (xAI's `grok` CLI), from its documentation (docs.x.ai/build/features/hooks) and
//! published live probes; no Grok client could be installed here to run it against.
//!
//! Grok loads its own hooks (`~/.grok/hooks/*.json`, a project's `.grok/hooks/*.json`) and also
//! Claude Code's and Cursor's hook files, so a `gatehouse install claude` is run by Grok too.
//! Its input is camelCase: `hookEventName`, `sessionId`, `cwd`, `workspaceRoot`, `toolName`,
//! `toolInput`, and each hook process gets `GROK_HOOK_EVENT` in its environment. [`through`]
//! recognises that envelope arriving at the Claude Code or Cursor hook and answers it as Grok:
//! the call is audited as Grok Build's, not the host's.
//!
//! What an answer does: `PreToolUse` is Grok's only blocking event. A deny blocks the call and
//! its reason reaches the model (a published probe of Grok 1.0.0: "Hook denied: <reason>"); an
//! allow only declines to deny, so Grok's own permission mode still decides, and gatehouse
//! prints nothing for it, as for a defer. A hook that fails lets the call run. No note can
//! reach the model. The deny is printed in Claude Code's form, which Grok reads from the hook
//! files it shares with Claude Code, with the older top-level `decision` beside it.

use serde_json::json;

use super::dialect::{Dialect, EventSpec, FailMode, Names, Scope, Source, Table};
use super::hook_file::{Home, HookFile};
use super::table::{Keys, caps};
use super::tools::Tools;
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::Decision;

/// Grok Build's dialect, as the registry lists it.
pub struct Grok;

/// Grok Build's facts.
pub static TABLE: Table = Table {
    names: Names {
        cli: "grok",
        aliases: &["grok-build"],
        agent: "grok-build",
        display: "Grok Build",
        program: "grok",
    },
    source: Source::Documented,
    events: &[EventSpec::question(
        "PreToolUse",
        caps(AllowEffect::Pass, NoteEffect::None),
        FailMode::Open,
    )],
    keys: Keys {
        event: "hookEventName",
        tool: "toolName",
        input: "toolInput",
        session: "sessionId",
        tool_use_id: None,
        transcript: None,
    },
    // Claude Code's names, which Grok maps its own to in matchers, and the lower-case forms.
    // A tool named otherwise is one gatehouse does not know, and is asked.
    tools: Tools {
        shell: &["Bash", "bash"],
        read: &["Read", "Glob", "Grep", "LS", "read_file"],
        edit: &["Write", "Edit", "MultiEdit", "write_file", "edit_file"],
        web: &["WebFetch", "WebSearch"],
        paths: &[(
            "file_path",
            &[
                "Read",
                "Write",
                "Edit",
                "MultiEdit",
                "read_file",
                "write_file",
                "edit_file",
            ],
        )],
        ..Tools::NONE
    },
    hooks: HookFile::groups(
        Home::var("GROK_HOME", "~/.grok"),
        &[
            (Scope::User, "hooks/gatehouse.json"),
            (Scope::Project, ".grok/hooks/gatehouse.json"),
        ],
    ),
};

impl Dialect for Grok {
    fn table(&self) -> &'static Table {
        &TABLE
    }

    /// A deny, with its reason; nothing otherwise (an allow only declines to deny).
    fn render(&self, _: &EventSpec, decision: &Decision, _why: &str) -> Option<String> {
        let Decision::Deny { reason } = decision else {
            return None;
        };
        Some(
            json!({
                "decision": "block",
                "reason": reason,
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                },
            })
            .to_string(),
        )
    }
}

/// The dialect to read `stdin` with when the hook of `host` ran: Grok's, when Grok ran the
/// hook of Claude Code or Cursor (its environment names a Grok hook event, or the input has
/// Grok's camelCase envelope at its top level); `host` otherwise.
pub fn through<'a>(host: &'a dyn Dialect, stdin: &[u8]) -> &'a dyn Dialect {
    if !matches!(host.names().cli, "claude" | "cursor") {
        return host;
    }
    let from_env = std::env::var_os("GROK_HOOK_EVENT").is_some();
    match from_env || camel_envelope(stdin) {
        true => &Grok,
        false => host,
    }
}

/// Whether `stdin` is a JSON object with Grok's `hookEventName` and none of the hosts' own
/// `hook_event_name`.
fn camel_envelope(stdin: &[u8]) -> bool {
    let marker = b"\"hookEventName\"";
    if !stdin.windows(marker.len()).any(|w| w == marker) {
        return false;
    }
    match serde_json::from_slice::<serde_json::Value>(stdin) {
        Ok(serde_json::Value::Object(map)) => {
            map.contains_key("hookEventName") && !map.contains_key("hook_event_name")
        }
        _ => false,
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
