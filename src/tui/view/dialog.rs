//! The focused dialog: who asks, what they said they are doing, the subject drawn for its
//! kind, the classifier's part in it, and the text box when one is open.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::theme;
use crate::core::caps::AllowEffect;
use crate::core::escape::visible;
use crate::core::event::ClassifierState;
use crate::core::route::Route;
use crate::tui::app::{App, DialogState, Open};
use crate::tui::preview::{DiffTag, Preview};

pub fn draw_dialog(frame: &mut Frame, area: Rect, app: &App) {
    let Some(open) = app.focused() else {
        let block = Block::bordered()
            .title(" no open dialogs ")
            .border_style(theme::dim());
        let text = Paragraph::new(vec![
            Line::raw(""),
            Line::styled(
                "  Waiting for agents. Calls that need you appear here.",
                theme::dim(),
            ),
        ])
        .block(block);
        frame.render_widget(text, area);
        return;
    };
    let (subject_area, box_area) = match &app.state {
        DialogState::Writing(_) if area.height >= 8 => {
            let box_height = (area.height / 3).clamp(3, 7);
            let [a, b] =
                Layout::vertical([Constraint::Min(3), Constraint::Length(box_height)]).areas(area);
            (a, Some(b))
        }
        DialogState::Writing(_) => (Rect::default(), Some(area)),
        DialogState::Choosing => (area, None),
    };
    if !subject_area.is_empty() {
        draw_subject(frame, subject_area, app, open);
    }
    if let (Some(box_area), DialogState::Writing(b)) = (box_area, &app.state) {
        let mut area_widget = b.area.clone();
        let block = Block::bordered()
            .title(b.title())
            .border_style(Style::default().fg(Color::Cyan));
        let inner = block.inner(box_area);
        area_widget.set_block(block);
        frame.render_widget(&area_widget, box_area);
        // What a pattern will match, in words, on the box's last two rows (the pattern itself
        // is one line).
        if let Some(meaning) = b.meaning()
            && inner.height >= 2
        {
            let style = if meaning.starts_with(" BROAD") {
                theme::notice()
            } else {
                Style::default().fg(Color::Cyan)
            };
            let rows = inner.height.saturating_sub(1).min(2);
            let [_, words] =
                Layout::vertical([Constraint::Min(1), Constraint::Length(rows)]).areas(inner);
            let text = Paragraph::new(Line::styled(visible(meaning.trim()).into_owned(), style))
                .wrap(Wrap { trim: true });
            frame.render_widget(text, words);
        }
    }
}

fn draw_subject(frame: &mut Frame, area: Rect, app: &App, open: &Open) {
    let call = &open.dialog.call;
    let mut lines = vec![Line::from(vec![
        Span::styled(
            visible(&call.agent.to_string()).into_owned(),
            theme::title(),
        ),
        Span::styled(
            format!(
                " · session {} · {}",
                short_id(&call.session),
                visible(&call.cwd)
            ),
            theme::dim(),
        ),
    ])];
    if let Some(description) = call.input.get("description").and_then(|d| d.as_str()) {
        lines.push(Line::styled(
            format!("“{}”", visible(description)),
            Style::default().add_modifier(Modifier::ITALIC),
        ));
    }
    lines.push(Line::raw(""));
    subject_lines(&open.preview, &mut lines);
    if let Some(line) = race_line(open) {
        lines.push(Line::raw(""));
        lines.push(line);
    }
    if call.caps.allow == AllowEffect::Pass {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!(
                "allowing here only passes the call on: {} still applies its own checks",
                visible(&call.agent.to_string())
            ),
            theme::dim(),
        ));
    }
    let inner_width = area.width.saturating_sub(2).max(1) as usize;
    let rows: usize = lines
        .iter()
        .map(|l| l.width().max(1).div_ceil(inner_width))
        .sum();
    let visible_rows = area.height.saturating_sub(2) as usize;
    let max_scroll = rows.saturating_sub(visible_rows);
    let scroll = (app.scroll as usize).min(max_scroll);
    let mut block = Block::bordered()
        .title(Line::from(vec![
            Span::styled(format!(" {} ", open.dialog.id), theme::title()),
            Span::styled(format!("{} ", visible(&call.tool)), theme::title()),
            Span::styled(format!("{} ", open.dialog.assessment.class), theme::dim()),
        ]))
        .border_style(if app.arming() {
            theme::dim()
        } else {
            Style::default().fg(Color::Cyan)
        });
    if scroll < max_scroll {
        let more = max_scroll - scroll;
        block = block.title_bottom(Line::styled(
            format!(
                " ↓ {more} more line{} (PgDn) ",
                if more == 1 { "" } else { "s" }
            ),
            theme::key(),
        ));
    } else if scroll > 0 {
        block = block.title_bottom(Line::styled(" ↑ PgUp ", theme::key()));
    }
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false })
        .scroll((scroll as u16, 0));
    frame.render_widget(paragraph, area);
}

