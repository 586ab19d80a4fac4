//! Mode changes and what they do to open dialogs: the global mode, and the modes given to one
//! session or one agent. Every change re-routes the open dialogs it applies to, each in the
//! mode that now applies to its call, capped by its ceilings as a new call would be.

use std::sync::Arc;
use std::time::Duration;

use super::settle::{Direct, Settle};
use super::{Shared, State};
use crate::core::call::CallId;
use crate::core::decision::{Decider, Decision};
use crate::core::event::Event;
use crate::core::mode::Mode;
use crate::core::mode_scope::{ModeOverrides, ModeScope};
use crate::core::route::Route;

/// How long an open dialog stays open after a change to a mode that refuses it: a hurried
/// step toward plan can be taken back. New calls meet the new mode at once.
pub const REFUSAL_GRACE: Duration = Duration::from_secs(1);

impl Shared {
    /// Gives `scope` its own `mode`, or (`None`) sends it back to the mode above it, and
    /// re-routes the open dialogs it applies to. Returns how many the change settled now.
    pub(super) fn set_scope_mode(self: &Arc<Self>, scope: ModeScope, mode: Option<Mode>) -> usize {
        let (resolved, refusing) = self.change_modes(|state| {
            state.overrides.set(&scope, mode);
        });
        self.emit(Event::ScopeMode {
            scope,
            mode,
            resolved,
            refusing,
        });
        resolved
    }

    /// The modes given to sessions and agents.
    pub(super) fn overrides(&self) -> ModeOverrides {
        self.lock().overrides.clone()
    }

    /// Applies `change` to the modes under the lock and re-routes every open dialog in the
    /// mode that now applies to its call: those it allows are allowed (decider `mode`), those
    /// that now race start their classifier, and those that no longer race stop it. Those it
    /// refuses are refused after [`REFUSAL_GRACE`] if their mode is still the same (a hurried
    /// step toward plan can be taken back); new calls meet the new mode at once. Returns how
    /// many dialogs were settled now, and how many are refused after the grace.
    pub(super) fn change_modes(
        self: &Arc<Self>,
        change: impl FnOnce(&mut State),
    ) -> (usize, usize) {
        let mut settle = Vec::new();
        let mut refuse = Vec::new();
        let later = tokio::runtime::Handle::try_current().ok();
        {
            let mut state = self.lock();
            change(&mut state);
            state.epoch += 1;
            let epoch = state.epoch;
            let mut races = Vec::new();
            let State {
                pending,
                overrides,
                mode: global,
                ..
            } = &mut *state;
            for pending in pending.iter_mut() {
                let call = &pending.dialog.call;
                let mode = overrides.applied(*global, &call.agent, &call.session).mode;
                pending.epoch = epoch;
                let id = pending.dialog.id;
                let new = pending.route_in(mode);
                if new == pending.route {
                    continue;
                }
                match new {
                    Route::Allow => {
                        settle.push((id, mode, Direct::Allow));
                        continue;
                    }
                    Route::Reject if later.is_none() => {
                        settle.push((id, mode, Direct::Reject));
                        continue;
                    }
                    Route::Reject => {
                        pending.race.cancel();
                        refuse.push((id, mode));
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
            .filter(|&(id, mode, direct)| {
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
                shared.refuse_after_grace(&refuse);
            });
        }
        (settled, refusing)
    }

    /// The grace after a mode change is over: each of `refuse` still open, still refused, whose
    /// call still meets the mode that refused it, is refused.
    fn refuse_after_grace(&self, refuse: &[(CallId, Mode)]) {
        for &(id, mode) in refuse {
            let still = |state: &State| {
                state.pending.get(id).is_some_and(|p| {
                    state.applied(&p.dialog.call).mode == mode
                        && p.route == Route::Reject
                        && p.route_in(mode) == Route::Reject
                })
            };
            if !still(&self.lock()) {
                continue;
            }
            let refusal = Settle::new(Decision::deny(mode.refusal()), Decider::Mode);
            // The mode is checked again under the lock that takes the dialog.
            self.resolve(
                id,
                |p| p.route == Route::Reject && p.route_in(mode) == Route::Reject,
                refusal,
            );
        }
    }
}
