//! Screens drawn over the console: the help, drawn from the key table, the quit and
//! allow-all confirmations, and the session rules panel. Each box is as tall as its text once
//! wrapped, so its own keys are never cut, and its keys come from the key table's box rows.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::dialog::short_id;
use super::theme;
use crate::agents::registry;
use crate::core::decision::Decider;
use crate::core::escape::visible;
use crate::core::mode::Mode;
use crate::tui::app::{App, clock};
use crate::tui::keymap::{self, ALLOW_ALL_KEYS, BOX_KEYS, QUIT_KEYS, RULES_KEYS};

/// How wide a box that wants `width` is over `area`: the whole width when less than two
/// columns would be left on a side, so no sliver of the screen below shows beside it.
pub(super) fn box_width(area: Rect, width: u16) -> u16 {
    if area.width < width.saturating_add(4) {
        area.width
    } else {
        width
    }
}

/// A box `width` wide (see [`box_width`]) and `height` tall, in the middle of `area`.
pub(super) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = box_width(area, width);
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

/// A box's keys on one line, from its key table rows.
pub(super) fn key_line(keys: &[(&'static str, &'static str)]) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, (key, what)) in keys.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw("   "));
        }
        spans.push(Span::styled(*key, theme::key()));
        spans.push(Span::raw(format!(" {what}")));
    }
    Line::from(spans)
}

/// `text` after a right-aligned `keys` column of `column` cells, wrapped to `width` with the
/// continuation lines indented under the text (a hanging indent).
fn hanging(keys: &str, text: &str, column: usize, width: usize) -> Vec<Line<'static>> {
    let room = width.saturating_sub(column + 2).max(10);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > room {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let key = if i == 0 { keys } else { "" };
            Line::from(vec![
                Span::styled(format!("{key:>column$}  "), theme::key()),
                Span::raw(text),
            ])
        })
        .collect()
}

/// `lines` in a bordered box titled `title`, `width` wide, as tall as they wrap to, in the
/// middle of `area`.
pub(super) fn draw_lines(
    frame: &mut Frame,
    area: Rect,
    width: u16,
    title: &str,
    lines: Vec<Line<'static>>,
) {
    let inner = usize::from(box_width(area, width).saturating_sub(2)).max(1);
    let rows = rows_of(&lines, inner);
    let popup = centered(area, width, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title.to_string())),
        popup,
    );
}

