//! A batch answer: one human answer looped over the barrier's own [`resolve`](super::Shared)
//! path, one call at a time, each settled exactly as if answered alone and audited with the
//! batch named. The plan is worked out again here from the dialogs the barrier holds, never
//! taken from the screen that asked: a call that closed meanwhile is reported gone, and one
//! the answer does not fit is left open.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use super::Shared;
use crate::core::batch::{Batch, BatchAnswer, LeftOut, Plan};
use crate::core::call::CallId;
use crate::core::offer::ARMING;

/// What a batch answer did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BatchDone {
    /// The batch its calls were audited in (`None`: it answered nothing).
    pub batch: Option<Batch>,
    /// The calls it answered, in order.
    pub answered: Vec<CallId>,
    /// The calls left open, each with why.
    pub left: Vec<(CallId, LeftOut)>,
    /// The calls that were no longer open (answered or withdrawn before this answer).
    pub gone: Vec<CallId>,
}

impl BatchDone {
    /// What it did, in a sentence for the console's footer and the web page.
    pub fn said(&self) -> String {
        let mut text = match self.batch {
            Some(batch) => format!(
                "batch {}: answered {} call{}",
                batch.id,
                self.answered.len(),
                if self.answered.len() == 1 { "" } else { "s" }
            ),
            None => "nothing answered".to_string(),
        };
        if !self.left.is_empty() {
            text.push_str(&format!("; {} left open", self.left.len()));
        }
        if !self.gone.is_empty() {
            text.push_str(&format!("; {} already closed", self.gone.len()));
        }
        text
    }
}

/// Whether a batch answer from this front end checks each dialog's arming delay itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arming {
    /// The console's keys: the box that listed the calls was armed before Enter.
    Checked,
    /// The web page: a call shown less than [`ARMING`] ago is left out.
    Check(Instant),
}

impl Shared {
    /// Answers the open dialogs `ids` with `answer` as one batch, from the paired web device
    /// `device` (`None`: this console).
    pub(super) fn answer_batch(
        self: &Arc<Self>,
        ids: &[CallId],
        answer: BatchAnswer,
        device: Option<Arc<str>>,
        arming: Arming,
    ) -> BatchDone {
        let open = self.open_dialogs();
        let mut done = BatchDone::default();
        let mut seen = HashSet::new();
        let mut dialogs = Vec::new();
        for id in ids {
            if !seen.insert(*id) {
                continue;
            }
            match open.iter().find(|d| d.id == *id) {
                None => done.gone.push(*id),
                Some(d) if matches!(arming, Arming::Check(now) if now < d.opened + ARMING) => {
                    done.left.push((*id, LeftOut::Arming))
                }
                Some(d) => dialogs.push(d.clone()),
            }
        }
        let plan = Plan::of(answer, dialogs.iter().map(|d| d.as_ref()));
        done.left.extend(plan.left.iter().copied());
        done.batch = plan.batch();
        let mut sessions = Vec::new();
        for (id, human) in plan.included {
            if self.answer_in(id, human, device.clone(), done.batch) {
                done.answered.push(id);
                if let Some(d) = dialogs.iter().find(|d| d.id == id) {
                    sessions.push(d.call.clone());
                }
            } else {
                done.gone.push(id);
            }
        }
        // Its "allow always" rules may cover other open dialogs of these sessions: they are
        // settled only now, so that no call of the batch is taken as covered by an earlier
        // one's rule and audited outside the batch.
        if plan.answer == BatchAnswer::AllowAlways {
            let mut settled = HashSet::new();
            for call in sessions {
                if settled.insert((call.agent.clone(), call.session.clone())) {
                    self.settle_newly_allowed(&call);
                }
            }
        }
        done
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
