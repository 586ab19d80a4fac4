//! The pending table: the open dialogs, each with its one-shot reply and where the classifier
//! is with it. Removal is resolution: [`PendingTable::take`] removes an entry under the
//! barrier's lock, so of every path that tries to settle a dialog exactly one finds it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::oneshot;
use tokio::task::AbortHandle;

use super::Answer;
use crate::core::advice::Gist;
use crate::core::call::CallId;
use crate::core::event::Dialog;
use crate::core::route::Route;

/// Where the classifier is with one open dialog.
#[derive(Debug)]
pub(super) enum Race {
    /// Open to the classifier, with no request in flight.
    Idle,
    /// A request is in flight for a dialog nobody claimed. On a dialog routed `race` its
    /// allow may resolve it; on any other it only annotates.
    Asking(AbortHandle),
    /// The human engaged with the dialog: the classifier can no longer resolve it, and a
    /// verdict arriving for the race is dropped. `advice` is a request the human asked for,
    /// which only annotates.
    Claimed { advice: Option<AbortHandle> },
}

impl Race {
    /// Whether the human has claimed the dialog.
    pub(super) fn is_claimed(&self) -> bool {
        matches!(self, Race::Claimed { .. })
    }

    /// Whether a request to the classifier is in flight.
    pub(super) fn is_asking(&self) -> bool {
        matches!(self, Race::Asking(_) | Race::Claimed { advice: Some(_) })
    }

    /// Records that `task` now asks the classifier about the dialog.
    pub(super) fn start(&mut self, task: AbortHandle) {
        match self {
            Race::Claimed { advice } => *advice = Some(task),
            Race::Idle | Race::Asking(_) => *self = Race::Asking(task),
        }
    }

    /// The request in flight has answered: forget it (a claim stays).
    pub(super) fn finish(&mut self) {
        match self {
            Race::Asking(_) => *self = Race::Idle,
            Race::Claimed { advice } => *advice = None,
            Race::Idle => {}
        }
    }

    /// Cancels the request in flight, if any (a claim stays).
    pub(super) fn cancel(&mut self) {
        match self {
            Race::Asking(task) | Race::Claimed { advice: Some(task) } => task.abort(),
            Race::Idle | Race::Claimed { advice: None } => {}
        }
        self.finish();
    }

    /// Claims the dialog for the human and cancels the request in flight.
    pub(super) fn claim(&mut self) {
        self.cancel();
        *self = Race::Claimed { advice: None };
    }
}

/// Why a dialog is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cause {
    /// Its route asks (or races).
    Route,
    /// Allow-all would have passed it, and its review found a confident high risk: allow-all
    /// keeps asking about it.
    Review,
}

/// One open dialog.
pub(super) struct Pending {
    pub(super) dialog: Arc<Dialog>,
    /// The route now; a mode change may re-route the dialog.
    pub(super) route: Route,
    pub(super) race: Race,
    pub(super) cause: Cause,
    /// The epoch in force for this dialog now.
    pub(super) epoch: u64,
    /// The gist of the classifier's advice, once it advised without settling.
    pub(super) advised: Option<Gist>,
    pub(super) started: Instant,
    pub(super) reply: oneshot::Sender<Answer>,
}

impl Pending {
    /// The dialog's route in `mode`: as the route table says, except that one held by
    /// allow-all's review is never allowed by the mode that held it.
    pub(super) fn route_in(&self, mode: crate::core::mode::Mode) -> Route {
        match (self.cause, self.dialog.assessment.route(mode)) {
            (Cause::Review, Route::Allow) => Route::Ask,
            (_, route) => route,
        }
    }

    /// Whether the classifier's allow can still resolve this dialog: it routes `race` and
    /// the human has not claimed it.
    pub(super) fn is_racing(&self) -> bool {
        self.route == Route::Race && !self.race.is_claimed()
    }
}

/// The open dialogs by id, oldest first.
#[derive(Default)]
pub(super) struct PendingTable {
    open: BTreeMap<CallId, Pending>,
}

impl PendingTable {
    pub(super) fn insert(&mut self, pending: Pending) {
        self.open.insert(pending.dialog.id, pending);
    }

    pub(super) fn get(&self, id: CallId) -> Option<&Pending> {
        self.open.get(&id)
    }

    pub(super) fn get_mut(&mut self, id: CallId) -> Option<&mut Pending> {
        self.open.get_mut(&id)
    }

    /// Removes dialog `id` if it is still open and `only_if` holds for it. The caller that
    /// gets it is the one that settles it.
    pub(super) fn take(
        &mut self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
    ) -> Option<Pending> {
        if !only_if(self.open.get(&id)?) {
            return None;
        }
        self.open.remove(&id)
    }

    pub(super) fn ids(&self) -> Vec<CallId> {
        self.open.keys().copied().collect()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Pending> {
        self.open.values()
    }

    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Pending> {
        self.open.values_mut()
    }

    /// The open dialogs, oldest first.
    pub(super) fn dialogs(&self) -> Vec<Arc<Dialog>> {
        self.open.values().map(|p| p.dialog.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> (AbortHandle, tokio::task::JoinHandle<()>) {
        let task = tokio::spawn(std::future::pending::<()>());
        (task.abort_handle(), task)
    }

    #[tokio::test]
    async fn a_claim_cancels_the_request_in_flight_and_outlasts_later_advice() {
        let mut race = Race::Idle;
        let (handle, task) = request();
        race.start(handle);
        assert!(race.is_asking() && !race.is_claimed());
        race.claim();
        assert!(task.await.unwrap_err().is_cancelled());
        assert!(race.is_claimed() && !race.is_asking());
        let (handle, _task) = request();
        race.start(handle);
        assert!(
            race.is_claimed() && race.is_asking(),
            "advice on a claimed dialog"
        );
        race.finish();
        assert!(race.is_claimed() && !race.is_asking(), "the claim stays");
    }

    #[tokio::test]
    async fn cancelling_an_unclaimed_request_leaves_the_dialog_open_to_the_classifier() {
        let mut race = Race::Idle;
        let (handle, task) = request();
        race.start(handle);
        race.cancel();
        assert!(task.await.unwrap_err().is_cancelled());
        assert!(matches!(race, Race::Idle));
    }
}
