//! What the barrier tells its prompter: dialogs opening and closing, calls that passed without
//! one, the classifier's progress and mode changes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::advice::Advice;
use super::call::{Agent, Call, CallId};
use super::classify::Assessment;
use super::decision::{Decider, Decision};
use super::mode::Mode;
use super::mode_scope::{ModeOwner, ModeScope};
use super::offer::Offer;
use super::route::Route;

/// An open question to the human about one call.
#[derive(Debug)]
pub struct Dialog {
    pub id: CallId,
    pub call: Arc<Call>,
    pub assessment: Assessment,
    /// The route when it opened; a mode change may re-route it (`Event::Rerouted`).
    pub route: Route,
    pub opened: Instant,
    /// What it offers the human: the screens show it and send answers.
    pub offer: Offer,
}

impl Dialog {
    /// A dialog for `call`, with what it offers worked out from the call and its assessment.
    pub fn new(
        id: CallId,
        call: Arc<Call>,
        assessment: Assessment,
        route: Route,
        opened: Instant,
    ) -> Dialog {
        let offer = Offer::of(&call, &assessment);
        Dialog {
            id,
            call,
            assessment,
            route,
            opened,
            offer,
        }
    }
}

/// How one call was settled, with or without a dialog.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub id: CallId,
    pub call: Arc<Call>,
    pub class: super::route::Class,
    pub route: Route,
    /// The mode the call was routed in, and whose it was (global, its session's, its agent's).
    pub mode: Mode,
    pub mode_of: ModeOwner,
    pub decision: Decision,
    pub decider: Decider,
    pub latency: Duration,
    /// For a human's answer from a paired web device, the device's name; `None` for the
    /// console's own keys and every other decider.
    pub device: Option<Arc<str>>,
    /// The rule the answer made or used, as the audit names it: a session rule an "allow
    /// always" made (`#3 rm -rf build`), a saved one (`saved rule …`), the rules a session
    /// allow used, or the lasting rule that settled it.
    pub rule: Option<String>,
    /// The shell line the human edited the call's to before answering, if they did.
    pub edited: Option<String>,
}

/// Where a racing classifier is with one dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassifierState {
    Asking,
    /// Advice that did not resolve the dialog: each classifier's assessment or failure.
    Advised(Advice),
    Failed(String),
}

#[derive(Debug, Clone)]
pub enum Event {
    Opened(Arc<Dialog>),
    Rerouted {
        id: CallId,
        route: Route,
    },
    Classifier {
        id: CallId,
        state: ClassifierState,
    },
    Resolved(Arc<Outcome>),
    /// The agent went away before anyone answered.
    Withdrawn {
        id: CallId,
    },
    /// Settled by a rule or the mode without a dialog.
    Passed(Arc<Outcome>),
    /// The mode changed; `resolved` open dialogs were settled by it, and `refusing` more it
    /// refuses once [`REFUSAL_GRACE`](crate::core::barrier::REFUSAL_GRACE) has passed,
    /// unless the mode changes again first.
    ModeChanged {
        mode: Mode,
        resolved: usize,
        refusing: usize,
    },
    /// A session or an agent was given its own mode (`None`: back to the mode above it);
    /// `resolved` and `refusing` as for [`Event::ModeChanged`].
    ScopeMode {
        scope: ModeScope,
        mode: Option<Mode>,
        resolved: usize,
        refusing: usize,
    },
    /// The global mode was set for a while, went back, or had its timer ended by hand.
    ModeTimer(TimerState),
    /// The agent said this session ended: it is no longer live.
    SessionEnded {
        agent: Agent,
        session: String,
    },
    /// Whether the audit log is being written: sent on every record that could not be
    /// written (whose allow became a deny), and once when records go through again.
    Audit(AuditHealth),
}

/// The global mode set for a while.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeTimer {
    /// The mode set for the while.
    pub mode: Mode,
    /// The mode it goes back to.
    pub back_to: Mode,
    pub until: Instant,
}

/// Where the global mode's timer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimerState {
    /// Set for a while: it goes back at `until`.
    Running(ModeTimer),
    /// The while is over: the global mode went back to this one.
    Returned(Mode),
    /// The mode was changed by hand: no timer runs.
    Ended,
}

/// The state of the audit log, for the console to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditHealth {
    /// A record could not be written, for this reason; allows are refused until it can.
    Failing(String),
    /// Records are written again.
    Recovered,
}
