//! `C`: the focused call's subject onto the clipboard, through the terminal (OSC 52), so a
//! long command can be pasted elsewhere whole. Terminals that do not take OSC 52 ignore it.

use base64::Engine;

use super::*;

/// The most a copy sends: terminals cap OSC 52 (xterm at about 100 kB of base64).
const MOST: usize = 74 * 1024;

impl App {
    pub(super) fn copy(&mut self) -> Vec<Effect> {
        let Some(open) = self.focused() else {
            return vec![];
        };
        let (id, subject) = (open.dialog.id, open.dialog.call.subject());
        let (text, cut) = match subject.char_indices().nth(MOST) {
            Some((at, _)) => (subject[..at].to_string(), " (cut)"),
            None => (subject, ""),
        };
        self.notify(format!(
            "copied {id}'s {} characters{cut} to the clipboard (if the terminal takes OSC 52)",
            text.chars().count()
        ));
        vec![Effect::Copy(text)]
    }
}

/// The OSC 52 sequence that sets the clipboard to `text`.
pub fn osc52(text: &str) -> Vec<u8> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{encoded}\x07").into_bytes()
}
