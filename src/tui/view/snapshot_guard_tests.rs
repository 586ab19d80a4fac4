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
        refusing: 0,
    };
    app.update(Msg::Barrier(changed), later(t, 20));
    app.update(Msg::Tick, later(t, 20_000));
    insta::assert_snapshot!(draw(&app, 100, 24));
}

#[test]
fn every_hidden_or_reordering_character_from_an_agent_is_drawn_as_an_escape() {
    use crate::core::call::{Agent, Call};
    use crate::tui::app::tests::dialog_of;
    let t = start();
    let mut app = app(t);
    let call = Call {
        agent: Agent::new("evil\u{1b}[31m\u{202e}agent"),
        session: "s\u{200b}\u{2060}\u{feff}1".into(),
        cwd: "/home/\u{2066}dev\u{2069}/\u{e0041}\u{e0042}x".into(),
        tool: "Bash\u{2028}\u{9b}".into(),
        kind: Some(crate::agents::claude::kind_of("Bash\u{2028}\u{9b}")),
        subagent: None,
        input: json!({"command": "echo ok\u{2029}rm -rf /\u{034f}\u{061c}\u{200e}\u{200f}"}),
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    };
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    let screen = draw(&app, 120, 24);
    for c in [
        '\u{1b}',
        '\u{202e}',
        '\u{200b}',
        '\u{2060}',
        '\u{feff}',
        '\u{2066}',
        '\u{e0041}',
        '\u{2028}',
        '\u{9b}',
        '\u{2029}',
        '\u{034f}',
        '\u{061c}',
        '\u{200e}',
    ] {
        assert!(!screen.contains(c), "{:x} drawn raw", c as u32);
    }
    insta::assert_snapshot!(screen);
}

fn allow_always_box(line: &str) -> (App, Now) {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": line}), t);
    let key = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
    app.update(Msg::Key(key), later(t, 300));
    (app, later(t, 300))
}

#[test]
fn allow_always_on_a_writer_proposes_exactly_the_command_and_says_so() {
    let (app, _) = allow_always_box("rm -rf build/cache");
    insta::assert_snapshot!(draw(&app, 100, 24));
}

#[test]
fn a_broad_allow_always_pattern_asks_for_enter_again() {
    insta::assert_snapshot!(draw(&broad_box(), 100, 24));
}

/// The allow-always box on `rm -rf build/cache` edited to the broad `rm -rf *` and sent once:
/// it warns and waits for Enter again.
fn broad_box() -> App {
    let (mut app, t) = allow_always_box("rm -rf build/cache");
    for _ in 0.."build/cache".len() {
        let key = KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE);
        app.update(Msg::Key(key), t);
    }
    app.update(Msg::Paste("*".into()), t);
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    app.update(Msg::Key(enter), t);
    app
}

#[test]
fn the_session_rules_panel_shows_origin_and_hits() {
    use crate::tui::app::allow_tests::rule;
    let t = start();
    let mut app = app(t);
    let key = KeyEvent::new(KeyCode::Char('s'), KeyModifiers::NONE);
    app.update(Msg::Key(key), t);
    let rules = vec![rule(1, "rm -rf build/cache", 2), rule(2, "git push *", 1)];
    app.update(Msg::Rules(rules), t);
    let lasting = crate::tui::app::Lasting {
        denied: vec!["git push".into(), "terraform apply".into()],
        safe: vec!["make lint".into()],
        ..Default::default()
    };
    app.update(Msg::Lasting(lasting), t);
    let screen = draw(&app, 100, 24);
    assert!(
        screen.contains("config denied_commands: `git push`, `terraform apply`"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

/// At 80×24 and 60×20 the allow-always box still shows where the rule lasts, what the pattern
/// matches and its warning: the dialog's subject gives up its rows first.
#[test]
fn a_broad_allow_always_pattern_is_described_whole_at_80_by_24_and_60_by_20() {
    let app = broad_box();
    insta::assert_snapshot!("broad_always_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("broad_always_60x20", draw(&app, 60, 20));
}

#[test]
fn the_allow_always_box_shows_where_the_rule_lasts_at_80_by_24() {
    let (app, _) = allow_always_box("rm -rf build/cache");
    insta::assert_snapshot!("always_80x24", draw(&app, 80, 24));
    insta::assert_snapshot!("always_60x20", draw(&app, 60, 20));
}

/// On a credential read the allow-always box says, before Enter, that a session's allow will
/// not show that secret again: only a rule for exactly the command does.
#[test]
fn allow_always_on_a_credential_read_says_what_it_cannot_cover_at_80_by_24() {
    let (app, _) = allow_always_box("cat ~/.ssh/id_rsa");
    let screen = draw(&app, 80, 24);
    assert!(
        screen.contains("NOTE: a credential is read again only"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}
