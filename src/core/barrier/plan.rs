//! A plan the agent presents for approval ([`ToolKind::Plan`]): the human approves it and may,
//! in the same answer, move the console to another mode (out of plan mode, most often), so the
//! agent meets that mode as it starts to carry the plan out.
//!
//! The allow is settled first, by the human, and the mode changes after it through the one
//! path every mode change takes ([`Shared::set_mode`]): the open dialogs are routed again,
//! the project's and the floor's `mode_ceiling` still cap every route, and the plan's own
//! audit record names the change. A deny of a plan is an ordinary deny: its reason reaches the
//! model as the human's feedback on the plan.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Shared;
use super::settle::Settle;
use crate::core::call::{CallId, ToolKind};
use crate::core::decision::{Decider, Decision};
use crate::core::mode::Mode;

impl Shared {
    /// Approves the plan of dialog `id` with an optional `note` for the model and, where
    /// `mode` names one other than the mode in force, changes to it once the allow is settled
    /// and written. Returns false when the dialog is gone or is not a plan (then nothing
    /// changes, the mode included).
    pub(super) fn answer_plan(
        self: &Arc<Self>,
        id: CallId,
        mode: Option<Mode>,
        note: Option<String>,
        device: Option<Arc<str>>,
    ) -> bool {
        let from = self.mode();
        let switch = mode.filter(|&to| to != from);
        let mut settle =
            Settle::new(Decision::allow_noting(note), Decider::Human).answered_from(device);
        if let Some(to) = switch {
            settle = settle.noting(format!(
                "plan approved; mode {} -> {}",
                from.name(),
                to.name()
            ));
        }
        let is_plan = |p: &super::pending::Pending| p.dialog.assessment.kind == ToolKind::Plan;
        if !self.resolve(id, is_plan, settle) {
            return false;
        }
        // An allow whose record could not be written was sent as a deny: the plan was not
        // approved, so the mode stays.
        if let Some(to) = switch
            && !self.audit_failing.load(Ordering::SeqCst)
        {
            self.set_mode(to);
        }
        true
    }
}
