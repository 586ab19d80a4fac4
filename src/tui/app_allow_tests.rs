//! "Allow always" in the console: the proposal for a writer is exactly the command seen, the
//! box says what a pattern matches, and a broad pattern needs Enter twice.

use super::tests::{app, code, dialog, key, later, start};
use super::*;
use crate::core::classify::assess;
use crate::core::prompter::HumanAnswer;
use crate::core::route::Row;
use crate::core::rules::{Rules, SessionAllow};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;

fn enter() -> Msg {
    code(KeyCode::Enter, KeyModifiers::NONE)
}

/// An app with a `Bash` dialog for `line`, its allow-always box open.
fn boxed(line: &str) -> (App, Now) {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = dialog(1, "Bash", json!({"command": line}), t0);
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    app.update(key('a'), t);
    (app, t)
}

fn text_box(app: &App) -> &TextBox {
    match &app.state {
        DialogState::Writing(b) => b,
        DialogState::Choosing => panic!("no box open"),
    }
}

fn retype(app: &mut App, text: &str, t: Now) {
    let DialogState::Writing(b) = &mut app.state else {
        panic!("no box open")
    };
    b.area.select_all();
    b.area.cut();
    app.update(Msg::Paste(text.into()), t);
}

fn covers(allow: &SessionAllow, line: &str) -> bool {
    let (d, _) = dialog(9, "Bash", json!({"command": line}), start());
    assess(&d.call, &Rules::default(), std::slice::from_ref(allow)).row == Row::Listed
}

#[test]
fn a_writer_is_proposed_exactly_as_seen_and_covers_no_sibling() {
    let (mut app, t) = boxed("rm -rf build/cache");
    assert_eq!(text_box(&app).text(), "rm -rf build/cache");
    let meaning = text_box(&app).meaning().unwrap();
    assert!(
        meaning.contains("exactly the command `rm -rf build/cache`"),
        "{meaning}"
    );
    let effects = app.update(enter(), t);
    let [Effect::Answer(_, HumanAnswer::AllowAlways { allow, .. })] = effects.as_slice() else {
        panic!("one Enter sends the exact rule: {effects:?}")
    };
    assert!(covers(allow, "rm -rf build/cache"));
    assert!(!covers(allow, "rm -rf build/other"));
    assert!(!covers(allow, "rm -rf build/cache /"));
}

#[test]
fn a_bare_program_name_needs_a_second_enter() {
    let (mut app, t) = boxed("rm -rf build/cache");
    retype(&mut app, "rm *", t);
    assert!(
        app.update(enter(), t).is_empty(),
        "the first Enter only warns"
    );
    let meaning = text_box(&app).meaning().unwrap();
    assert!(
        meaning.starts_with(" BROAD: every command starting `rm`"),
        "{meaning}"
    );
    let effects = app.update(enter(), t);
    assert_eq!(
        effects,
        [Effect::Answer(
            CallId(1),
            HumanAnswer::AllowAlways {
                allow: SessionAllow::shell("rm *").unwrap(),
                note: None,
                lasts: None,
            }
        )]
    );
}

#[test]
fn a_prefix_over_the_writer_needs_a_second_enter_and_an_edit_starts_over() {
    let (mut app, t) = boxed("rm -rf build/cache");
    retype(&mut app, "rm -rf *", t);
    assert!(app.update(enter(), t).is_empty());
    retype(&mut app, "rm -rf build/*", t);
    assert!(
        text_box(&app).meaning().unwrap().starts_with(" will allow"),
        "an exact pattern is not broad"
    );
    retype(&mut app, "rm -rf *", t);
    assert!(
        app.update(enter(), t).is_empty(),
        "warned afresh after the edit"
    );
    assert_eq!(app.update(enter(), t).len(), 1);
}

#[test]
fn a_read_only_command_is_proposed_as_its_program_and_subcommand() {
    let t0 = start();
    let mut app = App::new(
        Mode::BlockAll,
        ModeCycle::default(),
        "s".into(),
        "defer",
        t0,
    );
    let (d, p) = dialog(1, "Bash", json!({"command": "git log -5"}), t0);
    app.update(Msg::Opened(d, p), t0);
    app.update(key('a'), later(t0, 300));
    assert_eq!(text_box(&app).text(), "git log *");
}

pub(crate) fn rule(id: u64, text: &str, hits: u64) -> crate::core::rules::SessionRule {
    crate::core::rules::SessionRule {
        id: crate::core::rules::RuleId(id),
        agent: crate::core::call::Agent::new("claude-code"),
        session: "5f0c1a2b-session".into(),
        allow: SessionAllow::shell(text).unwrap(),
        origin_call: 3,
        origin_at: SystemTime::UNIX_EPOCH + Duration::from_secs(36_000),
        by: "human",
        hits,
        expires: None,
    }
}

#[test]
fn the_rules_panel_lists_the_rules_and_x_revokes_the_one_in_front() {
    let t0 = start();
    let mut app = app(t0);
    assert_eq!(app.update(key('s'), t0), [Effect::ListRules]);
    assert_eq!(app.screen, Screen::Rules);
    app.update(
        Msg::Rules(vec![rule(1, "rm -rf a", 2), rule(2, "git push *", 0)]),
        t0,
    );
    assert_eq!(app.update(Msg::Tick, later(t0, 1000)), [Effect::ListRules]);
    app.update(key('j'), t0);
    assert_eq!(
        app.update(key('x'), t0),
        [Effect::Revoke(crate::core::rules::RuleId(2))]
    );
    app.update(Msg::Rules(vec![rule(1, "rm -rf a", 2)]), t0);
    assert_eq!(app.rules_focus, 0);
    app.update(code(KeyCode::Esc, KeyModifiers::NONE), t0);
    assert_eq!(app.screen, Screen::Main);
    assert!(
        app.update(key('x'), t0).is_empty(),
        "x means nothing outside the panel"
    );
}
