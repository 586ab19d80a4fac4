use super::*;
use crate::core::call::Agent;
use crate::core::event::{Event, ModeTimer, TimerState};
use crate::tui::app::tests::{app, code, key, later, open, start};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn enter() -> Msg {
    code(KeyCode::Enter, KeyModifiers::NONE)
}

#[test]
fn m_gives_the_focused_session_a_mode_and_tab_gives_it_to_the_agent_instead() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, t);
    let t = later(t, 500);
    assert!(app.update(key('M'), t).is_empty());
    assert_eq!(app.screen, Screen::ModeChooser);
    // The list starts at the global mode; two down is allow-read, one more auto... one down
    // is allow-all.
    app.update(key('j'), t);
    // Allow-all for a session whose call is open asks once first, as the web does.
    assert!(app.update(enter(), t).is_empty());
    assert_eq!(app.screen, Screen::ConfirmAllowAll);
    let effects = app.update(key('y'), t);
    let session = ModeScope::Session {
        agent: Agent::new("claude-code"),
        session: "5f0c1a2b-session".into(),
    };
    assert_eq!(
        effects,
        [Effect::SetScopeMode(session.clone(), Some(Mode::AllowAll))]
    );
    assert_eq!(app.screen, Screen::Main);
    assert_eq!(app.mode, Mode::AllowRead, "the global mode stays");

    // The barrier's word is what the queue and status bar go by; M then starts at it.
    app.update(
        Msg::Barrier(Event::ScopeMode {
            scope: session.clone(),
            mode: Some(Mode::AllowAll),
            resolved: 0,
            refusing: 0,
        }),
        t,
    );
    assert_eq!(
        app.own_mode(&app.dialogs[0].dialog.call),
        Some(Mode::AllowAll)
    );
    app.update(key('M'), t);
    assert_eq!(app.scope_modes.chooser.as_ref().unwrap().at, 1);
    app.update(code(KeyCode::Tab, KeyModifiers::NONE), t);
    app.update(key('k'), t);
    let effects = app.update(enter(), t);
    assert_eq!(
        effects,
        [Effect::SetScopeMode(
            ModeScope::Agent(Agent::new("claude-code")),
            None
        )]
    );
}

#[test]
fn m_with_no_call_open_says_what_it_is_for_and_esc_leaves_the_chooser_unchanged() {
    let t = start();
    let mut app = app(t);
    assert!(app.update(key('M'), t).is_empty());
    assert_eq!(app.screen, Screen::Main);
    assert!(app.notice.as_ref().unwrap().0.contains("no call is open"));
    app.update(key('T'), t);
    assert_eq!(app.screen, Screen::ModeChooser);
    assert!(
        app.update(code(KeyCode::Esc, KeyModifiers::NONE), t)
            .is_empty()
    );
    assert_eq!((app.screen, app.mode), (Screen::Main, Mode::AllowRead));
}

#[test]
fn t_sets_auto_for_thirty_minutes_and_ctrl_t_picks_another_while() {
    let t = start();
    let mut app = app(t);
    app.update(key('T'), t);
    assert_eq!(
        app.update(enter(), t),
        [Effect::SetModeFor(Mode::Auto, Duration::from_secs(30 * 60))]
    );
    assert_eq!(app.mode, Mode::Auto);
    app.update(key('T'), t);
    app.update(code(KeyCode::Char('t'), KeyModifiers::CONTROL), t);
    app.update(key('k'), t);
    assert_eq!(
        app.update(enter(), t),
        [Effect::SetModeFor(
            Mode::AllowRead,
            Duration::from_secs(60 * 60)
        )]
    );
}

