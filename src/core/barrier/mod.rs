//! The barrier: classifies each submitted call, settles what the mode and rules can, and holds
//! the rest as dialogs in a pending table where removal is resolution, so the first answer wins.
//!
//! The server holds a [`Barrier`] (it can submit, not answer); the console holds a
//! [`Prompter`] (it can answer, not submit). Every path that settles a dialog (human,
//! classifier, mode change, timeout, shutdown) takes it from the [`pending`] table under the
//! lock, so exactly one of them finds it, and then goes through the one [`settle`] path.
//!
//! - `pending`: the table, and the race state of each dialog;
//! - `settle`: auditing, answering and reporting every decision;
//! - `race`: the classifier's race and the advice the human asks for;
//! - `review`: allow-all's opt-in review, which can only turn an allow into a dialog;
//! - `control`: the human's answers and mode changes;
//! - `batch`: one answer for many dialogs, each settled as if alone;
//! - `modes`: the modes given to one session or one agent, and the re-routing they cause;
//! - `timed`: the global mode set for a while, and its return to the mode before;
//! - `edited`: a shell line the human edited before approving, judged afresh;
//! - `plan`: a plan approved, and the mode the human moves to with it;
//! - `deleted`: a saved or in-memory rule deleted through the console, audited;
//! - `prompter`: the answering handle;
//! - `analysis`: the static analysis of a call within its size budget;
//! - `kept`: the notes and grants an answer leaves for the hook call that follows it, and the
//!   answers that take them (after-tool reports, the question after a permission request).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, oneshot};

use self::kept::{Kept, Leaves};
use self::pending::{Cause, Pending, PendingTable, Race};
use self::settle::{Direct, Settle};
use super::advice::Advice;
use super::audit::Audit;
use super::call::{Call, CallId, Stage};
use super::classifier::Classifier;
use super::decision::{Decider, Decision};
use super::event::{ClassifierState, Dialog, Event};
use super::mode::Mode;
use super::mode_scope::{Applied, ModeOverrides};
use super::route::{Class, Route};
use super::rules::{Rules, SessionAllows};

pub use self::analysis::{INLINE_BYTES, MAX_ANALYSED_LINE, assess_bounded};
pub use self::batch::{Arming, BatchDone};
pub use self::edited::{EditEnd, EditJudged};
pub use self::modes::REFUSAL_GRACE;
pub use self::prompter::{HumanAnswer, Prompter};

/// How long a dialog waits for an answer unless `ask_timeout_secs` says otherwise (nine
/// minutes). The installers give the hook a minute more, so the console answers first.
pub const DEFAULT_ASK_TIMEOUT: Duration = Duration::from_secs(540);

/// What a barrier answers when nobody does: `deny` or `defer`, never `allow`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fallback {
    #[default]
    Deny,
    Defer,
}

