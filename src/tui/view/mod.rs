//! Drawing only: the view reads the model and paints a frame. It never changes the model.
//!
//! What each size keeps: the status bar and the footer always; the activity log only from 16
//! rows (below that the dialog needs the room), and below 30 rows not while a box is open on
//! the dialog; beside the dialog from 90 columns, or below it
//! otherwise, the queue, at least three rows so its count and the focused call stay in view.

mod activity;
mod advice;
mod batch;
mod chooser;
mod dialog;
mod lists;
mod overlay;
mod status;
mod theme;
mod web;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};

use super::app::{App, Screen};

/// Below this many rows the activity log gives its room to the dialog.
const LOG_FROM_ROWS: u16 = 16;

/// Paints the whole console.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    // While a box is open on a dialog below 30 rows, the log gives its rows to the dialog.
    let writing = matches!(app.state, super::app::DialogState::Writing(_));
    let log_height = if area.height < LOG_FROM_ROWS || (writing && area.height < 30) {
        0
    } else {
        (area.height / 4).clamp(3, 10)
    };
    let [status_area, body, log_area, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(log_height),
        Constraint::Length(1),
    ])
    .areas(area);
    status::draw_status(frame, status_area, app);
    let wide = body.width >= 90;
    let [dialog_area, queue_area] = if wide {
        Layout::horizontal([Constraint::Min(50), Constraint::Length(38)]).areas(body)
    } else {
        let queue_height = (app.rows().len() as u16 + 2).clamp(3, (body.height * 2 / 5).max(3));
        Layout::vertical([Constraint::Min(3), Constraint::Length(queue_height)]).areas(body)
    };
    dialog::draw_dialog(frame, dialog_area, app);
    lists::draw_queue(frame, queue_area, app);
    if !log_area.is_empty() {
        lists::draw_log(frame, log_area, app);
    }
    status::draw_footer(frame, footer, app);
    // A box over the console leaves the footer in view: it offers that box's keys.
    let area = ratatui::layout::Rect {
        height: area.height.saturating_sub(1),
        ..area
    };
    match app.screen {
        Screen::Main => {}
        Screen::Help => overlay::draw_help(frame, area, app),
        Screen::ConfirmQuit => overlay::draw_confirm_quit(frame, area, app),
        Screen::ConfirmAllowAll => overlay::draw_confirm_allow_all(frame, area, app),
        Screen::Rules => overlay::draw_rules(frame, area, app),
        Screen::Web => web::draw_web(frame, area, app),
        Screen::Activity => activity::draw_activity(frame, area, app),
        Screen::Batch => batch::draw_batch(frame, area, app),
        Screen::ModeChooser => chooser::draw_chooser(frame, area, app),
    }
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod snapshot_tests;

#[cfg(test)]
#[path = "snapshot_guard_tests.rs"]
mod snapshot_guard_tests;

#[cfg(test)]
#[path = "snapshot_box_tests.rs"]
mod snapshot_box_tests;

#[cfg(test)]
#[path = "snapshot_edit_tests.rs"]
mod snapshot_edit_tests;

#[cfg(test)]
#[path = "snapshot_plan_tests.rs"]
mod snapshot_plan_tests;
