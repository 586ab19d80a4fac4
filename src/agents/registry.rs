//! The registry: every agent gatehouse can gate, listed once. It drives `gatehouse hook
//! <agent>`, `install` and `uninstall`, `gatehouse agents` and the capability table in
//! `docs/agents.md`, the empty console's install hint, the default `internal_tools`, and the
//! kind of a call whose hook did not say it. Adding an agent is its folder under
//! `src/agents/` and one line in [`REGISTRY`].
//!
//! A [`Registry`] is a value, so a test can make one with an agent of its own and see it go
//! everywhere the real ones go; the functions here read gatehouse's own.

use super::dialect::Dialect;
use super::{claude, codex, copilot, crush, cursor, gemini, grok, qwen};
use crate::core::call::{Agent, ToolKind};

/// Every dialect gatehouse knows, in the order `gatehouse agents` and the docs show them.
pub static REGISTRY: Registry = Registry::new(&[
    &claude::Claude,
    &codex::Codex,
    &gemini::Gemini,
    &cursor::Cursor,
    &crush::Crush,
    &qwen::Qwen,
    &copilot::Copilot,
    &grok::Grok,
]);

/// A list of dialects, and what is read from them.
pub struct Registry {
    dialects: &'static [&'static dyn Dialect],
}

impl Registry {
    pub const fn new(dialects: &'static [&'static dyn Dialect]) -> Registry {
        Registry { dialects }
    }

    /// Every dialect.
    pub fn all(&self) -> &'static [&'static dyn Dialect] {
        self.dialects
    }

    /// The dialect named `word` on the command line (its CLI name or an alias).
    pub fn find(&self, word: &str) -> Option<&'static dyn Dialect> {
        self.dialects.iter().copied().find(|d| {
            let names = d.names();
            names.cli == word || names.aliases.contains(&word)
        })
    }

    /// The dialect whose calls carry `agent` on the wire.
    pub fn by_agent(&self, agent: &Agent) -> Option<&'static dyn Dialect> {
        let mut dialects = self.dialects.iter().copied();
        dialects.find(|d| d.names().agent == agent.as_str())
    }

    /// The kind of `tool` in a call from `agent`, for a call that came without one (a hook
    /// older than the field): the agent's own table, and for an agent no dialect knows,
    /// [`ToolKind::Other`] (an MCP name aside), never read-only.
    pub fn kind_of(&self, agent: &Agent, tool: &str) -> ToolKind {
        match self.by_agent(agent) {
            Some(dialect) => dialect.table().kind_of(tool),
            None => super::tools::mcp_kind(tool),
        }
    }

    /// The name people read for `agent`: `Claude Code`; an agent no dialect knows by its own
    /// name.
    pub fn display_name<'a>(&self, agent: &'a Agent) -> &'a str {
        match self.by_agent(agent) {
            Some(dialect) => dialect.names().display,
            None => agent.as_str(),
        }
    }

    /// The CLI names, in registry order: what `gatehouse hook` accepts.
    pub fn cli_names(&self) -> Vec<&'static str> {
        self.dialects.iter().map(|d| d.names().cli).collect()
    }

    /// The command that connects an agent, for a screen with none yet:
    /// `gatehouse install claude|codex|…`.
    pub fn install_hint(&self) -> String {
        format!("gatehouse install {}", self.cli_names().join("|"))
    }

    /// The default `internal_tools`: every dialect's bookkeeping tools, each once.
    pub fn internal_tools(&self) -> Vec<String> {
        let tools = self.dialects.iter().flat_map(|d| d.internal_tools());
        once_each(tools.copied())
    }

    /// Every tool name a dialect calls a file writer or editor, each once.
    pub fn edit_tools(&self) -> Vec<String> {
        once_each(self.edit_tool_names())
    }

    /// The tool names the dialects' tables call writers or editors, repeats and all.
    fn edit_tool_names(&self) -> impl Iterator<Item = &'static str> {
        let lists = self.dialects.iter().map(|d| d.table().tools.edit);
        lists.flatten().copied()
    }
}

/// `names` in their first order, without repeats.
fn once_each(names: impl Iterator<Item = &'static str>) -> Vec<String> {
    let mut once: Vec<String> = Vec::new();
    for name in names {
        if !once.iter().any(|n| n == name) {
            once.push(name.to_string());
        }
    }
    once
}

/// Every dialect.
pub fn all() -> &'static [&'static dyn Dialect] {
    REGISTRY.all()
}

/// The dialect named `word` on the command line (its CLI name or an alias).
pub fn find(word: &str) -> Option<&'static dyn Dialect> {
    REGISTRY.find(word)
}

/// The dialect whose calls carry `agent` on the wire.
pub fn by_agent(agent: &Agent) -> Option<&'static dyn Dialect> {
    REGISTRY.by_agent(agent)
}

/// [`Registry::kind_of`] in gatehouse's registry.
pub fn kind_of(agent: &Agent, tool: &str) -> ToolKind {
    REGISTRY.kind_of(agent, tool)
}

/// [`Registry::display_name`] in gatehouse's registry.
pub fn display_name(agent: &Agent) -> &str {
    REGISTRY.display_name(agent)
}

/// Who asks, as the console shows it: `Claude Code`, or `build-box › Claude Code` for a call
/// from a remote host.
pub fn caller(call: &crate::core::call::Call) -> String {
    let agent = display_name(&call.agent);
    match &call.remote {
        Some(remote) => format!("{} › {agent}", remote.host),
        None => agent.to_string(),
    }
}

/// The CLI names, in registry order: what `gatehouse hook` accepts.
pub fn cli_names() -> Vec<&'static str> {
    REGISTRY.cli_names()
}

/// [`Registry::install_hint`] for gatehouse's registry.
pub fn install_hint() -> String {
    REGISTRY.install_hint()
}

/// The default `internal_tools`: every dialect's bookkeeping tools, each once.
pub fn internal_tools() -> Vec<String> {
    REGISTRY.internal_tools()
}

/// True when any dialect's table says `tool` writes files: such a name can never be listed
/// safe.
pub fn edits_files(tool: &str) -> bool {
    REGISTRY.edit_tool_names().any(|name| name == tool)
}

/// Every tool name a dialect calls a file writer or editor, for the rules files' checks.
pub fn edit_tools() -> Vec<String> {
    REGISTRY.edit_tools()
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
