//! `gatehouse hook <agent>`: what an agent runs before a tool call. Reads the hook JSON through
//! that agent's [`Dialect`], asks the console, and says what to print in that dialect. It
//! never fails open:
//!
//! - console answered: its decision, exactly;
//! - console not reachable: static analysis alone ([`fallback`]): read-only → allow, denied or
//!   doomed → deny, everything else → defer to the agent's own prompt;
//! - console refused the request (too long, malformed, another user's): the same static
//!   fallback, with one line on stderr, so a denied call stays denied;
//! - console reached but lost before answering (gone, too busy to answer before the ask
//!   timeout), or an answer it cannot read: a call static analysis denies is denied, every
//!   other deferred (never allowed: the console may have been asking the human about it);
//! - stdin it cannot read: defer, with one line on stderr.
//!
//! Each dialect renders `defer` in the form that really leaves the call to the agent's own
//! checks, or blocks where nothing else would (Gemini under gatehouse's policy, Cursor).
//! An after-tool event (Gemini's `AfterTool`) is not a question: it asks the console for the
//! note kept for the call it follows and prints it, or nothing.
//!
//! The caller prints [`HookOutput`] and exits 0 whatever happened.

use std::path::PathBuf;

use super::client::{self, AskError, Timeouts};
use super::dialect::{Dialect, StdinError, prefix};
use crate::core::barrier::assess_bounded;
use crate::core::call::{Call, Stage};
use crate::core::caps::{Caps, InputEffect};
use crate::core::decision::Decision;
use crate::core::origin::Remote;
use crate::core::route::Class;
use crate::core::rules::Rules;
use crate::wire::{self as protocol, Answer};

