//! Rules that last, in the console: Tab in the allow-always box chooses where the allow lasts
//! (session, project, everyone) and says so; the panel lists the lasting rules with their files
//! and deletes a saved one in place but not another file's; and after `suggest_after` identical
//! answers of the human's (never the classifier's) a rule is offered and `L` saves it.

use super::tests::{app, code, dialog, key, later, start};
use super::*;
use crate::core::decision::{Decider, Decision};
use crate::core::event::Outcome;
use crate::core::policy::Layer;
use crate::core::prompter::{HumanAnswer, Keeping, SavedScope};
use crate::core::route::{Class, Route};
use crate::core::rule::Match;
use crate::core::rules::Pattern;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use serde_json::json;

/// What the open allow-always box says its pattern matches.
fn meaning(app: &App) -> String {
    match &app.state {
        DialogState::Writing(b) => b.meaning().unwrap(),
        DialogState::Choosing => panic!("no box"),
    }
}

fn tab() -> Msg {
    code(KeyCode::Tab, KeyModifiers::NONE)
}

fn enter() -> Msg {
    code(KeyCode::Enter, KeyModifiers::NONE)
}

fn ctrl_t() -> Msg {
    code(KeyCode::Char('t'), KeyModifiers::CONTROL)
}

/// A console with `make lint` open in a project, its allow-always box opened with `a` once
/// armed; and the time it was opened at.
fn always_box_in_project() -> (App, Now) {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = in_project(dialog(1, "Bash", json!({"command": "make lint"}), t0));
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    app.update(key('a'), t);
    (app, t)
}

#[test]
fn tab_in_the_allow_always_box_walks_session_project_everyone_and_the_answer_follows() {
    let (mut app, t) = always_box_in_project();
    assert!(
        meaning(&app).ends_with("for this session "),
        "{}",
        meaning(&app)
    );
    app.update(tab(), t);
    assert!(
        meaning(&app).contains("in this project (/home/dev/project), saved"),
        "{}",
        meaning(&app)
    );
    app.update(tab(), t);
    assert!(
        meaning(&app).contains("everywhere, saved"),
        "{}",
        meaning(&app)
    );
    let effects = app.update(enter(), t);
    let [Effect::Answer(_, HumanAnswer::AllowSaved { scope, .. })] = effects.as_slice() else {
        panic!("an allow saved for everyone: {effects:?}")
    };
    assert_eq!(*scope, SavedScope::Everyone);
}

#[test]
fn ctrl_t_sets_how_long_an_allow_always_lasts_for_a_session_and_once_saved() {
    let (mut app, t) = always_box_in_project();
    app.update(ctrl_t(), t);
    assert!(
        meaning(&app).ends_with("for this session, for 15 min "),
        "{}",
        meaning(&app)
    );
    app.update(tab(), t);
    app.update(tab(), t);
    assert!(
        meaning(&app).ends_with("everywhere, saved, for 15 min "),
        "{}",
        meaning(&app)
    );
    app.update(ctrl_t(), t);
    assert!(
        meaning(&app).ends_with("everywhere, saved, for 1 h "),
        "{}",
        meaning(&app)
    );
    let effects = app.update(enter(), t);
    let [Effect::Answer(_, HumanAnswer::AllowSaved { lasts, .. })] = effects.as_slice() else {
        panic!("an allow saved for everyone: {effects:?}")
    };
    assert_eq!(*lasts, Some(std::time::Duration::from_secs(3600)));
}

/// The dialog as it is for a call made inside a project.
fn in_project((d, p): (Arc<Dialog>, Preview)) -> (Arc<Dialog>, Preview) {
    let mut offer = d.offer.clone();
    offer.project = Some("/home/dev/project".into());
    let d = Dialog {
        id: d.id,
        call: d.call.clone(),
        assessment: d.assessment.clone(),
        route: d.route,
        opened: d.opened,
        offer,
    };
    (Arc::new(d), p)
}

#[test]
fn outside_any_project_the_box_says_so_and_tab_skips_this_project() {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = dialog(1, "Bash", json!({"command": "make lint"}), t0);
    assert_eq!(d.offer.project, None, "the test folder is in no project");
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    app.update(key('a'), t);
    assert!(meaning(&app).contains("in no project"), "{}", meaning(&app));
    app.update(tab(), t);
    assert!(
        meaning(&app).contains("everywhere, saved"),
        "{}",
        meaning(&app)
    );
}

#[test]
fn a_saved_allow_always_says_where_it_went() {
    let t0 = start();
    let mut app = app(t0);
    let (d, _) = dialog(1, "Bash", json!({"command": "make lint"}), t0);
    let outcome = Outcome {
        id: d.id,
        call: d.call.clone(),
        class: Class::Unverified,
        route: Route::Ask,
        mode: crate::core::mode::Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::allow(),
        decider: Decider::Human,
        latency: std::time::Duration::ZERO,
        device: None,
        rule: Some("saved rule allow-make in /cfg/rules.toml for /repo: make lint".into()),
        edited: None,
    };
    app.update(
        Msg::Barrier(crate::core::event::Event::Resolved(Arc::new(outcome))),
        t0,
    );
    let (notice, _) = app.notice.clone().unwrap();
    assert_eq!(
        notice,
        "#1: saved rule allow-make in /cfg/rules.toml for /repo: make lint"
    );
}

