use super::*;
use crate::core::call::{Agent, Call};
use crate::core::classify::assess;
use crate::core::decision::{Decider, Decision};
use crate::core::rules::{Rules, SessionAllow};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use serde_json::{Value, json};

pub(crate) fn start() -> Now {
    Now {
        at: Instant::now(),
        wall: SystemTime::UNIX_EPOCH + Duration::from_secs(36_000),
    }
}

pub(crate) fn later(now: Now, ms: u64) -> Now {
    Now {
        at: now.at + Duration::from_millis(ms),
        wall: now.wall + Duration::from_millis(ms),
    }
}

pub(crate) fn dialog(id: u64, tool: &str, input: Value, now: Now) -> (Arc<Dialog>, Preview) {
    let call = Call {
        agent: Agent::new("claude-code"),
        session: "5f0c1a2b-session".into(),
        cwd: "/home/dev/project".into(),
        tool: tool.into(),
        kind: Some(crate::agents::claude::kind_of(tool)),
        subagent: None,
        input,
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    };
    dialog_of(id, call, now)
}

/// A dialog for a call as a hook dialect made it (agent, event and caps included).
pub(crate) fn dialog_of(id: u64, call: Call, now: Now) -> (Arc<Dialog>, Preview) {
    let assessment = assess(&call, &Rules::default(), &[]);
    let preview = Preview::build(&call, &assessment);
    let route = crate::core::route::route(Mode::AllowRead, assessment.row);
    let dialog = Arc::new(Dialog::new(
        CallId(id),
        Arc::new(call),
        assessment,
        route,
        now.at,
    ));
    (dialog, preview)
}

pub(crate) fn app(now: Now) -> App {
    App::new(
        Mode::AllowRead,
        ModeCycle::default(),
        "/run/gatehouse.sock".into(),
        "defer",
        now,
    )
}

pub(crate) fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

pub(crate) fn code(code: KeyCode, modifiers: KeyModifiers) -> Msg {
    Msg::Key(KeyEvent::new(code, modifiers))
}

pub(crate) fn open(app: &mut App, id: u64, now: Now) {
    let (d, p) = dialog(
        id,
        "Write",
        json!({"file_path": "a.txt", "content": "hi"}),
        now,
    );
    assert_eq!(app.update(Msg::Opened(d, p), now), [Effect::Notify]);
}

#[test]
fn decision_keys_are_ignored_while_a_new_dialog_arms() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    assert!(app.update(key('y'), later(t0, 100)).is_empty());
    assert!(app.update(key('n'), later(t0, 249)).is_empty());
    assert_eq!(
        app.update(key('y'), later(t0, 250)),
        [Effect::Answer(CallId(1), HumanAnswer::Allow { note: None })]
    );
    assert!(app.dialogs.is_empty());
}

#[test]
fn the_next_dialog_arms_afresh_when_the_first_is_answered() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    open(&mut app, 2, t0);
    let t1 = later(t0, 300);
    assert_eq!(app.update(key('y'), t1).len(), 1);
    assert_eq!(app.focused().unwrap().dialog.id, CallId(2));
    assert!(
        app.update(key('y'), later(t1, 10)).is_empty(),
        "a double press cannot approve #2"
    );
    assert_eq!(app.update(key('y'), later(t1, 260)).len(), 1);
}

#[test]
fn a_new_dialog_does_not_steal_focus_or_rearm_the_one_in_front() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    open(&mut app, 2, later(t0, 290));
    assert_eq!(app.focused().unwrap().dialog.id, CallId(1));
    assert_eq!(app.update(key('y'), later(t0, 300)).len(), 1);
}

#[test]
fn n_opens_a_reason_box_that_claims_and_enter_sends_the_reason() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 7, t0);
    let t = later(t0, 300);
    assert_eq!(app.update(key('n'), t), [Effect::Claim(CallId(7))]);
    assert!(matches!(app.state, DialogState::Writing(_)));
    for c in "use cargo clean".chars() {
        assert!(
            app.update(key(c), t).is_empty(),
            "letters go to the box, not the keymap"
        );
    }
    app.update(code(KeyCode::Enter, KeyModifiers::ALT), t);
    app.update(Msg::Paste("then\x1b[2J retry".into()), t);
    assert_eq!(
        app.update(code(KeyCode::Enter, KeyModifiers::NONE), t),
        [Effect::Answer(
            CallId(7),
            HumanAnswer::Deny {
                reason: "use cargo clean\nthen[2J retry".into()
            }
        )]
    );
    assert!(matches!(app.state, DialogState::Choosing));
}

#[test]
fn an_empty_reason_is_sent_empty_for_the_barrier_to_word() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let t = later(t0, 300);
    app.update(key('n'), t);
    let effects = app.update(code(KeyCode::Enter, KeyModifiers::NONE), t);
    assert_eq!(
        effects,
        [Effect::Answer(
            CallId(1),
            HumanAnswer::Deny {
                reason: String::new()
            }
        )]
    );
}

