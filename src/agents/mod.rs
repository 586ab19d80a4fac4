//! The agents' side. Each agent gatehouse can gate is one folder here (`claude`, `codex`,
//! `gemini`, `cursor`, `crush`, `qwen`, `copilot`): a [`table::Table`] of its facts and a
//! [`dialect::Dialect`] with the few functions that differ (its answers per event, any
//! renaming of its tools, install steps beyond its hooks file). [`registry`] lists them once
//! and drives everything that names an agent.
//!
//! Shared by the dialects: `table` (the facts as data, and a hook input read into a call),
//! `hook_file` (an agent's hooks file: install, uninstall, the doctor's look), `input`
//! (reading a hook's stdin), `tools` (tool-name tables and the MCP spelling), `install_file`
//! (editing a settings file safely and finding gatehouse's own hook entries in it). The hook
//! process itself: `hook` (the flow, with its static fallback when no console answers) and
//! `client` (the synchronous socket client it uses).

#[cfg(test)]
#[macro_use]
mod testing;

pub mod claude;
pub mod client;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod dialect;
pub mod doctor;
#[cfg(test)]
mod example;
pub mod gemini;
pub mod grok;
pub mod hook;
pub mod hook_file;
pub mod input;
pub mod install_file;
pub mod opencode;
pub mod qwen;
pub mod registry;
pub mod table;
pub mod tools;
