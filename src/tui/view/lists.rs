//! The queue of open calls and the activity log. Both draw only the rows that fit, so a
//! thousand open calls or ten thousand log lines cost no more than a screenful.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::dialog::session_of;
use super::theme;
use crate::agents::registry;
use crate::core::call::ToolKind;
use crate::core::escape::visible;
use crate::tui::app::{App, FilterState, Order, Screen};

/// The queue: one row per open call the filter shows, in the queue's order, its subject first,
/// then who asks; the time it has left before the ask timeout (its age where the timeout is not
/// known) right-aligned in a fixed column, with how many rows are above and below the ones
/// shown. While calls are marked, each has a `■` before it; the title says what is marked, filtered, ordered.
pub fn draw_queue(frame: &mut Frame, area: Rect, app: &App) {
    let rows = area.height.saturating_sub(2) as usize;
    let order = app.rows();
    let n = order.len();
    // Keep the focused row in view: start a page before it when needed.
    let at = order.iter().position(|&i| i == app.focus).unwrap_or(0);
    let start = if rows == 0 || at < rows {
        0
    } else {
        at + 1 - rows
    };
    let marking = !app.queue.marked.is_empty();
    let lines: Vec<Line> = order
        .iter()
        .skip(start)
        .take(rows)
        .map(|&i| {
            let open = &app.dialogs[i];
            let call = &open.dialog.call;
            let age = app
                .now
                .at
                .saturating_duration_since(open.dialog.opened)
                .as_secs();
            let focused = i == app.focus;
            let style = if focused {
                theme::focus()
            } else {
                Style::default()
            };
            // Where the ask timeout is known, the time left is what matters; else the age.
            let age = match app.time_left(open) {
                Some(left) => format!(" {:>3} left", age_text(left.as_secs())),
                None => format!(" {:>3}", age_text(age)),
            };
            let tool = match &open.dialog.assessment.kind {
                ToolKind::Mcp { tool, .. } => tool.as_str(),
                _ => call.tool.as_str(),
            };
            // What the call is comes first: at any width, calls can be told apart. A session
            // whose mode is not the global one says which it is.
            let own = app.own_mode(call).map(|m| format!(" [{m}]"));
            let text = format!(
                "{} · {} {} {}{}",
                open.short,
                visible(&registry::caller(call)),
                session_of(call),
                visible(tool),
                own.unwrap_or_default()
            );
            // The mark column is there only while something is marked.
            let mark = match (marking, app.queue.marked.contains(&open.dialog.id)) {
                (false, _) => "",
                (true, true) => "■",
                (true, false) => " ",
            };
            let room =
                (area.width as usize).saturating_sub(3 + mark.len().min(1) + age.chars().count());
            Line::from(vec![
                Span::styled(if focused { "›" } else { " " }, style),
                Span::styled(mark, theme::key()),
                Span::styled(format!("{:<room$}", fit(&text, room)), style),
                Span::styled(age, theme::dim()),
            ])
        })
        .collect();
    let mut block = Block::bordered().title(queue_title(app, n));
    let below = n.saturating_sub(start + rows);
    let hint = match (start, below) {
        (0, 0) => None,
        (above, 0) => Some(format!(" ↑ {above} more ")),
        (0, below) => Some(format!(" ↓ {below} more ")),
        (above, below) => Some(format!(" ↑ {above} ↓ {below} more ")),
    };
    if let Some(hint) = hint {
        block = block.title_bottom(Line::styled(hint, theme::key()));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The queue's title: how many calls it shows (of how many, when filtered), how many are
/// marked, the filter (with a cursor while it is typed) and the order when not arrival.
fn queue_title(app: &App, shown: usize) -> String {
    let all = app.dialogs.len();
    let q = &app.queue;
    let mut title = match q.filter.is_empty() && q.typing == FilterState::Idle {
        true => format!(" queue ({all})"),
        false => format!(" queue ({shown} of {all})"),
    };
    let marked = app.marked().len();
    if marked > 0 {
        title.push_str(&format!(" · {marked} marked"));
    }
    match q.typing {
        FilterState::Typing => title.push_str(&format!(" · /{}▏", visible(&q.filter))),
        FilterState::Idle if !q.filter.is_empty() => {
            title.push_str(&format!(" · /{}", visible(&q.filter)))
        }
        FilterState::Idle => {}
    }
    if q.order == Order::TimeLeft {
        title.push_str(" · by time left");
    }
    title.push(' ');
    title
}

/// The activity log, newest last, in columns (time, decision, who decided, agent, tool,
/// subject, reason); the entry opened whole is highlighted.
pub fn draw_log(frame: &mut Frame, area: Rect, app: &App) {
    let rows = area.height.saturating_sub(2) as usize;
    let opened = (app.screen == Screen::Activity).then_some(app.log_focus);
    // The opened entry stays in view.
    let end = opened.map_or(app.log.len(), |at| (at + 1).max(rows).min(app.log.len()));
    let skip = end.saturating_sub(rows);
    let lines: Vec<Line> = app
        .log
        .iter()
        .enumerate()
        .skip(skip)
        .take(end - skip)
        .map(|(i, l)| {
            let mut spans = vec![
                Span::styled(format!("{} ", l.time), theme::dim()),
                Span::styled(format!("{:<9} ", l.label()), theme::decision(l.decision)),
                Span::styled(format!("{:<13} ", l.by()), theme::dim()),
                Span::raw(format!("{:<11} {:<8} ", l.agent, l.tool)),
                Span::raw(l.subject.clone()),
            ];
            if !l.text.is_empty() {
                spans.push(Span::styled(format!(" — {}", l.text), theme::dim()));
            }
            if !l.rule.is_empty() {
                spans.push(Span::styled(format!(" · {}", l.rule), theme::dim()));
            }
            let line = Line::from(spans);
            if opened == Some(i) {
                line.style(theme::focus())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" activity (l opens) ")),
        area,
    );
}

/// `text` cut to `room` characters, the cut marked with `…`.
pub(super) fn fit(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

fn age_text(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        _ => format!("{}h", secs / 3600),
    }
}
