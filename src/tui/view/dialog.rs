//! The focused dialog: who asks, what they said they are doing, the subject drawn for its
//! kind, the classifier's part in it, and the text box when one is open.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::theme;
use crate::agents::registry;
use crate::core::caps::AllowEffect;
use crate::core::escape::visible;
use crate::core::event::ClassifierState;
use crate::core::route::Route;
use crate::preview::{DiffTag, Preview};
use crate::tui::app::{App, DialogState, Open};
use crate::tui::textbox::TextBox;

pub fn draw_dialog(frame: &mut Frame, area: Rect, app: &App) {
    if let Some(waiting) = app.all_hidden() {
        draw_all_hidden(frame, area, app, waiting);
        return;
    }
    let Some(open) = app.focused() else {
        let block = Block::bordered()
            .title(" no open dialogs ")
            .border_style(theme::dim());
        let live = app.sessions.len();
        let state = match live {
            0 => "Waiting for agents. Calls that need you appear here.".to_string(),
            1 => "1 agent session is live; nothing waits on you.".to_string(),
            n => format!("{n} agent sessions are live; nothing waits on you."),
        };
        let connect = match live {
            0 => "To connect an agent, run in another terminal one of:",
            _ => "To connect another agent, run in another terminal one of:",
        };
        let command = visible(&app.command);
        let text = Paragraph::new(vec![
            Line::raw(""),
            Line::styled(state, theme::dim()),
            Line::raw(""),
            Line::raw(connect),
            Line::styled(
                format!(
                    "  {}",
                    registry::install_hint().replacen("gatehouse", &command, 1)
                ),
                theme::key(),
            ),
            Line::styled(
                format!("  {command} attach opencode http://127.0.0.1:4096"),
                theme::key(),
            ),
            Line::styled(
                "then start the agent; ? lists the keys, q quits.",
                theme::dim(),
            ),
        ])
        .wrap(Wrap { trim: false })
        .block(block.padding(ratatui::widgets::Padding::horizontal(1)));
        frame.render_widget(text, area);
        return;
    };
    let (subject_area, box_area) = match &app.state {
        DialogState::Writing(b) if area.height >= SUBJECT_KEEPS + 3 => {
            let box_height = box_height(b, area.width).min(area.height - SUBJECT_KEEPS);
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
        // What a pattern will match and where it lasts, in words, below the pattern (one
        // line): the rows the box was given for it.
        if let Some(meaning) = b.meaning()
            && inner.height >= 2
        {
            let style = if meaning.starts_with(" BROAD") || meaning.starts_with(" REFUSED") {
                theme::notice()
            } else {
                Style::default().fg(Color::Cyan)
            };
            let rows = inner.height.saturating_sub(text_rows(b));
            let [_, words] =
                Layout::vertical([Constraint::Min(1), Constraint::Length(rows.max(1))])
                    .areas(inner);
            let text = Paragraph::new(Line::styled(visible(meaning.trim()).into_owned(), style))
                .wrap(Wrap { trim: true });
            frame.render_widget(text, words);
        }
    }
}

/// The dialog area while the filter hides every open call: no call is focused, so no decision
/// key answers anything, and it says how to see them again.
fn draw_all_hidden(frame: &mut Frame, area: Rect, app: &App, waiting: usize) {
    let block = Block::bordered()
        .title(" no call matches the filter ")
        .border_style(Style::default().fg(Color::Yellow));
    let calls = match waiting {
        1 => "1 call waits".to_string(),
        n => format!("{n} calls wait"),
    };
    let text = Paragraph::new(vec![
        Line::raw(""),
        Line::raw(format!(
            "No open call matches the filter /{}; {calls} behind it.",
            visible(&app.queue.filter)
        )),
        Line::raw(""),
        Line::styled(
            "Decision keys answer nothing while no call is shown. Esc clears the filter; / edits it.",
            theme::dim(),
        ),
    ])
    .wrap(Wrap { trim: false })
    .block(block.padding(ratatui::widgets::Padding::horizontal(1)));
    frame.render_widget(text, area);
}

/// While a box is open the subject keeps at least this many rows (its border, who asks and the
/// first line of what): the box gives up its rows first.
const SUBJECT_KEEPS: u16 = 5;

/// The rows a box wants: its text (a reason or note at least three lines, up to seven) and,
/// for a pattern, what it matches wrapped at the box's width, within its border.
fn box_height(b: &TextBox, width: u16) -> u16 {
    let inner = width.saturating_sub(2).max(1);
    match b.meaning() {
        Some(meaning) => 2 + text_rows(b) + wrapped_rows(meaning.trim(), inner),
        None => 2 + text_rows(b).clamp(3, 5),
    }
}

fn text_rows(b: &TextBox) -> u16 {
    u16::try_from(b.area.lines().len().max(1)).unwrap_or(u16::MAX)
}

/// How many rows `text` takes wrapped as the box draws it, at `width` columns.
fn wrapped_rows(text: &str, width: u16) -> u16 {
    let rows = Paragraph::new(Line::raw(text))
        .wrap(Wrap { trim: true })
        .line_count(width);
    u16::try_from(rows).unwrap_or(u16::MAX)
}

/// The dialog: who asks and what they said (pinned on top), the subject (the part that
/// scrolls), and the analyser's reason with the classifier's part (pinned at the bottom), so a
/// long command never scrolls the question or its "why" out of view.
fn draw_subject(frame: &mut Frame, area: Rect, app: &App, open: &Open) {
    let call = &open.dialog.call;
    let mut head = vec![Line::from(vec![
        Span::styled(
            visible(&registry::caller(call)).into_owned(),
            theme::title(),
        ),
        Span::styled(
            format!(" · session {} · {}", session_of(call), visible(&call.cwd)),
            theme::dim(),
        ),
    ])];
    if let Some(description) = call.input.get("description").and_then(|d| d.as_str()) {
        head.push(Line::styled(
            format!("“{}”", visible(description)),
            Style::default().add_modifier(Modifier::ITALIC),
        ));
    }
    let mut body = Vec::new();
    subject_lines(&open.preview, &mut body);
    let mut foot = Vec::new();
    if let Preview::Shell { why, .. } = &open.preview {
        foot.push(Line::from(vec![
            Span::styled("why ", theme::dim()),
            Span::raw(why.clone()),
        ]));
    }
    if let Some(line) = race_line(open) {
        foot.push(line);
    }
    if call.caps.allow == AllowEffect::Pass {
        foot.push(Line::styled(
            format!(
                "allowing here only passes the call on: {} still applies its own checks",
                visible(registry::display_name(&call.agent))
            ),
            theme::dim(),
        ));
    }
    let mut title = vec![
        Span::styled(format!(" {} ", open.dialog.id), theme::title()),
        Span::styled(format!("{} ", visible(&call.tool)), theme::title()),
        Span::styled(format!("{} ", open.dialog.assessment.class), theme::dim()),
    ];
    if let Some(left) = app.time_left(open) {
        let secs = left.as_secs();
        title.push(Span::styled(
            format!("· {}:{:02} left ", secs / 60, secs % 60),
            if secs < 60 {
                theme::notice()
            } else {
                theme::dim()
            },
        ));
    }
    let mut block = Block::bordered()
        .title(Line::from(title))
        .border_style(if app.arming() {
            theme::dim()
        } else {
            Style::default().fg(Color::Cyan)
        });
    let inner = block.inner(area);
    let width = usize::from(inner.width).max(1);
    // Rows as the paragraph wraps them (by words), not by characters.
    let rows_of = |lines: &[Line<'static>]| -> u16 {
        let rows = Paragraph::new(lines.to_vec())
            .wrap(Wrap { trim: false })
            .line_count(u16::try_from(width).unwrap_or(u16::MAX));
        u16::try_from(rows).unwrap_or(u16::MAX)
    };
    // The subject keeps at least one row; the pinned parts share what is left, the head first.
    let head_rows = rows_of(&head).min(inner.height.saturating_sub(1));
    let foot_rows = rows_of(&foot).min(inner.height.saturating_sub(head_rows + 1));
    // A subject that fits leaves the reason right under it; one that does not scrolls between.
    let body_rows = rows_of(&body)
        .min(inner.height.saturating_sub(head_rows + foot_rows))
        .max(1);
    let [head_area, body_area, foot_area, _] = Layout::vertical([
        Constraint::Length(head_rows),
        Constraint::Length(body_rows),
        Constraint::Length(foot_rows),
        Constraint::Min(0),
    ])
    .areas(inner);
    let rows = usize::from(rows_of(&body));
    let max_scroll = rows.saturating_sub(usize::from(body_area.height));
    let scroll = (app.scroll as usize).min(max_scroll);
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
    frame.render_widget(block, area);
    let paragraph = |lines: Vec<Line<'static>>| Paragraph::new(lines).wrap(Wrap { trim: false });
    frame.render_widget(paragraph(head), head_area);
    frame.render_widget(paragraph(body).scroll((scroll as u16, 0)), body_area);
    frame.render_widget(paragraph(foot), foot_area);
}

fn subject_lines(preview: &Preview, lines: &mut Vec<Line<'static>>) {
    match preview {
        Preview::Shell { line, .. } => {
            for (i, text) in line.lines().enumerate() {
                let prompt = if i == 0 { "$ " } else { "  " };
                lines.push(Line::from(vec![
                    Span::styled(prompt, theme::dim()),
                    Span::styled(text.to_string(), theme::title()),
                ]));
            }
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
            diff_body(diff, lines);
        }
        Preview::Replace { path, lines: diff } => {
            lines.push(Line::styled(
                format!("replace {path} (it exists: the change to its content)"),
                theme::notice(),
            ));
            diff_body(diff, lines);
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
        Preview::Plan { text, file } => {
            let kept = file
                .as_ref()
                .map_or(String::new(), |f| format!(" (kept in {f})"));
            lines.push(Line::styled(
                format!("the agent's plan, for your approval{kept}"),
                theme::title(),
            ));
            lines.extend(text.lines().map(|l| Line::raw(l.to_string())));
        }
        Preview::Other { input } => {
            lines.extend(input.lines().map(|l| Line::raw(l.to_string())));
        }
    }
}

fn diff_body(diff: &[(DiffTag, String)], lines: &mut Vec<Line<'static>>) {
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

/// The classifier's part in a dialog: the race, or the advice the human asked for.
fn race_line(open: &Open) -> Option<Line<'static>> {
    let text = match (&open.classifier, open.route) {
        (None, Route::Race) if open.claimed => {
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
/// The session a call belongs to, as the console names it: its short id, and the sub-agent
/// inside it that made the call, if the agent said (`84302c7a › Explore`).
pub fn session_of(call: &crate::core::call::Call) -> String {
    match &call.subagent {
        Some(sub) => format!("{} › {}", short_id(&call.session), visible(sub.label())),
        None => short_id(&call.session),
    }
}

pub fn short_id(session: &str) -> String {
    visible(&session.chars().take(8).collect::<String>()).into_owned()
}
