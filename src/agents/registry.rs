//! The registry: every agent gatehouse can gate, listed once. It drives `gatehouse hook
//! <agent>`, `install` and `uninstall`, `gatehouse agents` and the capability table in
//! `docs/agents.md`, the default `internal_tools`, and the kind of a call whose hook did not
//! say it. Adding an agent is its folder under `src/agents/` and one line here.

use super::dialect::Dialect;
use super::{claude, codex, copilot, crush, cursor, gemini, qwen};
use crate::core::call::{Agent, ToolKind};

/// Every dialect, in the order `gatehouse agents` and the docs show them.
pub static DIALECTS: &[&dyn Dialect] = &[
    &claude::Claude,
    &codex::Codex,
    &gemini::Gemini,
    &cursor::Cursor,
    &crush::Crush,
    &qwen::Qwen,
    &copilot::Copilot,
];

/// Every dialect.
pub fn all() -> &'static [&'static dyn Dialect] {
    DIALECTS
}

/// The dialect named `word` on the command line (its CLI name or an alias).
pub fn find(word: &str) -> Option<&'static dyn Dialect> {
    DIALECTS.iter().copied().find(|d| {
        let names = d.names();
        names.cli == word || names.aliases.contains(&word)
    })
}

/// The dialect whose calls carry `agent` on the wire.
pub fn by_agent(agent: &Agent) -> Option<&'static dyn Dialect> {
    DIALECTS
        .iter()
        .copied()
        .find(|d| d.names().agent == agent.as_str())
}

/// The kind of `tool` in a call from `agent`, for a call that came without one (a hook older
/// than the field): the agent's own table, and for an agent no dialect knows,
/// [`ToolKind::Other`] (an MCP name aside), never read-only.
pub fn kind_of(agent: &Agent, tool: &str) -> ToolKind {
    match by_agent(agent) {
        Some(dialect) => dialect.table().kind_of(tool),
        None => super::tools::mcp_kind(tool),
    }
}

/// The name people read for `agent`: `Claude Code`; an agent no dialect knows by its own name.
pub fn display_name(agent: &Agent) -> &str {
    match by_agent(agent) {
        Some(dialect) => dialect.names().display,
        None => agent.as_str(),
    }
}

/// The CLI names, in registry order: what `gatehouse hook` accepts.
pub fn cli_names() -> Vec<&'static str> {
    DIALECTS.iter().map(|d| d.names().cli).collect()
}

/// The default `internal_tools`: every dialect's bookkeeping tools, each once.
pub fn internal_tools() -> Vec<String> {
    let mut tools: Vec<String> = Vec::new();
    for dialect in DIALECTS {
        for tool in dialect.internal_tools() {
            if !tools.iter().any(|t| t == tool) {
                tools.push(tool.to_string());
            }
        }
    }
    tools
}

/// True when any dialect's table says `tool` writes files: such a name can never be listed
/// safe.
pub fn edits_files(tool: &str) -> bool {
    edit_tool_names().any(|name| name == tool)
}

/// Every tool name a dialect calls a file writer or editor, for the rules files' checks.
pub fn edit_tools() -> Vec<String> {
    let mut tools: Vec<String> = Vec::new();
    for name in edit_tool_names() {
        if !tools.iter().any(|t| t == name) {
            tools.push(name.to_string());
        }
    }
    tools
}

/// The tool names the dialects' tables call writers or editors, repeats and all.
fn edit_tool_names() -> impl Iterator<Item = &'static str> {
    let lists = DIALECTS.iter().map(|d| d.table().tools.edit);
    lists.flatten().copied()
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
