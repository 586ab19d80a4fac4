//! Screens drawn over the console: the help, drawn from the key table, the quit and
//! allow-all confirmations, and the session rules panel.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::dialog::short_id;
use super::theme;
use crate::core::escape::visible;
use crate::tui::app::{App, clock};
use crate::tui::keymap::{self, BOX_KEYS};

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

/// The help, with the decision keys worded for the dialog in front.
pub fn draw_help(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines = vec![Line::styled("Keys", theme::title())];
    for b in keymap::offered(app.focused().map(|o| &o.dialog.call.caps)) {
        lines.push(Line::from(vec![
            Span::styled(format!("{:>6}  ", b.keys), theme::key()),
            Span::raw(b.help),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("In a text box", theme::title()));
    for (keys, what) in BOX_KEYS {
        lines.push(Line::from(vec![
            Span::styled(format!("{keys:>9}  "), theme::key()),
            Span::raw(*what),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "A new dialog ignores decision keys for a moment, so a key meant for the last one cannot answer it.",
        theme::dim(),
    ));
    // As tall as the text once wrapped to the popup's width, so nothing falls off the end.
    let inner = usize::from(area.width.min(78).saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
    let popup = centered(area, 78, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    // Taller than the terminal: it scrolls (j/k, PgDn/PgUp), and says so.
    let hidden = rows.saturating_sub(usize::from(popup.height.saturating_sub(2)));
    let scroll = usize::from(app.help_scroll).min(hidden);
    let mut block = Block::bordered().title(" help (? or Esc to close) ");
    if scroll < hidden {
        block = block.title_bottom(Line::styled(
            format!(" ↓ {} more (j/PgDn) ", hidden - scroll),
            theme::key(),
        ));
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
            .block(block),
        popup,
    );
}

pub fn draw_confirm_quit(frame: &mut Frame, area: Rect, app: &App) {
    let n = app.dialogs.len();
    let lines = vec![
        Line::raw(format!(
            "{n} dialog{} open. Quitting answers {} `{}` (never allow).",
            if n == 1 { " is" } else { "s are" },
            if n == 1 { "it" } else { "them" },
            app.on_quit
        )),
        Line::raw(""),
        Line::from(vec![
            Span::styled("y/Enter", theme::key()),
            Span::raw(" quit   "),
            Span::styled("n/Esc", theme::key()),
            Span::raw(" stay"),
        ]),
    ];
    let popup = centered(area, 64, 5);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" quit? ")),
        popup,
    );
}

/// Allow-all is due while dialogs are open: it allows them only if the human says so.
pub fn draw_confirm_allow_all(frame: &mut Frame, area: Rect, app: &App) {
    let n = app.dialogs.len();
    let lines = vec![
        Line::raw(format!(
            "Allow-all allows the {n} open dialog{} now, and every call that is not denied \
             until the mode changes.",
            if n == 1 { "" } else { "s" },
        )),
        Line::raw(""),
        Line::from(vec![
            Span::styled("y/Enter", theme::key()),
            Span::raw(" enter allow-all   "),
            Span::styled("any other key", theme::key()),
            Span::raw(format!(" stay in {}", app.mode.name())),
        ]),
    ];
    let popup = centered(area, 64, 6);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" allow all? ")),
        popup,
    );
}

/// The session rules: what each allows, where it came from, how often it let a call through.
pub fn draw_rules(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines = Vec::new();
    if app.rules.is_empty() {
        lines.push(Line::raw(
            "No session rules: nothing was allowed always yet.",
        ));
    }
    for (i, rule) in app.rules.iter().enumerate() {
        let style = if i == app.rules_focus {
            theme::focus()
        } else {
            ratatui::style::Style::default()
        };
        lines.push(Line::styled(
            format!(
                "#{} {} {}: {}",
                rule.id.0,
                visible(&rule.agent.to_string()),
                short_id(&rule.session),
                visible(&rule.allow.describe()),
            ),
            style,
        ));
        lines.push(Line::styled(
            format!(
                "    from call #{} by the {} at {} · {} hit{}",
                rule.origin_call,
                rule.by,
                clock(rule.origin_at),
                rule.hits,
                if rule.hits == 1 { "" } else { "s" },
            ),
            theme::dim(),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled("j/k", theme::key()),
        Span::raw(" move   "),
        Span::styled("x", theme::key()),
        Span::raw(" revoke   "),
        Span::styled("s/Esc", theme::key()),
        Span::raw(" close"),
    ]));
    let inner = usize::from(area.width.min(78).saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
    let popup = centered(area, 78, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" session rules ")),
        popup,
    );
}
