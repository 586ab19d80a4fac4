//! Keys while the help screen is up: j/k scroll it a line, PgDn/PgUp a page, ?, q or Esc
//! close it; and while an activity entry is open: j/k older and newer, l, q or Esc close it.

use super::*;

/// How far PgDn and PgUp move the help.
const PAGE: u16 = 10;

impl App {
    pub(super) fn help_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        match keymap::intent_of(key) {
            Some(Intent::Help | Intent::Quit) => self.screen = Screen::Main,
            Some(Intent::Next) => self.help_scroll = self.help_scroll.saturating_add(1),
            Some(Intent::Previous) => self.help_scroll = self.help_scroll.saturating_sub(1),
            Some(Intent::ScrollDown) => self.help_scroll = self.help_scroll.saturating_add(PAGE),
            Some(Intent::ScrollUp) => self.help_scroll = self.help_scroll.saturating_sub(PAGE),
            _ if keymap::box_key(key) == BoxKey::Leave => self.screen = Screen::Main,
            _ => {}
        }
        vec![]
    }

    pub(super) fn activity_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        let last = self.log.len().saturating_sub(1);
        match keymap::intent_of(key) {
            Some(Intent::Next | Intent::ScrollDown) => {
                self.log_focus = (self.log_focus + 1).min(last);
            }
            Some(Intent::Previous | Intent::ScrollUp) => {
                self.log_focus = self.log_focus.saturating_sub(1);
            }
            Some(Intent::Activity | Intent::Quit) => self.screen = Screen::Main,
            _ if keymap::box_key(key) == BoxKey::Leave => self.screen = Screen::Main,
            _ => {}
        }
        vec![]
    }
}
