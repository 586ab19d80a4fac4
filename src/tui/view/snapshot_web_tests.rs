//! Snapshots of the web panel: a pairing link drawn as a real QR code with the certificate's
//! fingerprint and two devices, and the panel when the web console is off.

use ratatui::crossterm::event::KeyCode;

use super::{app, draw, key};
use crate::tui::app::tests::start;
use crate::tui::app::{Msg, WebPanel};

#[test]
fn the_web_panel_draws_the_pairing_link_as_a_qr_code_with_the_fingerprint_and_the_devices() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('W'), t);
    let link = "https://vm:7870/#pair=0123456789abcdef0123456789abcdef";
    app.update(
        Msg::Web(WebPanel {
            link: Some((link.into(), crate::web::qr::lines(link).unwrap(), 120)),
            fingerprint: Some("03:BD:DF:40".into()),
            devices: vec!["Android phone".into(), "iPad\u{1b}[2J".into()],
            error: None,
        }),
        t,
    );
    let screen = draw(&app, 100, 50);
    assert!(screen.contains(link), "{screen}");
    assert!(
        screen.contains("iPad\\e[2J"),
        "a device name is escaped:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_web_panel_says_how_to_turn_the_web_console_on() {
    let t = start();
    let mut app = app(t);
    key(&mut app, KeyCode::Char('W'), t);
    app.update(
        Msg::Web(WebPanel {
            error: Some(
                "the web console is off: start gatehouse with --web, or add [web] to the config"
                    .into(),
            ),
            ..WebPanel::default()
        }),
        t,
    );
    insta::assert_snapshot!(draw(&app, 80, 20));
}

/// At 80×24 the QR code is drawn beside the text and the loopback link whole on a row of its
/// own under both; the panel says a phone needs a tunnel or a LAN address to open it, C copies
/// it, and the status bar says the web console is on with its paired devices. At 60×20 the
/// code does not fit, and the panel says so.
#[test]
fn a_loopback_link_at_80_by_24_is_whole_explained_and_copied_with_c() {
    let t = start();
    let mut app = app(t);
    app.web_on = true;
    key(&mut app, KeyCode::Char('W'), t);
    let link = "http://127.0.0.1:7870/#pair=0123456789abcdef0123456789abcdef";
    app.update(
        Msg::Web(WebPanel {
            link: Some((link.into(), crate::web::qr::lines(link).unwrap(), 120)),
            fingerprint: None,
            devices: vec!["iPhone".into()],
            error: None,
        }),
        t,
    );
    let screen = draw(&app, 80, 24);
    assert!(screen.contains(link), "the link on one row:\n{screen}");
    let qr = crate::web::qr::lines(link).unwrap();
    assert!(
        qr.iter().all(|row| screen.contains(row.as_str())),
        "the whole QR code at 80×24:\n{screen}"
    );
    let small = draw(&app, 60, 20);
    assert!(small.contains("too small for the QR code"), "{small}");
    assert!(screen.contains("tunnel"), "{screen}");
    assert!(screen.contains("web: 1 paired"), "{screen}");
    insta::assert_snapshot!(screen);
    let effects = app.update(
        Msg::Key(ratatui::crossterm::event::KeyEvent::new(
            KeyCode::Char('C'),
            ratatui::crossterm::event::KeyModifiers::SHIFT,
        )),
        t,
    );
    assert_eq!(effects, vec![crate::tui::app::Effect::Copy(link.into())]);
}
