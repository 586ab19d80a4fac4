//! What an answer leaves behind for the hook call that follows it, and the answers that take
//! it, settled through the one settle path like every other decision.
//!
//! - A **note** for an after-tool report. Gemini CLI's and Qwen Code's question hooks cannot
//!   hand the model a note on allow; their after-tool hooks can. So a call whose caps say the
//!   note travels after the tool, allowed with a note, keeps it; the after-tool report of the
//!   same call (agent, session, tool and input) takes it (decider `note`). The tool already ran:
//!   nothing here widens what runs.
//! - A **grant** for the question that follows an allowed permission request asked first (Qwen
//!   Code asks `PermissionRequest`, then `PreToolUse`, about one call). The next question that
//!   can only pass with the same agent, session, folder, tool and input takes it (decider
//!   `grant`) instead of asking the human twice, unless the call is refused when judged again
//!   now: a switch to plan mode or a new deny rule since the allow wins over the grant.
//!
//! Each is used once and kept a bounded time; at most a bounded number are kept, the oldest
//! going first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::settle::{Direct, Reply, Settle};
use super::{Answer, Shared, assess_bounded};
use crate::core::call::{Call, Stage};
use crate::core::caps::{AllowEffect, NoteEffect};
use crate::core::decision::{Decider, Decision};
use crate::core::event::Outcome;
use crate::core::route::{Class, Route};

/// The most notes kept at once.
pub const MAX_NOTES: usize = 1024;
/// How long a note waits for its after-tool report.
pub const NOTE_KEPT_FOR: Duration = Duration::from_secs(3600);
/// The most grants kept at once.
pub const MAX_GRANTS: usize = 256;
/// How long a grant waits for the question that follows it: that question comes within moments.
pub const GRANT_KEPT_FOR: Duration = Duration::from_secs(30);

/// A bounded store of things kept for a later call, each taken once.
#[derive(Debug)]
pub(super) struct Store<T> {
    kept: Mutex<HashMap<String, (T, Instant)>>,
    max: usize,
    keep_for: Duration,
}

impl<T> Store<T> {
    fn new(max: usize, keep_for: Duration) -> Store<T> {
        Store {
            kept: Mutex::new(HashMap::new()),
            max,
            keep_for,
        }
    }

    fn keep(&self, key: String, value: T, now: Instant) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|_, (_, at)| now.saturating_duration_since(*at) < self.keep_for);
        if kept.len() >= self.max
            && let Some(oldest) = kept
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| k.clone())
        {
            kept.remove(&oldest);
        }
        kept.insert(key, (value, now));
    }

    fn take(&self, key: &str, now: Instant) -> Option<T> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (value, at) = kept.remove(key)?;
        (now.saturating_duration_since(at) < self.keep_for).then_some(value)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.kept.lock().unwrap().len()
    }
}

/// The notes and grants of one barrier.
#[derive(Debug)]
pub(super) struct Kept {
    notes: Store<String>,
    grants: Store<()>,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            notes: Store::new(MAX_NOTES, NOTE_KEPT_FOR),
            grants: Store::new(MAX_GRANTS, GRANT_KEPT_FOR),
        }
    }
}

/// What ties an after-tool report to the call it follows.
fn note_key(call: &Call) -> String {
    serde_json::json!([call.agent, call.session, call.tool, call.input]).to_string()
}

/// What ties a question to the permission request asked just before it: the folder too, so a
/// grant is never taken from another folder.
fn grant_key(call: &Call) -> String {
    serde_json::json!([call.agent, call.session, call.cwd, call.tool, call.input]).to_string()
}

/// What the answer to a question may leave behind, worked out before the call is submitted.
pub(super) struct Leaves {
    note: Option<String>,
    grant: Option<String>,
}

impl Leaves {
    pub(super) fn of(call: &Call) -> Leaves {
        let note = (call.caps.note == NoteEffect::AfterTool).then(|| note_key(call));
        let grant = (call.stage == Stage::PermissionFirst && call.caps.allow == AllowEffect::Grant)
            .then(|| grant_key(call));
        Leaves { note, grant }
    }
}

/// True for a question that may take a kept grant instead of being asked: one whose allow can
/// only pass (the agent's own checks still apply), as the question after a permission request is.
fn may_take_a_grant(call: &Call) -> bool {
    call.stage == Stage::Question && call.caps.allow == AllowEffect::Pass
}

impl Shared {
    /// Keeps what an allow leaves behind for the call that follows.
    pub(super) fn keep(&self, leaves: Leaves, decision: &Decision) {
        let Decision::Allow { note, .. } = decision else {
            return;
        };
        let now = Instant::now();
        if let (Some(key), Some(note)) = (leaves.note, note) {
            self.kept.notes.keep(key, note.clone(), now);
        }
        if let Some(key) = leaves.grant {
            self.kept.grants.keep(key, (), now);
        }
    }

