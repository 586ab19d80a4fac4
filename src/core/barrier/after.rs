//! The answers the server gives without a dialog or a decision: a Gemini `after-tool` call
//! takes the note kept for the call it follows. The tool has already run, so nothing here
//! widens what runs; it is still audited, so the log shows every answer the console gave.

use super::Barrier;
use crate::core::audit::{self, Record};
use crate::core::call::Call;

impl Barrier {
    /// Records the answer to an `after-tool` call: the note it took, or none. The record's
    /// class is `after-tool`, its decider `note`. A record that cannot be written is reported
    /// to the console like any other; the note still goes out, since the tool already ran.
    pub fn record_after_tool(&self, call: &Call, note: Option<&str>) {
        let shared = &self.shared;
        let (id, mode) = {
            let mut state = shared.lock();
            (state.next_id(), state.mode)
        };
        let record = Record {
            time: audit::now_rfc3339(),
            id: id.0,
            agent: call.agent.to_string(),
            session: &call.session,
            tool: &call.tool,
            subject: audit::subject(&call.subject()),
            mode: mode.name(),
            class: "after-tool",
            route: "note",
            decision: "allow",
            decider: "note",
            reason: Some(note.unwrap_or("no note was kept for this call")),
            rule: None,
            latency_ms: 0.0,
            advice: None,
            agreed: None,
            device: None,
            shape: None,
            kind: call.kind.clone(),
        };
        let written = shared.audit.write(&record);
        shared.report_audit(&written);
    }
}