/// What the hook needs to know besides its stdin.
#[derive(Debug, Clone)]
pub struct HookSetup {
    pub socket: PathBuf,
    pub timeouts: Timeouts,
    /// The configured rules, for the static fallback; an error (an unreadable config) makes
    /// the fallback defer everything, since a denied command could not be recognised.
    pub rules: Result<Rules, String>,
    /// The host label this hook was installed with (`--host`, or `GATEHOUSE_HOST`): its calls
    /// carry it, with the project files that govern them on this machine, to a console that
    /// runs elsewhere. `None`: the console runs here.
    pub host: Option<String>,
    /// How long the agent waits for this hook before it kills it (`--timeout`, as installed):
    /// its calls carry it, and the console answers them before then.
    pub hook_timeout_secs: Option<u64>,
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

/// What to print when the hook cannot run at all (stdin unreadable, an internal error): the
/// dialect's answer for that, and the reason on stderr.
pub fn broken(dialect: &dyn Dialect, why: &str) -> HookOutput {
    HookOutput {
        stdout: dialect.unreadable(why, &[]),
        stderr: vec![format!("{} {why}", prefix(dialect))],
    }
}

/// Runs the hook of `dialect` on `stdin`. A config that cannot be used is said on stderr
/// first (the agent's hook log is where a person will look), whatever the call.
pub fn run(dialect: &dyn Dialect, stdin: &[u8], setup: &HookSetup) -> HookOutput {
    // Grok Build runs Claude Code's and Cursor's hooks too: its calls are answered as its own.
    let dialect = super::grok::through(dialect, stdin);
    let mut output = run_dialect(dialect, stdin, setup);
    if let Err(why) = &setup.rules {
        let why = why.lines().map(str::trim).collect::<Vec<_>>().join("; ");
        output.stderr.insert(
            0,
            format!(
                "{} the config cannot be used ({why}); until it is fixed, a call the \
                 console does not answer is left to the agent's own checks",
                prefix(dialect)
            ),
        );
    }
    output
}

fn run_dialect(dialect: &dyn Dialect, stdin: &[u8], setup: &HookSetup) -> HookOutput {
    let mut parsed = match dialect.parse(stdin) {
        Ok(parsed) => parsed,
        Err(err) => return unparsed(dialect, &err, stdin),
    };
    parsed.call.hook_timeout_secs = setup.hook_timeout_secs;
    if let Some(host) = &setup.host {
        let home = crate::plumbing::paths::home();
        parsed.call.remote = Some(Remote::here(host, &parsed.call.cwd, home.as_deref()));
    }
    match parsed.event.stage {
        Stage::AfterTool => HookOutput {
            stdout: kept_note(&parsed.call, setup)
                .and_then(|d| dialect.render(parsed.event, &d, "")),
            stderr: Vec::new(),
        },
        // Told to the console if one runs; the agent reads nothing back.
        Stage::SessionEnd => {
            let _ = client::ask(&setup.socket, &parsed.call, setup.timeouts);
            HookOutput::default()
        }
        Stage::Question | Stage::PermissionFirst => {
            let (decision, why_allowed, stderr) = decide(&prefix(dialect), &parsed.call, setup);
            let decision = deliverable(decision, parsed.call.caps);
            HookOutput {
                stdout: dialect.render(parsed.event, &decision, &why_allowed),
                stderr,
            }
        }
    }
}

/// An allow carrying an edited input where this event cannot deliver one becomes a deny: the
/// agent would run the original, which nobody approved. (The console words such an answer as
/// a deny itself; this holds even against a console that did not.)
pub(crate) fn deliverable(decision: Decision, caps: Caps) -> Decision {
    match (&decision, caps.input) {
        (Decision::Allow { input: Some(_), .. }, InputEffect::Fixed) => Decision::deny(
            "gatehouse: the human approved an edited command, which this agent cannot run in \
             place of the one it asked about; the original was not approved",
        ),
        _ => decision,
    }
}

fn unparsed(dialect: &dyn Dialect, err: &StdinError, stdin: &[u8]) -> HookOutput {
    let stdout = dialect.unreadable(&err.to_string(), stdin);
    let what = if stdout.is_some() {
        "blocking the call".to_string()
    } else {
        format!(
            "leaving the call to {}'s own permission flow",
            dialect.names().display
        )
    };
    HookOutput {
        stdout,
        stderr: vec![format!("{} {err}; {what}", prefix(dialect))],
    }
}

/// Asks the console for the note kept for the call an `after-tool` call follows. No console,
/// or no note: `None`.
fn kept_note(call: &Call, setup: &HookSetup) -> Option<Decision> {
    let answer = client::ask(&setup.socket, call, setup.timeouts).ok()?;
    Some(answer.decision())
}

/// Asks the console, or falls back; returns the decision, the user-facing reason for an
/// allow, and any stderr lines (each starting with `prefix`). A console that refuses the
/// request (too long, malformed, not ours to use) is no answer: the static fallback decides,
/// so a denied call stays denied. The ACP proxy asks the same way (`acp::ask`).
pub fn decide(prefix: &str, call: &Call, setup: &HookSetup) -> (Decision, String, Vec<String>) {
    let line = protocol::request_line(call);
    if line.len() > protocol::MAX_LINE + 1 {
        let decision = static_decision(call, setup, Without::TooLong);
        let line = format!(
            "{prefix} the call is longer than the console reads ({} bytes); decided \
             without it: {}",
            protocol::MAX_LINE,
            decision.name()
        );
        return (decision, Without::TooLong.allow_reason(), vec![line]);
    }
    match client::ask_line(&setup.socket, &line, setup.timeouts) {
        Ok(answer) => match answer {
            Answer::Refused(error) => {
                let decision = static_decision(call, setup, Without::Refused);
                let line = format!(
                    "{prefix} the console refused the request ({error}); decided without \
                     it: {}",
                    decision.name()
                );
                (decision, Without::Refused.allow_reason(), vec![line])
            }
            Answer::Decided { decision, decider } => {
                let decider = decider.map_or("console", |d| d.name());
                let why = format!("gatehouse: allowed ({decider})");
                (decision, why, Vec::new())
            }
        },
        Err(AskError::Unreachable { .. }) => {
            let decision = static_decision(call, setup, Without::NotRunning);
            (decision, Without::NotRunning.allow_reason(), Vec::new())
        }
        Err(untrusted @ AskError::Untrusted { .. }) => {
            let decision = static_decision(call, setup, Without::Untrusted);
            let line = format!(
                "{prefix} {untrusted}; decided without it: {}",
                decision.name()
            );
            (decision, Without::Untrusted.allow_reason(), vec![line])
        }
        Err(lost @ AskError::Lost { .. }) => {
            let decision = lost_decision(call, setup, &lost);
            let line = format!("{prefix} {lost}; decided without it: {}", decision.name());
            (decision, String::new(), vec![line])
        }
    }
}

/// Why the hook decides without the console's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Without {
    /// No console could be reached.
    NotRunning,
    /// The console answered with an error instead of a decision.
    Refused,
    /// The console's socket is not safe to trust, so it was not asked.
    Untrusted,
    /// The call is longer than the console reads, so it was not sent.
    TooLong,
}

impl Without {
    fn words(self) -> &'static str {
        match self {
            Without::NotRunning => "the console, which is not running",
            Without::Refused => "the console, which refused the request",
            Without::Untrusted => "the console, whose socket is not safe to trust",
            Without::TooLong => "the console, since the call is too long to send it",
        }
    }

    /// The reason shown on an allow decided this way.
    fn allow_reason(self) -> String {
        match self {
            Without::NotRunning => FALLBACK_ALLOW.to_string(),
            _ => format!(
                "gatehouse: allowed without {}, because static analysis proves the call read-only",
                self.words()
            ),
        }
    }
}

/// The static fallback with the configured rules; an unreadable config defers everything,
/// since a denied command could not be recognised.
fn static_decision(call: &Call, setup: &HookSetup, without: Without) -> Decision {
    match &setup.rules {
        Ok(rules) => fallback_without(call, rules, without),
        Err(why) => Decision::defer(format!(
            "gatehouse decided without {} and its config cannot be read ({why})",
            without.words()
        )),
    }
}