/// How many rows `lines` take wrapped (by words, as drawn) to `inner` cells.
pub(super) fn rows_of(lines: &[Line<'static>], inner: usize) -> usize {
    Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(u16::try_from(inner.max(1)).unwrap_or(u16::MAX))
}

/// The help, with the decision keys worded for the dialog in front, the modes and the
/// deciders the activity log names.
pub fn draw_help(frame: &mut Frame, area: Rect, app: &App) {
    let inner = usize::from(box_width(area, 78).saturating_sub(2)).max(1);
    let mut lines = vec![Line::styled("Keys", theme::title())];
    for b in keymap::offered_on(app.focused().map(|o| &o.dialog.offer)) {
        lines.extend(hanging(b.keys, b.help, 6, inner));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("In a text box", theme::title()));
    for (keys, what) in BOX_KEYS {
        lines.extend(hanging(keys, what, 9, inner));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Modes (⇧Tab/Tab; the names `--mode` and the config take)",
        theme::title(),
    ));
    for mode in Mode::ALL {
        lines.extend(hanging(mode.name(), mode.describe(), 10, inner));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Who decided (the activity log's third column)",
        theme::title(),
    ));
    for decider in Decider::ALL {
        lines.extend(hanging(decider.name(), decider.describe(), 13, inner));
    }
    lines.push(Line::raw(""));
    lines.extend(hanging(
        "",
        "A new dialog ignores decision keys for a moment, so a key meant for the last one cannot answer it.",
        0,
        inner,
    ));
    // As tall as the text once wrapped to the popup's width, so nothing falls off the end.
    let rows = rows_of(&lines, inner);
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

/// A confirmation box: its sentence, a blank row and its keys, as tall as they wrap to.
fn draw_confirm(frame: &mut Frame, area: Rect, title: &str, sentence: String, keys: Line<'static>) {
    let lines = vec![Line::raw(sentence), Line::raw(""), keys];
    draw_lines(frame, area, 64, title, lines);
}

pub fn draw_confirm_quit(frame: &mut Frame, area: Rect, app: &App) {
    let n = app.dialogs.len();
    let means = match app.on_quit {
        "defer" => "its agent falls back to its own prompt or rules",
        _ => "the call is refused",
    };
    let sentence = format!(
        "{n} dialog{} open. Quitting answers {} `{}` (never allow): {means}.",
        if n == 1 { " is" } else { "s are" },
        if n == 1 { "it" } else { "each" },
        app.on_quit
    );
    draw_confirm(frame, area, " quit? ", sentence, key_line(QUIT_KEYS));
}

/// Allow-all is due while dialogs are open: it allows them only if the human says so.
pub fn draw_confirm_allow_all(frame: &mut Frame, area: Rect, app: &App) {
    use crate::tui::app::scope_modes::{Confirming, while_text};
    let n = app.dialogs.len();
    let plural = if n == 1 { "" } else { "s" };
    let sentence = match &app.scope_modes.confirming {
        Some(Confirming::Scope(scope)) => format!(
            "Allow-all for {scope} allows its open dialogs now, and each of its calls that is \
             not denied until its mode changes (staying keeps the mode it has)."
        ),
        confirming => {
            let until = match confirming {
                Some(Confirming::While(lasts)) => format!("for {}", while_text(*lasts)),
                _ => "until the mode changes".into(),
            };
            format!(
                "Allow-all allows the {n} open dialog{plural} now, and every call that is not \
                 denied {until} (staying keeps {}).",
                app.mode.name(),
            )
        }
    };
    draw_confirm(
        frame,
        area,
        " allow all? ",
        sentence,
        key_line(ALLOW_ALL_KEYS),
    );
}

/// Every rule in force: the policy files first, then the session rules (what each allows, where
/// it came from, how often it let a call through), then the lasting rules of each file.
pub fn draw_rules(frame: &mut Frame, area: Rect, app: &App) {
    let mut lines = Vec::new();
    let focus = |i: usize| {
        if i == app.rules_focus {
            theme::focus()
        } else {
            ratatui::style::Style::default()
        }
    };
    if app.lasting.files.is_empty() {
        lines.push(Line::styled("No policy files in force.", theme::dim()));
    }
    for file in &app.lasting.files {
        lines.push(Line::styled(
            format!("in force: {}", visible(file)),
            theme::dim(),
        ));
    }
    // The config's own lists, refused or passed in every file's place.
    for (name, list) in [
        ("denied_commands", &app.lasting.denied),
        ("safe_commands", &app.lasting.safe),
    ] {
        if !list.is_empty() {
            let words: Vec<String> = list.iter().map(|p| format!("`{}`", visible(p))).collect();
            lines.push(Line::raw(format!("config {name}: {}", words.join(", "))));
        }
    }
    if app.rules.is_empty() {
        lines.push(Line::raw(
            "No session rules: nothing was allowed always yet.",
        ));
    }
    for (i, rule) in app.rules.iter().enumerate() {
        lines.push(Line::styled(
            format!(
                "#{} {} {}: {}",
                rule.id.0,
                visible(registry::display_name(&rule.agent)),
                short_id(&rule.session),
                visible(&rule.allow.describe()),
            ),
            focus(i),
        ));
        lines.push(Line::styled(
            format!(
                "    from call #{} by the {} at {} · {} hit{}{}",
                rule.origin_call,
                rule.by,
                clock(rule.origin_at),
                rule.hits,
                if rule.hits == 1 { "" } else { "s" },
                rule.expires.map_or(String::new(), |until| {
                    let left = until.duration_since(app.now.wall).unwrap_or_default();
                    format!(" · {} min left", left.as_secs().div_ceil(60))
                }),
            ),
            theme::dim(),
        ));
    }
    for (i, rule) in app.lasting.rules.iter().enumerate() {
        let ignored = if rule.ignored {
            " (ignored: needs trust)"
        } else {
            ""
        };
        lines.push(Line::styled(
            format!(
                "{} {}: {}{ignored}",
                rule.layer,
                visible(&rule.id),
                visible(&rule.summary)
            ),
            focus(app.rules.len() + i),
        ));
        lines.push(Line::styled(
            format!(
                "    in {} · {} hit{}",
                visible(&rule.file),
                rule.hits,
                if rule.hits == 1 { "" } else { "s" }
            ),
            theme::dim(),
        ));
    }
    lines.push(Line::raw(""));
    lines.push(key_line(RULES_KEYS));
    let inner = usize::from(box_width(area, 78).saturating_sub(2)).max(1);
    let rows = rows_of(&lines, inner);
    let popup = centered(area, 78, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" rules in force ")),
        popup,
    );
}
