//! The answer the server gives a `pre-tool-use` call that the console already allowed, as it
//! is, on the `permission-request` asked just before it (`server::grants`): an allow without a
//! second question. It is audited before it is answered, like every allow: a grant whose
//! record cannot be written is a deny.

use super::Barrier;
use crate::core::audit::{self, Record};
use crate::core::call::{Call, CallId};
use crate::core::decision::Decision;

impl Barrier {
    /// Records the allow given to `call` on the grant of the permission request before it, and
    /// returns the decision to answer: the allow once its record (class `granted`, decider
    /// `grant`) is written, else a deny that says the audit log could not be written (the
    /// console is told, as for any record).
    pub fn record_granted(&self, call: &Call) -> Decision {
        let shared = &self.shared;
        let (id, mode) = {
            let mut state = shared.lock();
            let id = CallId(state.next_id);
            state.next_id += 1;
            (id, state.mode)
        };
        let record = Record {
            time: audit::now_rfc3339(),
            id: id.0,
            agent: call.agent.to_string(),
            session: &call.session,
            tool: &call.tool,
            subject: audit::subject(&call.subject()),
            mode: mode.name(),
            class: "granted",
            route: "allow",
            decision: "allow",
            decider: "grant",
            reason: Some("allowed on the permission request just before it"),
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
        match written {
            Ok(()) => Decision::allow(),
            Err(err) => Decision::deny(format!(
                "gatehouse could not write its audit log ({err}), so it refused the call"
            )),
        }
    }
}
