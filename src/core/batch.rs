//! One answer for many open calls: what it does to each, worked out here so the console, the web
//! page and the barrier agree. A batch never widens: each call gets exactly the answer it would
//! get alone, and a call that answer does not fit (its agent cannot carry a note, "allow always"
//! would not cover it or would want a second confirmation) is left out, with the reason, before
//! anything is sent. The barrier works the plan out again from its own dialogs when it answers.

use serde::Serialize;

use super::call::CallId;
use super::event::Dialog;
use super::prompter::HumanAnswer;

/// The answer a human gives a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchAnswer {
    /// Allow each call once, with an optional note for each model.
    Allow { note: Option<String> },
    /// Allow each call, and what its own "allow always" proposes for the rest of its session.
    AllowAlways,
    /// Deny each call with the same reason (empty: "denied by user").
    Deny { reason: String },
}

impl BatchAnswer {
    /// How the box and the log name it.
    pub fn name(&self) -> &'static str {
        match self {
            BatchAnswer::Allow { note: None } => "allow",
            BatchAnswer::Allow { note: Some(_) } => "allow with a note",
            BatchAnswer::AllowAlways => "allow always",
            BatchAnswer::Deny { .. } => "deny",
        }
    }
}

/// The batch a call was answered in, named in each call's audit record: `id` is the id of the
/// batch's first call (ids are unique within a run, so the batch's is too), `size` how many
/// calls it answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Batch {
    pub id: u64,
    pub size: usize,
}

/// Why a call is left out of a batch answer; it stays open, to be answered alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// The note has nowhere to go in this call's agent.
    NoNote,
    /// "Allow always" covers only this one call here (a change of gatehouse's own files, a
    /// credential): a batch does not allow it at all.
    Guarded,
    /// Its "allow always" pattern reaches past the command and wants a second confirmation.
    Broad,
    /// Its "allow always" has no pattern to remember.
    NoPattern,
    /// It was shown too recently to be answered (the arming delay).
    Arming,
}

impl LeftOut {
    /// Why, in the words the box and the web page show.
    pub fn why(self) -> &'static str {
        match self {
            LeftOut::NoNote => "its agent cannot carry a note",
            LeftOut::Guarded => "allow always never covers it (gatehouse's files or a credential)",
            LeftOut::Broad => "its allow-always pattern needs confirming alone",
            LeftOut::NoPattern => "it offers no allow-always pattern",
            LeftOut::Arming => "it was shown too recently",
        }
    }
}

/// What one batch answer does: the calls it answers, each with its own answer, and those it
/// leaves out, each with why, in the order the calls were given.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub answer: BatchAnswer,
    pub included: Vec<(CallId, HumanAnswer)>,
    pub left: Vec<(CallId, LeftOut)>,
}

impl Plan {
    /// The plan of `answer` over `dialogs`.
    pub fn of<'a>(answer: BatchAnswer, dialogs: impl IntoIterator<Item = &'a Dialog>) -> Plan {
        let mut plan = Plan {
            answer,
            included: Vec::new(),
            left: Vec::new(),
        };
        for dialog in dialogs {
            match fit(dialog, &plan.answer) {
                Ok(human) => plan.included.push((dialog.id, human)),
                Err(why) => plan.left.push((dialog.id, why)),
            }
        }
        plan
    }

    /// The batch this plan answers as, `None` when it answers nothing.
    pub fn batch(&self) -> Option<Batch> {
        let first = self.included.first()?;
        Some(Batch {
            id: first.0.0,
            size: self.included.len(),
        })
    }
}

/// The answer `dialog` gets from `answer`, exactly as if it were answered alone, or why it is
/// left out.
pub fn fit(dialog: &Dialog, answer: &BatchAnswer) -> Result<HumanAnswer, LeftOut> {
    let offer = &dialog.offer;
    match answer {
        BatchAnswer::Allow { note: Some(_) } if !offer.takes_a_note() => Err(LeftOut::NoNote),
        BatchAnswer::Allow { note } => Ok(HumanAnswer::Allow { note: note.clone() }),
        BatchAnswer::Deny { reason } => Ok(HumanAnswer::Deny {
            reason: reason.clone(),
        }),
        BatchAnswer::AllowAlways => {
            let always = &offer.always;
            if always.caveat.is_some() {
                return Err(LeftOut::Guarded);
            }
            let allow = always.allow(&always.pattern).ok_or(LeftOut::NoPattern)?;
            if always.needs_confirming(&allow, false) {
                return Err(LeftOut::Broad);
            }
            Ok(HumanAnswer::AllowAlways {
                allow,
                note: None,
                lasts: None,
            })
        }
    }
}

/// Whether `b` has `a`'s shape, for marking "every call like this one": the same kind of tool
/// and the same thing its "allow always" would propose (a command, a host, a file, a tool).
pub fn same_shape(a: &Dialog, b: &Dialog) -> bool {
    let (x, y) = (&a.offer.always, &b.offer.always);
    a.assessment.kind == b.assessment.kind && x.kind == y.kind && x.pattern == y.pattern
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
