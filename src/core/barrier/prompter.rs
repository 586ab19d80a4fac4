//! The answering side of the barrier: the console (or `serve`, or a test's scripted human)
//! receives events and answers dialogs, claims them, and changes the mode. It cannot submit.
//!
//! A second front end beside it (the web console) takes a [`Responder`], which answers the
//! same dialogs (first answer wins, as ever), and a tap of the prompter's events: each event
//! the prompter takes is copied to every tap, so both front ends see the same story.

use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};

use super::BatchDone;
use super::edited::EditJudged;
use super::{Fallback, Shared};
use crate::core::batch::BatchAnswer;
use crate::core::call::CallId;
use crate::core::event::{Dialog, Event, ModeTimer};
use crate::core::mode::Mode;
use crate::core::mode_scope::{ModeOverrides, ModeScope};
use crate::core::rules::{RuleId, SessionAllow, SessionRule};

/// What a human can answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HumanAnswer {
    /// Allow once, with an optional note for the model.
    Allow { note: Option<String> },
    /// Allow, and allow what `allow` covers for the rest of this agent session, or (`lasts`)
    /// for a while of it.
    AllowAlways {
        allow: SessionAllow,
        note: Option<String>,
        lasts: Option<std::time::Duration>,
    },
    /// Allow, and save what `allow` covers as a lasting rule: for the call's project or for
    /// everyone (the saved-rules file). An edit of a file can only be allowed for a session.
    AllowSaved {
        allow: SessionAllow,
        scope: SavedScope,
        note: Option<String>,
        /// How long the saved rule lasts from now (written as its `expires`); `None`: always.
        lasts: Option<std::time::Duration>,
        /// Written to the saved rules, or kept in memory until the console quits.
        kept: Keeping,
    },
    /// Deny; an empty reason becomes "denied by user".
    Deny { reason: String },
    /// Allow the shell line as the human edited it, once ([`super::edited`]): judged afresh,
    /// refused if the rules refuse it, else run in place of the original where the agent
    /// can, or handed to the model in a deny of the original where it cannot.
    AllowEdited { line: String },
    /// Approve the plan a plan dialog presents ([`super::plan`]), with a note for the model,
    /// and change the console to `mode` once it is approved (`None`: the mode stays).
    AllowPlan {
        mode: Option<Mode>,
        note: Option<String>,
    },
}

/// Whether an "allow always" for a project or everyone is written down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Keeping {
    /// In the saved rules file.
    #[default]
    Saved,
    /// Only in this console's memory, until it quits.
    UntilQuit,
}

/// Where an "allow always" beyond the session is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SavedScope {
    /// A saved rule that applies only under the call's project root.
    Project,
    /// A saved rule for every project.
    Everyone,
}

/// The modes beside the global one, the same on both handles: a session's or agent's own
/// mode, and the global mode for a while.
macro_rules! beside_the_global_mode {
    () => {
        /// Gives `scope` (a session, or every session of an agent) its own mode, or (`None`)
        /// sends it back to the mode above it; returns how many open dialogs that settled.
        pub fn set_scope_mode(&self, scope: ModeScope, mode: Option<Mode>) -> usize {
            self.shared.set_scope_mode(scope, mode)
        }

        /// The modes given to sessions and agents.
        pub fn scope_modes(&self) -> ModeOverrides {
            self.shared.overrides()
        }

        /// Sets the global mode for `lasts`, then back to the mode before (unless it is changed
        /// by hand first); returns how many open dialogs the change settled.
        pub fn set_mode_for(&self, mode: Mode, lasts: std::time::Duration) -> usize {
            self.shared.set_mode_for(mode, lasts)
        }

        /// The global mode's timer, if it was set for a while.
        pub fn mode_timer(&self) -> Option<ModeTimer> {
            self.shared.mode_timer()
        }
    };
}

/// The answering handle of one barrier, made with it by [`Barrier::new`](super::Barrier::new).
pub struct Prompter {
    shared: Arc<Shared>,
    events: mpsc::UnboundedReceiver<Event>,
    /// Where copies of the events go once taken, when a second front end taps them.
    taps: Option<broadcast::Sender<Event>>,
}

/// How many events a tap may fall behind before it misses some (it is then told it lagged,
/// and reads the open dialogs afresh).
const TAP_BACKLOG: usize = 1024;

impl Prompter {
    pub(super) fn new(shared: Arc<Shared>, events: mpsc::UnboundedReceiver<Event>) -> Self {
        Prompter {
            shared,
            events,
            taps: None,
        }
    }

    /// The next event; `None` once the barrier is gone.
    pub async fn next_event(&mut self) -> Option<Event> {
        let event = self.events.recv().await;
        self.copy(event)
    }

    /// The next event if one is waiting.
    pub fn try_event(&mut self) -> Option<Event> {
        let event = self.events.try_recv().ok();
        self.copy(event)
    }

    fn copy(&self, event: Option<Event>) -> Option<Event> {
        if let (Some(taps), Some(event)) = (&self.taps, &event) {
            // No tap listening is fine: the prompter's own reader still gets the event.
            let _ = taps.send(event.clone());
        }
        event
    }

    /// A copy of every event this prompter takes from now on, for a second front end. The
    /// copies flow only while the prompter's owner reads its events.
    pub fn tap(&mut self) -> broadcast::Receiver<Event> {
        self.taps
            .get_or_insert_with(|| broadcast::channel(TAP_BACKLOG).0)
            .subscribe()
    }

    /// A handle that answers this prompter's dialogs from another front end.
    pub fn responder(&self) -> Responder {
        Responder {
            shared: self.shared.clone(),
        }
    }

    /// Answers dialog `id`. Returns false when another answer got there first.
    pub fn answer(&self, id: CallId, answer: HumanAnswer) -> bool {
        self.shared.answer(id, answer, None)
    }

