//! The pending table's bookkeeping: settling, withdrawing and auditing calls.

use super::*;

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(super) fn emit(&self, event: Event) {
        // Nobody listening (no console) is fine: the barrier still decides.
        let _ = self.events.send(event);
    }

    pub(super) fn fallback_decision(&self, fallback: Fallback, what: &str) -> Decision {
        let reason = format!("gatehouse {what} before anyone answered");
        match fallback {
            Fallback::Deny => Decision::deny(reason),
            Fallback::Defer => Decision::defer(reason),
        }
    }

    pub(super) fn timeout_decision(&self) -> Decision {
        let secs = self.ask_timeout.as_secs();
        let reason = format!(
            "gatehouse: no one answered within {secs} s, so the call timed out unanswered (ask_timeout)"
        );
        match self.on_timeout {
            Fallback::Deny => Decision::deny(reason),
            Fallback::Defer => Decision::defer(reason),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn settle_without_dialog(
        &self,
        id: CallId,
        call: Arc<Call>,
        assessment: &Assessment,
        mode: Mode,
        route: Route,
        decision: Decision,
        decider: Decider,
        started: Instant,
    ) -> Answer {
        // The session rules it used, or the lasting rule that settled it, with its file.
        let rule = (decider == Decider::SessionAllow)
            .then(|| self.hit(&call, assessment))
            .or_else(|| assessment.rule.as_ref().map(|hit| hit.describe()));
        let mut outcome = Outcome {
            id,
            call,
            class: assessment.class,
            route,
            mode,
            decision,
            decider,
            latency: started.elapsed(),
        };
        self.audit_noting(&mut outcome, rule, None);
        let answer = Answer {
            id,
            decision: outcome.decision.clone(),
            decider,
            class: outcome.class,
            route,
        };
        self.emit(Event::Passed(Arc::new(outcome)));
        answer
    }

    /// Resolves the open dialog `id` if it is still pending and `only_if` holds for it, all
    /// under one lock. Returns whether this answer won.
    pub(super) fn resolve(
        &self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
        decision: Decision,
        decider: Decider,
    ) -> bool {
        self.resolve_noting(id, only_if, decision, decider, None)
    }

    /// As [`Shared::resolve`], with the session rule(s) for the audit record.
    pub(super) fn resolve_noting(
        &self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
        decision: Decision,
        decider: Decider,
        rule: Option<String>,
    ) -> bool {
        let Some((pending, mode)) = self.take(id, only_if) else {
            return false;
        };
        if let Some(race) = &pending.race {
            race.abort();
        }
        let mut outcome = Outcome {
            id,
            call: pending.dialog.call.clone(),
            class: pending.dialog.assessment.class,
            route: pending.route,
            mode,
            decision,
            decider,
            latency: pending.started.elapsed(),
        };
        self.audit_noting(&mut outcome, rule, pending.advised);
        let _ = pending.reply.send(Answer {
            id,
            decision: outcome.decision.clone(),
            decider,
            class: outcome.class,
            route: outcome.route,
        });
        self.emit(Event::Resolved(Arc::new(outcome)));
        true
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

    pub(super) fn take(
        &self,
        id: CallId,
        only_if: impl FnOnce(&Pending) -> bool,
    ) -> Option<(Pending, Mode)> {
        let mut state = self.lock();
        if !only_if(state.pending.get(&id)?) {
            return None;
        }
        let mode = state.mode;
        state.pending.remove(&id).map(|p| (p, mode))
    }

    pub(super) fn withdraw(&self, id: CallId) {
        let Some((pending, mode)) = self.take(id, |_| true) else {
            return;
        };
        if let Some(race) = &pending.race {
            race.abort();
        }
        let call = &pending.dialog.call;
        let record = Record {
            time: audit::now_rfc3339(),
            id: id.0,
            agent: call.agent.to_string(),
            session: &call.session,
            tool: &call.tool,
            subject: audit::subject(&call.subject()),
            mode: mode.name(),
            class: pending.dialog.assessment.class.name(),
            route: pending.route.name(),
            decision: "withdrawn",
            decider: "agent",
            reason: Some("the agent went away before anyone answered"),
            rule: None,
            latency_ms: pending.started.elapsed().as_secs_f64() * 1e3,
            advice: pending.advised.map(Verdict::name),
            agreed: None,
            shape: None,
        };
        let written = self.audit.write(&record);
        self.report_audit(&written);
        self.emit(Event::Withdrawn { id });
    }

    /// Appends the outcome to the audit log, naming the session rule(s) the decision made or
    /// used and, for a dialog the classifier advised `advised` on, its verdict and whether a
    /// human's answer agreed. An allow that cannot be audited becomes a deny: nothing passes
    /// unrecorded.
    pub(super) fn audit_noting(
        &self,
        outcome: &mut Outcome,
        rule: Option<String>,
        advised: Option<Verdict>,
    ) {
        let mut record = record_of(outcome, advised);
        record.rule = rule;
        let result = self.audit.write(&record);
        self.report_audit(&result);
        if let Err(err) = result
            && matches!(outcome.decision, Decision::Allow { .. })
        {
            outcome.decision = Decision::deny(format!(
                "gatehouse could not write its audit log ({err}), so it refused the call"
            ));
        }
    }
}

impl Shared {
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

fn record_of(outcome: &Outcome, advised: Option<Verdict>) -> Record<'_> {
    let allowed = matches!(outcome.decision, Decision::Allow { .. });
    let agreed = match (outcome.decider, advised) {
        (Decider::Human, Some(Verdict::ReadOnly)) => Some(allowed),
        (Decider::Human, Some(Verdict::Writes)) => Some(!allowed),
        _ => None,
    };
    let call = &outcome.call;
    Record {
        time: audit::now_rfc3339(),
        id: outcome.id.0,
        agent: call.agent.to_string(),
        session: &call.session,
        tool: &call.tool,
        subject: audit::subject(&call.subject()),
        mode: outcome.mode.name(),
        class: outcome.class.name(),
        route: outcome.route.name(),
        decision: outcome.decision.name(),
        decider: outcome.decider.name(),
        reason: outcome.decision.text(),
        rule: None,
        latency_ms: outcome.latency.as_secs_f64() * 1e3,
        advice: advised.map(Verdict::name),
        agreed,
        shape: match outcome.decider {
            Decider::Human => crate::core::learn::shape_of_call(call),
            _ => None,
        },
    }
}
