//! The batch box: how many marked calls get the answer, each of them, and each call left out
//! with why, then the note or reason being typed and the box's keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::lists::fit;
use super::overlay::{box_width, draw_lines, key_line};
use super::theme;
use crate::agents::registry;
use crate::core::call::CallId;
use crate::core::escape::visible;
use crate::tui::app::{App, BatchKind};
use crate::tui::keymap::BATCH_KEYS;

pub fn draw_batch(frame: &mut Frame, area: Rect, app: &App) {
    let (Some(plan), Some(open)) = (app.batch_plan(), app.queue.batch.as_ref()) else {
        return;
    };
    let width = box_width(area, 72);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    let row = |id: CallId| {
        let text = app
            .dialogs
            .iter()
            .find(|o| o.dialog.id == id)
            .map(|o| {
                let caller = registry::caller(&o.dialog.call);
                format!("#{} {} · {}", id.0, o.short, visible(&caller))
            })
            .unwrap_or_default();
        fit(&text, inner.saturating_sub(4))
    };
    let n = plan.included.len();
    let mut lines = vec![Line::raw(format!(
        "{} of the {} marked call{} get {}:",
        n,
        n + plan.left.len(),
        if n + plan.left.len() == 1 { "" } else { "s" },
        plan.answer.name()
    ))];
    for (id, _) in &plan.included {
        lines.push(Line::from(vec![
            Span::styled("  ✓ ", theme::key()),
            Span::raw(row(*id)),
        ]));
    }
    if !plan.left.is_empty() {
        lines.push(Line::styled("Left out, to answer alone:", theme::title()));
    }
    for (id, why) in &plan.left {
        lines.push(Line::from(vec![
            Span::styled("  – ", theme::dim()),
            Span::raw(row(*id)),
        ]));
        lines.push(Line::styled(format!("    {}", why.why()), theme::dim()));
    }
    // Where a deny's reason cannot reach the model, say so before the reason is typed.
    let mute = plan
        .included
        .iter()
        .filter_map(|(id, _)| app.dialogs.iter().find(|o| o.dialog.id == *id))
        .filter(|o| !o.dialog.call.caps.reason)
        .count();
    if open.kind == BatchKind::Deny && mute > 0 {
        lines.push(Line::styled(
            format!("{mute} of these agents only learn the call was blocked, not the reason"),
            theme::dim(),
        ));
    }
    if open.kind.takes_text() {
        let label = match open.kind {
            BatchKind::Deny => "reason for the models (empty: \"denied by user\")",
            _ => "note (each model reads it)",
        };
        lines.push(Line::raw(""));
        lines.push(Line::styled(label, theme::dim()));
        lines.push(Line::raw(format!("› {}▏", visible(&open.text))));
    }
    lines.push(Line::raw(""));
    lines.push(key_line(BATCH_KEYS));
    draw_lines(frame, area, 72, " answer the marked calls ", lines);
}

#[cfg(test)]
#[path = "snapshot_batch_tests.rs"]
mod snapshot_tests;
