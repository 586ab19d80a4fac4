//! The queue as the human arranges it: calls marked for one batch answer (Space, or `*` for
//! every shown call of the focused call's shape), a filter typed after `/` (a substring of the
//! agent, session, tool or command; Esc clears it), and the order (`O`: arrival, or least time
//! left first). Focus moves only among the calls shown.

use std::collections::BTreeSet;

use super::*;
use crate::core::batch::same_shape;

/// How the notice that a decision key met a filter hiding every call begins.
pub(super) const HIDDEN_ALL: &str = "no call matches the filter";

/// How the queue is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Oldest first, as the calls arrived.
    #[default]
    Arrival,
    /// The call closest to its ask timeout first.
    TimeLeft,
}

/// Whether the filter line takes keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterState {
    /// No filter, or one applied: keys are the console's.
    #[default]
    Idle,
    /// The human is typing it: printable keys go to the filter.
    Typing,
}

/// The queue's marks, filter and order.
#[derive(Debug, Default)]
pub struct Queue {
    /// Calls marked for a batch answer.
    pub marked: BTreeSet<CallId>,
    /// The filter's text (empty: every call is shown).
    pub filter: String,
    pub typing: FilterState,
    pub order: Order,
    /// The batch box, while it is open.
    pub batch: Option<super::batch_box::BatchBox>,
}

impl App {
    /// Whether `open` passes the filter: its agent, session, tool or command contains it,
    /// ignoring case.
    pub(super) fn shown_in_queue(&self, open: &Open) -> bool {
        let needle = self.queue.filter.to_lowercase();
        if needle.is_empty() {
            return true;
        }
        let call = &open.dialog.call;
        let agent = call.agent.to_string();
        let caller = crate::agents::registry::caller(call);
        let subject = call.subject();
        [
            agent.as_str(),
            caller.as_str(),
            &call.session,
            &call.tool,
            &subject,
        ]
        .iter()
        .any(|field| field.to_lowercase().contains(&needle))
    }

    /// The indices of the calls shown, in the queue's order.
    pub fn rows(&self) -> Vec<usize> {
        let mut rows: Vec<usize> = (0..self.dialogs.len())
            .filter(|&i| self.shown_in_queue(&self.dialogs[i]))
            .collect();
        if self.queue.order == Order::TimeLeft {
            // Stable: calls with as much time left keep their arrival order.
            rows.sort_by_key(|&i| self.time_left(&self.dialogs[i]));
        }
        rows
    }

    /// The open calls marked for a batch, in arrival order.
    pub fn marked(&self) -> Vec<&Open> {
        self.dialogs
            .iter()
            .filter(|o| self.queue.marked.contains(&o.dialog.id))
            .collect()
    }

    /// Keeps focus on a call shown, and forgets the marks of calls no longer open.
    pub(super) fn keep_focus_shown(&mut self) {
        let open: BTreeSet<CallId> = self.dialogs.iter().map(|o| o.dialog.id).collect();
        self.queue.marked.retain(|id| open.contains(id));
        let shown = self.rows();
        if !shown.is_empty() && !shown.contains(&self.focus) {
            self.focus = shown[0];
            self.shown();
        }
    }

    /// Moves focus to the next or previous call shown.
    pub(super) fn step_focus(&mut self, intent: Intent) -> Vec<Effect> {
        let shown = self.rows();
        let n = shown.len();
        if n > 1 {
            let at = shown.iter().position(|&i| i == self.focus).unwrap_or(0);
            let to = match intent {
                Intent::Next => (at + 1) % n,
                _ => (at + n - 1) % n,
            };
            self.focus = shown[to];
            self.shown();
        }
        vec![]
    }

    /// The queue's own keys: mark, mark the shape, filter, order.
    pub(super) fn queue_intent(&mut self, intent: Intent) -> Vec<Effect> {
        match intent {
            Intent::Mark => {
                if let Some(id) = self.focused().map(|o| o.dialog.id)
                    && !self.queue.marked.remove(&id)
                {
                    self.queue.marked.insert(id);
                }
            }
            Intent::MarkShape => {
                let Some(like) = self.focused().map(|o| o.dialog.clone()) else {
                    return vec![];
                };
                let same: Vec<CallId> = self
                    .rows()
                    .into_iter()
                    .map(|i| &self.dialogs[i].dialog)
                    .filter(|d| same_shape(&like, d))
                    .map(|d| d.id)
                    .collect();
                let n = same.len();
                self.queue.marked.extend(same);
                self.notify(format!(
                    "marked {n} call{} like this one; {} marked in all",
                    if n == 1 { "" } else { "s" },
                    self.queue.marked.len()
                ));
            }
            Intent::Filter => self.queue.typing = FilterState::Typing,
            Intent::Sort => {
                self.queue.order = match self.queue.order {
                    Order::Arrival => Order::TimeLeft,
                    Order::TimeLeft => Order::Arrival,
                };
            }
            _ => {}
        }
        vec![]
    }

    /// A key while the filter is typed: text edits it (the queue follows at once), Enter keeps
    /// it, Esc clears it. `None` when the filter is not being typed.
    pub(super) fn filter_key(&mut self, key: &KeyEvent) -> Option<Vec<Effect>> {
        let hidden = self.focused().is_none();
        let effects = self.edit_filter(key);
        // A call the filter shows again is newly shown: it arms again before it takes a
        // decision key (safety contract 4), like any call that comes into view.
        if hidden && self.focused().is_some() {
            self.shown();
        }
        effects
    }

    /// Clears the filter, and the notice that it hid every call, which no longer holds.
    fn clear_filter(&mut self) {
        self.queue.filter.clear();
        if self
            .notice
            .as_ref()
            .is_some_and(|(text, _)| text.starts_with(HIDDEN_ALL))
        {
            self.notice = None;
        }
    }

    fn edit_filter(&mut self, key: &KeyEvent) -> Option<Vec<Effect>> {
        if self.queue.typing != FilterState::Typing {
            // Esc with a filter applied and no box open clears it.
            if !self.queue.filter.is_empty()
                && matches!(self.state, DialogState::Choosing)
                && keymap::box_key(key) == BoxKey::Leave
            {
                self.clear_filter();
                return Some(vec![]);
            }
            return None;
        }
        use ratatui::crossterm::event::{KeyCode, KeyModifiers};
        match key.code {
            // Ctrl+C still quits: the filter is kept and the quit goes on as ever.
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.queue.typing = FilterState::Idle;
                return None;
            }
            KeyCode::Enter => self.queue.typing = FilterState::Idle,
            KeyCode::Esc => {
                self.queue.typing = FilterState::Idle;
                self.clear_filter();
            }
            KeyCode::Backspace => {
                self.queue.filter.pop();
            }
            KeyCode::Char(c)
                if !c.is_control()
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                self.queue.filter.push(c)
            }
            _ => {}
        }
        self.keep_focus_shown();
        Some(vec![])
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
