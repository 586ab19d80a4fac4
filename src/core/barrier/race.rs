//! The classifier and the open dialogs: the race on a dialog routed `race`, and the advice
//! the human asks for on any dialog. Only a race's allow, on an unclaimed dialog in the same
//! epoch, can resolve; everything else only annotates.

use std::sync::Arc;

use super::pending::Pending;
use super::settle::Settle;
use super::{Shared, State};
use crate::core::advice::Advice;
use crate::core::call::CallId;
use crate::core::classifier::Question;
use crate::core::decision::{Decider, Decision};
use crate::core::event::{ClassifierState, Event};

/// Why the classifier is asked about a dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The dialog races: advice that allows resolves it.
    Race,
    /// The human asked for advice: it only annotates.
    Advice,
}

impl Shared {
    /// Starts the classifier on dialog `id`, if there is a classifier and nobody claimed it.
    /// The race is bound to the dialog's epoch (the mode and rules in force now).
    pub(super) fn start_race(self: &Arc<Self>, state: &mut State, id: CallId) {
        self.ask_classifier(state, id, Asked::Race);
    }

    /// Asks the classifier for advice on dialog `id` whatever its route (the human's advice
    /// key). On an unclaimed raced dialog this is the race itself; on any other the answer
    /// only annotates the dialog and can never resolve it. Returns whether a request started.
    pub(super) fn ask_advice(self: &Arc<Self>, id: CallId) -> bool {
        let mut state = self.lock();
        let Some(pending) = state.pending.get(id) else {
            return false;
        };
        if pending.race.is_asking() {
            return false;
        }
        let how = if pending.is_racing() {
            Asked::Race
        } else {
            Asked::Advice
        };
        self.ask_classifier(&mut state, id, how);
        state.pending.get(id).is_some_and(|p| p.race.is_asking())
    }

    fn ask_classifier(self: &Arc<Self>, state: &mut State, id: CallId, how: Asked) {
        let Some(classifier) = self.classifier.clone() else {
            return;
        };
        let Some(pending) = state.pending.get_mut(id) else {
            return;
        };
        if (how == Asked::Race && pending.race.is_claimed()) || pending.race.is_asking() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let question = match Question::of(pending.dialog.call.clone(), &pending.dialog.assessment) {
            Ok(question) => Arc::new(question),
            Err(err) => {
                self.emit(Event::Classifier {
                    id,
                    state: ClassifierState::Failed(err.0),
                });
                return;
            }
        };
        let asked = pending.epoch;
        let shared = self.clone();
        self.emit(Event::Classifier {
            id,
            state: ClassifierState::Asking,
        });
        let task = runtime.spawn(async move {
            let result = classifier.classify(question).await;
            match how {
                Asked::Race => shared.on_advice(id, asked, result.map_err(|e| e.0)),
                Asked::Advice => shared.on_advice_only(id, result.map_err(|e| e.0)),
            }
        });
        pending.race.start(task.abort_handle());
    }

    /// Advice arrived for dialog `id`, asked in epoch `asked`. Only advice that allows, on an
    /// unclaimed dialog still routed `race` in the same epoch, resolves; anything else
    /// annotates a dialog that is still open. Advice from an older epoch (the mode or rules
    /// changed while the model thought) is dropped, and asked again if the dialog still races.
    pub(super) fn on_advice(
        self: &Arc<Self>,
        id: CallId,
        asked: u64,
        result: Result<Advice, String>,
    ) {
        if let Ok(advice) = &result
            && advice.allows()
        {
            let current = |p: &Pending| p.is_racing() && p.epoch == asked;
            let allow = Settle::new(Decision::allow(), Decider::Classifier).advised(advice.gist());
            if self.resolve(id, current, allow) {
                return;
            }
        }
        let mut state = self.lock();
        let Some(pending) = state.pending.get_mut(id) else {
            return;
        };
        if !pending.is_racing() {
            return;
        }
        pending.race.finish();
        if pending.epoch != asked {
            self.start_race(&mut state, id);
            return;
        }
        if let Ok(advice) = &result {
            pending.advised = Some(advice.gist());
        }
        let state = match result {
            Ok(advice) => ClassifierState::Advised(advice),
            Err(message) => ClassifierState::Failed(message),
        };
        self.emit(Event::Classifier { id, state });
    }

    /// Advice the human asked for on a dialog that does not race: it annotates the dialog if
    /// it is still open, and never resolves it.
    fn on_advice_only(&self, id: CallId, result: Result<Advice, String>) {
        let mut state = self.lock();
        let Some(pending) = state.pending.get_mut(id) else {
            return;
        };
        pending.race.finish();
        let state = match result {
            Ok(advice) => {
                pending.advised = Some(advice.gist());
                ClassifierState::Advised(advice)
            }
            Err(message) => ClassifierState::Failed(message),
        };
        self.emit(Event::Classifier { id, state });
    }

    /// Marks dialog `id` as the human's: the classifier's answer will be dropped, and its
    /// request is cancelled.
    pub(super) fn claim(&self, id: CallId) -> bool {
        let mut state = self.lock();
        let Some(pending) = state.pending.get_mut(id) else {
            return false;
        };
        pending.race.claim();
        true
    }

    /// Whether the barrier has a classifier to ask.
    pub(super) fn has_classifier(&self) -> bool {
        self.classifier.is_some()
    }
}
