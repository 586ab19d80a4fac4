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

pub mod classifier;
pub mod config;
pub mod core;
pub mod explain;
pub mod paths;
pub mod tui;
