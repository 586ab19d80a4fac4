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
