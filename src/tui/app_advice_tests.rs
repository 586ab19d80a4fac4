//! The advice key: it asks the barrier for advice on the focused dialog without claiming it,
//! and says in the footer why when it cannot.

use super::tests::{app, key, later, open, start};
use super::*;

#[test]
fn c_asks_the_classifier_about_the_focused_dialog_without_claiming_it() {
    let t0 = start();
    let mut app = app(t0);
    app.rearm = Rearm::Offered;
    open(&mut app, 1, t0);
    open(&mut app, 2, t0);
    app.update(key('j'), later(t0, 10));
    // Asking is not deciding: it needs no arming delay.
    assert_eq!(
        app.update(key('c'), later(t0, 20)),
        [Effect::AskAdvice(CallId(2))]
    );
    assert!(!app.dialogs[1].claimed);
}

#[test]
fn c_with_no_classifier_says_why_in_the_footer_and_asks_nothing() {
    let t0 = start();
    let mut app = app(t0);
    assert_eq!(app.rearm, Rearm::NotSetUp);
    open(&mut app, 1, t0);
    assert!(app.update(key('c'), later(t0, 300)).is_empty());
    let (notice, _) = app.notice.clone().expect("a notice");
    assert!(notice.contains("none is set up"), "{notice}");
}

#[test]
fn c_while_the_classifier_is_asked_already_says_so_and_asks_nothing_more() {
    let t0 = start();
    let mut app = app(t0);
    app.rearm = Rearm::Offered;
    open(&mut app, 1, t0);
    app.update(
        Msg::Barrier(Event::Classifier {
            id: CallId(1),
            state: ClassifierState::Asking,
        }),
        t0,
    );
    assert!(app.update(key('c'), later(t0, 300)).is_empty());
    let (notice, _) = app.notice.clone().expect("a notice");
    assert!(notice.contains("already asked"), "{notice}");
}

#[test]
fn c_with_no_dialog_open_does_nothing() {
    let t0 = start();
    let mut app = app(t0);
    app.rearm = Rearm::Offered;
    assert!(app.update(key('c'), t0).is_empty());
    assert!(app.notice.is_none());
}
