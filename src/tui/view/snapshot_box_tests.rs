//! Snapshots of the dialog's boxes that had none: "allow always" on a read-only command (its
//! program and subcommand, any operands) and on an edit (its file), and the deny box of an
//! event whose reason cannot reach the model (Cursor's `beforeReadFile`), which asks for a
//! reason for the log instead.

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::snapshot_tests::{app, draw, key, open};
use crate::core::call::Agent;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use crate::tui::app::Msg;
use crate::tui::app::tests::{dialog, dialog_of, later, start};

#[test]
fn allow_always_on_a_read_only_command_offers_its_program_and_subcommand_with_any_operands() {
    let t = start();
    let mut app = app(t);
    let line = "git log --oneline -5 src/main.rs";
    open(&mut app, 1, "Bash", json!({ "command": line }), t);
    key(&mut app, KeyCode::Char('a'), later(t, 300));
    let screen = draw(&app, 100, 24);
    assert!(screen.contains("│git log *"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn allow_always_on_an_edit_offers_the_file() {
    let t = start();
    let mut app = app(t);
    let edit = json!({"file_path": "src/lib.rs", "old_string": "a", "new_string": "b"});
    open(&mut app, 1, "Edit", edit, t);
    key(&mut app, KeyCode::Char('a'), later(t, 300));
    let screen = draw(&app, 100, 24);
    assert!(screen.contains("edits of the file"), "{screen}");
    assert!(screen.contains("│src/lib.rs"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_deny_whose_reason_cannot_reach_the_model_asks_for_one_for_the_log() {
    let t = start();
    let mut app = app(t);
    let (d, _) = dialog(1, "Read", json!({"file_path": ".env"}), t);
    let mut call = (*d.call).clone();
    call.agent = Agent::new("cursor");
    call.caps = Caps {
        allow: AllowEffect::Grant,
        note: NoteEffect::None,
        reason: false,
        input: crate::core::caps::InputEffect::Fixed,
    };
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    key(&mut app, KeyCode::Char('n'), later(t, 300));
    let screen = draw(&app, 100, 24);
    assert!(screen.contains("reason for the log"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// At 60×20 a long reason being typed does not push the subject out: it keeps who asks and the
/// command, and the reason box scrolls within its rows.
#[test]
fn a_long_reason_at_60_by_20_leaves_the_subject_its_first_lines() {
    let t = start();
    let mut app = app(t);
    open(
        &mut app,
        1,
        "Bash",
        json!({"command": "rm -rf build/cache"}),
        t,
    );
    key(&mut app, KeyCode::Char('n'), later(t, 300));
    let reason = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine";
    app.update(Msg::Paste(reason.into()), later(t, 400));
    let screen = draw(&app, 60, 20);
    assert!(screen.contains("Claude Code · session"), "{screen}");
    assert!(screen.contains("$ rm -rf build/cache"), "{screen}");
    insta::assert_snapshot!(screen);
}
