//! The status bar on top and the footer of key hints below. While a box is up over the
//! console, the footer offers that box's keys, not the dialog's.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme;
use crate::tui::app::{App, DialogState, FilterState, Screen};
use crate::tui::keymap::{
    self, ACTIVITY_KEYS, ALLOW_ALL_KEYS, BATCH_KEYS, BOX_KEYS, CHOOSER_KEYS, FILTER_KEYS,
    HELP_KEYS, Intent, KEYMAP, QUIT_KEYS, RULES_KEYS, WEB_KEYS,
};

/// The mode by the name people type (`--mode`, the config), then what is open, the live
/// sessions and the classifier; the socket path last, shortened from the left when the width
/// runs out (its file name is what tells two consoles apart), dropped when nothing of it fits.
pub fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let open = app.dialogs.len();
    let mut spans = vec![Span::styled(
        format!(" {} ", app.mode.name()),
        theme::mode_badge(app.mode),
    )];
    if let Some(pending) = app.pending {
        spans.push(Span::raw(" → "));
        spans.push(Span::styled(
            format!(" {} ", pending.mode.name()),
            theme::mode_badge(pending.mode),
        ));
        spans.push(Span::styled(" pending ·", theme::dim()));
    }
    spans.extend(super::chooser::status_spans(app));
    let sessions = app.sessions.len();
    let plural = if sessions == 1 { "" } else { "s" };
    // The longest wording that fits: a narrow terminal loses the classifier's words first.
    let room = usize::from(area.width).saturating_sub(spans.iter().map(Span::width).sum());
    // The web console, once known to be on: with its paired devices once the panel listed them.
    let web = match (app.web_on, &app.web) {
        (false, _) => String::new(),
        (true, Some(panel)) if panel.error.is_none() => {
            format!(" · web: {} paired", panel.devices.len())
        }
        (true, _) => " · web on".to_string(),
    };
    let counts = [
        format!(
            " {open} open · {sessions} live session{plural}{web} · classifier: {}",
            app.classifier
        ),
        format!(" {open} open · {sessions} live session{plural}{web}"),
        format!(" {open} open · {sessions} live{web}"),
        format!(" {open} open · {sessions} live"),
    ];
    let fits = counts.iter().find(|c| c.chars().count() <= room);
    spans.push(Span::raw(fits.unwrap_or(&counts[3]).clone()));
    let used: usize = spans.iter().map(Span::width).sum();
    let room = usize::from(area.width).saturating_sub(used + 3);
    let socket = app.socket.chars().count();
    if room >= socket {
        spans.push(Span::raw(" · "));
        spans.push(Span::styled(app.socket.clone(), theme::dim()));
    } else if room >= 12 {
        let tail: String = app.socket.chars().skip(socket + 1 - room).collect();
        spans.push(Span::raw(" · "));
        spans.push(Span::styled(format!("…{tail}"), theme::dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

pub fn draw_footer(frame: &mut Frame, area: Rect, app: &App) {
    let mut spans = Vec::new();
    // One notice at a time (the newest replaced the other when it was set).
    let notice = app
        .mode_notice
        .as_ref()
        .or(app.notice.as_ref())
        .map(|(text, _)| text);
    let writing = matches!(app.state, DialogState::Writing(_));
    let offer = app.focused().map(|o| &o.dialog.offer);
    let boxed = match app.screen {
        Screen::Main => None,
        Screen::Help => Some(HELP_KEYS),
        Screen::ConfirmQuit => Some(QUIT_KEYS),
        Screen::ConfirmAllowAll => Some(ALLOW_ALL_KEYS),
        Screen::Rules => Some(RULES_KEYS),
        Screen::Web => Some(WEB_KEYS),
        Screen::Activity => Some(ACTIVITY_KEYS),
        Screen::Batch => Some(BATCH_KEYS),
        Screen::ModeChooser => Some(CHOOSER_KEYS),
    };
    let boxed = boxed.or((app.queue.typing == FilterState::Typing).then_some(FILTER_KEYS));
    let hints: Vec<(&str, &str)> = if let Some(keys) = boxed {
        keys.to_vec()
    } else if writing {
        BOX_KEYS.to_vec()
    } else {
        keymap::offered_on(offer)
            .iter()
            .filter(|b| !b.hint.is_empty() && (!b.needs_dialog || offer.is_some()))
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
    let reserve_of = |compact: bool| -> usize {
        let kept = hints.iter().filter(|(keys, _)| kept(keys));
        match compact {
            false => kept.map(|(keys, hint)| width(keys, hint)).sum(),
            true => kept.map(|(keys, _)| keys.chars().count() + 1).sum(),
        }
    };
    // The notice takes what the kept keys leave: when it would not fit beside their hints,
    // the kept keys are shown bare (the help names them), and what still does not fit is cut.
    // It never pushes a kept key out.
    let total = area.width as usize;
    let compact = notice.is_some_and(|t| t.chars().count() + 3 + reserve_of(false) > total);
    let reserve = reserve_of(compact);
    if let Some(text) = notice {
        let room = total.saturating_sub(reserve + 3);
        if room > 1 {
            spans.push(Span::styled(
                format!(" {} ", super::lists::fit(text, room)),
                theme::notice(),
            ));
            spans.push(Span::raw(" "));
        }
    }
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let mut left = total.saturating_sub(used + reserve);
    for (keys, hint) in hints {
        if compact && kept(keys) {
            spans.push(Span::styled(keys, theme::key()));
            spans.push(Span::raw(" "));
            continue;
        }
        if !kept(keys) {
            let w = width(keys, hint);
            if compact || w > left {
                continue;
            }
            left -= w;
        }
        spans.push(Span::styled(keys, theme::key()));
        spans.push(Span::raw(format!(" {hint}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
