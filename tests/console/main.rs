//! The real console in a real terminal (tmux): dialogs driven by keys, and every way it is
//! told to stop. One test binary, so the suite links once for all of them.

#[path = "../common/mod.rs"]
mod common;

mod batch_tmux;
mod hook_at_terminal;
mod rules_tmux;
mod stderr;
mod stop;
mod tmux;
mod web_always;
mod web_batch;
mod web_chromium;
mod web_edit;
mod web_modes;
mod web_order;
mod web_plan;
