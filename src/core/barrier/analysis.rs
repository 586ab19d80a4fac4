//! Static analysis of a submitted call, kept off the async workers when the call is large.
//!
//! Parsing a shell line takes time in proportion to its size (a 300 KB pipeline takes about a
//! second), and the async workers also serve every other call. So a call whose text is at most
//! [`INLINE_BYTES`] is assessed where it arrives; a larger one is assessed on tokio's blocking
//! pool, one at a time (so that large calls cannot take every core either), while small calls
//! go on being answered. So is a call whose policy files must be read and parsed first (a
//! repository's 1 MiB `.gatehouse.toml` takes a second or more): it waits for its own project's
//! file while calls elsewhere are judged. A shell line longer than [`MAX_ANALYSED_LINE`] is not parsed at all:
//! it is refused as doomed with a way out, since nothing could tell whether it hides a denied
//! or writing command, and refusing never widens what runs.

use std::sync::Arc;

use serde_json::Value;

use super::Shared;
use crate::core::call::{Call, ToolKind};
use crate::core::classify::{Assessment, assess};
use crate::core::route::{Class, Row};
use crate::core::rules::{Rules, SessionAllow};

/// The most text a call may carry and still be assessed on the async worker that received it.
pub const INLINE_BYTES: usize = 16 * 1024;

/// The longest shell line gatehouse parses.
pub const MAX_ANALYSED_LINE: usize = 1024 * 1024;

/// The bytes of text in a call's input: what its analysis has to look at.
pub fn weight(call: &Call) -> usize {
    fn strings(value: &Value) -> usize {
        match value {
            Value::String(s) => s.len(),
            Value::Array(items) => items.iter().map(strings).sum(),
            Value::Object(map) => map.iter().map(|(k, v)| k.len() + strings(v)).sum(),
            _ => 0,
        }
    }
    strings(&call.input)
}

/// [`assess`] within the size budget: a shell line longer than [`MAX_ANALYSED_LINE`] is doomed
/// without being parsed.
pub fn assess_bounded(call: &Call, rules: &Rules, session: &[SessionAllow]) -> Assessment {
    let kind = call.kind(&rules.internal_tools);
    match call.shell_line() {
        Some(line) if kind == ToolKind::Shell && line.len() > MAX_ANALYSED_LINE => Assessment {
            class: Class::Doomed,
            row: Row::Doomed,
            kind,
            listed_by: None,
            explanation: format!(
                "the shell line is {} bytes, longer than gatehouse analyses ({} bytes); write \
                 the commands to a script file and run that instead",
                line.len(),
                MAX_ANALYSED_LINE
            ),
            shell: None,
            rule: None,
            ceilings: Vec::new(),
            project: None,
        },
        _ => assess(call, rules, session),
    }
}

impl Shared {
    /// Assesses `call` against the rules and `session`'s allows, on the blocking pool (one at
    /// a time) when it is larger than [`INLINE_BYTES`]. If the blocking task cannot run, the
    /// call is assessed here instead.
    pub(super) async fn assess_call(
        self: &Arc<Self>,
        call: Arc<Call>,
        session: Vec<SessionAllow>,
    ) -> Assessment {
        self.assess_unbounded(call, session).await
    }

    async fn assess_unbounded(
        self: &Arc<Self>,
        call: Arc<Call>,
        session: Vec<SessionAllow>,
    ) -> Assessment {
        let small = weight(&call) <= INLINE_BYTES;
        let ready = match &call.remote {
            Some(remote) => self.rules().policy.ready_for_remote(remote),
            None => self.rules().policy.ready_for(&call.cwd),
        };
        if small && ready {
            return assess_bounded(&call, &self.rules(), &session);
        }
        // A small call whose policy files must be read first goes to the blocking pool with
        // no permit: it waits only for its own project's file (see `Policy::project`), and a
        // large repository policy holds up no other project's calls, nor a large line's.
        // Cancellation: if the submitter goes away while waiting or analysing, the analysis
        // still runs to its end (it cannot be interrupted) and then frees its permit.
        let permit = match small {
            true => None,
            false => match self.analysis.clone().acquire_owned().await {
                Ok(permit) => Some(permit),
                Err(_) => return assess_bounded(&call, &self.rules(), &session),
            },
        };
        let shared = self.clone();
        let task_call = call.clone();
        let task_session = session.clone();
        let task = tokio::task::spawn_blocking(move || {
            let assessment = assess_bounded(&task_call, &shared.rules(), &task_session);
            drop(permit);
            assessment
        });
        match task.await {
            Ok(assessment) => assessment,
            Err(_) => assess_bounded(&call, &self.rules(), &session),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use crate::core::rules::Pattern;
    use serde_json::json;

    #[test]
    fn a_shell_line_past_the_budget_is_doomed_unparsed_and_one_within_it_is_analysed() {
        let rules = Rules {
            denied_commands: vec![Pattern::new("git push")],
            ..Rules::default()
        };
        let long = format!("ls # {}", "x".repeat(MAX_ANALYSED_LINE));
        let a = assess_bounded(&test_call("Bash", json!({ "command": long })), &rules, &[]);
        assert_eq!(a.class, Class::Doomed);
        assert!(a.explanation.contains("script file"), "{}", a.explanation);
        let padded = format!("git push # {}", "x".repeat(MAX_ANALYSED_LINE / 2));
        let a = assess_bounded(
            &test_call("Bash", json!({ "command": padded })),
            &rules,
            &[],
        );
        assert_eq!(
            a.class,
            Class::Denied,
            "a padded denied command is still found"
        );
    }

    #[test]
    fn the_weight_of_a_call_is_the_text_it_carries() {
        let call = test_call("Write", json!({"file_path": "ab", "content": ["cde", 1]}));
        assert_eq!(weight(&call), "file_path".len() + 2 + "content".len() + 3);
    }
}
