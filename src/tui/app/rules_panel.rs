//! The rules panel: every rule in force. First the session rules an "allow always" made, then
//! the lasting ones (floor, user, saved, and each project's file seen so far), each with where
//! it came from and how often it decided a call, and above them which policy files are in
//! force. `x` revokes a session rule, deletes a saved one in place or forgets one kept in
//! memory until quit; rules in the other files are changed in their file. The lists come from the barrier through the runner
//! (`Effect::ListRules`, answered by `Msg::Rules` and `Msg::Lasting`), so `update` stays free
//! of I/O.

use super::*;
use crate::core::policy::Layer;

/// One lasting rule as the panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastingRule {
    pub layer: Layer,
    /// The file it is in.
    pub file: String,
    pub id: String,
    /// `deny prefix "git push" (reason)`.
    pub summary: String,
    pub hits: u64,
    /// Set aside: an allow in a file that may only tighten.
    pub ignored: bool,
}

/// The lasting rules and the policy files in force, as the runner read them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lasting {
    pub rules: Vec<LastingRule>,
    /// One line per file: `project /repo/.gatehouse.toml (not trusted: only tightens)`, or
    /// the error of a file that cannot be used.
    pub files: Vec<String>,
    /// The config's `denied_commands` and `safe_commands`, as written.
    pub denied: Vec<String>,
    pub safe: Vec<String>,
}

impl App {
    /// How many rows the panel can point at: session rules, then lasting ones.
    fn panel_len(&self) -> usize {
        self.rules.len() + self.lasting.rules.len()
    }

    pub(super) fn clamp_rules_focus(&mut self) {
        self.rules_focus = self.rules_focus.min(self.panel_len().saturating_sub(1));
    }

    /// A key while the panel is up: move, revoke or delete, or close.
    pub(super) fn rules_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        match keymap::intent_of(key) {
            Some(Intent::Next | Intent::ScrollDown) => {
                let last = self.panel_len().saturating_sub(1);
                self.rules_focus = (self.rules_focus + 1).min(last);
                vec![]
            }
            Some(Intent::Previous | Intent::ScrollUp) => {
                self.rules_focus = self.rules_focus.saturating_sub(1);
                vec![]
            }
            Some(Intent::Revoke) => self.revoke_focused(),
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

    fn revoke_focused(&mut self) -> Vec<Effect> {
        if let Some(rule) = self.rules.get(self.rules_focus) {
            let id = rule.id;
            self.notify(format!("session rule #{} revoked", id.0));
            return vec![Effect::Revoke(id)];
        }
        let Some(rule) = self.lasting.rules.get(self.rules_focus - self.rules.len()) else {
            return vec![];
        };
        match rule.layer {
            Layer::Saved => {
                let id = rule.id.clone();
                self.notify(format!("saved rule {id} deleted"));
                vec![Effect::Unsave(id)]
            }
            Layer::Memory => {
                let id = rule.id.clone();
                self.notify(format!("rule {id} kept until quit deleted"));
                vec![Effect::Forget(id)]
            }
            Layer::Floor | Layer::User | Layer::Project => {
                let file = rule.file.clone();
                self.notify(format!(
                    "a {} rule is changed in its file: {file}",
                    rule.layer
                ));
                vec![]
            }
        }
    }
}
