//! The one settle path: every decision, with a dialog or without, is audited, answered and
//! reported here. A dialog is settled only by the caller that took it from the pending
//! table; an allow that cannot be audited becomes a deny.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::pending::Pending;
use super::{Answer, Shared};
use crate::core::advice::Gist;
use crate::core::audit::{self, Ending, Judged, Record};
use crate::core::batch::Batch;
use crate::core::call::{Call, CallId, Stage};
use crate::core::classify::Assessment;
use crate::core::decision::{Decider, Decision, Verdict};
use crate::core::event::{AuditHealth, Event, Outcome};
use crate::core::mode::Mode;
use crate::core::mode_scope::{Applied, ModeOwner};
use crate::core::route::{Route, Row};

/// How a call is settled: the binding decision, who made it, and for the audit the session
/// rule(s) it made or used and the paired web device a human answered from.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Settle {
    pub(super) decision: Decision,
    pub(super) decider: Decider,
    pub(super) rule: Option<String>,
    pub(super) device: Option<Arc<str>>,
    /// An answer that follows a call the console already showed (a grant): not shown again.
    pub(super) quiet: bool,
    /// The classifier's advice that settled it, for the audit.
    pub(super) advice: Option<Gist>,
    /// The shell line the human edited the call's to, for the audit.
    pub(super) edited: Option<String>,
    /// The batch the human answered it in, for the audit.
    pub(super) batch: Option<Batch>,
}

impl Settle {
    pub(super) fn new(decision: Decision, decider: Decider) -> Settle {
        Settle {
            decision,
            decider,
            rule: None,
            device: None,
            quiet: false,
            advice: None,
            edited: None,
            batch: None,
        }
    }

    /// The same, answered as one call of `batch` (`None`: alone).
    pub(super) fn in_batch(self, batch: Option<Batch>) -> Settle {
        Settle { batch, ..self }
    }

    /// The same, answering the call with its shell line edited to `line`.
    pub(super) fn editing(self, line: String) -> Settle {
        Settle {
            edited: Some(line),
            ..self
        }
    }

    /// The same, settled on the classifier's advice `gist`.
    pub(super) fn advised(self, gist: Gist) -> Settle {
        Settle {
            advice: Some(gist),
            ..self
        }
    }

    /// The same, not shown as a call of its own.
    pub(super) fn quiet(self) -> Settle {
        Settle {
            quiet: true,
            ..self
        }
    }

    /// The same, answered from the paired web device `device` (`None`: this console).
    pub(super) fn answered_from(self, device: Option<Arc<str>>) -> Settle {
        Settle { device, ..self }
    }

    /// The same, naming the session rule(s) in the audit record.
    pub(super) fn noting(self, rule: String) -> Settle {
        Settle {
            rule: Some(rule),
            ..self
        }
    }
}

/// The two routes that settle a call without a dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direct {
    Allow,
    Reject,
}

impl Direct {
    /// `Some` for the routes that need no dialog.
    pub(super) fn of(route: Route) -> Option<Direct> {
        match route {
            Route::Allow => Some(Direct::Allow),
            Route::Reject => Some(Direct::Reject),
            Route::Ask | Route::Race => None,
        }
    }

    /// How a call is settled on this route at submit time: an allow by whatever listed or
    /// proved it; a reject by rule, with the analyser's or the rule's reason, for a denied or
    /// doomed call, and by the mode, with its refusal (plan mode says what to do), for the rest.
    pub(super) fn settle(self, assessment: &Assessment, mode: Mode) -> Settle {
        match self {
            Direct::Allow => Settle::new(Decision::allow(), assessment.allow_decider()),
            Direct::Reject => {
                // A denied or doomed call is the rules' refusal; anything else, the mode's.
                let (reason, decider) = match assessment.row {
                    Row::Denied | Row::Doomed => (
                        format!("gatehouse: {}", assessment.refusal()),
                        Decider::Rule,
                    ),
                    _ => (mode.refusal(), Decider::Mode),
                };
                Settle::new(Decision::deny(reason), decider)
            }
        }
    }
}

/// Where the answer goes once the decision is audited.
pub(super) enum Reply {
    /// An open dialog's waiting submitter.
    Dialog(oneshot::Sender<Answer>),
    /// The submitter is answered with the returned value: no dialog was opened.
    Direct,
    /// As `Direct`, and not shown as a call of its own: the answers that follow a call the
    /// console already showed (an after-tool report's note, a grant).
    Quiet,
}

