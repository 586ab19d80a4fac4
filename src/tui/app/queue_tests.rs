//! The queue's marks, filter and order, and the batch box: what a batch answer sends, and
//! that it never answers a call the box did not list.

use serde_json::json;

use super::*;
use crate::core::batch::BatchAnswer;
use crate::core::call::Agent;
use crate::tui::app::tests::{app, code, dialog, dialog_of, key, later, start};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn open_shell(app: &mut App, id: u64, line: &str, now: Now) {
    let (d, p) = dialog(id, "Bash", json!({ "command": line }), now);
    app.update(Msg::Opened(d, p), now);
}

fn press(app: &mut App, c: KeyCode, now: Now) -> Vec<Effect> {
    app.update(code(c, KeyModifiers::NONE), now)
}

#[test]
fn space_marks_and_a_decision_key_opens_a_box_that_sends_only_the_calls_it_listed() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm -rf build", t);
    open_shell(&mut app, 2, "touch x", t);
    open_shell(&mut app, 3, "rm -rf dist", t);
    let t = later(t, 300);
    app.update(key(' '), t);
    app.update(key('j'), t);
    app.update(key(' '), t);
    app.update(key(' '), t); // unmarks 2 again
    app.update(key('j'), t);
    app.update(key(' '), t);
    assert_eq!(
        app.queue.marked.iter().map(|id| id.0).collect::<Vec<_>>(),
        vec![1, 3]
    );
    // With calls marked, `n` opens the batch box; the reason is typed there.
    assert!(app.update(key('n'), later(t, 400)).is_empty());
    assert_eq!(app.screen, Screen::Batch);
    for c in "later".chars() {
        app.update(key(c), later(t, 500));
    }
    let sent = press(&mut app, KeyCode::Enter, later(t, 600));
    assert_eq!(
        sent,
        vec![Effect::AnswerBatch(
            vec![CallId(1), CallId(3)],
            BatchAnswer::Deny {
                reason: "later".into()
            }
        )]
    );
    assert_eq!(app.screen, Screen::Main);
    assert!(app.queue.marked.is_empty());
}

#[test]
fn a_batch_note_leaves_out_a_call_whose_agent_cannot_carry_one() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm a", t);
    let (d, _) = dialog(2, "Bash", json!({"command": "rm b"}), t);
    let mut call = (*d.call).clone();
    call.agent = Agent::new("cursor");
    call.caps.note = crate::core::caps::NoteEffect::None;
    let (d, p) = dialog_of(2, call, t);
    app.update(Msg::Opened(d, p), t);
    let t = later(t, 300);
    app.update(key(' '), t);
    app.update(key('j'), t);
    app.update(key(' '), t);
    // `e` on the focused Cursor call alone would do nothing; with marks it opens the box.
    app.update(key('e'), t);
    assert_eq!(app.screen, Screen::Batch);
    app.update(Msg::Paste("look at the diff".into()), t);
    let plan = app.batch_plan().unwrap();
    assert_eq!(plan.included.len(), 1);
    assert_eq!(
        plan.left,
        vec![(CallId(2), crate::core::batch::LeftOut::NoNote)]
    );
    let sent = press(&mut app, KeyCode::Enter, t);
    assert_eq!(
        sent,
        vec![Effect::AnswerBatch(
            vec![CallId(1)],
            BatchAnswer::Allow {
                note: Some("look at the diff".into())
            }
        )]
    );
    // The call left out stays marked, to be answered alone or in another batch.
    assert!(app.queue.marked.contains(&CallId(2)));
}

#[test]
fn star_marks_every_call_of_the_focused_calls_shape_and_esc_keeps_the_marks() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm -rf build", t);
    open_shell(&mut app, 2, "touch x", t);
    open_shell(&mut app, 3, "rm -rf build", t);
    app.update(key('*'), later(t, 300));
    assert_eq!(
        app.queue.marked.iter().map(|id| id.0).collect::<Vec<_>>(),
        vec![1, 3]
    );
    app.update(key('a'), later(t, 300));
    assert_eq!(app.screen, Screen::Batch);
    assert!(press(&mut app, KeyCode::Esc, later(t, 300)).is_empty());
    assert_eq!((app.screen, app.queue.marked.len()), (Screen::Main, 2));
    // A call answered elsewhere loses its mark.
    app.update(
        Msg::Barrier(Event::Withdrawn { id: CallId(3) }),
        later(t, 400),
    );
    assert_eq!(app.queue.marked.len(), 1);
}

#[test]
fn the_filter_shows_matching_calls_moves_focus_among_them_and_esc_clears_it() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "git status", t);
    open_shell(&mut app, 2, "rm -rf build", t);
    open_shell(&mut app, 3, "git diff", t);
    app.update(key('/'), t);
    for c in "GIT".chars() {
        app.update(key(c), t);
    }
    assert_eq!(app.rows(), vec![0, 2]);
    press(&mut app, KeyCode::Enter, t);
    assert_eq!(app.queue.typing, FilterState::Idle);
    app.update(key('j'), t);
    assert_eq!(app.focus, 2);
    app.update(key('j'), t);
    assert_eq!(app.focus, 0, "j wraps among the calls shown");
    // A filter that hides the focused call moves focus to one shown.
    app.update(key('/'), t);
    press(&mut app, KeyCode::Backspace, t);
    press(&mut app, KeyCode::Backspace, t);
    press(&mut app, KeyCode::Backspace, t);
    for c in "rm".chars() {
        app.update(key(c), t);
    }
    assert_eq!((app.rows(), app.focus), (vec![1], 1));
    press(&mut app, KeyCode::Esc, t);
    assert_eq!(app.rows(), vec![0, 1, 2]);
    assert!(app.queue.filter.is_empty());
}

