//! `gatehouse hook claude`: what Claude Code runs before a tool call. Reads the hook JSON, asks
//! the console, and says what to print. It never fails open:
//!
//! - console answered: its decision, exactly;
//! - console not reachable: static analysis alone ([`fallback`]): read-only → allow, denied or
//!   doomed → deny, everything else → defer to the agent's own prompt;
//! - console reached but lost before answering, or an answer it cannot read: defer;
//! - stdin it cannot read: defer, with one line on stderr.
//!
//! The caller prints [`HookOutput`] and exits 0 whatever happened.

use std::path::PathBuf;

use super::claude;
use super::client::{self, AskError, Timeouts};
use crate::core::call::Call;
use crate::core::classify::assess;
use crate::core::decision::Decision;
use crate::core::route::Class;
use crate::core::rules::Rules;

/// What the hook needs to know besides its stdin.
#[derive(Debug, Clone)]
pub struct HookSetup {
    pub socket: PathBuf,
    pub timeouts: Timeouts,
    /// The configured rules, for the static fallback; an error (an unreadable config) makes
    /// the fallback defer everything, since a denied command could not be recognised.
    pub rules: Result<Rules, String>,
}

/// What the hook prints: stdout for the agent (nothing means defer), and lines for stderr.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HookOutput {
    pub stdout: Option<String>,
    pub stderr: Vec<String>,
}

/// Why a fallback allow happened, shown to the user on Claude Code's allow.
pub const FALLBACK_ALLOW: &str = "gatehouse console is not running; allowed because static \
                                  analysis proves the call read-only";

/// Runs the Claude Code hook on `stdin`.
pub fn claude(stdin: &[u8], setup: &HookSetup) -> HookOutput {
    let (event, call) = match claude::parse(stdin) {
        Ok(parsed) => parsed,
        Err(err) => {
            return HookOutput {
                stdout: None,
                stderr: vec![format!(
                    "gatehouse hook claude: {err}; leaving the call to Claude Code's own \
                     permission flow"
                )],
            };
        }
    };
    let (decision, why_allowed, stderr) = decide(&call, setup);
    HookOutput {
        stdout: claude::render(event, &decision, &why_allowed),
        stderr,
    }
}

/// Asks the console, or falls back; returns the decision, the user-facing reason for an
/// allow, and any stderr lines.
fn decide(call: &Call, setup: &HookSetup) -> (Decision, String, Vec<String>) {
    match client::ask(&setup.socket, call, setup.timeouts) {
        Ok(response) => {
            let decision = response.decision();
            let mut stderr = Vec::new();
            if let Some(error) = &response.error {
                stderr.push(format!(
                    "gatehouse hook claude: the console refused the request ({error}); deferring"
                ));
            }
            let decider = response.decider.as_deref().unwrap_or("console");
            (decision, format!("gatehouse: allowed ({decider})"), stderr)
        }
        Err(AskError::Unreachable { .. }) => {
            let decision = match &setup.rules {
                Ok(rules) => fallback(call, rules),
                Err(why) => Decision::defer(format!(
                    "gatehouse console is not running and its config cannot be read ({why})"
                )),
            };
            (decision, FALLBACK_ALLOW.to_string(), Vec::new())
        }
        Err(lost @ AskError::Lost { .. }) => (
            Decision::defer(lost.to_string()),
            String::new(),
            vec![format!("gatehouse hook claude: {lost}; deferring")],
        ),
    }
}

/// What static analysis alone decides when no console is running: read-only → allow, denied
/// or doomed → deny, everything else → defer. A panic in the analysis is a defer.
pub fn fallback(call: &Call, rules: &Rules) -> Decision {
    let assessed = std::panic::catch_unwind(|| assess(call, rules, &[]));
    let Ok(assessment) = assessed else {
        return Decision::defer("gatehouse console is not running and static analysis failed");
    };
    match assessment.class {
        Class::ReadOnly => Decision::allow(),
        Class::Denied | Class::Doomed => Decision::deny(format!(
            "gatehouse: {} (decided without the console, which is not running)",
            assessment.explanation
        )),
        Class::Unverified | Class::Writer => Decision::defer(
            "gatehouse console is not running and static analysis cannot prove the call safe",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::Agent;
    use crate::core::rules::Pattern;
    use serde_json::{Value, json};

    fn call(tool: &str, input: Value, cwd: &str) -> Call {
        Call {
            agent: Agent::ClaudeCode,
            session: "s".into(),
            cwd: cwd.into(),
            tool: tool.into(),
            input,
            tool_use_id: None,
            event: Some("pre-tool-use".into()),
        }
    }

    #[test]
    fn the_fallback_allows_only_what_static_analysis_proves_read_only() {
        let rules = Rules::default();
        let read = call("Read", json!({"file_path": "/etc/hostname"}), "/");
        assert_eq!(fallback(&read, &rules), Decision::allow());
        for (tool, input) in [
            ("Write", json!({"file_path": "/tmp/x", "content": ""})),
            ("mcp__github__create_issue", json!({})),
            ("WebFetch", json!({"url": "http://example.com"})),
            ("Frobnicate", json!({})),
            ("Bash", json!({"command": "rm -rf build"})),
            ("Bash", json!({})),
        ] {
            let decision = fallback(&call(tool, input.clone(), "/"), &rules);
            assert_eq!(decision.name(), "defer", "{tool} {input}");
        }
    }

    #[test]
    fn the_fallback_denies_denied_and_doomed_calls() {
        let rules = Rules {
            denied_commands: vec![Pattern::new("WebFetch")],
            ..Rules::default()
        };
        let fetch = call("WebFetch", json!({"url": "http://x"}), "/");
        let decision = fallback(&fetch, &rules);
        assert_eq!(decision.name(), "deny");
        assert!(decision.text().unwrap().contains("not running"));

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
        let edit = call(
            "Edit",
            json!({"file_path": "a.txt", "old_string": "absent", "new_string": "x"}),
            dir.path().to_str().unwrap(),
        );
        assert_eq!(fallback(&edit, &rules).name(), "deny");
    }

    #[test]
    fn an_unreadable_config_makes_the_fallback_defer_even_a_read() {
        let setup = HookSetup {
            socket: "/nonexistent/gatehouse.sock".into(),
            timeouts: Timeouts::for_ask_timeout(
                std::time::Duration::from_secs(1),
                std::time::Duration::ZERO,
            ),
            rules: Err("bad config".into()),
        };
        let stdin = json!({"hook_event_name": "PreToolUse", "tool_name": "Read",
            "tool_input": {"file_path": "/etc/hostname"}});
        let out = claude(stdin.to_string().as_bytes(), &setup);
        assert_eq!(out.stdout, None);
    }
}
