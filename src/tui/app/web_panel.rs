//! The web console panel: a one-time pairing link drawn as a QR code (with the certificate's
//! fingerprint beside it when the page is served over TLS) and the paired devices, with a key
//! to unpair one. The runner asks the web console (`Effect::Web`, answered by `Msg::Web`), so
//! `update` stays free of I/O and the TUI knows nothing of HTTP.

use super::*;

/// What the panel asks of the web console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebAsk {
    /// A fresh pairing link, and the devices.
    Pair,
    /// Unpair the device of this name, then the devices.
    Unpair(String),
}

/// What the panel shows, as the web console answered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WebPanel {
    /// The pairing link, its QR code's lines, and how long it is good for.
    pub link: Option<(String, Vec<String>, u64)>,
    /// The page's certificate fingerprint, when served over TLS.
    pub fingerprint: Option<String>,
    /// The paired devices' names, oldest first.
    pub devices: Vec<String>,
    /// Why there is no link (the web console is off, or failed).
    pub error: Option<String>,
}

impl App {
    /// A key while the panel is up: move, unpair, or close.
    pub(super) fn web_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        let devices = self.web.as_ref().map_or(0, |w| w.devices.len());
        match keymap::intent_of(key) {
            Some(Intent::Next | Intent::ScrollDown) => {
                self.web_focus = (self.web_focus + 1).min(devices.saturating_sub(1));
                vec![]
            }
            Some(Intent::Previous | Intent::ScrollUp) => {
                self.web_focus = self.web_focus.saturating_sub(1);
                vec![]
            }
            Some(Intent::Revoke) => {
                let name = self
                    .web
                    .as_ref()
                    .and_then(|w| w.devices.get(self.web_focus))
                    .cloned();
                match name {
                    Some(name) => {
                        self.notify(format!("{} unpaired", visible(&name)));
                        self.web_focus = self.web_focus.saturating_sub(1);
                        vec![Effect::Web(WebAsk::Unpair(name))]
                    }
                    None => vec![],
                }
            }
            Some(Intent::Copy) => match self.web.as_ref().and_then(|w| w.link.as_ref()) {
                Some((link, _, _)) => {
                    let link = link.clone();
                    self.notify("copied the pairing link to the clipboard (OSC 52)".into());
                    vec![Effect::Copy(link)]
                }
                None => vec![],
            },
            Some(Intent::Web | Intent::Quit | Intent::Help) => {
                self.screen = Screen::Main;
                vec![]
            }
            _ if keymap::box_key(key) == BoxKey::Leave => {
                self.screen = Screen::Main;
                vec![]
            }
            _ => vec![],
        }
    }
}