#[test]
fn o_orders_the_queue_by_time_left_and_back() {
    let t = start();
    let mut app = app(t);
    app.ask_timeout = Some(Duration::from_secs(60));
    // Opened out of id order: 2 first, so it has the least time left.
    let (d, p) = dialog(2, "Bash", json!({"command": "rm b"}), t);
    app.update(Msg::Opened(d, p), t);
    let (d, p) = dialog(1, "Bash", json!({"command": "rm a"}), later(t, 5000));
    app.update(Msg::Opened(d, p), later(t, 5000));
    assert_eq!(app.rows(), vec![0, 1]);
    app.update(key('O'), later(t, 6000));
    assert_eq!(app.queue.order, Order::TimeLeft);
    assert_eq!(app.rows(), vec![1, 0]);
    app.update(key('O'), later(t, 6000));
    assert_eq!(app.rows(), vec![0, 1]);
}

#[test]
fn ctrl_c_while_typing_a_filter_still_asks_to_quit() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm a", t);
    app.update(key('/'), t);
    app.update(key('r'), t);
    app.update(code(KeyCode::Char('c'), KeyModifiers::CONTROL), t);
    assert_eq!(app.screen, Screen::ConfirmQuit);
    assert_eq!(app.queue.filter, "r");
}

#[test]
fn what_a_batch_did_stays_in_the_footer_after_its_calls_settle() {
    use crate::core::barrier::BatchDone;
    use crate::core::batch::Batch;
    use crate::core::decision::{Decider, Decision};
    use crate::core::event::Outcome;
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm a", t);
    open_shell(&mut app, 2, "rm b", t);
    let done = BatchDone {
        batch: Some(Batch { id: 1, size: 2 }),
        answered: vec![CallId(1), CallId(2)],
        ..BatchDone::default()
    };
    app.update(Msg::Batched(done), later(t, 500));
    assert!(app.dialogs.is_empty());
    // The settled events that follow log each call and leave the batch's notice.
    let d = dialog(1, "Bash", json!({"command": "rm a"}), t).0;
    let outcome = Outcome {
        id: CallId(1),
        call: d.call.clone(),
        class: d.assessment.class,
        route: d.route,
        mode: crate::core::mode::Mode::AllowRead,
        decision: Decision::deny("no"),
        decider: Decider::Human,
        latency: Duration::from_millis(5),
        device: None,
        rule: None,
        edited: None,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
    };
    app.update(
        Msg::Barrier(Event::Resolved(Arc::new(outcome))),
        later(t, 600),
    );
    assert_eq!(
        app.notice.as_ref().map(|(text, _)| text.as_str()),
        Some("batch 1: answered 2 calls")
    );
    assert_eq!(app.log.len(), 1);
}

#[test]
fn with_the_filter_hiding_every_call_no_decision_key_answers_and_the_footer_says_why() {
    let t = start();
    let mut app = app(t);
    open_shell(&mut app, 1, "rm -rf build", t);
    let t = later(t, 300);
    app.update(key('/'), t);
    for c in "zzz".chars() {
        app.update(key(c), t);
    }
    press(&mut app, KeyCode::Enter, t);
    assert!(app.rows().is_empty());
    assert!(app.focused().is_none(), "a hidden call is not focused");
    assert_eq!(app.all_hidden(), Some(1));
    for c in ['y', 'a', 'e', 'n', 'E'] {
        assert_eq!(app.update(key(c), later(t, 100)), vec![], "key {c}");
        assert!(matches!(app.state, DialogState::Choosing), "key {c}");
        assert_eq!(app.screen, Screen::Main, "key {c}");
    }
    assert_eq!(app.dialogs.len(), 1, "the hidden call is still waiting");
    let said = &app.notice.as_ref().unwrap().0;
    assert!(said.contains("no call matches the filter /zzz"), "{said}");
    assert!(said.contains("Esc clears"), "{said}");
    // Esc shows the call again, newly: it arms before a key answers it.
    press(&mut app, KeyCode::Esc, later(t, 1000));
    assert!(app.focused().is_some());
    assert!(app.notice.is_none(), "the notice went with the filter");
    assert_eq!(app.update(key('y'), later(t, 1100)), vec![]);
    assert_eq!(
        app.update(key('y'), later(t, 1400)),
        vec![Effect::Answer(CallId(1), HumanAnswer::Allow { note: None })]
    );
}

#[test]
fn o_puts_first_a_later_call_whose_agent_kills_its_hook_sooner() {
    let t = start();
    let mut app = app(t);
    app.ask_timeout = Some(Duration::from_secs(540));
    open_shell(&mut app, 1, "rm a", t);
    // Copilot CLI's hook as installed with a 30 s timeout: the console answers it by 25 s.
    let (d, _) = dialog(2, "Bash", json!({"command": "rm b"}), later(t, 1000));
    let mut call = (*d.call).clone();
    call.hook_timeout_secs = Some(30);
    let (d, p) = dialog_of(2, call, later(t, 1000));
    app.update(Msg::Opened(d, p), later(t, 1000));
    let now = later(t, 2000);
    app.update(Msg::Tick, now);
    assert_eq!(
        app.time_left(&app.dialogs[1]),
        Some(Duration::from_secs(24))
    );
    assert_eq!(
        app.time_left(&app.dialogs[0]),
        Some(Duration::from_secs(538))
    );
    assert_eq!(app.rows(), vec![0, 1], "arrival");
    app.update(key('O'), now);
    assert_eq!(app.rows(), vec![1, 0], "time left");
}
