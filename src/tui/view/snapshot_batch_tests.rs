//! Snapshots of the queue arranged by the human at 80×24: the batch box over marked calls (one
//! left out, with why; a deny saying which agents will not read its reason) and the queue
//! filtered while the filter is typed.

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::super::snapshot_tests::{app, draw, key, open};
use crate::tui::app::tests::{later, start};

#[test]
fn the_batch_box_lists_the_calls_it_answers_and_those_left_out_at_80_by_24() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    open(&mut app, 2, "Bash", json!({"command": "rm -rf build"}), t);
    open(
        &mut app,
        3,
        "Bash",
        json!({"command": "cat ~/.ssh/id_rsa"}),
        t,
    );
    let t = later(t, 300);
    key(&mut app, KeyCode::Char('*'), t);
    key(&mut app, KeyCode::Char('j'), t);
    key(&mut app, KeyCode::Char('j'), t);
    key(&mut app, KeyCode::Char(' '), t);
    key(&mut app, KeyCode::Char('a'), t);
    let screen = draw(&app, 80, 24);
    assert!(
        screen.contains("2 of the 3 marked calls get allow always"),
        "{screen}"
    );
    assert!(screen.contains("allow always never covers it"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_queue_filtered_while_typing_shows_how_many_of_all_at_80_by_24() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "git status"}), t);
    open(&mut app, 2, "Bash", json!({"command": "rm -rf build"}), t);
    open(&mut app, 3, "Bash", json!({"command": "git diff"}), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char(' '), t);
    key(&mut app, KeyCode::Char('/'), t);
    for c in "git".chars() {
        key(&mut app, KeyCode::Char(c), t);
    }
    let screen = draw(&app, 80, 24);
    assert!(
        screen.contains("queue (2 of 3) · 1 marked · /git"),
        "{screen}"
    );
    assert!(!screen.contains("rm -rf build ·"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_batch_deny_says_how_many_agents_will_not_read_the_reason() {
    use crate::core::call::Agent;
    use crate::tui::app::Msg;
    use crate::tui::app::tests::{dialog, dialog_of};
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    let (d, _) = dialog(2, "Bash", json!({"command": "rm -rf dist"}), t);
    let mut call = (*d.call).clone();
    call.agent = Agent::new("cursor");
    call.caps.reason = false;
    let (d, p) = dialog_of(2, call, t);
    app.update(Msg::Opened(d, p), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char(' '), t);
    key(&mut app, KeyCode::Char('j'), t);
    key(&mut app, KeyCode::Char(' '), t);
    key(&mut app, KeyCode::Char('n'), t);
    for c in "wrong folder".chars() {
        key(&mut app, KeyCode::Char(c), t);
    }
    let screen = draw(&app, 80, 24);
    assert!(
        screen.contains("2 of the 2 marked calls get deny"),
        "{screen}"
    );
    assert!(screen.contains("1 of these agents only learn"), "{screen}");
    assert!(screen.contains("› wrong folder"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_filter_hiding_every_call_says_so_in_the_dialog_area_at_80_by_24() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    let t = later(t, 300);
    key(&mut app, KeyCode::Char('/'), t);
    for c in "zzz".chars() {
        key(&mut app, KeyCode::Char(c), t);
    }
    key(&mut app, KeyCode::Enter, t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("no call matches the filter"), "{screen}");
    assert!(screen.contains("Esc clears the filter"), "{screen}");
    assert!(!screen.contains("rm -rf build"), "{screen}");
    insta::assert_snapshot!(screen);
}
