//! The mode hotkey: steps that let less run act at once, steps that let more run wait for the
//! key to be left alone, allow-all asks first, and no sequence of presses allows a dialog the
//! mode it ends in would not.

use proptest::prelude::*;

use super::tests::{app, code, dialog, key, later, open, start};
use super::*;
use crate::core::decision::{Decider, Decision};
use crate::core::event::Outcome;
use crate::core::route::{Class, Route, route};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;

fn forward() -> Msg {
    code(KeyCode::BackTab, KeyModifiers::SHIFT)
}

fn back() -> Msg {
    code(KeyCode::Tab, KeyModifiers::NONE)
}

/// What the barrier says after it settled dialog `id` for a mode change.
fn settled_by_mode(app: &App, id: u64, mode: Mode) -> Msg {
    let (d, _) = dialog(id, "Write", json!({"file_path": "a.txt"}), app.now);
    Msg::Barrier(Event::Resolved(Arc::new(Outcome {
        id: CallId(id),
        call: d.call.clone(),
        class: Class::Writer,
        route: Route::Allow,
        mode,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::allow(),
        decider: Decider::Mode,
        latency: Duration::ZERO,
        device: None,
        rule: None,
        edited: None,
    })))
}

#[test]
fn a_step_toward_asking_acts_at_once() {
    let t0 = start();
    let mut app = app(t0);
    assert_eq!(app.update(back(), t0), [Effect::SetMode(Mode::Plan)]);
    assert_eq!(app.mode, Mode::Plan);
    assert_eq!(app.pending, None);
}

#[test]
fn a_step_toward_allowing_waits_until_the_key_is_left_alone() {
    let t0 = start();
    let mut app = app(t0);
    assert!(app.update(forward(), t0).is_empty());
    assert_eq!(app.mode, Mode::AllowRead, "still in force");
    assert_eq!(app.chosen_mode(), Mode::Auto);
    assert!(app.update(Msg::Tick, later(t0, 900)).is_empty());
    assert_eq!(app.wake_at(), Some(t0.at + SETTLE));
    assert_eq!(
        app.update(Msg::Tick, later(t0, 1000)),
        [Effect::SetMode(Mode::Auto)]
    );
    assert_eq!((app.mode, app.pending), (Mode::Auto, None));
}

#[test]
fn each_press_restarts_the_wait() {
    let t0 = start();
    let mut app = app(t0);
    app.update(forward(), t0);
    app.update(forward(), later(t0, 800));
    assert!(app.update(Msg::Tick, later(t0, 1200)).is_empty());
    assert_eq!(
        app.update(Msg::Tick, later(t0, 1800)),
        [Effect::SetMode(Mode::AutoMcp)]
    );
}

#[test]
fn passing_through_allow_all_to_block_all_never_allows() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let mut effects = Vec::new();
    for i in 0..4 {
        effects.extend(app.update(forward(), later(t0, 100 * i)));
    }
    effects.extend(app.update(Msg::Tick, later(t0, 5000)));
    assert_eq!(effects, [Effect::SetMode(Mode::BlockAll)]);
    assert_eq!(app.dialogs.len(), 1);
}

#[test]
fn allow_all_with_dialogs_open_asks_once_and_y_enters_it() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    for i in 0..3 {
        app.update(forward(), later(t0, 100 * i));
    }
    assert!(app.update(Msg::Tick, later(t0, 1300)).is_empty());
    assert_eq!(app.screen, Screen::ConfirmAllowAll);
    assert_eq!(app.mode, Mode::AllowRead);
    assert_eq!(
        app.update(key('y'), later(t0, 1400)),
        [Effect::SetMode(Mode::AllowAll)]
    );
    assert_eq!(app.screen, Screen::Main);
    let now = later(t0, 1410);
    app.update(settled_by_mode(&app, 1, Mode::AllowAll), now);
    app.update(
        Msg::Barrier(Event::ModeChanged {
            mode: Mode::AllowAll,
            resolved: 1,
            refusing: 0,
        }),
        now,
    );
    assert!(app.dialogs.is_empty());
    let said = "mode: allow-all: 1 open dialog allowed";
    let said_now = |app: &App| app.mode_notice.as_ref().map(|(text, _)| text.clone());
    assert_eq!(said_now(&app).as_deref(), Some(said));
    app.update(Msg::Tick, later(t0, 20_000));
    assert_eq!(said_now(&app).as_deref(), Some(said), "kept a while");
    app.update(Msg::Tick, later(t0, 60_000));
    assert_eq!(
        said_now(&app),
        None,
        "then it expires: the status bar shows the mode"
    );
}

#[test]
fn any_other_key_at_the_question_goes_back_to_the_mode_in_force() {
    for other in [key('n'), forward(), code(KeyCode::Esc, KeyModifiers::NONE)] {
        let t0 = start();
        let mut app = app(t0);
        open(&mut app, 1, t0);
        for i in 0..3 {
            app.update(forward(), later(t0, 100 * i));
        }
        app.update(Msg::Tick, later(t0, 1300));
        assert!(app.update(other, later(t0, 1400)).is_empty());
        assert_eq!((app.mode, app.pending), (Mode::AllowRead, None));
        assert_eq!(app.screen, Screen::Main);
        assert_eq!(
            app.mode_notice.as_ref().map(|(text, _)| text.as_str()),
            Some("allow-all not entered: still allow-read")
        );
        assert!(app.update(Msg::Tick, later(t0, 9000)).is_empty());
    }
}

