//! Notes kept for a later hook call. Gemini CLI's `BeforeTool` hook cannot hand the model a
//! note on allow; its `AfterTool` hook can. So when a call whose caps say the note travels
//! after the tool is allowed with a note, the server keeps the note here, and the matching
//! `after-tool` call (same agent, session, tool and input) takes it.
//!
//! Bounded: at most [`MAX_NOTES`] notes, each kept at most [`KEEP_FOR`]; the oldest go first.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::core::call::Call;

/// The most notes kept at once.
pub const MAX_NOTES: usize = 1024;

/// How long a note waits for its `after-tool` call.
pub const KEEP_FOR: Duration = Duration::from_secs(3600);

#[derive(Debug, Default)]
pub struct Notes {
    kept: Mutex<HashMap<String, (String, Instant)>>,
}

/// What ties an `after-tool` call to the call it follows.
fn key(call: &Call) -> String {
    serde_json::json!([call.agent, call.session, call.tool, call.input]).to_string()
}

impl Notes {
    /// Keeps `note` for the `after-tool` call that will follow `call`.
    pub fn keep(&self, call: &Call, note: &str, now: Instant) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|_, (_, at)| now.saturating_duration_since(*at) < KEEP_FOR);
        if kept.len() >= MAX_NOTES
            && let Some(oldest) = kept
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(k, _)| k.clone())
        {
            kept.remove(&oldest);
        }
        kept.insert(key(call), (note.to_string(), now));
    }

    /// Takes the note kept for the call `after` follows, if any (once).
    pub fn take(&self, after: &Call, now: Instant) -> Option<String> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (note, at) = kept.remove(&key(after))?;
        (now.saturating_duration_since(at) < KEEP_FOR).then_some(note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::Agent;
    use serde_json::json;

    fn call(session: &str, command: &str, event: &str) -> Call {
        Call {
            agent: Agent::new("gemini-cli"),
            session: session.into(),
            cwd: "/p".into(),
            tool: "run_shell_command".into(),
            kind: Some(crate::core::call::ToolKind::Shell),
            subagent: None,
            input: json!({"command": command}),
            tool_use_id: None,
            event: Some(event.into()),
            caps: Default::default(),
            transcript_path: None,
            path_key: None,
        }
    }

    #[test]
    fn a_kept_note_goes_once_to_the_after_tool_call_of_the_same_call() {
        let notes = Notes::default();
        let now = Instant::now();
        notes.keep(&call("s1", "ls", "before-tool"), "mind the output", now);
        assert_eq!(notes.take(&call("s2", "ls", "after-tool"), now), None);
        assert_eq!(notes.take(&call("s1", "pwd", "after-tool"), now), None);
        let after = call("s1", "ls", "after-tool");
        assert_eq!(notes.take(&after, now).as_deref(), Some("mind the output"));
        assert_eq!(notes.take(&after, now), None);
    }

    #[test]
    fn notes_expire_and_the_store_stays_bounded() {
        let notes = Notes::default();
        let now = Instant::now();
        notes.keep(&call("s", "old", "before-tool"), "n", now);
        assert_eq!(
            notes.take(&call("s", "old", "after-tool"), now + KEEP_FOR),
            None
        );
        for i in 0..MAX_NOTES + 10 {
            notes.keep(&call("s", &i.to_string(), "before-tool"), "n", now);
        }
        assert!(notes.kept.lock().unwrap().len() <= MAX_NOTES);
    }
}