#[test]
fn an_edit_is_only_ever_allowed_for_the_session() {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = dialog(1, "Write", json!({"file_path": "a.txt", "content": ""}), t0);
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    app.update(key('a'), t);
    app.update(tab(), t);
    let effects = app.update(enter(), t);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Answer(_, HumanAnswer::AllowAlways { .. })]
        ),
        "{effects:?}"
    );
}

fn lasting(layer: Layer, id: &str) -> LastingRule {
    LastingRule {
        layer,
        file: format!("/x/{layer}.toml"),
        id: id.into(),
        summary: "deny prefix \"git push\"".into(),
        hits: 4,
        ignored: false,
    }
}

#[test]
fn the_panel_deletes_a_saved_rule_in_place_and_sends_a_project_rule_to_its_file() {
    let t0 = start();
    let mut app = app(t0);
    app.update(key('s'), t0);
    app.update(
        Msg::Lasting(Lasting {
            rules: vec![lasting(Layer::Project, "p1"), lasting(Layer::Saved, "s1")],
            files: vec!["project /x/project.toml (not trusted: only tightens)".into()],
            ..Lasting::default()
        }),
        t0,
    );
    assert!(
        app.update(key('x'), t0).is_empty(),
        "a project rule is edited in its file"
    );
    assert!(app.notice.as_ref().unwrap().0.contains("/x/project.toml"));
    app.update(key('j'), t0);
    assert_eq!(app.update(key('x'), t0), [Effect::Unsave("s1".into())]);
}

fn answered(id: u64, line: &str, decider: Decider) -> Msg {
    let (d, _) = dialog(id, "Bash", json!({"command": line}), start());
    Msg::Barrier(Event::Resolved(Arc::new(Outcome {
        id: CallId(id),
        call: d.call.clone(),
        class: Class::Unverified,
        route: Route::Ask,
        mode: Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::allow(),
        decider,
        latency: Duration::ZERO,
        device: None,
        rule: None,
        edited: None,
    })))
}

#[test]
fn three_identical_approvals_offer_the_exact_command_and_l_saves_it() {
    let t0 = start();
    let mut app = app(t0);
    app.update(answered(1, "make lint", Decider::Classifier), t0);
    app.update(answered(2, "make lint", Decider::Human), t0);
    app.update(answered(3, "make lint", Decider::Human), t0);
    assert!(app.offer.is_none(), "a classifier's answer does not count");
    app.update(answered(4, "make lint", Decider::Human), t0);
    let offer = app.offer.clone().expect("offered after three approvals");
    assert_eq!(
        offer.rule.matcher,
        Match::Command(Pattern::new("make lint"))
    );
    assert!(app.notice.as_ref().unwrap().0.contains("L saves it"));
    let effects = app.update(key('L'), t0);
    assert_eq!(effects, [Effect::SaveRule(offer.rule)]);
    assert!(app.offer.is_none());
}

#[test]
fn suggest_after_zero_never_offers() {
    let t0 = start();
    let mut app = app(t0);
    app.suggest_after = 0;
    for id in 1..10 {
        app.update(answered(id, "make lint", Decider::Human), t0);
    }
    assert!(app.offer.is_none());
}

#[test]
fn a_session_allow_for_a_while_is_sent_with_its_while() {
    let (mut app, t) = always_box_in_project();
    app.update(ctrl_t(), t);
    app.update(ctrl_t(), t);
    let effects = app.update(enter(), t);
    let [Effect::Answer(_, HumanAnswer::AllowAlways { lasts, .. })] = effects.as_slice() else {
        panic!("a session allow: {effects:?}")
    };
    assert_eq!(*lasts, Some(std::time::Duration::from_secs(3600)));
}

#[test]
fn a_saved_scope_can_be_kept_until_gatehouse_quits_and_the_box_says_what_that_means() {
    let (mut app, t) = always_box_in_project();
    app.update(tab(), t);
    for _ in 0..3 {
        app.update(ctrl_t(), t);
    }
    assert!(
        meaning(&app).contains("until gatehouse quits (kept in its memory only, not written"),
        "{}",
        meaning(&app)
    );
    let effects = app.update(enter(), t);
    let [Effect::Answer(_, HumanAnswer::AllowSaved { kept, lasts, .. })] = effects.as_slice()
    else {
        panic!("an allow kept for the project: {effects:?}")
    };
    assert_eq!((*kept, *lasts), (Keeping::UntilQuit, None));
}

#[test]
fn x_on_a_rule_kept_until_quit_forgets_it_and_never_deletes_a_saved_rule_of_its_id() {
    let t0 = start();
    let mut app = app(t0);
    app.update(key('s'), t0);
    let kept = LastingRule {
        file: "the console's memory (until it quits)".into(),
        ..lasting(Layer::Memory, "s1")
    };
    app.update(
        Msg::Lasting(Lasting {
            rules: vec![lasting(Layer::Saved, "s1"), kept],
            ..Lasting::default()
        }),
        t0,
    );
    app.update(key('j'), t0);
    assert_eq!(app.update(key('x'), t0), [Effect::Forget("s1".into())]);
    assert!(
        app.notice
            .as_ref()
            .unwrap()
            .0
            .contains("kept until quit deleted")
    );
}
