//! What the human and the mode do to open dialogs from outside a submit: answers (with the
//! session rules an "allow always" makes), the unattended policy, and mode changes that
//! re-route every open dialog.

use std::sync::Arc;

use super::prompter::HumanAnswer;
use super::settle::Settle;
use super::{Fallback, Shared};
use crate::core::batch::Batch;
use crate::core::call::{Call, CallId};
use crate::core::classify::assess;
use crate::core::decision::{Decider, Decision};
use crate::core::event::{Dialog, Event};
use crate::core::mode::Mode;
use crate::core::route::{Route, Row};
use crate::core::rules::{RuleId, SessionRule};

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
            HumanAnswer::AllowAlways { allow, note, lasts } => {
                (Decision::allow_noting(note), Some((allow, lasts)))
            }
            HumanAnswer::AllowSaved {
                allow,
                scope,
                note,
                lasts,
                kept,
            } => {
                let saving = (allow, scope, lasts, kept);
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
        let Some((allow, lasts)) = remember else {
            return self.resolve(id, |_| true, settle);
        };
        let text = match lasts {
            Some(lasts) => format!("{} (for {} min)", allow.text(), lasts.as_secs() / 60),
            None => allow.text(),
        };
        let expires = lasts.map(|lasts| std::time::SystemTime::now() + lasts);
        let session = {
            let mut state = self.lock();
            let Some(pending) = state.pending.get(id) else {
                return false;
            };
            let call = pending.dialog.call.clone();
            state
                .allows
                .add_until(&call.agent, &call.session, allow, id.0, expires);
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
                state.applied(like).mode,
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

    /// Changes the global mode (ending any timer it was set with) and re-routes every open
    /// dialog it applies to (see [`Shared::change_modes`]). Returns how many dialogs the
    /// change settled now.
    pub(super) fn set_mode(self: &Arc<Self>, mode: Mode) -> usize {
        let mut ended = None;
        let (resolved, refusing) = self.change_modes(|state| {
            state.mode = mode;
            ended = state.timer.take().map(|t| t.shown);
        });
        self.emit(Event::ModeChanged {
            mode,
            resolved,
            refusing,
        });
        self.timer_ended_by_hand(ended, mode);
        resolved
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
