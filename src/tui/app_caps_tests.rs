//! How the console honours what the focused dialog's agent can do (`Call::caps`): keys it
//! cannot honour do nothing, and the boxes say who will read what.

use super::tests::{app, dialog_of, key, later, start};
use super::*;
use crate::agents::codex;
use crate::core::call::Call;
use crate::core::caps::{AllowEffect, Caps, NoteEffect};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn esc() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE))
}

/// Codex's real `PermissionRequest` for `rm -rf build`: it grants, and carries no note.
fn codex_permission_request() -> Call {
    let stdin = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/codex/permissionrequest-bash.json"
    ));
    codex::parse(stdin).unwrap().1
}

#[test]
fn e_is_ignored_where_no_note_can_travel() {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = dialog_of(1, codex_permission_request(), t0);
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    assert!(app.update(key('e'), t).is_empty(), "no box, no claim");
    assert!(matches!(app.state, DialogState::Choosing));
    assert!(!app.dialogs[0].claimed);
    assert_eq!(
        app.update(key('y'), t),
        [Effect::Answer(CallId(1), HumanAnswer::Allow { note: None })],
        "the keys it can honour still work"
    );
}

#[test]
fn the_boxes_say_who_reads_what_where_the_agent_limits_it() {
    let t0 = start();
    let mut app = app(t0);
    let mut call = codex_permission_request();
    call.caps = Caps {
        allow: AllowEffect::Pass,
        note: NoteEffect::User,
        reason: false,
        input: crate::core::caps::InputEffect::Fixed,
    };
    let (d, p) = dialog_of(1, call, t0);
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    let mut title = |c: char| {
        app.update(key(c), t);
        let DialogState::Writing(b) = &app.state else {
            panic!("{c} opens a box")
        };
        let title = b.title();
        app.update(esc(), t);
        title
    };
    assert!(title('e').contains("you only"));
    assert!(title('n').contains("reason for the log only"));
    assert!(title('a').contains("always pass"));
}
