//! Snapshots of what each terminal size keeps, and of the console states added for newcomers:
//! a Write that replaces a file, the ask timeout, an activity entry opened whole, `r` with no
//! classifier.

use std::time::Duration;

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::{app, draw, key, open, passed, write_input};
use crate::core::decision::{Decider, Decision};
use crate::preview::Preview;
use crate::tui::app::tests::{dialog, later, start};
use crate::tui::app::{App, Msg, Now};

/// A console with `n` open calls and a few lines of activity, one of them long.
fn busy(n: u64, t: Now) -> App {
    let mut app = app(t);
    app.ask_timeout = Some(Duration::from_secs(540));
    passed(
        &mut app,
        100,
        "Read",
        json!({"file_path": "Cargo.toml"}),
        Decision::allow(),
        Decider::Rule,
    );
    app.log.back_mut().unwrap().decision = crate::core::audit::Ending::Withdrawn;
    passed(
        &mut app,
        101,
        "Bash",
        json!({"command": "cargo test --workspace --all-features -- --include-ignored --test-threads 1"}),
        Decision::deny("run the focused test only, the whole suite takes an hour"),
        Decider::Human,
    );
    for id in 1..=n {
        let t = later(t, id * 7_000);
        open(
            &mut app,
            id,
            "Bash",
            json!({"command": format!("rm -rf build/cache-{id}")}),
            t,
        );
    }
    app.update(Msg::Tick, later(t, 70_000));
    app
}

#[test]
fn a_terminal_of_40_by_10_keeps_the_dialog_and_a_queue_row() {
    let t = start();
    let screen = draw(&busy(5, t), 40, 10);
    assert!(screen.contains("rm -rf"), "{screen}");
    assert!(screen.contains("queue (5)"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_terminal_of_60_by_15_drops_the_log_for_the_dialog() {
    let t = start();
    let screen = draw(&busy(5, t), 60, 15);
    assert!(
        screen.contains("↓ 2 more"),
        "the queue says what it hides:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn a_terminal_of_80_by_24_shows_everything_in_columns() {
    let t = start();
    let screen = draw(&busy(5, t), 80, 24);
    assert!(!screen.contains("withdrawnrule"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_terminal_of_120_by_40_puts_the_queue_beside_the_dialog() {
    let t = start();
    insta::assert_snapshot!(draw(&busy(12, t), 120, 40));
}

#[test]
fn the_queue_hints_at_rows_above_and_below_the_focused_one() {
    let t = start();
    let mut app = busy(9, t);
    for _ in 0..5 {
        key(&mut app, KeyCode::Char('j'), later(t, 71_000));
    }
    let screen = draw(&app, 60, 15);
    assert!(screen.contains("↑ 3 ↓ 3 more"), "{screen}");
}

#[test]
fn the_dialog_and_the_queue_show_the_time_left_before_the_ask_timeout() {
    let t = start();
    let mut app = app(t);
    app.ask_timeout = Some(Duration::from_secs(540));
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    app.update(Msg::Tick, later(t, 500_000));
    let screen = draw(&app, 100, 20);
    assert!(screen.contains("0:40 left"), "{screen}");
    assert!(screen.contains("40s left"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_write_over_an_existing_file_is_drawn_as_replacing_it() {
    let t = start();
    let mut app = app(t);
    let (d, _) = dialog(1, "Write", write_input(), t);
    let preview = Preview::replacing(
        "notes/todo.md",
        "# Todo\n\n- [x] ship the console\n",
        "# Todo\n\n- [ ] ship the console\n- [ ] write the README\n",
    );
    app.update(Msg::Opened(d, preview), t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("replace notes/todo.md"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_selected_activity_entry_opens_whole() {
    let t = start();
    let mut app = busy(1, t);
    let t = later(t, 71_000);
    key(&mut app, KeyCode::Char('l'), t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("the whole suite takes an hour"), "{screen}");
    assert!(
        screen.contains("l/Esc close"),
        "the footer offers the box's keys:\n{screen}"
    );
    key(&mut app, KeyCode::Char('k'), t);
    let older = draw(&app, 80, 24);
    assert!(older.contains("activity 1 of 2"), "{older}");
    insta::assert_snapshot!(format!("{screen}\n{older}"));
}

#[test]
fn r_with_no_classifier_says_why_in_the_footer() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('r'), t);
    let screen = draw(&app, 100, 12);
    assert!(screen.contains("none is set up"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_help_at_80_by_24_fills_the_width_and_leaves_its_keys_in_the_footer() {
    let t = start();
    let mut app = busy(2, t);
    key(&mut app, KeyCode::Char('?'), later(t, 71_000));
    let screen = draw(&app, 80, 24);
    let rows: Vec<&str> = screen.lines().collect();
    assert!(rows[23].contains("?/Esc close"), "{screen}");
    for row in &rows[..23] {
        let cells: Vec<char> = row.trim_matches('"').chars().collect();
        assert!(
            matches!(cells[0], '│' | '┌' | '└') && matches!(cells[79], '│' | '┐' | '┘'),
            "only the help's own border at the edges: {row}"
        );
        assert!(
            !row.contains("││") && !row.contains("│┌") && !row.contains("┘│"),
            "nothing of the screen below shows beside the help: {row}"
        );
    }
    insta::assert_snapshot!(screen);
}
