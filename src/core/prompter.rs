//! The answering side of the barrier: the console (or `serve`, or a test's scripted human)
//! receives events and answers dialogs, claims them, and changes the mode. It cannot submit.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::barrier::{Fallback, Shared};
use super::call::CallId;
use super::event::{Dialog, Event};
use super::mode::Mode;
use super::rules::{RuleId, SessionAllow, SessionRule};

/// What a human can answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HumanAnswer {
    /// Allow once, with an optional note for the model.
    Allow { note: Option<String> },
    /// Allow, and allow what `allow` covers for the rest of this agent session.
    AllowAlways {
        allow: SessionAllow,
        note: Option<String>,
    },
    /// Allow, and save what `allow` covers as a lasting rule: for the call's project or for
    /// everyone (the saved-rules file). An edit of a file can only be allowed for a session.
    AllowSaved {
        allow: SessionAllow,
        scope: SavedScope,
        note: Option<String>,
    },
    /// Deny; an empty reason becomes "denied by user".
    Deny { reason: String },
}

/// Where an "allow always" beyond the session is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedScope {
    /// A saved rule that applies only under the call's project root.
    Project,
    /// A saved rule for every project.
    Everyone,
}

pub struct Prompter {
    shared: Arc<Shared>,
    events: mpsc::UnboundedReceiver<Event>,
}

impl Prompter {
    pub(super) fn new(shared: Arc<Shared>, events: mpsc::UnboundedReceiver<Event>) -> Self {
        Prompter { shared, events }
    }

    /// The next event; `None` once the barrier is gone.
    pub async fn next_event(&mut self) -> Option<Event> {
        self.events.recv().await
    }

    /// The next event if one is waiting.
    pub fn try_event(&mut self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Answers dialog `id`. Returns false when another answer got there first.
    pub fn answer(&self, id: CallId, answer: HumanAnswer) -> bool {
        self.shared.answer(id, answer)
    }

    /// Settles dialog `id` where no human is watching (`gatehouse serve`): `deny` or `defer`
    /// with `reason`, never `allow`; the decider is `mode`, the headless console's policy.
    /// Returns false when another answer got there first.
    pub fn unattended(&self, id: CallId, fallback: Fallback, reason: String) -> bool {
        self.shared.unattended(id, fallback, reason)
    }

    /// Asks the classifier for advice on dialog `id` in any mode. On a raced dialog it is the
    /// race; on any other the advice only annotates the dialog, it never resolves it.
    pub fn ask_advice(&self, id: CallId) -> bool {
        self.shared.ask_advice(id)
    }

    /// Claims dialog `id` for the human: a classifier verdict arriving later is dropped.
    pub fn claim(&self, id: CallId) -> bool {
        self.shared.claim(id)
    }

    /// Changes the live mode; returns how many open dialogs the change settled.
    pub fn set_mode(&self, mode: Mode) -> usize {
        self.shared.set_mode(mode)
    }

    pub fn mode(&self) -> Mode {
        self.shared.mode()
    }

    /// Every session rule an "allow always" made, oldest first, with its hit count.
    pub fn session_rules(&self) -> Vec<SessionRule> {
        self.shared.session_rules()
    }

    /// Forgets session rule `id`: later calls it covered ask again. Returns whether it was there.
    pub fn revoke(&self, id: RuleId) -> bool {
        self.shared.revoke(id)
    }

    /// The files of rules in force, for the rules panel (and to add or remove saved rules).
    pub fn policy(&self) -> Arc<crate::core::policy_load::Policy> {
        self.shared.policy()
    }

    /// Saves `rule` in the saved rules (dated now, if it has no date); then the open dialogs
    /// are judged again.
    pub fn save_rule(
        &self,
        mut rule: crate::core::rule::Rule,
    ) -> Result<String, crate::core::policy_file::PolicyError> {
        if rule.learned.at.is_none() {
            rule.learned.at = Some(crate::core::audit::now_rfc3339());
        }
        let id = self.shared.policy().save(rule)?;
        self.shared.rules_changed();
        Ok(id)
    }

    /// Removes saved rule `id`; then the open dialogs are judged again.
    pub fn unsave_rule(&self, id: &str) -> Result<bool, crate::core::policy_file::PolicyError> {
        let removed = self.shared.policy().unsave(id)?;
        self.shared.rules_changed();
        Ok(removed)
    }

    /// The dialogs open now, oldest first.
    pub fn open_dialogs(&self) -> Vec<Arc<Dialog>> {
        self.shared.open_dialogs()
    }
}