    /// Answers the open dialogs `ids` with one `answer`, each as if answered alone and audited
    /// in one batch; calls the answer does not fit stay open ([`crate::core::batch`]).
    pub fn answer_batch(&self, ids: &[CallId], answer: BatchAnswer) -> BatchDone {
        self.shared
            .answer_batch(ids, answer, None, super::Arming::Checked)
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

    /// Whether there is a classifier to ask for advice (the console says so when not).
    pub fn has_classifier(&self) -> bool {
        self.shared.has_classifier()
    }

    /// Claims dialog `id` for the human: a classifier verdict arriving later is dropped.
    pub fn claim(&self, id: CallId) -> bool {
        self.shared.claim(id)
    }

    /// Judges `line` as dialog `id`'s shell line edited: its class, and what approving it
    /// would do. `None` when the dialog is gone or offers no edit.
    pub fn judge_edit(&self, id: CallId, line: &str) -> Option<EditJudged> {
        self.shared.judge_edit(id, line)
    }

    /// Changes the live mode; returns how many open dialogs the change settled.
    pub fn set_mode(&self, mode: Mode) -> usize {
        self.shared.set_mode(mode)
    }

    /// The live mode.
    pub fn mode(&self) -> Mode {
        self.shared.mode()
    }

    beside_the_global_mode!();

    /// Every session rule an "allow always" made, oldest first, with its hit count.
    pub fn session_rules(&self) -> Vec<SessionRule> {
        self.shared.session_rules()
    }

    /// Forgets session rule `id`: later calls it covered ask again. Returns whether it was there.
    pub fn revoke(&self, id: RuleId) -> bool {
        self.shared.revoke(id)
    }

    /// The files of rules in force, for the rules panel (and to add or remove saved rules).
    pub fn policy(&self) -> Arc<crate::core::policy::load::Policy> {
        self.shared.policy()
    }

    /// Puts `rules` in force from the next call on (the config was read again), and judges
    /// the open dialogs again under them.
    pub fn set_rules(&self, rules: crate::core::rules::Rules) {
        self.shared.set_rules(rules);
    }

    /// The config's `denied_commands` and `safe_commands`, as written, for the rules panel.
    pub fn listed_commands(&self) -> (Vec<String>, Vec<String>) {
        let texts = |patterns: &[crate::core::rules::Pattern]| {
            patterns.iter().map(|p| p.as_str().to_string()).collect()
        };
        let rules = self.shared.rules();
        (texts(&rules.denied_commands), texts(&rules.safe_commands))
    }

    /// Saves `rule` in the saved rules (dated now, if it has no date); then the open dialogs
    /// are judged again.
    pub fn save_rule(
        &self,
        mut rule: crate::core::rule::Rule,
    ) -> Result<String, crate::core::policy::file::PolicyError> {
        if rule.learned.at.is_none() {
            rule.learned.at = Some(crate::core::audit::now_rfc3339());
        }
        let id = self.shared.policy().save(rule)?;
        self.shared.rules_changed();
        Ok(id)
    }

    /// Removes saved rule `id` (audited); then the open dialogs are judged again.
    pub fn unsave_rule(&self, id: &str) -> Result<bool, crate::core::policy::file::PolicyError> {
        self.shared.unsave(id)
    }

    /// Forgets the rule kept in memory until quit as `id` (audited); then the open dialogs are
    /// judged again. Returns whether one was kept.
    pub fn forget_kept_rule(&self, id: &str) -> bool {
        self.shared.forget_kept(id)
    }

    /// The dialogs open now, oldest first.
    pub fn open_dialogs(&self) -> Vec<Arc<Dialog>> {
        self.shared.open_dialogs()
    }
}

/// A second front end's hold on the dialogs (the web console): it answers, claims, reads and
/// changes the mode exactly as the [`Prompter`] does, and takes no events. Cheap to clone.
#[derive(Clone)]
pub struct Responder {
    shared: Arc<Shared>,
}

impl Responder {
    /// Answers dialog `id` for the human at the paired device `device`: audited with decider
    /// `human` and the device's name. Returns false when another answer got there first.
    pub fn answer_from(&self, id: CallId, answer: HumanAnswer, device: &str) -> bool {
        self.shared.answer(id, answer, Some(Arc::from(device)))
    }

    /// As [`Prompter::answer_batch`], for the human at the paired device `device`; a call
    /// shown less than the arming delay before `now` is left out.
    pub fn answer_batch_from(
        &self,
        ids: &[CallId],
        answer: BatchAnswer,
        device: &str,
        now: std::time::Instant,
    ) -> BatchDone {
        let device = Some(Arc::from(device));
        self.shared
            .answer_batch(ids, answer, device, super::Arming::Check(now))
    }

    /// Claims dialog `id` for the human: a classifier verdict arriving later is dropped.
    pub fn claim(&self, id: CallId) -> bool {
        self.shared.claim(id)
    }

    /// As [`Prompter::judge_edit`].
    pub fn judge_edit(&self, id: CallId, line: &str) -> Option<EditJudged> {
        self.shared.judge_edit(id, line)
    }

    /// Changes the live mode; returns how many open dialogs the change settled.
    pub fn set_mode(&self, mode: Mode) -> usize {
        self.shared.set_mode(mode)
    }

    pub fn mode(&self) -> Mode {
        self.shared.mode()
    }

    beside_the_global_mode!();

    /// How long a dialog waits for an answer before it times out.
    pub fn ask_timeout(&self) -> std::time::Duration {
        self.shared.ask_timeout
    }

    /// The dialogs open now, oldest first.
    pub fn open_dialogs(&self) -> Vec<Arc<Dialog>> {
        self.shared.open_dialogs()
    }
}
