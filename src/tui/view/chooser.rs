//! Modes beside the global one, drawn: the chooser over the console for a session's or
//! agent's own mode (`M`) or the global mode for a while (`T`), which lists the modes, says who
//! the choice is for or for how long, and that the project's `mode_ceiling` and the floor still
//! cap what the mode lets run; and the status bar's words for the while's countdown and for
//! the focused call's session when its mode is not the global one.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::overlay::{box_width, centered, key_line};
use super::theme;
use crate::core::escape::visible;
use crate::tui::app::App;
use crate::tui::app::scope_modes::{Choosing, WHILES, Whom, countdown, while_text};
use crate::tui::keymap::CHOOSER_KEYS;

pub fn draw_chooser(frame: &mut Frame, area: Rect, app: &App) {
    let Some(chooser) = &app.scope_modes.chooser else {
        return;
    };
    let (title, head) = match &chooser.choosing {
        Choosing::Scope {
            agent,
            session,
            whom,
        } => {
            let whom = match whom {
                Whom::Session => format!("this session ({} of {agent})", short(session)),
                Whom::Agent => format!("every session of {agent}"),
            };
            (" mode for ", format!("For {}", visible(&whom)))
        }
        Choosing::While { lasts } => (
            " mode for a while ",
            format!(
                "For {}, then back to {}",
                while_text(WHILES[*lasts]),
                app.scope_modes.timer.map_or(app.mode, |t| t.back_to).name()
            ),
        ),
    };
    let mut lines = vec![Line::from(head), Line::raw("")];
    // What each mode does, wrapped under its own column: a description is never cut.
    let room = usize::from(box_width(area, WIDTH).saturating_sub(2))
        .saturating_sub(NAME_COLUMN)
        .max(12);
    for (i, choice) in chooser.choices().into_iter().enumerate() {
        let (name, what) = match choice {
            Some(mode) => (mode.name().to_string(), mode.describe().to_string()),
            None => (
                "global".to_string(),
                format!("follow the global mode ({})", app.mode.name()),
            ),
        };
        let mark = if i == chooser.at { "▸ " } else { "  " };
        let style = match i == chooser.at {
            true => theme::focus(),
            false => ratatui::style::Style::default(),
        };
        let mut rows = wrapped(&what, room).into_iter();
        lines.push(Line::from(vec![
            Span::styled(format!("{mark}{name:<10}"), style),
            Span::styled(
                format!(" {}", rows.next().unwrap_or_default()),
                theme::dim(),
            ),
        ]));
        for more in rows {
            let indent = " ".repeat(NAME_COLUMN);
            lines.push(Line::styled(format!("{indent}{more}"), theme::dim()));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "A project's mode_ceiling and the floor still cap it.",
        theme::dim(),
    ));
    lines.push(key_line(CHOOSER_KEYS));
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let cell = centered(area, WIDTH, height);
    frame.render_widget(Clear, cell);
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        cell,
    );
}

/// How wide the chooser is drawn, where the terminal allows.
const WIDTH: u16 = 76;
/// The columns before a mode's description: the mark, the name and a space.
const NAME_COLUMN: usize = 13;

/// `text` in rows of at most `room` characters, broken between words (a word longer than a
/// row is cut into pieces).
fn wrapped(text: &str, room: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > room {
            if !row.is_empty() {
                rows.push(std::mem::take(&mut row));
            }
            rows.push(word.drain(..room).collect());
        }
        let word: String = word.into_iter().collect();
        let needs = row.chars().count() + usize::from(!row.is_empty()) + word.chars().count();
        if !row.is_empty() && needs > room {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(&word);
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
}

/// A session id shortened to its first 8 characters.
fn short(session: &str) -> String {
    let mut s: String = session.chars().take(8).collect();
    if session.chars().count() > 8 {
        s.push('…');
    }
    s
}

/// The status bar's words after the mode badge: the while left before the global mode goes
/// back (`29:41 → allow-read`), and the focused call's own mode where it differs
/// (`this session: block-all`), or how many sessions and agents have one.
pub fn status_spans(app: &App) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    if let Some((timer, left)) = app.mode_time_left() {
        spans.push(Span::styled(
            format!(" {} → {} ", countdown(left), timer.back_to.name()),
            theme::dim(),
        ));
    }
    let focused = app.focused().map(|o| &o.dialog.call);
    if let Some((call, mode)) = focused.and_then(|c| Some((c, app.own_mode(c)?))) {
        let whom = match app
            .scope_modes
            .given
            .applied(app.mode, &call.agent, &call.session)
            .owner
        {
            crate::core::mode_scope::ModeOwner::Agent => "this agent",
            _ => "this session",
        };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            format!(" {whom}: {} ", mode.name()),
            theme::mode_badge(mode),
        ));
    } else if !app.scope_modes.given.is_empty() {
        let n = app.scope_modes.given.list().len();
        spans.push(Span::styled(
            format!(" {n} own mode{} ", if n == 1 { "" } else { "s" }),
            theme::dim(),
        ));
    }
    spans
}

#[cfg(test)]
#[path = "snapshot_mode_tests.rs"]
mod snapshot_mode_tests;
