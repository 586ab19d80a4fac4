//! One line of the activity log, and how the log words its decision and who made it.

use crate::core::audit::Ending;
use crate::core::decision::Decider;

/// One line of the activity log.
#[derive(Debug, Clone)]
pub struct LogLine {
    pub time: String,
    pub agent: String,
    pub tool: String,
    /// The subject's first line, for the row.
    pub subject: String,
    /// The whole subject, for the opened entry.
    pub full: String,
    pub decision: Ending,
    pub decider: Decider,
    /// The reason or note the decision carries (empty: none).
    pub text: String,
    /// How static analysis classed and routed it (empty where it was not routed).
    pub routing: String,
    /// The paired web device a human answered from.
    pub device: Option<String>,
    /// The rule the answer made or used (empty: none).
    pub rule: String,
}

impl LogLine {
    /// The decision as the log shows it: a human's allow that made a rule is `always`.
    pub fn label(&self) -> &'static str {
        match (self.decision, self.decider) {
            (Ending::Allow, Decider::Human) if !self.rule.is_empty() => "always",
            (decision, _) => decision.name(),
        }
    }

    /// Who decided, with the device a human answered from (`human on phone`).
    pub fn by(&self) -> String {
        match &self.device {
            Some(device) => format!("{} on {device}", self.decider),
            None => self.decider.to_string(),
        }
    }
}
