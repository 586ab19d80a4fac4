//! One activity log entry opened whole: the rows of the log are cut to the width, so the entry
//! the human points at is shown with its whole subject, its reason or note, how static
//! analysis routed it, and who decided.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::overlay::{box_width, centered, key_line, rows_of};
use super::theme;
use crate::core::audit::Ending;
use crate::tui::app::App;
use crate::tui::keymap::ACTIVITY_KEYS;

pub fn draw_activity(frame: &mut Frame, area: Rect, app: &App) {
    let Some(line) = app.log.get(app.log_focus) else {
        return;
    };
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:>9}  "), theme::dim()),
            Span::raw(value),
        ])
    };
    let mut lines = vec![
        field("at", line.time.clone()),
        field("agent", format!("{} {}", line.agent, line.tool)),
        Line::from(vec![
            Span::styled(format!("{:>9}  ", "decision"), theme::dim()),
            Span::styled(line.label(), theme::decision(line.decision)),
            Span::raw(format!(" by {}", line.by())),
        ]),
    ];
    if !line.rule.is_empty() {
        lines.push(field("rule", line.rule.clone()));
    }
    if !line.routing.is_empty() {
        lines.push(field("routing", line.routing.clone()));
    }
    if !line.text.is_empty() {
        let name = if line.decision == Ending::Allow {
            "note"
        } else {
            "reason"
        };
        lines.push(field(name, line.text.clone()));
    }
    lines.push(Line::raw(""));
    lines.extend(line.full.lines().map(|l| Line::raw(l.to_string())));
    lines.push(Line::raw(""));
    lines.push(key_line(ACTIVITY_KEYS));
    let inner = usize::from(box_width(area, 78).saturating_sub(2)).max(1);
    let rows = rows_of(&lines, inner);
    let popup = centered(area, 78, u16::try_from(rows + 2).unwrap_or(u16::MAX));
    let title = format!(" activity {} of {} ", app.log_focus + 1, app.log.len());
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(title)),
        popup,
    );
}