impl Shared {
    /// Settles a call that needs no dialog and returns its answer. A session allow counts a
    /// hit on the rule(s) it used.
    /// A [`Settle::quiet`] answer is not shown as a call of its own ([`Reply::Quiet`]).
    pub(super) fn settle_direct(
        &self,
        id: CallId,
        call: Arc<Call>,
        assessment: &Assessment,
        applied: Applied,
        settle: Settle,
        started: Instant,
    ) -> Answer {
        let mode = applied.mode;
        let reply = if settle.quiet {
            Reply::Quiet
        } else {
            Reply::Direct
        };
        let route = assessment.route(mode);
        // The session rules it used, or the lasting rule that settled it, with its file.
        let settle = match (settle.decider, &assessment.rule) {
            (Decider::SessionAllow, _) => {
                let rule = self.hit(&call, assessment);
                settle.noting(rule)
            }
            (_, Some(hit)) if settle.rule.is_none() => settle.noting(hit.describe()),
            _ => settle,
        };
        let outcome = Outcome {
            id,
            call,
            class: assessment.class,
            route,
            mode,
            mode_of: applied.owner,
            decision: settle.decision,
            decider: settle.decider,
            latency: started.elapsed(),
            device: settle.device,
            rule: settle.rule,
            edited: settle.edited,
        };
        self.conclude(outcome, None, reply, settle.batch)
    }

    /// Settles dialog `id` if it is still open and `only_if` holds for it, all under one
    /// lock. Returns whether this answer won.
    pub(super) fn resolve(
        &self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
        settle: Settle,
    ) -> bool {
        let Some((mut pending, applied)) = self.take(id, only_if) else {
            return false;
        };
        pending.race.cancel();
        let outcome = Outcome {
            id,
            call: pending.dialog.call.clone(),
            class: pending.dialog.assessment.class,
            route: pending.route,
            mode: applied.mode,
            mode_of: applied.owner,
            decision: settle.decision,
            decider: settle.decider,
            latency: pending.started.elapsed(),
            device: settle.device,
            rule: settle.rule,
            edited: settle.edited,
        };
        self.conclude(
            outcome,
            settle.advice.or(pending.advised),
            Reply::Dialog(pending.reply),
            settle.batch,
        );
        true
    }

    /// Audits `outcome` (an allow that cannot be written becomes a deny, except the note of an
    /// after-tool report: the tool already ran), answers it, and tells the console.
    pub(super) fn conclude(
        &self,
        mut outcome: Outcome,
        advised: Option<Gist>,
        reply: Reply,
        batch: Option<Batch>,
    ) -> Answer {
        let mut record = record_of(&outcome, advised);
        record.rule = outcome.rule.clone();
        record.batch = batch;
        let written = self.write_record(&record);
        if let Err(err) = written
            && matches!(outcome.decision, Decision::Allow { .. })
            && outcome.call.stage != Stage::AfterTool
        {
            outcome.decision = Decision::deny(format!(
                "gatehouse could not write its audit log ({err}), so it refused the call"
            ));
        }
        let answer = Answer {
            id: outcome.id,
            decision: outcome.decision.clone(),
            decider: outcome.decider,
            class: outcome.class,
            route: outcome.route,
        };
        match reply {
            Reply::Dialog(sender) => {
                let _ = sender.send(answer.clone());
                self.emit(Event::Resolved(Arc::new(outcome)));
            }
            Reply::Direct => self.emit(Event::Passed(Arc::new(outcome))),
            Reply::Quiet => {}
        }
        answer
    }

    /// Counts a call let through by its session's rules; returns the rules, for the audit.
    pub(super) fn hit(&self, call: &Call, assessment: &Assessment) -> String {
        let commands = assessment
            .shell
            .as_ref()
            .map_or(&[][..], |s| s.commands.as_slice());
        let mut state = self.lock();
        let hits = state.allows.hit(
            &call.agent,
            &call.session,
            commands,
            &call.tool,
            call.file_path(),
        );
        hits.join("; ")
    }

    /// Takes dialog `id` out of the pending table if `only_if` holds, with the mode in force
    /// for its call.
    fn take(
        &self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
    ) -> Option<(Pending, Applied)> {
        let mut state = self.lock();
        let pending = state.pending.take(id, only_if)?;
        let applied = state.applied(&pending.dialog.call);
        Some((pending, applied))
    }

