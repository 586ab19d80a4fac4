//! A shell line the human edited before approving it. The edited line is judged afresh under
//! the rules in force, as a call of its own would be: one the rules refuse in every mode (a
//! denied command, a rule's deny, a line too long to parse) is refused like any call. Anything
//! else is the human's to allow, once and never always, and reaches the agent in the one form
//! it can carry: as the input it runs instead ([`InputEffect::Replaced`]), or, where the agent
//! can only run what it asked about, as a deny of the original whose reason hands the model
//! the edited line to run instead.

use std::sync::Arc;

use serde_json::Value;

use super::Shared;
use super::analysis::assess_bounded;
use super::settle::Settle;
use crate::core::call::{Call, CallId, ToolKind};
use crate::core::caps::InputEffect;
use crate::core::classify::Assessment;
use crate::core::decision::{Decider, Decision};
use crate::core::mode::Mode;
use crate::core::route::{Class, Route};

/// What approving an edited line will do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditEnd {
    /// The agent runs the edited line in place of the original.
    RunsInstead,
    /// The agent cannot take a changed command: the original is denied and the model is told
    /// to run the edited line instead.
    DeniedWithLine,
    /// The rules refuse the edited line: approving it refuses the call.
    Refused,
}

impl EditEnd {
    /// What approving does, in words for the dialog.
    pub fn words(self) -> &'static str {
        match self {
            EditEnd::RunsInstead => "Enter runs the edited line once, in place of the original",
            EditEnd::DeniedWithLine => {
                "this agent cannot run a changed command: Enter denies the original and asks \
                 the model to run the edited line instead"
            }
            EditEnd::Refused => "the rules refuse the edited line: Enter refuses the call",
        }
    }
}

/// The judgement of an edited line: its class and why, and what approving it does.
#[derive(Debug, Clone, PartialEq)]
pub struct EditJudged {
    pub line: String,
    pub class: Class,
    pub explanation: String,
    pub end: EditEnd,
}

/// The call `call` would be with its shell line replaced by `line`; `None` for a call that is
/// not a shell call with a line, which offers no edit.
pub fn edited_call(call: &Call, kind: ToolKind, line: &str) -> Option<Call> {
    if kind != ToolKind::Shell || call.shell_line().is_none() {
        return None;
    }
    let Value::Object(mut input) = call.input.clone() else {
        return None;
    };
    input.insert("command".into(), Value::String(line.to_string()));
    Some(Call {
        input: Value::Object(input),
        ..call.clone()
    })
}

/// What approving `assessment` of an edited call does for a call whose agent handles a changed
/// input as `input` says. Refused is what no mode would let run (the rules' refusals).
fn end_of(assessment: &Assessment, input: InputEffect) -> EditEnd {
    match (assessment.route(Mode::AllowAll), input) {
        (Route::Reject, _) => EditEnd::Refused,
        (_, InputEffect::Replaced) => EditEnd::RunsInstead,
        (_, InputEffect::Fixed) => EditEnd::DeniedWithLine,
    }
}

impl Shared {
    /// Judges `line` as the edited shell line of open dialog `id`; `None` when the dialog is
    /// gone or is not a shell call.
    pub(super) fn judge_edit(&self, id: CallId, line: &str) -> Option<EditJudged> {
        let call = self.lock().pending.get(id)?.dialog.call.clone();
        let (_, judged) = self.judge(&call, line)?;
        Some(judged)
    }

    fn judge(&self, call: &Call, line: &str) -> Option<(Call, EditJudged)> {
        let rules = self.rules();
        let kind = call.kind(&rules.internal_tools);
        let edited = edited_call(call, kind, line)?;
        // Session allows are left out: they cannot make a refused line run, and this is
        // allowed by the human's answer, not by them.
        let assessment = assess_bounded(&edited, &rules, &[]);
        let judged = EditJudged {
            line: line.to_string(),
            class: assessment.class,
            explanation: assessment.explanation.clone(),
            end: end_of(&assessment, call.caps.input),
        };
        Some((edited, judged))
    }

    /// The human approved dialog `id` with its shell line edited to `line`. Returns whether
    /// this answer won; false too for a dialog that is not a shell call (none offers an edit).
    pub(super) fn answer_edited(&self, id: CallId, line: String, device: Option<Arc<str>>) -> bool {
        let Some(call) = self.lock().pending.get(id).map(|p| p.dialog.call.clone()) else {
            return false;
        };
        let Some((edited, judged)) = self.judge(&call, &line) else {
            return false;
        };
        let settle = match judged.end {
            EditEnd::Refused => Settle::new(
                Decision::deny(format!(
                    "gatehouse: the edited command was refused: {}",
                    judged.explanation
                )),
                Decider::Rule,
            ),
            EditEnd::RunsInstead => Settle::new(
                Decision::Allow {
                    note: None,
                    input: Some(edited.input),
                },
                Decider::Human,
            ),
            EditEnd::DeniedWithLine => Settle::new(
                Decision::deny(format!(
                    "The user edited this command before approving it. Do not run the \
                     original; run this command instead: {line}"
                )),
                Decider::Human,
            ),
        };
        self.resolve(id, |_| true, settle.answered_from(device).editing(line))
    }
}

#[cfg(test)]
#[path = "edited_tests.rs"]
mod tests;
