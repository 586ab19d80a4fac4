//! How the console's model takes what the barrier says: dialogs opening and closing, the
//! classifier's progress, mode changes, and the activity log.

use super::*;
use crate::agents::registry;
use crate::core::decision::Decider;
use crate::core::escape::visible_lines;
use crate::core::event::AuditHealth;

impl App {
    pub(super) fn on_opened(&mut self, dialog: Arc<Dialog>, preview: Preview) -> Vec<Effect> {
        let call = &dialog.call;
        self.heard_from(call);
        let open = Open {
            short: Preview::short(call),
            route: dialog.route,
            preview,
            dialog,
            classifier: None,
            claimed: false,
        };
        let at = self
            .dialogs
            .partition_point(|o| o.dialog.id < open.dialog.id);
        self.dialogs.insert(at, open);
        if self.dialogs.len() == 1 {
            self.focus = 0;
            self.shown();
        } else if at <= self.focus {
            self.focus += 1;
        }
        vec![Effect::Notify]
    }

    pub(super) fn on_event(&mut self, event: Event) {
        match event {
            Event::Opened(_) => {}
            Event::Rerouted { id, route } => {
                if let Some(open) = self.find_mut(id) {
                    open.route = route;
                    if route != Route::Race {
                        open.classifier = None;
                    }
                }
            }
            Event::Classifier { id, state } => {
                if let Some(open) = self.find_mut(id) {
                    open.classifier = Some(state);
                }
            }
            Event::Resolved(outcome) => {
                // A dialog still in the queue was settled by someone other than this console's
                // human (the classifier, the mode, a timeout): say so, not just in the log.
                if outcome.decider == Decider::Mode {
                    // Counted for the notice that says what the mode change did.
                    match outcome.decision.name() {
                        "allow" => self.tally.allowed += 1,
                        _ => self.tally.denied += 1,
                    }
                    self.remove(outcome.id);
                } else if self.remove(outcome.id) {
                    let done = match outcome.decision.name() {
                        "allow" => "allowed",
                        "deny" => "denied",
                        _ => "deferred",
                    };
                    let by = match &outcome.device {
                        Some(device) => format!(
                            "{} on the web ({})",
                            outcome.decider.name(),
                            visible(device)
                        ),
                        None => outcome.decider.name().to_string(),
                    };
                    self.notify(format!("{} {done} by {by}", outcome.id));
                }
                // A saved allow-always says where it went, or why it was not saved.
                if let Some(rule) = outcome.rule.as_deref().filter(|r| {
                    outcome.decider == Decider::Human
                        && (r.starts_with("saved rule") || r.starts_with("not saved"))
                }) {
                    self.notify(format!("{}: {}", outcome.id, visible(rule)));
                }
                self.learn(&outcome);
                self.push_log(&outcome);
            }
            Event::Passed(outcome) => {
                self.heard_from(&outcome.call);
                self.push_log(&outcome);
            }
            Event::Withdrawn { id } => {
                if let Some(open) = self.find(id) {
                    let line = LogLine {
                        time: clock(self.now.wall),
                        agent: visible(&registry::caller(&open.dialog.call)).into_owned(),
                        tool: visible(&open.dialog.call.tool).into_owned(),
                        subject: open.short.clone(),
                        full: visible_lines(&open.dialog.call.subject()),
                        decision: Ending::Withdrawn,
                        decider: Decider::Agent,
                        text: "the agent went away".into(),
                        routing: format!(
                            "{} call, routed {}",
                            open.dialog.assessment.class, open.route
                        ),
                        device: None,
                        rule: String::new(),
                    };
                    self.push(line);
                }
                self.remove(id);
            }
            // The console is the only one that changes the mode, and it already shows the mode
            // its last key asked for: an event can lag behind several quick presses, so it
            // only reports what a change settled.
            Event::ModeChanged { mode, refusing, .. } => self.mode_changed(mode, refusing),
            Event::ScopeMode { scope, mode, .. } => self.scope_mode_changed(scope, mode),
            Event::ModeTimer(timer) => self.mode_timer_changed(timer),
            // The agent said so: the session is no longer live.
            Event::SessionEnded { agent, session } => {
                self.sessions.remove(&format!("{agent}:{session}"));
            }
            Event::Audit(health) => self.notify(match health {
                AuditHealth::Failing(why) => {
                    format!("AUDIT FAILING: {why}; allows are refused until it works again")
                }
                AuditHealth::Recovered => "the audit log is written again".into(),
            }),
        }
    }

