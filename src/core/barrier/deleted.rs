//! A lasting rule deleted through the console: a saved rule taken out of the saved-rules file,
//! or a rule kept in memory until the console quits forgotten. Either changes what the open
//! dialogs are judged under, so they are judged again, and either is written to the audit log
//! (a line with no `id`: it is not a decision), so that what stopped being allowed, and when,
//! can be read back.

use serde::Serialize;

use super::Shared;
use crate::core::audit;
use crate::core::policy::Layer;
use crate::core::policy::file::PolicyError;

/// The audit line of a deleted rule.
#[derive(Serialize)]
struct DeletedLine<'a> {
    time: String,
    rule_deleted: &'a str,
    /// `saved` or `in-memory`.
    layer: &'static str,
}

impl Shared {
    /// Deletes the saved rule `id` from the saved-rules file; returns whether it was there.
    pub(super) fn unsave(&self, id: &str) -> Result<bool, PolicyError> {
        let removed = self.policy().unsave(id)?;
        self.deleted(removed, Layer::Saved, id);
        Ok(removed)
    }

    /// Forgets the rule kept in memory as `id`; returns whether one was.
    pub(super) fn forget_kept(&self, id: &str) -> bool {
        let forgotten = self.policy().forget_kept(id);
        self.deleted(forgotten, Layer::Memory, id);
        forgotten
    }

    fn deleted(&self, done: bool, layer: Layer, id: &str) {
        if !done {
            return;
        }
        let line = DeletedLine {
            time: audit::now_rfc3339(),
            rule_deleted: id,
            layer: layer.name(),
        };
        let written = self.audit.write_other(&line);
        self.report_audit(&written);
        self.rules_changed();
    }
}