#[test]
fn esc_leaves_a_box_without_answering() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let t = later(t0, 300);
    app.update(key('e'), t);
    assert!(
        app.update(code(KeyCode::Esc, KeyModifiers::NONE), t)
            .is_empty()
    );
    assert!(matches!(app.state, DialogState::Choosing));
    assert_eq!(app.dialogs.len(), 1);
    assert!(app.dialogs[0].claimed, "the claim stands");
}

#[test]
fn e_sends_an_allow_with_the_typed_note() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let t = later(t0, 300);
    app.update(key('e'), t);
    app.update(Msg::Paste("keep it small".into()), t);
    assert_eq!(
        app.update(code(KeyCode::Enter, KeyModifiers::NONE), t),
        [Effect::Answer(
            CallId(1),
            HumanAnswer::Allow {
                note: Some("keep it small".into())
            }
        )]
    );
}

#[test]
fn a_offers_the_pattern_it_will_remember_and_sends_the_edited_one() {
    let t0 = start();
    let mut app = app(t0);
    let (d, p) = dialog(1, "WebFetch", json!({"url": "https://x"}), t0);
    app.update(Msg::Opened(d, p), t0);
    let t = later(t0, 300);
    app.update(key('a'), t);
    let DialogState::Writing(b) = &app.state else {
        panic!("a opens the pattern editor")
    };
    assert_eq!(b.text(), "WebFetch");
    app.update(Msg::Paste("2".into()), t);
    assert_eq!(
        app.update(code(KeyCode::Enter, KeyModifiers::NONE), t),
        [Effect::Answer(
            CallId(1),
            HumanAnswer::AllowAlways {
                allow: SessionAllow::Tool("WebFetch2".into()),
                note: None,
                lasts: None,
            }
        )]
    );
}

#[test]
fn an_edit_offers_its_file_as_the_pattern() {
    let t0 = start();
    let mut app = app(t0);
    let input = json!({"file_path": "src/a.rs", "old_string": "a", "new_string": "b"});
    let (d, p) = dialog(1, "Edit", input, t0);
    app.update(Msg::Opened(d, p), t0);
    app.update(key('a'), later(t0, 300));
    let DialogState::Writing(b) = &app.state else {
        panic!()
    };
    assert_eq!(b.text(), "src/a.rs");
}

#[test]
fn quitting_with_open_dialogs_asks_first() {
    let t0 = start();
    let mut app = app(t0);
    assert_eq!(
        app.update(key('q'), t0),
        [Effect::Quit],
        "nothing open: quit at once"
    );
    open(&mut app, 1, t0);
    assert!(app.update(key('q'), t0).is_empty());
    assert_eq!(app.screen, Screen::ConfirmQuit);
    assert!(app.update(key('n'), t0).is_empty());
    assert_eq!(app.screen, Screen::Main);
    app.update(code(KeyCode::Char('c'), KeyModifiers::CONTROL), t0);
    assert_eq!(app.update(key('y'), t0), [Effect::Quit]);
}

#[test]
fn help_opens_and_closes_and_swallows_decision_keys() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    app.update(key('?'), t0);
    assert_eq!(app.screen, Screen::Help);
    assert!(app.update(key('y'), later(t0, 500)).is_empty());
    app.update(code(KeyCode::Esc, KeyModifiers::NONE), t0);
    assert_eq!(app.screen, Screen::Main);
}

#[test]
fn j_and_k_move_through_the_queue_and_wrap() {
    let t0 = start();
    let mut app = app(t0);
    for id in 1..=3 {
        open(&mut app, id, t0);
    }
    app.update(key('j'), t0);
    assert_eq!(app.focus, 1);
    app.update(code(KeyCode::Up, KeyModifiers::NONE), t0);
    app.update(key('k'), t0);
    assert_eq!(app.focus, 2);
}

#[test]
fn a_dialog_settled_elsewhere_leaves_the_queue_closes_its_box_and_is_logged() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    app.update(key('n'), later(t0, 300));
    let outcome = Outcome {
        id: CallId(1),
        call: app.dialogs[0].dialog.call.clone(),
        class: crate::core::route::Class::Writer,
        route: Route::Ask,
        mode: Mode::AllowAll,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::allow(),
        decider: Decider::Classifier,
        latency: Duration::ZERO,
        device: None,
        rule: None,
        edited: None,
    };
    app.update(Msg::Barrier(Event::Resolved(Arc::new(outcome))), t0);
    assert!(app.dialogs.is_empty());
    assert!(matches!(app.state, DialogState::Choosing));
    assert_eq!(app.notice.as_ref().unwrap().0, "#1 allowed by classifier");
    let line = app.log.back().unwrap();
    assert_eq!(
        (line.decision, line.decider, line.time.as_str()),
        (
            crate::core::audit::Ending::Allow,
            Decider::Classifier,
            "10:00:00"
        )
    );
}