    /// Answers an after-tool report with the note kept for the call it follows, or a plain
    /// allow. It changes nothing (the tool already ran): its outcome is read-only on the allow
    /// route, its record names the stage, and it is not shown as a new call.
    pub(super) fn report_after_tool(&self, call: Call) -> Answer {
        let started = Instant::now();
        let note = self.kept.notes.take(&note_key(&call), started);
        let (id, applied) = self.fresh_id(&call);
        let outcome = Outcome {
            id,
            call: Arc::new(call),
            class: Class::ReadOnly,
            route: Route::Allow,
            mode: applied.mode,
            mode_of: applied.owner,
            decision: Decision::allow_noting(note),
            decider: Decider::Note,
            latency: started.elapsed(),
            device: None,
            rule: None,
            edited: None,
        };
        self.conclude(outcome, None, Reply::Quiet, None)
    }

    /// Answers a question with the grant kept for it, if there is one and the call, judged
    /// again now, is not refused; `None` leaves the call to be asked.
    pub(super) fn take_grant(&self, call: &Call) -> Option<Answer> {
        let started = Instant::now();
        if !may_take_a_grant(call) {
            return None;
        }
        self.kept.grants.take(&grant_key(call), started)?;
        let assessment = assess_bounded(call, &self.rules(), &[]);
        let (id, applied) = self.fresh_id(call);
        let settle = match Direct::of(assessment.route(applied.mode)) {
            Some(Direct::Reject) => Direct::Reject.settle(&assessment, applied.mode),
            _ => Settle::new(Decision::allow(), Decider::Grant),
        };
        let call = Arc::new(call.clone());
        Some(self.settle_direct(id, call, &assessment, applied, settle.quiet(), started))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use crate::core::caps::Caps;
    use serde_json::json;

    fn asked(stage: Stage, allow: AllowEffect, command: &str) -> Call {
        Call {
            stage,
            caps: Caps {
                allow,
                note: NoteEffect::AfterTool,
                reason: true,
                input: crate::core::caps::InputEffect::Fixed,
            },
            ..test_call("run_shell_command", json!({"command": command}))
        }
    }

    #[test]
    fn only_a_granting_permission_request_asked_first_leaves_a_grant_and_only_a_passing_question_takes_one()
     {
        let first = asked(Stage::PermissionFirst, AllowEffect::Grant, "ls");
        assert!(Leaves::of(&first).grant.is_some());
        assert!(
            Leaves::of(&asked(Stage::Question, AllowEffect::Grant, "ls"))
                .grant
                .is_none()
        );
        assert!(
            Leaves::of(&asked(Stage::PermissionFirst, AllowEffect::Pass, "ls"))
                .grant
                .is_none()
        );
        assert!(may_take_a_grant(&asked(
            Stage::Question,
            AllowEffect::Pass,
            "ls"
        )));
        // Claude Code's PreToolUse grants: it is always asked.
        assert!(!may_take_a_grant(&asked(
            Stage::Question,
            AllowEffect::Grant,
            "ls"
        )));
        assert!(!may_take_a_grant(&asked(
            Stage::AfterTool,
            AllowEffect::Pass,
            "ls"
        )));
    }

    #[test]
    fn a_grant_is_tied_to_its_folder_and_a_note_to_its_call() {
        let first = asked(Stage::PermissionFirst, AllowEffect::Grant, "rm -rf build");
        let elsewhere = Call {
            cwd: "/elsewhere".into(),
            ..first.clone()
        };
        assert_ne!(grant_key(&first), grant_key(&elsewhere));
        let other_line = asked(Stage::PermissionFirst, AllowEffect::Grant, "rm -rf src");
        assert_ne!(note_key(&first), note_key(&other_line));
        let report = Call {
            stage: Stage::AfterTool,
            ..first.clone()
        };
        assert_eq!(note_key(&first), note_key(&report));
    }

    #[test]
    fn kept_things_go_once_expire_and_stay_bounded() {
        let store = Store::new(4, Duration::from_secs(30));
        let now = Instant::now();
        store.keep("a".into(), 1, now);
        assert_eq!(store.take("a", now), Some(1));
        assert_eq!(store.take("a", now), None, "taken once");
        store.keep("b".into(), 2, now);
        assert_eq!(store.take("b", now + Duration::from_secs(30)), None);
        for n in 0..10 {
            store.keep(n.to_string(), n, now + Duration::from_millis(n as u64));
        }
        assert_eq!(store.len(), 4);
        assert_eq!(store.take("9", now), Some(9), "the newest stay");
        assert_eq!(store.take("0", now), None, "the oldest went first");
    }
}
