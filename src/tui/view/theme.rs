//! Colours and styles, in one place.

use ratatui::style::{Color, Modifier, Style};

use crate::core::audit::Ending;
use crate::core::mode::Mode;

/// The status-bar badge of a mode: each its own colour, allow-all unmistakably red.
pub fn mode_badge(mode: Mode) -> Style {
    let base = Style::default().add_modifier(Modifier::BOLD);
    match mode {
        Mode::AllowAll => base.fg(Color::White).bg(Color::Red),
        Mode::AllowRead => base.fg(Color::Black).bg(Color::Green),
        Mode::Auto => base.fg(Color::Black).bg(Color::Cyan),
        Mode::AutoMcp => base.fg(Color::Black).bg(Color::Magenta),
        Mode::BlockAll => base.fg(Color::Black).bg(Color::Yellow),
        Mode::Plan => base.fg(Color::White).bg(Color::Blue),
    }
}

pub fn decision(decision: Ending) -> Style {
    match decision {
        Ending::Allow => Style::default().fg(Color::Green),
        Ending::Deny => Style::default().fg(Color::Red),
        Ending::Defer | Ending::Withdrawn => Style::default().fg(Color::Yellow),
    }
}

pub fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

pub fn key() -> Style {
    Style::default()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD)
}

pub fn title() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

pub fn focus() -> Style {
    Style::default().add_modifier(Modifier::REVERSED)
}

pub fn notice() -> Style {
    Style::default().fg(Color::Black).bg(Color::Yellow)
}