#[test]
fn a_classifier_allow_of_a_queued_dialog_leaves_a_notice_but_a_humans_answer_does_not() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    open(&mut app, 2, t0);
    let call = app.dialogs[0].dialog.call.clone();
    let settled = |id: u64, decider: Decider| Outcome {
        id: CallId(id),
        call: call.clone(),
        class: crate::core::route::Class::Unverified,
        route: Route::Race,
        mode: Mode::Auto,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::allow(),
        decider,
        latency: Duration::ZERO,
        device: None,
        rule: None,
        edited: None,
    };
    let by_model = settled(2, Decider::Classifier);
    app.update(Msg::Barrier(Event::Resolved(Arc::new(by_model))), t0);
    assert_eq!(app.notice.take().unwrap().0, "#2 allowed by classifier");
    assert_eq!(app.log.back().unwrap().decider, Decider::Classifier);

    app.update(key('y'), later(t0, 300));
    let by_human = settled(1, Decider::Human);
    app.update(
        Msg::Barrier(Event::Resolved(Arc::new(by_human))),
        later(t0, 300),
    );
    assert!(app.notice.is_none(), "the human knows what they did");
    assert_eq!(app.log.len(), 2);
}

#[test]
fn the_log_keeps_the_newest_ten_thousand_lines() {
    let t0 = start();
    let mut app = app(t0);
    let (d, _) = dialog(1, "Read", json!({}), t0);
    for i in 0..LOG_CAPACITY + 5 {
        let outcome = Outcome {
            id: CallId(i as u64),
            call: d.call.clone(),
            class: crate::core::route::Class::ReadOnly,
            route: Route::Allow,
            mode: Mode::AllowRead,
            mode_of: crate::core::mode_scope::ModeOwner::Global,
            decision: Decision::allow(),
            decider: Decider::Rule,
            latency: Duration::ZERO,
            device: None,
            rule: None,
            edited: None,
        };
        app.update(Msg::Barrier(Event::Passed(Arc::new(outcome))), t0);
    }
    assert_eq!(app.log.len(), LOG_CAPACITY);
}

#[test]
fn idle_sessions_are_forgotten_unless_a_dialog_of_theirs_is_open() {
    let t0 = start();
    let mut app = app(t0);
    let call = |session: &str| {
        let (d, _) = dialog(1, "Read", json!({"file_path": "a"}), t0);
        let mut call = (*d.call).clone();
        call.session = session.into();
        call
    };
    let passed = |call: Call| {
        Msg::Barrier(Event::Passed(Arc::new(Outcome {
            id: CallId(1),
            call: Arc::new(call),
            class: crate::core::route::Class::ReadOnly,
            route: Route::Allow,
            mode: Mode::AllowRead,
            mode_of: crate::core::mode_scope::ModeOwner::Global,
            decision: Decision::allow(),
            decider: Decider::Rule,
            latency: Duration::ZERO,
            device: None,
            rule: None,
            edited: None,
        })))
    };
    app.update(passed(call("a")), t0);
    let (d, p) = dialog_of(2, call("b"), t0);
    app.update(Msg::Opened(d, p), t0);
    app.update(passed(call("c")), later(t0, 20 * 60_000));
    assert_eq!(app.sessions.len(), 3);
    app.update(Msg::Tick, later(t0, 31 * 60_000));
    let mut live: Vec<&String> = app.sessions.keys().collect();
    live.sort();
    assert_eq!(
        live,
        ["claude-code:b", "claude-code:c"],
        "b still has a dialog open"
    );
    app.update(Msg::Tick, later(t0, 51 * 60_000));
    assert_eq!(app.sessions.len(), 1);
    // The agent says the last one ended: it is no longer live, at once.
    app.update(
        Msg::Barrier(Event::SessionEnded {
            agent: crate::core::call::Agent::new("claude-code"),
            session: "b".into(),
        }),
        later(t0, 52 * 60_000),
    );
    assert!(app.sessions.is_empty(), "{:?}", app.sessions);
}

#[test]
fn c_copies_the_whole_command_and_says_so() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let command = app.dialogs[0].dialog.call.subject();
    let effects = app.update(key('C'), later(t0, 300));
    assert_eq!(effects, vec![Effect::Copy(command.clone())]);
    assert!(app.notice.as_ref().unwrap().0.starts_with("copied #1's"));
    let sequence = String::from_utf8(osc52(&command)).unwrap();
    assert!(sequence.starts_with("\x1b]52;c;") && sequence.ends_with('\x07'));
}

#[test]
fn number_keys_answer_as_in_claude_codes_prompt() {
    for (number, expected) in [('1', "allow"), ('3', "deny")] {
        let t0 = start();
        let mut app = app(t0);
        open(&mut app, 1, t0);
        let effects = app.update(key(number), later(t0, 300));
        let answered = match (&effects[..], expected) {
            ([Effect::Answer(_, HumanAnswer::Allow { .. })], "allow") => true,
            ([Effect::Claim(_)], "deny") => matches!(app.state, DialogState::Writing(_)),
            _ => false,
        };
        assert!(answered, "{number}: {effects:?}");
    }
}

#[test]
fn the_help_scrolls_a_line_with_j_and_a_page_with_page_down() {
    let t0 = start();
    let mut app = app(t0);
    app.update(key('?'), t0);
    app.update(key('j'), t0);
    assert_eq!(app.help_scroll, 1);
    let page_down = KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE);
    app.update(Msg::Key(page_down), t0);
    assert_eq!(app.help_scroll, 11);
}
