//! The barrier: classifies each submitted call, settles what the mode and rules can, and holds
//! the rest as dialogs in a pending table where removal is resolution, so the first answer wins.
//!
//! The server holds a [`Barrier`] (it can submit, not answer); the console holds a
//! [`Prompter`](super::prompter::Prompter) (it can answer, not submit). Every path that settles
//! a dialog (human, classifier, mode change, timeout, shutdown) goes through `Shared::take`,
//! which removes the entry under the lock: exactly one of them finds it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::task::AbortHandle;

use super::advice::Advice;
use super::audit::{self, Audit, Record};
use super::call::{Call, CallId};
use super::classifier::{Classifier, Question};
use super::classify::{Assessment, assess};
use super::decision::{Decider, Decision, Verdict};
use super::event::{AuditHealth, ClassifierState, Dialog, Event, Outcome};
use super::mode::Mode;
use super::prompter::HumanAnswer;
use super::prompter::Prompter;
use super::route::Row;
use super::route::{Class, Route, route};
use super::rules::{Rules, SessionAllows};

/// What a barrier answers when nobody does: `deny` or `defer`, never `allow`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fallback {
    #[default]
    Deny,
    Defer,
}

/// The barrier's settings, from config.
#[derive(Debug, Clone)]
pub struct Settings {
    pub mode: Mode,
    pub rules: Rules,
    /// How long a dialog waits for an answer.
    pub ask_timeout: Duration,
    pub on_timeout: Fallback,
    pub on_shutdown: Fallback,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::default(),
            rules: Rules::default(),
            ask_timeout: Duration::from_secs(540),
            on_timeout: Fallback::Deny,
            on_shutdown: Fallback::Defer,
        }
    }
}

/// The binding answer for one submitted call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub id: CallId,
    pub decision: Decision,
    pub decider: Decider,
    pub class: Class,
    pub route: Route,
}

/// The submitting side of the barrier. Cheap to clone.
#[derive(Clone)]
pub struct Barrier {
    shared: Arc<Shared>,
}

pub(in crate::core) struct Shared {
    rules: Rules,
    ask_timeout: Duration,
    on_timeout: Fallback,
    on_shutdown: Fallback,
    audit: Audit,
    /// The last record could not be written (the console has been told).
    audit_failing: AtomicBool,
    classifier: Option<Arc<dyn Classifier>>,
    events: mpsc::UnboundedSender<Event>,
    /// One permit: large calls are analysed one at a time, off the async workers.
    analysis: Arc<Semaphore>,
    state: Mutex<State>,
}

struct State {
    mode: Mode,
    /// Bumped whenever the mode (or the rules) change: advice asked in an older epoch is stale.
    epoch: u64,
    next_id: u64,
    closed: bool,
    pending: BTreeMap<CallId, Pending>,
    allows: SessionAllows,
}

struct Pending {
    dialog: Arc<Dialog>,
    route: Route,
    claimed: bool,
    /// The epoch in force for this dialog now.
    epoch: u64,
    /// The classifier's verdict, once it advised without settling.
    advised: Option<Verdict>,
    started: Instant,
    reply: oneshot::Sender<Answer>,
    race: Option<AbortHandle>,
}

impl Barrier {
    /// A barrier and the prompter that answers its dialogs. Must be called inside a tokio
    /// runtime when a classifier is given (races run as tasks on it).
    pub fn new(
        settings: Settings,
        audit: Audit,
        classifier: Option<Arc<dyn Classifier>>,
    ) -> (Barrier, Prompter) {
        let (events, receiver) = mpsc::unbounded_channel();
        let next_id = audit.first_id();
        let shared = Arc::new(Shared {
            rules: settings.rules,
            ask_timeout: settings.ask_timeout,
            on_timeout: settings.on_timeout,
            on_shutdown: settings.on_shutdown,
            audit,
            audit_failing: AtomicBool::new(false),
            classifier,
            events,
            analysis: Arc::new(Semaphore::new(1)),
            state: Mutex::new(State {
                mode: settings.mode,
                epoch: 0,
                next_id,
                closed: false,
                pending: BTreeMap::new(),
                allows: SessionAllows::default(),
            }),
        });
        let prompter = Prompter::new(shared.clone(), receiver);
        (Barrier { shared }, prompter)
    }

    pub fn mode(&self) -> Mode {
        self.shared.lock().mode
    }