    /// Notes that the call's agent session is alive now.
    pub(super) fn heard_from(&mut self, call: &crate::core::call::Call) {
        let key = format!("{}:{}", call.agent, call.session);
        self.sessions.insert(key, self.now.at);
    }

    /// Forgets the sessions quiet for [`SESSION_IDLE`] that have no dialog open.
    pub(super) fn forget_idle_sessions(&mut self) {
        let now = self.now.at;
        let idle = |last: &Instant| now.duration_since(*last) >= SESSION_IDLE;
        if !self.sessions.values().any(idle) {
            return;
        }
        let open: std::collections::HashSet<String> = self
            .dialogs
            .iter()
            .map(|o| format!("{}:{}", o.dialog.call.agent, o.dialog.call.session))
            .collect();
        self.sessions
            .retain(|key, last| !idle(last) || open.contains(key));
    }

    /// Removes dialog `id` if it is open; returns whether it was.
    pub(super) fn remove(&mut self, id: CallId) -> bool {
        let Some(at) = self.index_of(id) else {
            return false;
        };
        self.dialogs.remove(at);
        let was_focused = at == self.focus;
        if at < self.focus {
            self.focus -= 1;
        }
        self.focus = self.focus.min(self.dialogs.len().saturating_sub(1));
        if was_focused {
            self.state = DialogState::Choosing;
            self.shown();
        }
        true
    }

    /// A different dialog is now in front of the human: it arms afresh.
    pub(super) fn shown(&mut self) {
        self.shown_at = self.now.at;
        self.scroll = 0;
    }

    /// Shows `text` in the footer for a few seconds, in place of any other notice: the newest
    /// wins.
    pub(super) fn notify(&mut self, text: String) {
        self.notice = Some((text, self.now.at + NOTICE_FOR));
        self.mode_notice = None;
    }

    /// Where dialog `id` is in the queue, which is kept in id order.
    fn index_of(&self, id: CallId) -> Option<usize> {
        self.dialogs.binary_search_by_key(&id, |o| o.dialog.id).ok()
    }

    pub(super) fn find(&self, id: CallId) -> Option<&Open> {
        self.index_of(id).map(|at| &self.dialogs[at])
    }

    pub(super) fn find_mut(&mut self, id: CallId) -> Option<&mut Open> {
        self.index_of(id).map(|at| &mut self.dialogs[at])
    }

    pub(super) fn push_log(&mut self, outcome: &Outcome) {
        let call = &outcome.call;
        let line = LogLine {
            time: clock(self.now.wall),
            agent: visible(&registry::caller(call)).into_owned(),
            tool: visible(&call.tool).into_owned(),
            subject: Preview::short(call),
            full: visible_lines(&call.subject()),
            decision: Ending::of(&outcome.decision),
            decider: outcome.decider,
            text: visible(outcome.decision.text().unwrap_or("")).into_owned(),
            routing: format!(
                "{} call, routed {} in {}",
                outcome.class, outcome.route, outcome.mode
            ),
            device: outcome.device.as_deref().map(|d| visible(d).into_owned()),
            rule: visible(outcome.rule.as_deref().unwrap_or("")).into_owned(),
        };
        self.push(line);
    }

    pub(super) fn push(&mut self, line: LogLine) {
        if self.log.len() == LOG_CAPACITY {
            self.log.pop_front();
            self.log_focus = self.log_focus.saturating_sub(1);
        }
        self.log.push_back(line);
    }
}

/// `HH:MM:SS` (UTC) of a wall-clock time.
pub(crate) fn clock(wall: SystemTime) -> String {
    let secs = wall
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let day = secs % 86_400;
    format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
}