/// The decision when the console took the call and gave no answer: the static class still
/// denies what it denies (a busy or stalled console never turns a deny into a defer), and
/// everything else is deferred, a read included.
fn lost_decision(call: &Call, setup: &HookSetup, lost: &AskError) -> Decision {
    let denied = match &setup.rules {
        Ok(rules) => std::panic::catch_unwind(|| assess_bounded(call, rules, &[]))
            .ok()
            .filter(|a| matches!(a.class, Class::Denied | Class::Doomed)),
        Err(_) => None,
    };
    match denied {
        Some(assessment) => Decision::deny(format!(
            "gatehouse: {}; decided without the console, which took the call and gave no \
             answer",
            assessment.refusal()
        )),
        None => Decision::defer(lost.to_string()),
    }
}

/// What static analysis alone decides when no console is running: read-only → allow, denied
/// or doomed → deny, everything else → defer. A panic in the analysis is a defer.
pub fn fallback(call: &Call, rules: &Rules) -> Decision {
    fallback_without(call, rules, Without::NotRunning)
}

/// [`fallback`], for any reason the console did not decide.
pub fn fallback_without(call: &Call, rules: &Rules, without: Without) -> Decision {
    let assessed = std::panic::catch_unwind(|| assess_bounded(call, rules, &[]));
    let Ok(assessment) = assessed else {
        return Decision::defer(format!(
            "gatehouse decided without {} and static analysis failed",
            without.words()
        ));
    };
    match assessment.class {
        Class::ReadOnly => Decision::allow(),
        Class::Denied | Class::Doomed => Decision::deny(format!(
            "gatehouse: {}; decided without {}",
            assessment.refusal(),
            without.words()
        )),
        Class::Unverified | Class::Risky(_) | Class::Writer | Class::Tamper | Class::Plan => {
            Decision::defer(format!(
                "gatehouse decided without {} and static analysis cannot prove the call safe",
                without.words()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::call::test_call;
    use crate::core::rules::Pattern;
    use serde_json::{Value, json};

    fn call(tool: &str, input: Value, cwd: &str) -> Call {
        Call {
            cwd: cwd.into(),
            ..test_call(tool, input)
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
        // Said once, with no parentheses nested in the analyser's own.
        assert_eq!(
            decision.text().unwrap(),
            "gatehouse: `WebFetch` is a denied command (denied_commands); decided without the \
             console, which is not running"
        );

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
            host: None,
            hook_timeout_secs: None,
        };
        let stdin = json!({"hook_event_name": "PreToolUse", "tool_name": "Read",
            "tool_input": {"file_path": "/etc/hostname"}});
        let out = run(
            &crate::agents::claude::Claude,
            stdin.to_string().as_bytes(),
            &setup,
        );
        assert_eq!(out.stdout, None);
    }

    /// The wire invariant: whatever an agent sends within the hook's bound, the request line
    /// the hook makes of it is no longer than what was sent plus a little, so it fits
    /// [`protocol::MAX_LINE`]. Checked with the strings that JSON escaping inflates most.
    #[test]
    fn a_request_line_is_never_much_longer_than_the_agent_json_it_came_from() {
        let worst: String = (0u8..0x20)
            .map(char::from)
            .chain(['"', '\\', '/', 'é', '\u{2028}', '\u{202E}', '\u{1F600}'])
            .cycle()
            .take(100_000)
            .collect();
        let fixtures = [
            ("claude", "claude-code/pretooluse-write.json"),
            ("claude", "claude-code/pretooluse-bash.json"),
            ("codex", "codex/pretooluse-bash.json"),
            ("gemini", "gemini-cli/beforetool-write_file.json"),
            ("cursor", "cursor/beforeShellExecution.json"),
            ("cursor", "cursor/preToolUse.json"),
            ("crush", "crush/pretooluse-bash.json"),
            ("qwen", "qwen-code/pretooluse-write_file.json"),
            ("copilot", "copilot-cli/pretooluse-create.json"),
        ];
        for (dialect, fixture) in fixtures {
            let path = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
            let mut value: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            pad_strings(&mut value, &worst);
            let stdin = serde_json::to_vec(&value).unwrap();
            let dialect = crate::agents::registry::find(dialect).unwrap();
            let call = dialect
                .parse(&stdin)
                .map(|p| p.call)
                .unwrap_or_else(|e| panic!("{fixture}: {e}"));
            let line = protocol::request_line(&call);
            assert!(
                call.input.to_string().len() > 100_000,
                "{fixture}: the padded text reached the call"
            );
            assert!(
                line.len() <= stdin.len() + 4096,
                "{fixture}: {} bytes on the wire for {} sent",
                line.len(),
                stdin.len()
            );
        }
    }

    /// Appends `pad` to the strings an agent fills with its own text.
    fn pad_strings(value: &mut Value, pad: &str) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match v {
                        Value::String(s)
                            if [
                                "command",
                                "content",
                                "new_string",
                                "old_string",
                                "file_text",
                            ]
                            .contains(&key.as_str()) =>
                        {
                            s.push_str(pad)
                        }
                        other => pad_strings(other, pad),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| pad_strings(v, pad)),
            _ => {}
        }
    }
}
