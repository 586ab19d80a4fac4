//! The status bar on top and the footer of key hints below.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme;
use crate::tui::app::{App, DialogState};
use crate::tui::keymap::{self, BOX_KEYS, Intent, KEYMAP};

pub fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let open = app.dialogs.len();
    let mut spans = vec![Span::styled(
        format!(" {} ", app.mode.label()),
        theme::mode_badge(app.mode),
    )];
    if let Some(pending) = app.pending {
        spans.push(Span::raw(" → "));
        spans.push(Span::styled(
            format!(" {} ", pending.mode.label()),
            theme::mode_badge(pending.mode),
        ));
        spans.push(Span::styled(" pending ·", theme::dim()));
    }
    spans.extend([
        Span::raw(format!(
            " {open} open · {} session{} · classifier: {} · ",
            app.sessions.len(),
            if app.sessions.len() == 1 { "" } else { "s" },
            app.classifier,
        )),
        Span::styled(app.socket.clone(), theme::dim()),
    ]);
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn draw_footer(frame: &mut Frame, area: Rect, app: &App) {
    let mut spans = Vec::new();
    if let Some(text) = &app.mode_notice {
        spans.push(Span::styled(format!(" {text} "), theme::notice()));
        spans.push(Span::raw(" "));
    }
    if let Some((text, _)) = &app.notice {
        spans.push(Span::styled(format!(" {text} "), theme::notice()));
        spans.push(Span::raw(" "));
    }
    let writing = matches!(app.state, DialogState::Writing(_));
    let caps = app.focused().map(|o| &o.dialog.call.caps);
    let hints: Vec<(&str, &str)> = if writing {
        BOX_KEYS.to_vec()
    } else {
        keymap::offered(caps)
            .iter()
            .filter(|b| !b.hint.is_empty() && (!b.needs_dialog || caps.is_some()))
            .map(|b| (b.keys, b.hint))
            .collect()
    };
    // Hints that do not fit are dropped from the end, but the answers, help and quit always
    // stay: the help screen lists every key.
    let width = |keys: &str, hint: &str| keys.chars().count() + hint.chars().count() + 3;
    let kept = |keys: &str| {
        KEYMAP.iter().any(|b| {
            b.keys == keys
                && (b.intent.decides() || matches!(b.intent, Intent::Help | Intent::Quit))
        })
    };
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let reserve: usize = hints
        .iter()
        .filter(|(keys, _)| kept(keys))
        .map(|(keys, hint)| width(keys, hint))
        .sum();
    let mut left = (area.width as usize).saturating_sub(used + reserve);
    for (keys, hint) in hints {
        if !kept(keys) {
            let w = width(keys, hint);
            if w > left {
                continue;
            }
            left -= w;
        }
        spans.push(Span::styled(keys, theme::key()));
        spans.push(Span::raw(format!(" {hint}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
