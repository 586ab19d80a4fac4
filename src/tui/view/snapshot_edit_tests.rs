//! Snapshots of the edit box (`E` on a shell dialog): the line being judged, judged to run in
//! place of the original, refused by the rules, and for an agent that cannot take a changed
//! command; and the app's side of it: what `E` opens, asks and sends.

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::snapshot_tests::{app, draw, key, open};
use crate::core::barrier::{EditEnd, EditJudged};
use crate::core::call::CallId;
use crate::core::prompter::HumanAnswer;
use crate::core::route::Class;
use crate::tui::app::tests::{later, start};
use crate::tui::app::{App, Effect, Msg, Now};

fn judged(line: &str, class: Class, explanation: &str, end: EditEnd) -> Msg {
    Msg::Judged(
        CallId(1),
        EditJudged {
            line: line.into(),
            class,
            explanation: explanation.into(),
            end,
        },
    )
}

/// A shell dialog for `rm -rf build` with its edit box open and the line changed to
/// `rm -rf build/cache`; returns the effects of the last key.
fn editing(app: &mut App, t: Now) -> Vec<Effect> {
    open(app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    key(app, KeyCode::Char('E'), later(t, 300));
    app.update(Msg::Paste("/cache".into()), later(t, 400))
}

#[test]
fn e_opens_the_line_and_each_change_asks_for_its_judgement() {
    let t = start();
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "rm -rf build"}), t);
    let effects = app.update(
        Msg::Key(ratatui::crossterm::event::KeyEvent::from(KeyCode::Char(
            'E',
        ))),
        later(t, 300),
    );
    assert!(effects.contains(&Effect::Claim(CallId(1))), "{effects:?}");
    assert!(
        effects.contains(&Effect::Judge(CallId(1), "rm -rf build".into())),
        "{effects:?}"
    );
    let effects = app.update(Msg::Paste("/cache".into()), later(t, 400));
    assert_eq!(
        effects,
        [Effect::Judge(CallId(1), "rm -rf build/cache".into())]
    );
}

#[test]
fn enter_sends_the_edited_line_only_once_its_judgement_is_shown() {
    let t = start();
    let mut app = app(t);
    editing(&mut app, t);
    let enter = |app: &mut App| {
        app.update(
            Msg::Key(ratatui::crossterm::event::KeyEvent::from(KeyCode::Enter)),
            later(t, 500),
        )
    };
    assert_eq!(enter(&mut app), vec![], "not judged yet");
    // A judgement of an older text does not count.
    app.update(
        judged("rm -rf build", Class::Writer, "rm", EditEnd::RunsInstead),
        later(t, 450),
    );
    assert_eq!(enter(&mut app), vec![]);
    app.update(
        judged(
            "rm -rf build/cache",
            Class::Writer,
            "rm",
            EditEnd::RunsInstead,
        ),
        later(t, 450),
    );
    assert_eq!(
        enter(&mut app),
        vec![Effect::Answer(
            CallId(1),
            HumanAnswer::AllowEdited {
                line: "rm -rf build/cache".into()
            }
        )]
    );
}

#[test]
fn e_does_nothing_on_a_call_with_no_shell_line_and_the_footer_does_not_offer_it() {
    let t = start();
    let mut app = app(t);
    open(
        &mut app,
        1,
        "Write",
        json!({"file_path": "a", "content": "x"}),
        t,
    );
    key(&mut app, KeyCode::Char('E'), later(t, 300));
    let screen = draw(&app, 120, 24);
    assert!(!screen.contains("E edit"), "{screen}");
    assert!(!screen.contains("edit the command"), "{screen}");
}

#[test]
fn the_edit_box_while_its_line_is_judged() {
    let t = start();
    let mut app = app(t);
    editing(&mut app, t);
    let screen = draw(&app, 80, 24);
    assert!(screen.contains("judging the edited line"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// The edit box at `width`×`height` once the console judged its line `class`, for `why`,
/// with approving doing `end`.
fn judged_box(class: Class, why: &str, end: EditEnd, width: u16, height: u16) -> String {
    let t = start();
    let mut app = app(t);
    editing(&mut app, t);
    app.update(judged("rm -rf build/cache", class, why, end), later(t, 450));
    draw(&app, width, height)
}

#[test]
fn the_edit_box_shows_the_class_of_the_edited_line_and_that_it_runs_instead() {
    let screen = judged_box(
        Class::Writer,
        "rm removes files",
        EditEnd::RunsInstead,
        80,
        24,
    );
    assert!(screen.contains("writer: rm removes files"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_edit_box_says_when_the_rules_refuse_the_edited_line() {
    let why = "rm -rf matches the denied command rm -rf";
    let screen = judged_box(Class::Denied, why, EditEnd::Refused, 80, 24);
    assert!(screen.contains("REFUSED denied"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn at_60_by_20_the_edit_box_says_the_agent_will_be_told_to_run_the_line_instead() {
    let why = "rm removes files";
    let screen = judged_box(Class::Writer, why, EditEnd::DeniedWithLine, 60, 20);
    assert!(screen.contains("cannot run a changed"), "{screen}");
    insta::assert_snapshot!(screen);
}
