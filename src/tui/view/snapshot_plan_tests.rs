//! Snapshots of a plan dialog (Claude Code's `ExitPlanMode`): the plan shown as text at 80x24,
//! a long plan scrolled with PgDn at 60x20, and the approve box with the mode it moves to; and
//! the app's side of it: what `y` opens, what Tab chooses and what Enter sends.

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::snapshot_tests::{app, draw, key, open};
use crate::core::call::CallId;
use crate::core::mode::Mode;
use crate::core::prompter::HumanAnswer;
use crate::tui::app::tests::{later, start};
use crate::tui::app::{App, DialogState, Effect, Msg, Now};
use crate::tui::textbox::BoxKind;

const SHORT: &str = "## Plan: add --dry-run\n\n1. Parse the flag in src/cli.rs\n2. Skip the writes \
    when it is set\n3. Test both paths";

fn long_plan() -> String {
    let steps: Vec<String> = (1..=30)
        .map(|n| format!("{n}. Step {n} of the migration, with enough words to wrap"))
        .collect();
    format!("## Plan: migrate the config\n\n{}", steps.join("\n"))
}

fn plan(app: &mut App, text: &str, t: Now) {
    open(app, 1, "ExitPlanMode", json!({ "plan": text }), t);
}

fn press(app: &mut App, code: KeyCode, t: Now) -> Vec<Effect> {
    app.update(Msg::Key(ratatui::crossterm::event::KeyEvent::from(code)), t)
}

#[test]
fn plan_dialog_80x24() {
    let t = start();
    let mut app = app(t);
    app.mode = Mode::Plan;
    plan(&mut app, SHORT, t);
    app.update(Msg::Tick, later(t, 300));
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn plan_dialog_long_scrolled_60x20() {
    let t = start();
    let mut app = app(t);
    app.mode = Mode::Plan;
    plan(&mut app, &long_plan(), t);
    key(&mut app, KeyCode::PageDown, later(t, 300));
    insta::assert_snapshot!(draw(&app, 60, 20));
}

#[test]
fn plan_approve_box_80x24() {
    let t = start();
    let mut app = app(t);
    app.mode = Mode::Plan;
    plan(&mut app, SHORT, t);
    key(&mut app, KeyCode::Char('y'), later(t, 300));
    insta::assert_snapshot!(draw(&app, 80, 24));
}

#[test]
fn y_on_a_plan_opens_the_approve_box_and_enter_sends_the_mode_chosen_with_tab() {
    let t = start();
    let mut app = app(t);
    app.mode = Mode::Plan;
    plan(&mut app, SHORT, t);
    let effects = press(&mut app, KeyCode::Char('y'), later(t, 300));
    assert_eq!(
        effects,
        vec![Effect::Claim(CallId(1))],
        "claims, answers nothing"
    );
    let DialogState::Writing(b) = &app.state else {
        panic!("no box open")
    };
    assert_eq!(b.kind, BoxKind::Plan);
    // Out of plan mode it starts on allow-read; Tab moves on to auto.
    press(&mut app, KeyCode::Tab, later(t, 400));
    assert_eq!(app.mode, Mode::Plan, "Tab in the box is not the mode key");
    app.update(Msg::Paste("small steps".into()), later(t, 450));
    let effects = press(&mut app, KeyCode::Enter, later(t, 500));
    assert_eq!(
        effects,
        vec![Effect::Answer(
            CallId(1),
            HumanAnswer::AllowPlan {
                mode: Some(Mode::Auto),
                note: Some("small steps".into())
            }
        )]
    );
    assert_eq!(
        app.mode,
        Mode::Auto,
        "the status bar shows the mode moved to"
    );
}

#[test]
fn allow_always_on_a_plan_is_the_approve_box_too_and_deny_is_a_reason() {
    let t = start();
    let mut app = app(t);
    plan(&mut app, SHORT, t);
    press(&mut app, KeyCode::Char('a'), later(t, 300));
    let DialogState::Writing(b) = &app.state else {
        panic!("no box open")
    };
    assert_eq!(b.kind, BoxKind::Plan);
    // In allow-read the box starts on staying: Enter approves and moves no mode.
    let effects = press(&mut app, KeyCode::Enter, later(t, 400));
    assert_eq!(
        effects,
        vec![Effect::Answer(
            CallId(1),
            HumanAnswer::AllowPlan {
                mode: None,
                note: None
            }
        )]
    );
    assert_eq!(app.mode, Mode::AllowRead);
    plan(&mut app, SHORT, later(t, 500));
    press(&mut app, KeyCode::Char('n'), later(t, 900));
    app.update(Msg::Paste("cover the error path".into()), later(t, 950));
    let effects = press(&mut app, KeyCode::Enter, later(t, 1000));
    assert_eq!(
        effects,
        vec![Effect::Answer(
            CallId(1),
            HumanAnswer::Deny {
                reason: "cover the error path".into()
            }
        )]
    );
}

#[test]
fn o_pages_the_whole_plan() {
    let t = start();
    let mut app = app(t);
    plan(&mut app, &long_plan(), t);
    let effects = press(&mut app, KeyCode::Char('o'), later(t, 300));
    let [Effect::Page(text)] = &effects[..] else {
        panic!("{effects:?}")
    };
    assert!(
        text.starts_with("plan\n\n## Plan: migrate the config"),
        "{text}"
    );
    assert!(text.contains("30. Step 30 of the migration"), "{text}");
}