fn subject_lines(preview: &Preview, lines: &mut Vec<Line<'static>>) {
    match preview {
        Preview::Shell { line, why } => {
            for (i, text) in line.lines().enumerate() {
                let prompt = if i == 0 { "$ " } else { "  " };
                lines.push(Line::from(vec![
                    Span::styled(prompt, theme::dim()),
                    Span::styled(text.to_string(), theme::title()),
                ]));
            }
            lines.push(Line::from(vec![
                Span::styled("why ", theme::dim()),
                Span::raw(why.clone()),
            ]));
        }
        Preview::Write { path, content } => {
            lines.push(Line::styled(format!("write {path}"), theme::title()));
            lines.extend(content.lines().map(|l| Line::raw(l.to_string())));
        }
        Preview::Diff {
            path,
            lines: diff,
            in_context,
        } => {
            let note = if *in_context {
                ""
            } else {
                " (file not readable: old → new text)"
            };
            // A patch names its files in its own headers, one per file.
            if !matches!(diff.first(), Some((DiffTag::File, _))) {
                lines.push(Line::styled(format!("edit {path}{note}"), theme::title()));
            }
            for (tag, text) in diff {
                let (mark, style) = match tag {
                    DiffTag::File => ("", theme::title()),
                    DiffTag::Hunk => ("", Style::default().fg(Color::Cyan)),
                    DiffTag::Context => (" ", Style::default()),
                    DiffTag::Removed => ("-", Style::default().fg(Color::Red)),
                    DiffTag::Added => ("+", Style::default().fg(Color::Green)),
                };
                lines.push(Line::styled(format!("{mark}{text}"), style));
            }
        }
        Preview::Mcp {
            server,
            tool,
            arguments,
        } => {
            lines.push(Line::from(vec![
                Span::styled("MCP ", theme::dim()),
                Span::styled(format!("{server} › {tool}"), theme::title()),
            ]));
            lines.extend(arguments.lines().map(|l| Line::raw(l.to_string())));
        }
        Preview::Other { input } => {
            lines.extend(input.lines().map(|l| Line::raw(l.to_string())));
        }
    }
}

/// The classifier's part in a racing dialog, if any.
fn race_line(open: &Open) -> Option<Line<'static>> {
    let text = match (&open.classifier, open.route) {
        (_, _) if open.claimed && open.route == Route::Race => {
            "classifier: set aside, you have this one".to_string()
        }
        (Some(ClassifierState::Asking), _) => "classifier: asking…".to_string(),
        (Some(ClassifierState::Advised(advice)), _) => super::advice::advice_text(advice),
        (Some(ClassifierState::Failed(why)), _) => {
            format!("classifier failed: {} (your call)", visible(why))
        }
        (None, Route::Race) => "classifier: not set up, your call".to_string(),
        (None, _) => return None,
    };
    Some(Line::styled(text, Style::default().fg(Color::Magenta)))
}

/// The first 8 characters of a session id: enough to tell sessions apart.
pub fn short_id(session: &str) -> String {
    visible(&session.chars().take(8).collect::<String>()).into_owned()
}
