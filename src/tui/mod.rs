//! The console: a ratatui TUI in The Elm Architecture. `app` is the model and its `update`,
//! `view` only draws, and `runner` is the one place that touches the terminal and the barrier.

pub mod app;
pub mod keymap;
mod plan_choice;
pub use plan_choice::PlanChoice;
mod lasting;
pub mod runner;
pub mod terminal;
pub mod textbox;
pub mod view;
