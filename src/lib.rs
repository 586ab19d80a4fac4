//! gatehouse: one terminal console that approves or denies the tool calls of AI coding agents.
//!
//! # Layout
//!
//! `core` is the barrier core: modes, calls, the static shell analyser, rules, routes, the
//! pending table of dialogs with its first-answer-wins race, and the audit log. Its lasting
//! rules (`rule`, and the rules-file code under `policy/`: syntax, loading, bounded reading,
//! the project files a call's folder is under, the trust list, safe writing) are files it reads itself: the floor, the user's, the saved rules and each
//! call's project policy; `learn` turns the human's repeated answers into offered rules;
//! `batch` works out what one answer does to each of many marked calls (the barrier loops it
//! through its one resolve path, each call audited with the batch);
//! `mode_scope` holds the modes given to one session or to every session of one agent beside
//! the global mode (routed in, still capped by the ceilings); `origin` is where a call from another machine came from (its host label, and the project
//! files the remote hook read there, judged as files that only tighten). It
//! knows nothing of terminals, sockets or HTTP, nor of the other modules here
//! (`tests/runtime/boundaries.rs` fails if it names one), so the policy can be read and tested
//! alone.
//!
//! `config` reads and validates the config file into the core's settings; `config_watch`
//! reads it again when it changes under the console and puts its rules in force. `plumbing` is what
//! every part stands on: `paths` says where gatehouse keeps its files, `logging` sends
//! gatehouse's own diagnostics to a rotated file under the console and to stderr elsewhere,
//! `http` builds the one HTTP client, `stop` handles signals and panics. `explain` renders what the core makes of a shell
//! line, for people and for batch checks. `guards` gathers what the core guards whatever the
//! rules say (`core::guard`): gatehouse's own files, from where the config, the state and the
//! agents' hook files live, and the credentials with the config's `sensitive_paths`.
//!
//! `classifier` is the model that races the human in auto mode: providers over HTTP, prompts,
//! a verdict cache with a single flight per subject, and a circuit breaker. It implements the
//! core's classifier trait; beside `agents::opencode` it is the only part that speaks HTTP,
//! both through the one client builder in `http`.
//!
//! `wire` is protocol v1, the contract between the hook and the console: the request line
//! carrying a `Call`, and the `Answer` carrying the core's `Decision` and `Decider`; both the
//! server and the hook's client use it, and nothing else speaks it.
//!
//! `server` is the console's Unix socket: protocol v1 (through `wire`), the folder and peer
//! checks, the bounds on what connections hold (`budget`) and how many are open under the
//! descriptor limit (`slots`), and the accept loop that submits each hook's call to the barrier
//! and writes the answer back. It talks to the core through a `Barrier` only.
//!
//! `agents` holds one folder per agent (Claude Code, Codex, Gemini CLI, Cursor, Crush, Qwen
//! Code, Copilot CLI), each implementing the `Dialect` trait: its hook JSON into a `Call` with
//! the tool kind normalised, a decision into the agent's answer per event, its capability table
//! and its installer. The registry lists them once and drives `hook`, `install`, `uninstall`,
//! `agents` and the docs' table; the core names no agent. Beside them: the synchronous socket
//! client the hook process uses (no async runtime: it must start fast) and the hook flow with
//! its static fallback when no console answers.
//! OpenCode has no hook: `agents::opencode` attaches the console to a running `opencode
//! serve`, reads its event stream and answers its permission requests over HTTP, submitting
//! each to the barrier as the server does.
//!
//! `acp` is `gatehouse acp -- AGENT ARGS...`, the Agent Client Protocol proxy: it runs an ACP
//! agent as its child, forwards the editor's and the agent's traffic as it came, and answers
//! the agent's permission requests the way the hook does (`agents::hook`'s flow and static
//! fallback), choosing only among the options the agent offered. It speaks ACP through the
//! official crate and the console through the hook's client.
//!
//! `tui` is the console's screen, in the Elm architecture: the model and its `update`
//! (`tui::app`), the key table, the previews prepared when a dialog opens, the view that only
//! draws, and the runner, the one place that touches the terminal. It talks to the core through
//! a `Prompter` only.
//!
//! `console` is `gatehouse` with no arguments: it starts the barrier, the server and the
//! classifier, runs the `tui` and, on every way out, answers what is still open. `demo` runs
//! the same console with a scripted agent on a private socket. `stop` is how both and `serve`
//! stop in order: the signals, and a panic caught as a failed run.
//!
//! `web` is the web console, an adapter beside the `tui`: the same queue on a page a phone
//! can open, paired by a one-time link or QR code, each device with its own token. It talks
//! to the core through a `Responder` and a tap of the prompter's events.
//!
//! `remote` answers agents on other machines and in containers over OpenSSH and the
//! container runtime: the remotes file, the `ssh` invocations, the tunnel supervisor (one
//! `ssh -R` per remote, started again with backoff, its state on a board the status bar and
//! `gatehouse remote list` read), what the remote's own gatehouse reports of its agents, and
//! `install --container`. `wiring` starts the tunnels beside the server.
//!
//! `headless` is `gatehouse serve`: the barrier and server with no screen, answering the
//! dialogs that need a human with a fixed policy and logging each decision to stderr.
//!
//! The command line itself (`src/main.rs` and `src/cli/`) only parses arguments, loads
//! the config and calls into these modules.

pub mod acp;
pub mod agents;
pub mod classifier;
pub mod config;
pub mod config_watch;
mod config_words;
pub mod console;
pub mod core;
pub mod demo;
pub mod explain;
pub mod guards;
pub mod headless;
pub mod plumbing;
pub mod preview;
pub mod remote;
pub mod server;
pub mod tui;
pub mod web;
pub mod wire;
pub mod wiring;
