//! The agents' side: one module per hook dialect (Claude Code, Codex, Gemini CLI, Cursor),
//! the capability table saying what a decision can do in each, the synchronous client the hook process
//! uses to reach the console, the hook flow with its static fallback, and the installers that
//! add gatehouse's hook to an agent's settings (one per agent, sharing `install_file`, which
//! edits a settings file safely and finds gatehouse's own hook entries in it).

pub mod capability;
pub mod claude;
pub mod claude_install;
pub mod client;
pub mod codex;
pub mod codex_install;
pub mod cursor;
pub mod cursor_install;
pub mod gemini;
pub mod gemini_install;
pub mod hook;
pub mod input;
pub mod install_file;
pub mod opencode;