#[test]
fn the_countdown_runs_with_the_clock_and_the_return_puts_the_mode_back() {
    let t = start();
    let mut app = app(t);
    let timer = ModeTimer {
        mode: Mode::Auto,
        back_to: Mode::AllowRead,
        until: t.at + Duration::from_secs(30 * 60),
    };
    app.update(
        Msg::Barrier(Event::ModeTimer(TimerState::Running(timer))),
        t,
    );
    app.mode = Mode::Auto;
    let t = later(t, 19_000);
    app.update(Msg::Tick, t);
    let (_, left) = app.mode_time_left().unwrap();
    assert_eq!(countdown(left), "29:41");
    app.update(
        Msg::Barrier(Event::ModeTimer(TimerState::Returned(Mode::AllowRead))),
        t,
    );
    assert_eq!(app.mode, Mode::AllowRead);
    assert!(app.mode_time_left().is_none());
    assert!(
        app.mode_notice
            .as_ref()
            .unwrap()
            .0
            .contains("back to allow-read")
    );
}

#[test]
fn whiles_and_countdowns_read_as_people_write_them() {
    assert_eq!(while_text(WHILES[0]), "15 min");
    assert_eq!(while_text(WHILES[2]), "1 h");
    assert_eq!(countdown(Duration::from_secs(3_900)), "1:05:00");
    assert_eq!(countdown(Duration::from_secs(59)), "0:59");
}

#[test]
fn t_to_allow_all_with_dialogs_open_asks_once_as_the_mode_keys_do() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, t);
    let t = later(t, 500);
    let choose_allow_all = |app: &mut App| {
        app.update(key('T'), t);
        // The list starts at auto: allow-all is two up.
        app.update(key('k'), t);
        app.update(key('k'), t);
        app.update(enter(), t)
    };
    assert!(choose_allow_all(&mut app).is_empty(), "nothing set yet");
    assert_eq!(app.screen, Screen::ConfirmAllowAll);
    assert_eq!(app.mode, Mode::AllowRead);
    // Anything but y or Enter keeps the mode in force.
    assert!(app.update(key('n'), t).is_empty());
    assert_eq!((app.screen, app.mode), (Screen::Main, Mode::AllowRead));
    assert!(app.mode_notice.as_ref().unwrap().0.contains("not entered"));
    assert!(choose_allow_all(&mut app).is_empty());
    assert_eq!(
        app.update(key('y'), t),
        [Effect::SetModeFor(
            Mode::AllowAll,
            Duration::from_secs(30 * 60)
        )]
    );
    assert_eq!((app.screen, app.mode), (Screen::Main, Mode::AllowAll));
}

#[test]
fn t_to_allow_all_with_nothing_open_sets_it_at_once_as_the_mode_keys_do() {
    let t = start();
    let mut app = app(t);
    app.update(key('T'), t);
    app.update(key('k'), t);
    app.update(key('k'), t);
    assert_eq!(
        app.update(enter(), t),
        [Effect::SetModeFor(
            Mode::AllowAll,
            Duration::from_secs(30 * 60)
        )]
    );
}

#[test]
fn m_to_allow_all_asks_only_while_that_session_has_calls_open_and_no_keeps_its_mode() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, t);
    let t = later(t, 500);
    let choose_allow_all = |app: &mut App| {
        app.update(key('M'), t);
        app.update(key('j'), t);
        app.update(enter(), t)
    };
    assert!(choose_allow_all(&mut app).is_empty(), "nothing given yet");
    assert_eq!(app.screen, Screen::ConfirmAllowAll);
    assert!(app.update(key('n'), t).is_empty());
    assert_eq!(app.screen, Screen::Main);
    assert!(
        app.mode_notice.as_ref().unwrap().0.contains("not given"),
        "{:?}",
        app.mode_notice
    );
    assert!(app.scope_modes.confirming.is_none());
    // Tab gives it to the agent: the open call is the agent's too, so it asks as well.
    app.update(key('M'), t);
    app.update(code(KeyCode::Tab, KeyModifiers::NONE), t);
    app.update(key('j'), t);
    assert!(app.update(enter(), t).is_empty());
    assert_eq!(
        app.update(enter(), t),
        [Effect::SetScopeMode(
            ModeScope::Agent(Agent::new("claude-code")),
            Some(Mode::AllowAll)
        )]
    );
    // A scope with no call open is given allow-all at once.
    let other = ModeScope::Session {
        agent: Agent::new("codex"),
        session: "other".into(),
    };
    assert!(!other.covers(
        &app.dialogs[0].dialog.call.agent,
        &app.dialogs[0].dialog.call.session
    ));
}