impl Fallback {
    /// The decision this fallback gives, with `reason`.
    pub fn decision(self, reason: impl Into<String>) -> Decision {
        match self {
            Fallback::Deny => Decision::deny(reason),
            Fallback::Defer => Decision::defer(reason),
        }
    }
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
            ask_timeout: DEFAULT_ASK_TIMEOUT,
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

/// What the barrier and its prompter share: the settings, the audit log, the classifier,
/// the event channel and, under one lock, the [`State`].
struct Shared {
    /// The rules in force; replaced whole when the config is read again ([`Shared::rules`]).
    rules: RwLock<Arc<Rules>>,
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
    /// Notes and grants kept for the hook calls that follow.
    kept: Kept,
    state: Mutex<State>,
}

/// What changes under the lock.
struct State {
    mode: Mode,
    /// Bumped whenever the mode (or the rules) change: advice asked in an older epoch is stale.
    epoch: u64,
    next_id: u64,
    closed: bool,
    pending: PendingTable,
    allows: SessionAllows,
    /// The modes given to sessions and agents (`modes`).
    overrides: ModeOverrides,
    /// The global mode's timer, if it was set for a while (`timed`).
    timer: Option<timed::Timer>,
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
            rules: RwLock::new(Arc::new(settings.rules)),
            ask_timeout: settings.ask_timeout,
            on_timeout: settings.on_timeout,
            on_shutdown: settings.on_shutdown,
            audit,
            audit_failing: AtomicBool::new(false),
            classifier,
            events,
            analysis: Arc::new(Semaphore::new(1)),
            kept: Kept::default(),
            state: Mutex::new(State {
                mode: settings.mode,
                epoch: 0,
                next_id,
                closed: false,
                pending: PendingTable::default(),
                allows: SessionAllows::default(),
                overrides: ModeOverrides::default(),
                timer: None,
            }),
        });
        let prompter = Prompter::new(shared.clone(), receiver);
        (Barrier { shared }, prompter)
    }

    /// The live mode.
    pub fn mode(&self) -> Mode {
        self.shared.lock().mode
    }

    /// Settles one call, whatever its stage: an after-tool report takes the note kept for the
    /// call it follows; a question takes the grant kept for it if it has one, and is otherwise
    /// classified and settled at once where a rule or the mode can, or else opens a dialog and
    /// waits for the first answer or the ask timeout. What the answer leaves for the call that
    /// follows (a note, a grant) is kept. Dropping the returned future withdraws the dialog.
    pub async fn submit(&self, call: Call) -> Answer {
        if call.stage == Stage::AfterTool {
            return self.shared.report_after_tool(call);
        }
        if call.stage == Stage::SessionEnd {
            return self.shared.session_ended(call);
        }
        if let Some(answer) = self.shared.take_grant(&call) {
            return answer;
        }
        let leaves = Leaves::of(&call);
        let answer = self.ask(call).await;
        self.shared.keep(leaves, &answer.decision);
        answer
    }

    /// Classifies a question and settles it, at once or through a dialog.
    async fn ask(&self, call: Call) -> Answer {
        let started = Instant::now();
        let shared = &self.shared;
        let allows = shared.lock().allows.of(&call.agent, &call.session).to_vec();
        let call = Arc::new(call);
        let assessment = shared.assess_call(call.clone(), allows).await;
        let mode = shared.lock().applied(&call).mode;
        let alarm = shared.review(&call, &assessment, mode).await;

        let (dialog, waiting) = {
            let mut state = shared.lock();
            let id = state.next_id();
            let applied = state.applied(&call);
            let mode = applied.mode;
            // An alarm holds the call only while allow-all, which asked for it, is in force.
            let (cause, alarm) = match alarm {
                Some(advice) if review::only_allow_all_passes(mode, &assessment) => {
                    (Cause::Review, Some(advice))
                }
                _ => (Cause::Route, None),
            };
            let route = match cause {
                Cause::Review => Route::Ask,
                Cause::Route => assessment.route(mode),
            };
            let settle = if state.closed {
                let reason = "gatehouse is shutting down before anyone answered";
                Some(Settle::new(
                    shared.on_shutdown.decision(reason),
                    Decider::Shutdown,
                ))
            } else {
                Direct::of(route).map(|direct| direct.settle(&assessment, mode))
            };
            if let Some(settle) = settle {
                drop(state);
                return shared.settle_direct(id, call, &assessment, applied, settle, started);
            }
            let (reply, waiting) = oneshot::channel();
            let dialog = Arc::new(Dialog::new(
                id,
                call.clone(),
                assessment,
                route,
                Instant::now(),
            ));
            let epoch = state.epoch;
            state.pending.insert(Pending {
                dialog: dialog.clone(),
                route,
                race: Race::Idle,
                cause,
                epoch,
                advised: alarm.as_ref().map(Advice::gist),
                started,
                reply,
            });
            shared.emit(Event::Opened(dialog.clone()));
            if let Some(advice) = alarm {
                let state = ClassifierState::Advised(advice);
                shared.emit(Event::Classifier { id, state });
            }
            if route == Route::Race {
                shared.start_race(&mut state, id);
            }
            (dialog, waiting)
        };

        let id = dialog.id;
        let mut withdraw = WithdrawOnDrop {
            shared: shared.clone(),
            id: Some(id),
        };
        let mut waiting = waiting;
        // Cancellation: if this future is dropped here (the agent disconnected), the guard
        // withdraws the dialog. The timeout only tries to resolve; another answer may win it.
        let limit = dialog.call.time_limit(shared.ask_timeout);
        let answer = match tokio::time::timeout(limit, &mut waiting).await {
            Ok(answer) => answer,
            Err(_) => {
                let settle = Settle::new(shared.timeout_decision(limit), Decider::Timeout);
                shared.resolve(id, |_| true, settle);
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
            class: dialog.assessment.class,
            route: dialog.route,
        })
    }

    /// Settles a call the server could not take (past its bound) without a dialog: what the
    /// mode and rules settle alone is settled as usual (denied and doomed calls denied, proven
    /// reads allowed where the mode allows them); a call that needs a human is deferred with
    /// `reason`. Audited and reported like every other decision.
    pub fn refuse_busy(&self, call: Call, reason: String) -> Answer {
        let started = Instant::now();
        let assessment = assess_bounded(&call, &self.shared.rules(), &[]);
        let (id, applied) = self.shared.fresh_id(&call);
        let settle = match Direct::of(assessment.route(applied.mode)) {
            Some(direct) => direct.settle(&assessment, applied.mode),
            None => Settle::new(Decision::defer(reason), Decider::Busy),
        };
        self.shared
            .settle_direct(id, Arc::new(call), &assessment, applied, settle, started)
    }

    /// Answers every open dialog with the shutdown fallback and refuses new calls the same
    /// way. Returns how many dialogs it answered.
    pub fn shutdown(&self) -> usize {
        let ids = {
            let mut state = self.shared.lock();
            state.closed = true;
            state.pending.ids()
        };
        let decision = self
            .shared
            .on_shutdown
            .decision("gatehouse was shut down before anyone answered");
        ids.into_iter()
            .filter(|&id| {
                let settle = Settle::new(decision.clone(), Decider::Shutdown);
                self.shared.resolve(id, |_| true, settle)
            })
            .count()
    }
}

