//! Snapshots of modes beside the global one at 80x24: the `M` chooser for a session (each
//! mode's description whole, wrapped), the `T` chooser for a while, and the status bar with the while's countdown and a focused call whose
//! session has a mode of its own (the queue marks it too).

use std::time::Duration;

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use crate::core::call::Agent;
use crate::core::event::{Event, ModeTimer, TimerState};
use crate::core::mode::Mode;
use crate::core::mode_scope::ModeScope;
use crate::tui::app::Msg;
use crate::tui::app::tests::{later, start};
use crate::tui::view::snapshot_tests::{app, draw, key, open};

#[test]
fn the_session_mode_chooser() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    key(&mut app, KeyCode::Char('M'), t);
    key(&mut app, KeyCode::Char('j'), t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("For this session"), "{screen}");
    assert!(screen.contains("mode_ceiling"), "{screen}");
    // Every description whole at 80 columns, wrapped under its column where it is long.
    for words in [
        "unproven shell lines race the classifier ",
        "│             against you ",
        "everything else is refused while the agent│",
        "│             plans ",
    ] {
        assert!(screen.contains(words), "{words:?} in {screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn the_mode_for_a_while_chooser() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('T'), t);
    let screen = draw(&app, 80, 24);
    assert!(
        screen.contains("For 30 min, then back to allow-read"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_status_bar_counts_down_the_while_and_names_a_sessions_own_mode() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    open(&mut app, 2, "Bash", json!({"command": "make"}), t);
    app.update(
        Msg::Barrier(Event::ModeTimer(TimerState::Running(ModeTimer {
            mode: Mode::Auto,
            back_to: Mode::AllowRead,
            until: t.at + Duration::from_secs(30 * 60),
        }))),
        t,
    );
    app.mode = Mode::Auto;
    app.update(
        Msg::Barrier(Event::ScopeMode {
            scope: ModeScope::Session {
                agent: Agent::new("claude-code"),
                session: "5f0c1a2b-session".into(),
            },
            mode: Some(Mode::BlockAll),
            resolved: 0,
            refusing: 0,
        }),
        t,
    );
    let t = later(t, 19_000);
    app.update(Msg::Tick, t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("29:41 → allow-read"), "{screen}");
    assert!(screen.contains("this session: block-all"), "{screen}");
    assert!(screen.contains("[block-all]"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn allow_all_for_a_while_asks_to_be_confirmed_with_dialogs_open() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    let t = later(t, 500);
    key(&mut app, KeyCode::Char('T'), t);
    key(&mut app, KeyCode::Char('k'), t);
    key(&mut app, KeyCode::Char('k'), t);
    key(&mut app, KeyCode::Enter, t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("allow all?"), "{screen}");
    assert!(screen.contains("for 30 min"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn allow_all_for_a_session_asks_to_be_confirmed_with_its_calls_open() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    let t = later(t, 500);
    key(&mut app, KeyCode::Char('M'), t);
    key(&mut app, KeyCode::Char('j'), t);
    key(&mut app, KeyCode::Enter, t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("allow all?"), "{screen}");
    assert!(screen.contains("its mode changes"), "{screen}");
    insta::assert_snapshot!(screen);
}
