//! The agents' side. Each agent gatehouse can gate is one folder here (`claude`, `codex`,
//! `gemini`, `cursor`, `crush`, `qwen`, `copilot`) implementing the [`dialect::Dialect`]
//! trait: its hook JSON into a call with the tool kind normalised, a decision into its
//! answer per event, its capability table, and its installer. [`registry`] lists them once and drives everything that names an agent.
//!
//! Shared by the dialects: `input` (reading a hook's stdin), `tools` (tool-name tables and the
//! MCP spelling), `install_file` (editing a settings file safely and finding gatehouse's own
//! hook entries in it). The hook process itself: `hook` (the flow, with its static fallback
//! when no console answers) and `client` (the synchronous socket client it uses).

pub mod claude;
pub mod client;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod dialect;
pub mod doctor;
pub mod gemini;
pub mod hook;
pub mod input;
pub mod install_file;
pub mod opencode;
pub mod qwen;
pub mod registry;
pub mod tools;
