//! gatehouse: one terminal console that approves or denies the tool calls of AI coding agents.
//!
//! # Layout
//!
//! `core` is the barrier core: modes, calls, the static shell analyser, rules, routes, the
//! pending table of dialogs with its first-answer-wins race, and the audit log. It knows nothing
//! of terminals, sockets or HTTP, so the policy can be read and tested alone.
//!
//! `config` reads and validates the config file into the core's settings; `paths` says where
//! gatehouse keeps its files. `explain` renders what the core makes of a shell line, for people
//! and for batch checks.
//!
//! `classifier` is the model that races the human in auto mode: providers over HTTP, prompts,
//! a verdict cache with a single flight per subject, and a circuit breaker. It implements the
//! core's classifier trait and is the only part that speaks HTTP.
//!
//! `server` is the console's Unix socket: protocol v1, the folder and peer checks, and the
//! accept loop that submits each hook's call to the barrier and writes the answer back. It
//! talks to the core through a `Barrier` only.
//!
//! `agents` holds one module per hook dialect (Claude Code first): turning the agent's hook
//! JSON into a `Call` and a decision into the agent's answer, the synchronous socket client
//! the hook process uses (no async runtime: it must start fast), the static fallback when no
//! console answers, and the installers that add the hook to the agent's settings.
//!
//! `headless` is `gatehouse serve`: the barrier and server with no screen, answering the
//! dialogs that need a human with a fixed policy and logging each decision to stderr.

pub mod agents;
pub mod classifier;
pub mod config;
pub mod console;
pub mod core;
pub mod demo;
pub mod explain;
pub mod headless;
pub mod paths;
pub mod server;
pub mod stop;
pub mod tui;