    /// Classifies the call and settles it. Resolves at once where a rule or the mode can;
    /// otherwise opens a dialog and waits for the first answer or the ask timeout. Dropping the
    /// returned future withdraws the dialog.
    pub async fn submit(&self, call: Call) -> Answer {
        let started = Instant::now();
        let shared = &self.shared;
        let allows = shared.lock().allows.of(&call.agent, &call.session).to_vec();
        let call = Arc::new(call);
        let assessment = shared.assess_call(call.clone(), allows).await;

        let (id, waiting) = {
            let mut state = shared.lock();
            let id = CallId(state.next_id);
            state.next_id += 1;
            let mode = state.mode;
            let route = route(mode, assessment.row);
            if state.closed {
                drop(state);
                let decision = shared.fallback_decision(shared.on_shutdown, "is shutting down");
                return shared.settle_without_dialog(
                    id,
                    call,
                    &assessment,
                    mode,
                    route,
                    decision,
                    Decider::Shutdown,
                    started,
                );
            }
            match route {
                Route::Allow | Route::Reject => {
                    drop(state);
                    let (decision, decider) = static_decision(route, &assessment, mode);
                    return shared.settle_without_dialog(
                        id,
                        call,
                        &assessment,
                        mode,
                        route,
                        decision,
                        decider,
                        started,
                    );
                }
                Route::Ask | Route::Race => {
                    let (reply, waiting) = oneshot::channel();
                    let epoch = state.epoch;
                    let dialog = Arc::new(Dialog {
                        id,
                        call: call.clone(),
                        assessment,
                        route,
                        opened: Instant::now(),
                    });
                    state.pending.insert(
                        id,
                        Pending {
                            dialog: dialog.clone(),
                            route,
                            claimed: false,
                            epoch,
                            advised: None,
                            started,
                            reply,
                            race: None,
                        },
                    );
                    shared.emit(Event::Opened(dialog));
                    if route == Route::Race {
                        shared.start_race(&mut state, id);
                    }
                    (id, waiting)
                }
            }
        };

        let mut withdraw = WithdrawOnDrop {
            shared: shared.clone(),
            id: Some(id),
        };
        let mut waiting = waiting;
        // Cancellation: if this future is dropped here (the agent disconnected), the guard
        // withdraws the dialog. The timeout only tries to resolve; another answer may win it.
        let answer = match tokio::time::timeout(shared.ask_timeout, &mut waiting).await {
            Ok(answer) => answer,
            Err(_) => {
                let decision = shared.timeout_decision();
                shared.resolve(id, |_| true, decision, Decider::Timeout);
                waiting.await
            }
        };
        withdraw.id = None;
        // The sender is only dropped unanswered if the entry was withdrawn, which this future
        // itself would have done; answer as the shutdown fallback would, never allow.
        answer.unwrap_or_else(|_| Answer {
            id,
            decision: Decision::defer("gatehouse lost track of this call"),
            decider: Decider::Shutdown,
            class: Class::Unverified,
            route: Route::Ask,
        })
    }

    /// Settles a call the server could not take (past its bound) without a dialog: what the
    /// mode and rules settle alone is settled as usual (denied and doomed calls denied, proven
    /// reads allowed where the mode allows them); a call that needs a human is deferred with
    /// `reason`. Audited and reported like every other decision.
    pub fn refuse_busy(&self, call: Call, reason: String) -> Answer {
        let started = Instant::now();
        let assessment = assess_bounded(&call, &self.shared.rules, &[]);
        let (id, mode) = {
            let mut state = self.shared.lock();
            let id = CallId(state.next_id);
            state.next_id += 1;
            (id, state.mode)
        };
        let route = route(mode, assessment.row);
        let (decision, decider) = match route {
            Route::Allow | Route::Reject => static_decision(route, &assessment, mode),
            Route::Ask | Route::Race => (Decision::defer(reason), Decider::Busy),
        };
        self.shared.settle_without_dialog(
            id,
            Arc::new(call),
            &assessment,
            mode,
            route,
            decision,
            decider,
            started,
        )
    }

    /// Answers every open dialog with the shutdown fallback and refuses new calls the same
    /// way. Returns how many dialogs it answered.
    pub fn shutdown(&self) -> usize {
        let ids: Vec<CallId> = {
            let mut state = self.shared.lock();
            state.closed = true;
            state.pending.keys().copied().collect()
        };
        let decision = self
            .shared
            .fallback_decision(self.shared.on_shutdown, "was shut down");
        ids.into_iter()
            .filter(|&id| {
                self.shared
                    .resolve(id, |_| true, decision.clone(), Decider::Shutdown)
            })
            .count()
    }
}

/// Withdraws a dialog whose submitter went away.
struct WithdrawOnDrop {
    shared: Arc<Shared>,
    id: Option<CallId>,
}

impl Drop for WithdrawOnDrop {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.shared.withdraw(id);
        }
    }
}

/// The decision and decider for a route settled without a dialog.
fn static_decision(route: Route, assessment: &Assessment, mode: Mode) -> (Decision, Decider) {
    match route {
        Route::Allow => {
            let decider = assessment.allow_decider();
            (Decision::allow(), decider)
        }
        _ => {
            let _ = mode;
            let reason = format!("gatehouse: {}", assessment.explanation);
            (Decision::deny(reason), Decider::Rule)
        }
    }
}

mod after;
mod analysis;
mod control;
mod granted;
mod table;

pub use analysis::{INLINE_BYTES, MAX_ANALYSED_LINE, assess_bounded};
