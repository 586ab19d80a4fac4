//! Snapshots of the states that keep a hurried hand from widening what runs: a pending mode,
//! the allow-all question, and the notice of what a mode change did.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;

use super::snapshot_tests::{app, draw, open};
use crate::core::event::Event;
use crate::core::mode::Mode;
use crate::tui::app::tests::{later, start};
use crate::tui::app::{App, Msg, Now};

fn shift_tab(app: &mut App, now: Now) {
    let key = KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT);
    app.update(Msg::Key(key), now);
}

fn with_rm_dialog(now: Now) -> App {
    let mut app = app(now);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), now);
    app
}

#[test]
fn a_pending_mode_shows_beside_the_mode_in_force() {
    let t = start();
    let mut app = with_rm_dialog(t);
    shift_tab(&mut app, later(t, 10));
    shift_tab(&mut app, later(t, 20));
    insta::assert_snapshot!(draw(&app, 100, 24));
}

#[test]
fn allow_all_asks_before_allowing_open_dialogs() {
    let t = start();
    let mut app = with_rm_dialog(t);
    for i in 0..3 {
        shift_tab(&mut app, later(t, 10 * i));
    }
    app.update(Msg::Tick, later(t, 2000));
    insta::assert_snapshot!(draw(&app, 100, 24));
}

#[test]
fn the_footer_keeps_what_the_last_mode_change_did() {
    let t = start();
    let mut app = with_rm_dialog(t);
    let key = KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE);
    app.update(Msg::Key(key), later(t, 10));
    let changed = Event::ModeChanged {
        mode: Mode::BlockAll,
        resolved: 0,
    };
    app.update(Msg::Barrier(changed), later(t, 20));
    app.update(Msg::Tick, later(t, 60_000));
    insta::assert_snapshot!(draw(&app, 100, 24));
}