impl State {
    /// A fresh call id.
    fn next_id(&mut self) -> CallId {
        let id = CallId(self.next_id);
        self.next_id += 1;
        id
    }

    /// The mode that applies to `call`: its session's or agent's, else the global one.
    fn applied(&self, call: &Call) -> Applied {
        self.overrides
            .applied(self.mode, &call.agent, &call.session)
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A fresh call id, and the mode in force for `call`.
    fn fresh_id(&self, call: &Call) -> (CallId, Applied) {
        let mut state = self.lock();
        (state.next_id(), state.applied(call))
    }

    /// The agent's word that a session ended: the console is told, a mode given to that
    /// session is dropped (a later session of the same id starts under the mode above it), and
    /// nothing is decided, kept or audited (the answer, a defer, is not shown to the agent).
    fn session_ended(&self, call: Call) -> Answer {
        let (id, _) = self.fresh_id(&call);
        let session = super::mode_scope::ModeScope::Session {
            agent: call.agent.clone(),
            session: call.session.clone(),
        };
        self.lock().overrides.set(&session, None);
        self.emit(Event::SessionEnded {
            agent: call.agent,
            session: call.session,
        });
        Answer {
            id,
            decision: Decision::defer("gatehouse noted that the session ended"),
            decider: Decider::Mode,
            class: Class::ReadOnly,
            route: Route::Allow,
        }
    }

    fn emit(&self, event: Event) {
        // Nobody listening (no console) is fine: the barrier still decides.
        let _ = self.events.send(event);
    }

    /// The decision for a dialog nobody answered within its time `limit` (the ask timeout, or
    /// less where the agent kills its hook sooner).
    fn timeout_decision(&self, limit: Duration) -> Decision {
        let secs = limit.as_secs();
        let why = match limit < self.ask_timeout {
            true => "before the agent's own hook timeout",
            false => "ask_timeout",
        };
        self.on_timeout.decision(format!(
            "gatehouse: no one answered within {secs} s, so the call timed out unanswered ({why})"
        ))
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

mod analysis;
mod batch;
mod control;
mod deleted;
mod edited;
mod kept;
mod modes;
mod pending;
mod plan;
pub mod prompter;
mod race;
mod review;
mod rules_changed;
mod settle;
mod timed;
