//! What is binding: the decision sent back to an agent, and who made it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The binding answer for one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "kebab-case")]
pub enum Decision {
    /// Run it; the note, if any, reaches the model beside the result.
    Allow {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
        /// The whole input to run instead of the one the agent asked about: the human edited
        /// it before approving. Only sent where the call's caps say the agent runs it
        /// ([`InputEffect::Replaced`](crate::core::caps::InputEffect)).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        input: Option<serde_json::Value>,
    },
    /// Do not run it; the reason reaches the model so it can adapt.
    Deny { reason: String },
    /// No opinion: the agent's own permission flow decides.
    Defer {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

impl Decision {
    pub fn allow() -> Decision {
        Decision::Allow {
            note: None,
            input: None,
        }
    }

    /// Allow, with a note for the model if any.
    pub fn allow_noting(note: Option<String>) -> Decision {
        Decision::Allow { note, input: None }
    }

    pub fn deny(reason: impl Into<String>) -> Decision {
        Decision::Deny {
            reason: reason.into(),
        }
    }

    pub fn defer(reason: impl Into<String>) -> Decision {
        Decision::Defer {
            reason: Some(reason.into()),
        }
    }

    /// `allow`, `deny` or `defer`.
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Allow { .. } => "allow",
            Decision::Deny { .. } => "deny",
            Decision::Defer { .. } => "defer",
        }
    }

    /// The reason or note, whichever this decision carries.
    pub fn text(&self) -> Option<&str> {
        match self {
            Decision::Allow { note, .. } => note.as_deref(),
            Decision::Deny { reason } => Some(reason),
            Decision::Defer { reason } => reason.as_deref(),
        }
    }
}

/// Who decided a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decider {
    /// A configured rule or the static analysis (denied, doomed, read-only, safe-listed).
    Rule,
    /// The live mode (allow-all, or a mode change that settled an open dialog).
    Mode,
    /// An "allow always" the human gave earlier in the same agent session.
    SessionAllow,
    Classifier,
    Human,
    Timeout,
    Shutdown,
    /// The console had too many calls open to take another; it deferred at once.
    Busy,
    /// An after-tool report, answered with the note kept for the call it follows.
    Note,
    /// The one-use grant an allowed permission request left for the question that follows it
    /// (Qwen Code asks twice about one call).
    Grant,
    /// The agent itself: it went away before anyone answered (the call is withdrawn).
    Agent,
}

impl Decider {
    pub fn name(self) -> &'static str {
        match self {
            Decider::Rule => "rule",
            Decider::Mode => "mode",
            Decider::SessionAllow => "session-allow",
            Decider::Classifier => "classifier",
            Decider::Human => "human",
            Decider::Timeout => "timeout",
            Decider::Shutdown => "shutdown",
            Decider::Busy => "busy",
            Decider::Note => "note",
            Decider::Grant => "grant",
            Decider::Agent => "agent",
        }
    }

    /// The decider named `name` ([`Decider::name`]), if there is one.
    pub fn from_name(name: &str) -> Option<Decider> {
        Decider::ALL.into_iter().find(|d| d.name() == name)
    }

    pub const ALL: [Decider; 11] = [
        Decider::Rule,
        Decider::Mode,
        Decider::SessionAllow,
        Decider::Classifier,
        Decider::Human,
        Decider::Timeout,
        Decider::Shutdown,
        Decider::Busy,
        Decider::Note,
        Decider::Grant,
        Decider::Agent,
    ];

    /// Who that is, in one sentence, for the console's help.
    pub fn describe(self) -> &'static str {
        match self {
            Decider::Rule => {
                "a configured rule or the static analysis (denied, doomed, read-only, listed)"
            }
            Decider::Mode => {
                "the mode in force (allow-all, or a mode change that settled an open dialog)"
            }
            Decider::SessionAllow => "an allow-always you gave earlier in the same agent session",
            Decider::Classifier => "the classifier, in auto modes, before you answered",
            Decider::Human => "you, in this console or on a paired web device",
            Decider::Timeout => "nobody answered within ask_timeout_secs",
            Decider::Shutdown => "the console quit or stopped with the dialog open",
            Decider::Busy => "too many calls were open to take another",
            Decider::Note => "the note kept for the call an after-tool report follows",
            Decider::Grant => {
                "the allow you gave the permission request just before this same call"
            }
            Decider::Agent => "the agent went away before anyone answered",
        }
    }
}

impl fmt::Display for Decider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The classifier's advisory opinion. Never binding by itself: only a `ReadOnly` verdict on a
/// `race` dialog that nobody has claimed turns into an allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    ReadOnly,
    Writes,
    Unsure,
}

impl Verdict {
    /// Normalises a model's answer: lowercase, letters only, prefix match; anything else is
    /// `Unsure`. `Read-only.` and `READONLY` are read-only; `write` and `writes` are writes.
    /// The answer must be one word: `read-only, but it writes a cache` is not an answer to
    /// trust, so more than one word is `Unsure`.
    pub fn from_answer(answer: &str) -> Verdict {
        let mut words = answer.split_whitespace();
        let (Some(word), None) = (words.next(), words.next()) else {
            return Verdict::Unsure;
        };
        let letters: String = word
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if letters.is_empty() {
            Verdict::Unsure
        } else if letters.starts_with("readonly") {
            Verdict::ReadOnly
        } else if letters.starts_with("write") {
            Verdict::Writes
        } else {
            Verdict::Unsure
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::ReadOnly => "read-only",
            Verdict::Writes => "writes",
            Verdict::Unsure => "unsure",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_answers_normalise_to_one_of_three_verdicts() {
        for (answer, verdict) in [
            ("read-only", Verdict::ReadOnly),
            ("  Read-Only.\n", Verdict::ReadOnly),
            ("READONLY", Verdict::ReadOnly),
            ("writes", Verdict::Writes),
            ("Write", Verdict::Writes),
            ("unsure", Verdict::Unsure),
            ("", Verdict::Unsure),
            ("read", Verdict::Unsure),
            ("it is read-only", Verdict::Unsure),
            ("read-only, but it writes a cache file", Verdict::Unsure),
            ("read-only\n\nIt only lists.", Verdict::Unsure),
            ("writes because it deletes", Verdict::Unsure),
            ("read only", Verdict::Unsure),
            ("yes", Verdict::Unsure),
        ] {
            assert_eq!(Verdict::from_answer(answer), verdict, "{answer:?}");
        }
    }

    #[test]
    fn decisions_serialise_in_the_wire_shape() {
        let json = serde_json::to_value(Decision::deny("no")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"decision": "deny", "reason": "no"})
        );
        let json = serde_json::to_value(Decision::allow()).unwrap();
        assert_eq!(json, serde_json::json!({"decision": "allow"}));
    }
}
