//! Snapshots of the console states that had none: the classifier failed, the classifier
//! advised `writes` (which only annotates), the classifier set aside once the human claims a
//! racing dialog, a race with no classifier set up, the classifier switched off by its breaker,
//! the audit log failing, a dialog settled by someone else, the empty rules panel, a call
//! from a remote host, and a rule kept until quit listed as in-memory in the rules panel.

use std::sync::Arc;

use ratatui::crossterm::event::KeyCode;
use serde_json::json;

use super::{app, draw, key, open};
use crate::core::advice::{Advice, Assessment, Category, Opinion, Risk};
use crate::core::call::CallId;
use crate::core::decision::{Decider, Decision, Verdict};
use crate::core::event::{AuditHealth, ClassifierState, Event, Outcome};
use crate::core::mode::Mode;
use crate::core::route::{Class, Route};
use crate::tui::app::tests::{later, start};
use crate::tui::app::{App, Msg, Now, Rearm};

/// A console with one racing shell dialog.
fn racing(t: Now) -> App {
    let mut app = app(t);
    open(&mut app, 1, "Bash", json!({"command": "mytool --sync"}), t);
    app.update(
        Msg::Barrier(Event::Rerouted {
            id: CallId(1),
            route: Route::Race,
        }),
        t,
    );
    app
}

#[test]
fn the_classifier_failed_and_the_call_is_yours() {
    let t = start();
    let mut app = racing(t);
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Failed("timed out after 8000 ms".into()),
        }),
        t,
    );
    let screen = draw(&app, 80, 20);
    assert!(screen.contains("classifier failed: timed out"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_classifier_advised_writes_and_the_call_is_still_yours() {
    let t = start();
    let mut app = racing(t);
    let writes = Assessment {
        verdict: Verdict::Writes,
        risk: Risk::High,
        categories: vec![Category::DestructiveLocal],
        rationale: "mytool --sync rewrites the lock file.".into(),
        confidence: 0.9,
    };
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Advised(Advice {
                opinions: vec![Opinion::judged("openai qwen2.5-coder", writes, 0.8)],
            }),
        }),
        t,
    );
    let screen = draw(&app, 80, 20);
    assert!(
        screen.contains("queue (1)"),
        "advice settles nothing:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_classifier_switched_off_by_its_breaker_is_said_in_the_status_bar() {
    let t = start();
    let mut app = racing(t);
    app.rearm = Rearm::Offered;
    // The words the console's status line gives a classifier whose breaker tripped, and the
    // breaker's refusal of the race.
    app.classifier = "qwen2.5-coder OFF after failures (r re-arms)".into();
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Failed(
                "the classifier is off after 3 failures in a row (last: timed out after \
                 8000 ms); re-arm it from the console"
                    .into(),
            ),
        }),
        t,
    );
    let screen = draw(&app, 100, 20);
    assert!(
        screen.contains("OFF after failures (r re-arms)"),
        "{screen}"
    );
    assert!(
        screen.contains("classifier failed: the classifier is off"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn claiming_a_racing_dialog_sets_the_classifier_aside() {
    let t = start();
    let mut app = racing(t);
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Asking,
        }),
        t,
    );
    key(&mut app, KeyCode::Char('n'), later(t, 300));
    let screen = draw(&app, 80, 20);
    assert!(screen.contains("set aside, you have this one"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_race_with_no_classifier_set_up_says_it_is_your_call() {
    let t = start();
    let screen = draw(&racing(t), 80, 20);
    assert!(screen.contains("not set up, your call"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_failing_audit_log_is_said_in_the_footer() {
    let t = start();
    let mut app = racing(t);
    app.update(
        Msg::Barrier(Event::Audit(AuditHealth::Failing("disk full".into()))),
        t,
    );
    let screen = draw(&app, 100, 20);
    assert!(screen.contains("AUDIT FAILING: disk full"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_dialog_settled_by_the_timeout_leaves_the_queue_and_says_so() {
    let t = start();
    let mut app = racing(t);
    let call = app.dialogs[0].dialog.call.clone();
    let outcome = Outcome {
        id: CallId(1),
        call,
        class: Class::Unverified,
        route: Route::Race,
        mode: Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::deny("nobody answered in time"),
        decider: Decider::Timeout,
        latency: std::time::Duration::from_secs(540),
        device: None,
        rule: None,
        edited: None,
    };
    app.update(Msg::Barrier(Event::Resolved(Arc::new(outcome))), t);
    let screen = draw(&app, 100, 20);
    assert!(screen.contains("#1 denied by timeout"), "{screen}");
    assert!(screen.contains("queue (0)"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_rules_panel_with_no_rules_says_how_one_is_made() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('s'), t);
    app.update(Msg::Rules(Vec::new()), t);
    let screen = draw(&app, 80, 20);
    assert!(screen.contains("No session rules"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn with_nothing_open_the_empty_screen_counts_the_live_sessions_and_names_this_program() {
    let t = start();
    let mut app = app(t);
    app.command = "/src/gatehouse/target/release/gatehouse".into();
    let waiting = draw(&app, 100, 24);
    assert!(waiting.contains("Waiting for agents"), "{waiting}");
    app.sessions.insert("claude-code:s1".into(), t.at);
    let screen = draw(&app, 160, 24);
    assert!(screen.contains("1 agent session is live"), "{screen}");
    assert!(!screen.contains("Waiting for agents"), "{screen}");
    assert!(
        screen.contains("/src/gatehouse/target/release/gatehouse install claude|"),
        "{screen}"
    );
    assert!(
        screen.contains("gatehouse attach opencode http://127.0.0.1:4096"),
        "{screen}"
    );
}

#[test]
fn a_call_from_a_remote_host_names_the_host_in_the_queue_and_the_dialog() {
    use crate::core::origin::Remote;
    use crate::tui::app::tests::{dialog, dialog_of};
    let t = start();
    let mut app = app(t);
    let (local, _) = dialog(1, "Bash", json!({"command": "rm -rf build"}), t);
    let mut call = (*local.call).clone();
    call.remote = Some(Remote {
        host: "build-box".into(),
        projects: Vec::new(),
    });
    let (d, p) = dialog_of(1, call, t);
    app.update(Msg::Opened(d, p), t);
    let screen = draw(&app, 80, 20);
    assert_eq!(
        screen.matches("build-box › Claude Code").count(),
        2,
        "the queue's line and the dialog's head:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_rules_panel_shows_a_rule_kept_until_quit_as_in_memory() {
    use crate::core::policy::Layer;
    use crate::tui::app::{Lasting, LastingRule};
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('s'), t);
    app.update(Msg::Rules(Vec::new()), t);
    let kept = LastingRule {
        layer: Layer::Memory,
        file: "the console's memory (until it quits)".into(),
        id: "allow-make-lint".into(),
        summary: "allow command \"make lint\"".into(),
        hits: 1,
        ignored: false,
    };
    app.update(
        Msg::Lasting(Lasting {
            rules: vec![kept],
            files: vec!["in-memory the console's memory (until it quits)".into()],
            ..Lasting::default()
        }),
        t,
    );
    let screen = draw(&app, 80, 20);
    assert!(screen.contains("in-memory allow-make-lint"), "{screen}");
    assert!(screen.contains("(until it quits)"), "{screen}");
    insta::assert_snapshot!(screen);
}