#[test]
fn a_key_pressed_as_the_wait_ends_does_not_answer_the_question() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    for i in 0..3 {
        app.update(forward(), later(t0, 100 * i));
    }
    // `y` arrives after the wait but before any tick: it answers the dialog, not allow-all.
    let effects = app.update(key('y'), later(t0, 1300));
    assert_eq!(
        effects,
        [Effect::Answer(
            CallId(1),
            crate::core::prompter::HumanAnswer::Allow { note: None }
        )]
    );
    assert_eq!(app.mode, Mode::AllowRead);
}

#[test]
fn allow_all_with_nothing_open_needs_no_question() {
    let t0 = start();
    let mut app = app(t0);
    for i in 0..3 {
        app.update(forward(), later(t0, 100 * i));
    }
    assert_eq!(
        app.update(Msg::Tick, later(t0, 1300)),
        [Effect::SetMode(Mode::AllowAll)]
    );
}

/// A key in a random press sequence: mode steps only, as a hurried hand makes them.
#[derive(Debug, Clone, Copy)]
enum Press {
    Forward,
    Back,
}

/// The barrier as far as the hotkey matters: one open writer dialog, allowed when a mode the
/// console sets routes it to allow.
fn run(start_mode: Mode, presses: &[(Press, u64)], answer: char) -> (Mode, bool) {
    let t0 = start();
    let mut app = App::new(start_mode, ModeCycle::default(), "s".into(), "defer", t0);
    open(&mut app, 1, t0);
    let row = app.dialogs[0].dialog.assessment.row;
    let mut allowed = false;
    let mut apply = |effects: Vec<Effect>| {
        for effect in effects {
            if let Effect::SetMode(mode) = effect
                && route(mode, row) == Route::Allow
            {
                allowed = true;
            }
        }
    };
    let mut at = 0;
    for &(press, gap) in presses {
        at += gap;
        let msg = match press {
            Press::Forward => forward(),
            Press::Back => back(),
        };
        apply(app.update(Msg::Tick, later(t0, at)));
        apply(app.update(msg, later(t0, at)));
    }
    apply(app.update(Msg::Tick, later(t0, at + 5_000)));
    if app.screen == Screen::ConfirmAllowAll {
        apply(app.update(key(answer), later(t0, at + 5_100)));
    }
    apply(app.update(Msg::Tick, later(t0, at + 10_000)));
    (app.mode, allowed)
}

proptest! {
    #[test]
    fn no_hurried_press_sequence_allows_what_its_final_mode_would_not(
        start_mode in prop::sample::select(Mode::ALL.to_vec()),
        presses in prop::collection::vec(
            (prop_oneof![Just(Press::Forward), Just(Press::Back)], 0u64..999),
            0..12,
        ),
        answer in prop::sample::select(vec!['y', 'n', 'x', 'q']),
    ) {
        prop_assume!(start_mode != Mode::AllowAll);
        let (last, allowed) = run(start_mode, &presses, answer);
        let row = crate::core::route::Row::WriterOrOther;
        prop_assert!(!allowed || route(last, row) == Route::Allow, "allowed, then ended in {last}");
        prop_assert!(!allowed || answer == 'y', "allow-all entered without a yes");
    }
}

#[test]
fn the_newest_footer_notice_replaces_the_older_one() {
    let t0 = start();
    let mut app = app(t0);
    app.update(
        Msg::Barrier(Event::ModeChanged {
            mode: Mode::BlockAll,
            resolved: 0,
            refusing: 0,
        }),
        later(t0, 10),
    );
    assert!(app.mode_notice.is_some());
    app.notify("#1 allowed by classifier".into());
    assert!(app.mode_notice.is_none(), "the newer notice wins");
    assert!(app.notice.is_some());
    app.update(
        Msg::Barrier(Event::ModeChanged {
            mode: Mode::AllowRead,
            resolved: 0,
            refusing: 0,
        }),
        later(t0, 20),
    );
    assert!(app.notice.is_none(), "and the other way round");
    assert!(app.mode_notice.is_some());
}

#[test]
fn the_footer_says_open_dialogs_are_refused_after_a_grace_that_a_step_back_undoes() {
    let t0 = start();
    let mut app = app(t0);
    let changed = Event::ModeChanged {
        mode: Mode::Plan,
        resolved: 0,
        refusing: 2,
    };
    app.update(Msg::Barrier(changed), t0);
    let (text, _) = app.mode_notice.clone().unwrap();
    assert_eq!(
        text,
        "mode: plan: no open dialog resolved; 2 open dialogs refused in 1 s unless you step \
         back (Tab)"
    );
}
