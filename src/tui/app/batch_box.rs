//! The batch box: with calls marked, a decision key answers them all, after a box that says
//! how many calls get the answer, lists them, and lists those left out and why. A note or a deny
//! reason is typed in the box; Enter sends, Esc goes back with the marks kept.

use super::*;
use crate::core::batch::{BatchAnswer, Plan};

/// Which answer the batch box is about to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchKind {
    Allow,
    AllowAlways,
    AllowWithNote,
    Deny,
}

impl BatchKind {
    fn of(intent: Intent) -> Option<BatchKind> {
        match intent {
            Intent::AllowOnce => Some(BatchKind::Allow),
            Intent::AllowAlways => Some(BatchKind::AllowAlways),
            Intent::AllowWithNote => Some(BatchKind::AllowWithNote),
            Intent::Deny => Some(BatchKind::Deny),
            _ => None,
        }
    }

    /// Whether the box takes text (a note, a reason).
    pub fn takes_text(self) -> bool {
        matches!(self, BatchKind::AllowWithNote | BatchKind::Deny)
    }
}

/// The open batch box: the answer and the text typed for it.
#[derive(Debug)]
pub struct BatchBox {
    pub kind: BatchKind,
    pub text: String,
}

impl BatchBox {
    /// The answer the box gives as typed so far.
    pub fn answer(&self) -> BatchAnswer {
        match self.kind {
            BatchKind::Allow => BatchAnswer::Allow { note: None },
            BatchKind::AllowAlways => BatchAnswer::AllowAlways,
            BatchKind::AllowWithNote => BatchAnswer::Allow {
                note: Some(self.text.trim().to_string()).filter(|n| !n.is_empty()),
            },
            BatchKind::Deny => BatchAnswer::Deny {
                reason: self.text.clone(),
            },
        }
    }
}

impl App {
    /// With calls marked, a decision key opens the batch box instead of answering the focused
    /// call; `E` (edit) answers one call only, so it says to clear the marks. `None`: no call
    /// is marked, or the key does not decide.
    pub(super) fn batch_intent(&mut self, intent: Intent) -> Option<Vec<Effect>> {
        if self.marked().is_empty() || !intent.decides() {
            return None;
        }
        let Some(kind) = BatchKind::of(intent) else {
            self.notify("an edit answers one call: unmark the calls (Space) first".into());
            return Some(vec![]);
        };
        self.queue.batch = Some(BatchBox {
            kind,
            text: String::new(),
        });
        self.screen = Screen::Batch;
        Some(vec![])
    }

    /// What the open batch box would do now, over the marked calls still open.
    pub fn batch_plan(&self) -> Option<Plan> {
        let answer = self.queue.batch.as_ref()?.answer();
        Some(Plan::of(answer, self.marked().iter().map(|o| &*o.dialog)))
    }

    /// A key in the batch box.
    pub(super) fn batch_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        use ratatui::crossterm::event::{KeyCode, KeyModifiers};
        let Some(open) = self.queue.batch.as_mut() else {
            self.screen = Screen::Main;
            return vec![];
        };
        match key.code {
            KeyCode::Esc => {
                self.queue.batch = None;
                self.screen = Screen::Main;
            }
            KeyCode::Enter => return self.send_batch(),
            KeyCode::Backspace if open.kind.takes_text() => {
                open.text.pop();
            }
            KeyCode::Char(c)
                if open.kind.takes_text()
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                open.text.push(c)
            }
            _ => {}
        }
        vec![]
    }

    /// Pasted text goes into the box's note or reason, on one line.
    pub(super) fn batch_paste(&mut self, text: &str) {
        if let Some(open) = self.queue.batch.as_mut().filter(|b| b.kind.takes_text()) {
            let line = text.chars().map(|c| if c.is_control() { ' ' } else { c });
            open.text.extend(line);
        }
    }

    /// What the barrier did with a batch: the calls it answered leave the queue at once, as a
    /// call answered alone does, and the footer says what it did (the calls' own settled
    /// notices do not replace it).
    pub(super) fn batched(&mut self, done: crate::core::barrier::BatchDone) -> Vec<Effect> {
        for id in &done.answered {
            self.remove(*id);
        }
        self.notify(done.said());
        vec![]
    }

    /// Sends the batch: the calls the box listed as included, with the answer. The barrier
    /// works the plan out again and can only leave more out.
    fn send_batch(&mut self) -> Vec<Effect> {
        let Some(plan) = self.batch_plan() else {
            return vec![];
        };
        self.queue.batch = None;
        self.screen = Screen::Main;
        if plan.included.is_empty() {
            self.notify("no marked call takes that answer: nothing was sent".into());
            return vec![];
        }
        let ids: Vec<CallId> = plan.included.iter().map(|(id, _)| *id).collect();
        for id in &ids {
            self.queue.marked.remove(id);
        }
        vec![Effect::AnswerBatch(ids, plan.answer)]
    }
}
