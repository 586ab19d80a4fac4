//! The queue of open calls and the activity log. Both draw only the rows that fit, so a
//! thousand open calls or ten thousand log lines cost no more than a screenful.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::dialog::short_id;
use super::theme;
use crate::core::call::ToolKind;
use crate::core::escape::visible;
use crate::tui::app::App;

pub fn draw_queue(frame: &mut Frame, area: Rect, app: &App) {
    let rows = area.height.saturating_sub(2) as usize;
    let n = app.dialogs.len();
    // Keep the focused row in view: start a page before it when needed.
    let start = if rows == 0 || app.focus < rows {
        0
    } else {
        app.focus + 1 - rows
    };
    let lines: Vec<Line> = app
        .dialogs
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, open)| {
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
            let age = format!(" {}", age_text(age));
            let tool = match &open.dialog.assessment.kind {
                ToolKind::Mcp { tool, .. } => tool.as_str(),
                _ => call.tool.as_str(),
            };
            let text = format!(
                "{} {} {} {}",
                visible(&call.agent.to_string()),
                short_id(&call.session),
                visible(tool),
                open.short
            );
            let room = (area.width as usize).saturating_sub(3 + age.len());
            Line::from(vec![
                Span::styled(if focused { "›" } else { " " }, style),
                Span::styled(fit(&text, room), style),
                Span::styled(age, theme::dim()),
            ])
        })
        .collect();
    let title = format!(" queue ({n}) ");
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title)),
        area,
    );
}

pub fn draw_log(frame: &mut Frame, area: Rect, app: &App) {
    let rows = area.height.saturating_sub(2) as usize;
    let skip = app.log.len().saturating_sub(rows);
    let lines: Vec<Line> = app
        .log
        .iter()
        .skip(skip)
        .map(|l| {
            let mut spans = vec![
                Span::styled(format!("{} ", l.time), theme::dim()),
                Span::styled(format!("{:<6}", l.decision), theme::decision(l.decision)),
                Span::styled(format!("{:<13} ", l.decider), theme::dim()),
                Span::raw(format!("{} {} ", l.agent, l.tool)),
                Span::raw(l.subject.clone()),
            ];
            if !l.text.is_empty() {
                spans.push(Span::styled(format!(" — {}", l.text), theme::dim()));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" activity ")),
        area,
    );
}

/// `text` cut to `room` characters, the cut marked with `…`.
fn fit(text: &str, room: usize) -> String {
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
