use super::tests::{app, key, open, start};
use super::*;
use crate::core::decision::{Decider, Decision};

fn panel(devices: &[&str]) -> WebPanel {
    WebPanel {
        link: Some((
            "http://127.0.0.1:7870/#pair=abc".into(),
            vec!["█▀▀█".into()],
            120,
        )),
        fingerprint: None,
        devices: devices.iter().map(|d| d.to_string()).collect(),
        error: None,
    }
}

#[test]
fn the_web_key_asks_for_a_pairing_link_and_x_unpairs_the_device_in_front() {
    let t0 = start();
    let mut app = app(t0);
    assert_eq!(app.update(key('W'), t0), vec![Effect::Web(WebAsk::Pair)]);
    assert_eq!(app.screen, Screen::Web);
    app.update(Msg::Web(panel(&["phone", "tablet"])), t0);
    app.update(key('j'), t0);
    assert_eq!(
        app.update(key('x'), t0),
        vec![Effect::Web(WebAsk::Unpair("tablet".into()))]
    );
    // The unpairing answers with the devices only: the link stays on screen.
    let mut after = panel(&["phone"]);
    after.link = None;
    app.update(Msg::Web(after), t0);
    let shown = app.web.as_ref().unwrap();
    assert_eq!(shown.devices, vec!["phone".to_string()]);
    assert!(shown.link.is_some());
    app.update(key('W'), t0);
    assert_eq!(app.screen, Screen::Main);
}

#[test]
fn a_call_answered_on_the_web_is_said_so_in_the_console() {
    let t0 = start();
    let mut app = app(t0);
    open(&mut app, 1, t0);
    let outcome = Outcome {
        id: CallId(1),
        call: app.dialogs[0].dialog.call.clone(),
        class: crate::core::route::Class::Writer,
        route: Route::Ask,
        mode: Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: Decision::deny("not now"),
        decider: Decider::Human,
        latency: Duration::ZERO,
        device: Some("phone".into()),
        rule: None,
        edited: None,
    };
    app.update(Msg::Barrier(Event::Resolved(Arc::new(outcome))), t0);
    assert!(app.dialogs.is_empty());
    assert_eq!(
        app.notice.as_ref().unwrap().0,
        "#1 denied by human on the web (phone)"
    );
}

#[test]
fn the_log_tells_an_allow_always_from_an_allow_once_and_names_the_device() {
    use crate::core::event::Outcome;
    let t0 = start();
    let mut app = app(t0);
    for id in [1, 2] {
        open(&mut app, id, t0);
    }
    let outcome = |id: u64, rule: Option<&str>| Outcome {
        id: CallId(id),
        call: app.dialogs[0].dialog.call.clone(),
        class: crate::core::route::Class::Writer,
        route: crate::core::route::Route::Ask,
        mode: crate::core::mode::Mode::AllowRead,
        mode_of: crate::core::mode_scope::ModeOwner::Global,
        decision: crate::core::decision::Decision::allow(),
        decider: crate::core::decision::Decider::Human,
        latency: std::time::Duration::ZERO,
        device: Some("phone".into()),
        rule: rule.map(str::to_string),
        edited: None,
    };
    let (once, always) = (outcome(1, None), outcome(2, Some("#3 rm -rf build")));
    for outcome in [once, always] {
        app.update(Msg::Barrier(Event::Resolved(Arc::new(outcome))), t0);
    }
    let labels: Vec<(&str, String)> = app.log.iter().map(|l| (l.label(), l.by())).collect();
    assert_eq!(
        labels,
        [
            ("allow", "human on phone".to_string()),
            ("always", "human on phone".to_string())
        ]
    );
    assert_eq!(app.log[1].rule, "#3 rm -rf build");
}
