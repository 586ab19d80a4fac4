//! End to end with the real agent CLIs (Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI,
//! OpenCode's server), each driven by a scripted model on loopback (`../shared/realclients`),
//! one module per agent and the web page's pairing with Claude Code. One test binary, so the
//! suite links once for all of them.
//!
//! Every test is `#[ignore]`d, so a plain `cargo test` lists them as ignored (not passed) and
//! never downloads anything; they run with `GATEHOUSE_E2E=1 cargo test --test e2e --
//! --include-ignored` (`.ci/e2e` installs the clients and runs each module in turn), and a
//! module whose client is missing then skips, saying so.

#[path = "../common/mod.rs"]
mod common;

mod acp;
mod claude;
mod claude_fail_closed;
mod claude_plan;
mod claude_session;
mod codex;
mod container;
mod copilot;
mod gemini;
mod opencode;
mod qwen;
mod remote;
mod web;