    /// Withdraws dialog `id`, whose submitter went away: audited as `withdrawn`, decided by
    /// the agent.
    pub(super) fn withdraw(&self, id: CallId) {
        let Some((mut pending, applied)) = self.take(id, |_| true) else {
            return;
        };
        pending.race.cancel();
        let facts = Facts {
            id,
            call: &pending.dialog.call,
            mode: applied.mode,
            mode_of: applied.owner,
            class: Judged::Class(pending.dialog.assessment.class),
            route: pending.route,
            latency: pending.started.elapsed(),
            advised: pending.advised,
        };
        let record = Record {
            reason: Some("the agent went away before anyone answered"),
            ..facts.record(Ending::Withdrawn, Decider::Agent)
        };
        let _ = self.write_record(&record);
        self.emit(Event::Withdrawn { id });
    }

    /// Writes one record and tells the console how it went.
    fn write_record(&self, record: &Record<'_>) -> std::io::Result<()> {
        let written = self.audit.write(record);
        self.report_audit(&written);
        written
    }

    /// Tells the console how the last audit write went: every failure, and the first success
    /// after one.
    pub(super) fn report_audit(&self, written: &std::io::Result<()>) {
        match written {
            Err(err) => {
                self.audit_failing.store(true, Ordering::SeqCst);
                let path = self
                    .audit
                    .path()
                    .map(|p| format!(" {}", p.display()))
                    .unwrap_or_default();
                self.emit(Event::Audit(AuditHealth::Failing(format!(
                    "cannot write the audit log{path}: {err}"
                ))));
            }
            Ok(()) => {
                if self.audit_failing.swap(false, Ordering::SeqCst) {
                    self.emit(Event::Audit(AuditHealth::Recovered));
                }
            }
        }
    }
}

/// The record of a settled call. For a human's answer on a dialog the classifier advised
/// `advised` on, it says whether the answer agreed.
fn record_of(outcome: &Outcome, advised: Option<Gist>) -> Record<'_> {
    let allowed = matches!(outcome.decision, Decision::Allow { .. });
    let agreed = match (outcome.decider, advised.map(|g| g.verdict)) {
        (Decider::Human, Some(Verdict::ReadOnly)) => Some(allowed),
        (Decider::Human, Some(Verdict::Writes)) => Some(!allowed),
        _ => None,
    };
    // An after-tool report is not judged: its record names its stage and the note it carried.
    let after_tool = outcome.call.stage == Stage::AfterTool;
    let facts = Facts {
        id: outcome.id,
        call: &outcome.call,
        mode: outcome.mode,
        mode_of: outcome.mode_of,
        class: match after_tool {
            true => Judged::AfterTool,
            false => Judged::Class(outcome.class),
        },
        route: outcome.route,
        latency: outcome.latency,
        advised,
    };
    Record {
        reason: match outcome.decision.text() {
            None if after_tool => Some("no note was kept for this call"),
            text => text,
        },
        agreed,
        device: outcome.device.as_deref(),
        edited: outcome.edited.as_deref().map(audit::subject),
        shape: match outcome.decider {
            Decider::Human => crate::core::learn::shape_of_call(&outcome.call),
            _ => None,
        },
        ..facts.record(Ending::of(&outcome.decision), outcome.decider)
    }
}

/// What every record of a call says, whatever settled it.
struct Facts<'a> {
    id: CallId,
    call: &'a Call,
    mode: Mode,
    mode_of: ModeOwner,
    class: Judged,
    route: Route,
    latency: Duration,
    advised: Option<Gist>,
}

impl<'a> Facts<'a> {
    /// The record of these facts ending in `decision` by `decider`; the fields only some
    /// endings have are left for the caller.
    fn record(self, decision: Ending, decider: Decider) -> Record<'a> {
        let call = self.call;
        // A plan's whole text would make a long line: its first line, length and digest do.
        let (subject, plan) = match call.plan_text() {
            Some(text) if call.kind == Some(crate::core::call::ToolKind::Plan) => {
                let (subject, mark) = crate::core::audit_text::plan(text);
                (subject, Some(mark))
            }
            _ => (audit::subject(&call.subject()), None),
        };
        Record {
            time: audit::now_rfc3339(),
            id: self.id.0,
            agent: call.agent.to_string(),
            host: call.remote.as_ref().map(|r| r.host.as_str()),
            session: &call.session,
            tool: &call.tool,
            subject,
            mode: self.mode,
            mode_of: match self.mode_of {
                ModeOwner::Global => None,
                owner => Some(owner),
            },
            class: self.class,
            route: self.route,
            decision,
            decider,
            reason: None,
            rule: None,
            latency_ms: self.latency.as_secs_f64() * 1e3,
            advice: self.advised.map(|g| g.verdict),
            confidence: self.advised.and_then(|g| g.confidence),
            risk: self.advised.and_then(|g| g.risk),
            agreed: None,
            device: None,
            edited: None,
            shape: None,
            kind: call.kind.clone(),
            batch: None,
            plan,
        }
    }
}
