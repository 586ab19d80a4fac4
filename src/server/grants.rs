//! Grants kept for the hook call that follows. Qwen Code asks its `PermissionRequest` hook
//! first and then, for the same call, its `PreToolUse` hook, so a call the console allowed on
//! `permission-request` would come back at once as a `pre-tool-use` question, and a human
//! would be asked twice about one call. So the dialect names such an event
//! [`PERMISSION_REQUEST_FIRST`]; when a call of it is allowed, the server keeps a grant here,
//! and the next `pre-tool-use` call that can only pass (not grant) with the same agent,
//! session, tool and input takes it and is answered allow without a second question. Agents
//! that ask in the other order (Codex: `PreToolUse`, then `PermissionRequest`) say
//! `permission-request` and leave no grant.
//!
//! A grant is used once and kept briefly ([`KEEP_FOR`]): the second hook call follows the
//! first within moments. Taking one widens nothing: the call was allowed, exactly as it is,
//! by the console, and an allow on a passing event still leaves the agent's own checks in
//! charge. Bounded: at most [`MAX_GRANTS`]; the oldest go first.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::core::call::Call;
use crate::core::caps::AllowEffect;

/// The most grants kept at once.
pub const MAX_GRANTS: usize = 256;

/// How long a grant waits for the `pre-tool-use` call that follows it.
pub const KEEP_FOR: Duration = Duration::from_secs(30);

/// The event of a question asked only where the agent would prompt, after whose allow the
/// agent asks `pre-tool-use` about the same call (Qwen Code's `PermissionRequest`).
pub const PERMISSION_REQUEST_FIRST: &str = "permission-request-first";
/// The event of a question asked just before the tool runs.
const PRE_TOOL_USE: &str = "pre-tool-use";

#[derive(Debug, Default)]
pub struct Grants {
    kept: Mutex<HashMap<String, Instant>>,
}

/// What ties a `pre-tool-use` call to the `permission-request` call before it.
fn key(call: &Call) -> String {
    serde_json::json!([call.agent, call.session, call.tool, call.input]).to_string()
}

/// True for a call whose allow, once given, is kept for the call that follows it.
pub fn leaves_a_grant(call: &Call) -> bool {
    call.event.as_deref() == Some(PERMISSION_REQUEST_FIRST) && call.caps.allow == AllowEffect::Grant
}

/// True for a call that may take a kept grant instead of being asked.
pub fn may_take_a_grant(call: &Call) -> bool {
    call.event.as_deref() == Some(PRE_TOOL_USE) && call.caps.allow == AllowEffect::Pass
}

impl Grants {
    /// Keeps a grant for the `pre-tool-use` call that will follow `call`.
    pub fn keep(&self, call: &Call, now: Instant) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|_, at| now.saturating_duration_since(*at) < KEEP_FOR);
        if kept.len() >= MAX_GRANTS
            && let Some(oldest) = kept
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(k, _)| k.clone())
        {
            kept.remove(&oldest);
        }
        kept.insert(key(call), now);
    }

    /// Takes the grant kept for the call `call` follows, if there is one (once).
    pub fn take(&self, call: &Call, now: Instant) -> bool {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.remove(&key(call))
            .is_some_and(|at| now.saturating_duration_since(at) < KEEP_FOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::Agent;
    use crate::core::caps::{Caps, NoteEffect};
    use serde_json::json;

    fn call(session: &str, command: &str, event: &str, allow: AllowEffect) -> Call {
        Call {
            transcript_path: None,
            path_key: None,
            agent: Agent::new("qwen-code"),
            kind: None,
            session: session.into(),
            cwd: "/p".into(),
            tool: "run_shell_command".into(),
            input: json!({"command": command}),
            tool_use_id: None,
            event: Some(event.into()),
            caps: Caps {
                allow,
                note: NoteEffect::AfterTool,
                reason: true,
            },
            subagent: None,
        }
    }

    #[test]
    fn a_grant_goes_once_to_the_passing_pre_tool_use_call_of_the_same_call() {
        let grants = Grants::default();
        let now = Instant::now();
        let asked = call(
            "s1",
            "rm -rf build",
            PERMISSION_REQUEST_FIRST,
            AllowEffect::Grant,
        );
        assert!(leaves_a_grant(&asked));
        grants.keep(&asked, now);
        let other_session = call("s2", "rm -rf build", PRE_TOOL_USE, AllowEffect::Pass);
        let other_line = call("s1", "rm -rf src", PRE_TOOL_USE, AllowEffect::Pass);
        assert!(!grants.take(&other_session, now));
        assert!(!grants.take(&other_line, now));
        let pre = call("s1", "rm -rf build", PRE_TOOL_USE, AllowEffect::Pass);
        assert!(may_take_a_grant(&pre));
        assert!(grants.take(&pre, now));
        assert!(!grants.take(&pre, now), "a grant is used once");
    }

    #[test]
    fn only_a_granting_permission_request_asked_first_leaves_one_and_only_a_passing_pre_tool_use_takes_one()
     {
        assert!(!leaves_a_grant(&call(
            "s",
            "ls",
            PRE_TOOL_USE,
            AllowEffect::Grant
        )));
        assert!(!leaves_a_grant(&call(
            "s",
            "ls",
            PERMISSION_REQUEST_FIRST,
            AllowEffect::Pass
        )));
        // Claude Code's PreToolUse grants: it is always asked.
        assert!(!may_take_a_grant(&call(
            "s",
            "ls",
            PRE_TOOL_USE,
            AllowEffect::Grant
        )));
        assert!(!may_take_a_grant(&call(
            "s",
            "ls",
            PERMISSION_REQUEST_FIRST,
            AllowEffect::Pass
        )));
    }

    #[test]
    fn grants_expire_and_the_store_stays_bounded() {
        let grants = Grants::default();
        let now = Instant::now();
        let asked = call("s", "old", PERMISSION_REQUEST_FIRST, AllowEffect::Grant);
        grants.keep(&asked, now);
        let pre = call("s", "old", PRE_TOOL_USE, AllowEffect::Pass);
        assert!(!grants.take(&pre, now + KEEP_FOR));
        for i in 0..MAX_GRANTS + 10 {
            let asked = call(
                "s",
                &i.to_string(),
                PERMISSION_REQUEST_FIRST,
                AllowEffect::Grant,
            );
            grants.keep(&asked, now);
        }
        assert!(grants.kept.lock().unwrap().len() <= MAX_GRANTS);
    }
}
