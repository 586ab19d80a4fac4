//! The barrier, the socket server, the hooks and the command line, through the library and the
//! real binary: everything a call meets between an agent and a decision, short of a real agent
//! CLI or a real terminal. One test binary, so the suite links once for all of them.

#[path = "../common/mod.rs"]
mod common;

mod acp;
mod audit_order;
mod auto_e2e;
mod barrier;
mod barrier_known_risk;
mod barrier_race;
mod batch;
mod boundaries;
mod cli;
mod edited;
mod expiring_rules;
mod guarded;
mod headless;
mod hook;
mod hook_deadline;
mod install;
mod kept;
mod mode_grace;
mod opencode_attach;
mod other_hooks;
mod plan;
mod policy_files;
mod qwen_hook;
mod remote_cli;
mod rules;
mod rules_files;
mod saved_rules;
mod serve_stop;
mod session_modes;
mod session_rules;
mod socket;
mod socket_flag;
mod socket_limits;
mod start;
mod tamper;
mod two_agents;
mod web;
mod web_always;
mod web_batch;
mod web_limits;
mod web_modes;
