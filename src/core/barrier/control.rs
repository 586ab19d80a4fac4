//! What acts on open dialogs from outside a submit: the human's answers and claims, mode
//! changes, and the classifier race.

use super::*;

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
    /// key). On a raced dialog this is the race itself; on any other the answer only
    /// annotates the dialog and can never resolve it. Returns whether a request started.
    pub(in crate::core) fn ask_advice(self: &Arc<Self>, id: CallId) -> bool {
        let mut state = self.lock();
        let Some(pending) = state.pending.get(&id) else {
            return false;
        };
        if pending.race.is_some() {
            return false;
        }
        let how = if pending.route == Route::Race && !pending.claimed {
            Asked::Race
        } else {
            Asked::Advice
        };
        self.ask_classifier(&mut state, id, how);
        state.pending.get(&id).is_some_and(|p| p.race.is_some())
    }

    fn ask_classifier(self: &Arc<Self>, state: &mut State, id: CallId, how: Asked) {
        let Some(classifier) = self.classifier.clone() else {
            return;
        };
        let Some(pending) = state.pending.get_mut(&id) else {
            return;
        };
        if (how == Asked::Race && pending.claimed) || pending.race.is_some() {
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
        pending.race = Some(task.abort_handle());
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
        let racing = |p: &Pending| !p.claimed && p.route == Route::Race;
        if matches!(&result, Ok(advice) if advice.allows()) {
            let current = |p: &Pending| racing(p) && p.epoch == asked;
            if self.resolve(id, current, Decision::allow(), Decider::Classifier) {
                return;
            }
        }
        let mut state = self.lock();
        let Some(pending) = state.pending.get_mut(&id) else {
            return;
        };
        if !racing(pending) {
            return;
        }
        pending.race = None;
        if pending.epoch != asked {
            self.start_race(&mut state, id);
            return;
        }
        if let Ok(advice) = &result {
            pending.advised = Some(advice.verdict());
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
        let Some(pending) = state.pending.get_mut(&id) else {
            return;
        };
        pending.race = None;
        let state = match result {
            Ok(advice) => {
                pending.advised = Some(advice.verdict());
                ClassifierState::Advised(advice)
            }
            Err(message) => ClassifierState::Failed(message),
        };
        self.emit(Event::Classifier { id, state });
    }

    /// The human's answer to dialog `id`. An "allow always" is remembered for the call's agent
    /// session first, and then settles any other open dialog of that session it now covers.
    pub(in crate::core) fn answer(self: &Arc<Self>, id: CallId, answer: HumanAnswer) -> bool {
        let (decision, remember) = match answer {
            HumanAnswer::Allow { note } => (Decision::Allow { note }, None),
            HumanAnswer::AllowAlways { allow, note } => (Decision::Allow { note }, Some(allow)),
            HumanAnswer::AllowSaved { allow, scope, note } => {
                return self.answer_saving(id, allow, scope, Decision::Allow { note });
            }
            HumanAnswer::Deny { reason } => {
                let reason = if reason.trim().is_empty() {
                    "denied by user".to_string()
                } else {
                    reason
                };
                (Decision::deny(reason), None)
            }
        };
        let Some(allow) = remember else {
            return self.resolve(id, |_| true, decision, Decider::Human);
        };
        let text = allow.text();
        let session = {
            let mut state = self.lock();
            let Some(pending) = state.pending.get(&id) else {
                return false;
            };
            let call = pending.dialog.call.clone();
            state.allows.add(&call.agent, &call.session, allow, id.0);
            call
        };
        let won = self.resolve_noting(id, |_| true, decision, Decider::Human, Some(text));
        if won {
            self.settle_newly_allowed(&session);
        }
        won
    }

    /// Re-assesses the open dialogs of `like`'s agent session against its session allows and
    /// settles those the current mode now allows.
    pub(super) fn settle_newly_allowed(&self, like: &Call) {
        let (mode, allows, open) = {
            let state = self.lock();
            let open = state
                .pending
                .values()
                .filter(|p| {
                    p.dialog.call.agent == like.agent && p.dialog.call.session == like.session
                })
                .map(|p| (p.dialog.id, p.dialog.call.clone()))
                .collect::<Vec<_>>();
            (
                state.mode,
                state.allows.of(&like.agent, &like.session).to_vec(),
                open,
            )
        };
        for (id, call) in open {
            let fresh = assess(&call, &self.rules, &allows);
            if fresh.row == Row::Listed && fresh.route(mode) == Route::Allow {
                let rule = Some(self.hit(&call, &fresh));
                let decision = Decision::allow();
                self.resolve_noting(id, |_| true, decision, Decider::SessionAllow, rule);
            }
        }
    }

    /// Settles dialog `id` for a console with no human: never `allow`.
    pub(in crate::core) fn unattended(
        &self,
        id: CallId,
        fallback: Fallback,
        reason: String,
    ) -> bool {
        let decision = match fallback {
            Fallback::Deny => Decision::deny(reason),
            Fallback::Defer => Decision::defer(reason),
        };
        self.resolve(id, |_| true, decision, Decider::Mode)
    }

    /// Marks dialog `id` as the human's: the classifier's answer will be dropped, and its
    /// request is cancelled.
    pub(in crate::core) fn claim(&self, id: CallId) -> bool {
        let mut state = self.lock();
        let Some(pending) = state.pending.get_mut(&id) else {
            return false;
        };
        pending.claimed = true;
        if let Some(race) = pending.race.take() {
            race.abort();
        }
        true
    }

    /// Changes the live mode and re-routes every open dialog: those the new mode allows are
    /// allowed (decider `mode`), those that now race start their classifier, and those that no
    /// longer race stop it. Returns how many dialogs the change settled.
    pub(in crate::core) fn set_mode(self: &Arc<Self>, mode: Mode) -> usize {
        let mut settle = Vec::new();
        {
            let mut state = self.lock();
            state.mode = mode;
            state.epoch += 1;
            let epoch = state.epoch;
            let mut races = Vec::new();
            for (&id, pending) in state.pending.iter_mut() {
                pending.epoch = epoch;
                let new = pending.dialog.assessment.route(mode);
                if new == pending.route {
                    continue;
                }
                match new {
                    Route::Allow | Route::Reject => {
                        settle.push((id, new));
                        continue;
                    }
                    Route::Ask => {
                        if let Some(race) = pending.race.take() {
                            race.abort();
                        }
                    }
                    Route::Race => races.push(id),
                }
                pending.route = new;
                self.emit(Event::Rerouted { id, route: new });
            }
            for id in races {
                self.start_race(&mut state, id);
            }
        }
        let settled = settle
            .into_iter()
            .filter(|&(id, new)| {
                let decision = match new {
                    Route::Allow => Decision::allow(),
                    _ => Decision::deny(mode.refusal()),
                };
                self.resolve(id, |_| true, decision, Decider::Mode)
            })
            .count();
        self.emit(Event::ModeChanged {
            mode,
            resolved: settled,
        });
        settled
    }

    pub(in crate::core) fn open_dialogs(&self) -> Vec<Arc<Dialog>> {
        self.lock()
            .pending
            .values()
            .map(|p| p.dialog.clone())
            .collect()
    }

    pub(in crate::core) fn session_rules(&self) -> Vec<crate::core::rules::SessionRule> {
        self.lock().allows.list()
    }

    pub(in crate::core) fn revoke(&self, id: crate::core::rules::RuleId) -> bool {
        self.lock().allows.revoke(id)
    }

    pub(in crate::core) fn mode(&self) -> Mode {
        self.lock().mode
    }
}
