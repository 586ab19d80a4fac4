//! The session rules panel: every rule an "allow always" made, where it came from and how often
//! it let a call through, with a key to revoke it. The list comes from the barrier through the
//! runner (`Effect::ListRules`, answered by `Msg::Rules`), so `update` stays free of I/O.

use super::*;

impl App {
    /// A key while the panel is up: move, revoke, or close.
    pub(super) fn rules_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        match keymap::intent_of(key) {
            Some(Intent::Next | Intent::ScrollDown) => {
                let last = self.rules.len().saturating_sub(1);
                self.rules_focus = (self.rules_focus + 1).min(last);
                vec![]
            }
            Some(Intent::Previous | Intent::ScrollUp) => {
                self.rules_focus = self.rules_focus.saturating_sub(1);
                vec![]
            }
            Some(Intent::Revoke) => match self.rules.get(self.rules_focus) {
                Some(rule) => {
                    let id = rule.id;
                    self.notify(format!("session rule #{} revoked", id.0));
                    vec![Effect::Revoke(id)]
                }
                None => vec![],
            },
            Some(Intent::Rules | Intent::Quit | Intent::Help) => {
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
