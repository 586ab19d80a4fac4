//! What the human and the mode do to open dialogs from outside a submit: answers (with the
//! session rules an "allow always" makes), the unattended policy, and mode changes that
//! re-route every open dialog.

use std::sync::Arc;
use std::time::Duration;

use super::prompter::HumanAnswer;
use super::settle::{Direct, Settle};
use super::{Fallback, Shared};
use crate::core::batch::Batch;
use crate::core::call::{Call, CallId};
use crate::core::classify::assess;
use crate::core::decision::{Decider, Decision};
use crate::core::event::{Dialog, Event};
use crate::core::mode::Mode;
use crate::core::route::{Route, Row};
use crate::core::rules::{RuleId, SessionRule};

/// How long an open dialog stays open after a change to a mode that refuses it: a hurried
/// step toward plan can be taken back. New calls meet the new mode at once.
pub const REFUSAL_GRACE: Duration = Duration::from_secs(1);

impl Shared {
    /// The human's answer to dialog `id`. An "allow always" is remembered for the call's agent
    /// session first, and then settles any other open dialog of that session it now covers.
    /// `device` names the paired web device whose human answered, if not this console.
    pub(super) fn answer(
        self: &Arc<Self>,
        id: CallId,
        answer: HumanAnswer,
        device: Option<Arc<str>>,
    ) -> bool {
        self.answer_in(id, answer, device, None)
    }

    /// As [`Shared::answer`], as one call of `batch` when there is one (named in its audit
    /// record). A batch's "allow always" leaves the other open dialogs its rule now covers to
    /// the batch, which settles them once all its own calls are answered.
    pub(super) fn answer_in(
        self: &Arc<Self>,
        id: CallId,
        answer: HumanAnswer,
        device: Option<Arc<str>>,
        batch: Option<Batch>,
    ) -> bool {
        let (decision, remember) = match answer {
            HumanAnswer::Allow { note } => (Decision::allow_noting(note), None),
            HumanAnswer::AllowAlways { allow, note } => (Decision::allow_noting(note), Some(allow)),
            HumanAnswer::AllowSaved {
                allow,
                scope,
                note,
                lasts,
            } => {
                let saving = (allow, scope, lasts);
                return self.answer_saving(id, saving, Decision::allow_noting(note), device);
            }
            HumanAnswer::AllowEdited { line } => return self.answer_edited(id, line, device),
            HumanAnswer::AllowPlan { mode, note } => {
                return self.answer_plan(id, mode, note, device);
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
        let settle = Settle::new(decision, Decider::Human)
            .answered_from(device)
            .in_batch(batch);
        let Some(allow) = remember else {
            return self.resolve(id, |_| true, settle);
        };
        let text = allow.text();
        let session = {
            let mut state = self.lock();
            let Some(pending) = state.pending.get(id) else {
                return false;
            };
            let call = pending.dialog.call.clone();
            state.allows.add(&call.agent, &call.session, allow, id.0);
            call
        };
        let won = self.resolve(id, |_| true, settle.noting(text));
        if won && batch.is_none() {
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
                .iter()
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
            let fresh = assess(&call, &self.rules(), &allows);
            if fresh.row == Row::Listed && fresh.route(mode) == Route::Allow {
                let rule = self.hit(&call, &fresh);
                let settle = Settle::new(Decision::allow(), Decider::SessionAllow).noting(rule);
                self.resolve(id, |_| true, settle);
            }
        }
    }

    /// Settles dialog `id` for a console with no human: never `allow`.
    pub(super) fn unattended(&self, id: CallId, fallback: Fallback, reason: String) -> bool {
        let settle = Settle::new(fallback.decision(reason), Decider::Mode);
        self.resolve(id, |_| true, settle)
    }

    /// Changes the live mode and re-routes every open dialog: those the new mode allows are
    /// allowed (decider `mode`), those that now race start their classifier, and those that no
    /// longer race stop it. Those it refuses are refused after [`REFUSAL_GRACE`] if the mode
    /// is still this one (a hurried step toward plan can be taken back); new calls meet the
    /// new mode at once. Returns how many dialogs the change settled now.
    pub(super) fn set_mode(self: &Arc<Self>, mode: Mode) -> usize {
        let mut settle = Vec::new();
        let mut refuse = Vec::new();
        let later = tokio::runtime::Handle::try_current().ok();
        {
            let mut state = self.lock();
            state.mode = mode;
            state.epoch += 1;
            let epoch = state.epoch;
            let mut races = Vec::new();
            for pending in state.pending.iter_mut() {
                pending.epoch = epoch;
                let id = pending.dialog.id;
                let new = pending.route_in(mode);
                if new == pending.route {
                    continue;
                }
                match new {
                    Route::Allow => {
                        settle.push((id, Direct::Allow));
                        continue;
                    }
                    Route::Reject if later.is_none() => {
                        settle.push((id, Direct::Reject));
                        continue;
                    }
                    Route::Reject => {
                        pending.race.cancel();
                        refuse.push(id);
                    }
                    Route::Ask => pending.race.cancel(),
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
            .filter(|&(id, direct)| {
                let decision = match direct {
                    Direct::Allow => Decision::allow(),
                    Direct::Reject => Decision::deny(mode.refusal()),
                };
                self.resolve(id, |_| true, Settle::new(decision, Decider::Mode))
            })
            .count();
        let refusing = refuse.len();
        if let Some(runtime) = later
            && !refuse.is_empty()
        {
            let shared = self.clone();
            runtime.spawn(async move {
                tokio::time::sleep(REFUSAL_GRACE).await;
                shared.refuse_after_grace(mode, &refuse);
            });
        }
        self.emit(Event::ModeChanged {
            mode,
            resolved: settled,
            refusing,
        });
        settled
    }

    /// The grace after a change to `mode` is over: each of `ids` still open, still refused
    /// by the mode in force, which is still `mode`, is refused.
    fn refuse_after_grace(&self, mode: Mode, ids: &[CallId]) {
        for &id in ids {
            let still = |p: &super::pending::Pending| {
                p.route == Route::Reject && p.route_in(mode) == Route::Reject
            };
            if self.lock().mode != mode {
                return;
            }
            let refusal = Settle::new(Decision::deny(mode.refusal()), Decider::Mode);
            self.resolve(id, still, refusal);
        }
    }

    pub(super) fn open_dialogs(&self) -> Vec<Arc<Dialog>> {
        self.lock().pending.dialogs()
    }

    pub(super) fn session_rules(&self) -> Vec<SessionRule> {
        self.lock().allows.list()
    }

    pub(super) fn revoke(&self, id: RuleId) -> bool {
        self.lock().allows.revoke(id)
    }

    pub(super) fn mode(&self) -> Mode {
        self.lock().mode
    }
}
