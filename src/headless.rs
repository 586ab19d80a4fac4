//! `gatehouse serve`: the console without a screen, for unattended agents and for tests.
//!
//! It runs the barrier and the socket server; a task takes the [`Prompter`]'s events, settles
//! every dialog that needs a human with the `--on-ask` policy (`deny` or `defer`, never
//! `allow`), and logs one line per decision. With a classifier configured, a `race` dialog
//! (auto modes) first waits for the classifier: only its read-only verdict allows, and any
//! other outcome gets `--on-ask`. Shutdown answers every open call with the
//! barrier's shutdown fallback and removes the socket.

use std::collections::HashSet;
use std::future::Future;
use std::io::Write;
use std::sync::Arc;

use tokio::sync::oneshot;

use crate::wiring::ConsoleControl;

use crate::core::audit::shorten;
use crate::core::barrier::{Barrier, Fallback};
use crate::core::call::CallId;
use crate::core::escape::visible;
use crate::core::event::{AuditHealth, ClassifierState, Event, Outcome};
use crate::core::prompter::Prompter;
use crate::core::route::Route;
use crate::server::{self, Bound, Options};

/// What `--on-ask` does with a call, in words.
fn on_ask_words(on_ask: Fallback) -> &'static str {
    match on_ask {
        Fallback::Deny => "denied (gatehouse serve --on-ask deny)",
        Fallback::Defer => {
            "left to the agent's own permission flow (gatehouse serve --on-ask defer)"
        }
    }
}

/// The reason given to calls that need a human when none is watching.
pub fn on_ask_reason(on_ask: Fallback) -> String {
    let what = on_ask_words(on_ask);
    format!("gatehouse: no one is watching the console, so a call that needs a human is {what}")
}

/// The reason given to a raced call the classifier did not allow, when none is watching: what
/// the classifier did (it failed, timed out, or did not find the call read-only) comes first,
/// so the agent and the audit are not told only that nobody watches.
pub fn after_race_reason(on_ask: Fallback, state: &ClassifierState) -> String {
    let what = on_ask_words(on_ask);
    let classifier = match state {
        ClassifierState::Failed(why) => format!("the classifier could not settle it ({why})"),
        ClassifierState::Advised(_) | ClassifierState::Asking => {
            "the classifier did not find it read-only".to_string()
        }
    };
    format!("gatehouse: {classifier}, and no one is watching the console, so the call is {what}")
}

/// How the headless console answers the dialogs no human will see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unattended {
    /// What a dialog gets once nothing else can settle it.
    pub on_ask: Fallback,
    /// True when the barrier has a classifier: a `race` dialog then waits for its verdict
    /// (a read-only verdict allows it; anything else gets `on_ask`).
    pub classifier: bool,
}

/// Who answers the dialogs that need a human.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answering {
    /// Nobody: the fixed policy settles each at once.
    Unattended(Unattended),
    /// The human on the web console (`serve --web`): a dialog waits for the web (or the
    /// classifier) until the ask timeout gives it the timeout fallback.
    Web,
}

impl From<Unattended> for Answering {
    fn from(policy: Unattended) -> Answering {
        Answering::Unattended(policy)
    }
}

/// Serves until `shutdown` completes, answering dialogs as `policy` says and logging
/// decisions to stderr. The socket file is removed on return.
pub async fn serve(
    bound: Bound,
    barrier: Barrier,
    prompter: Prompter,
    policy: impl Into<Answering>,
    options: Options,
    shutdown: impl Future<Output = ()>,
) {
    let control = Arc::new(ConsoleControl::default());
    serve_attached(bound, barrier, prompter, policy, options, control, shutdown).await
}

/// [`serve`], carrying out `gatehouse attach`, `detach` and `pair` with `control`; on
/// shutdown every attachment is let go (answering nothing) before the barrier answers what is
/// open.
pub async fn serve_attached(
    bound: Bound,
    barrier: Barrier,
    prompter: Prompter,
    policy: impl Into<Answering>,
    options: Options,
    control: Arc<ConsoleControl>,
    shutdown: impl Future<Output = ()>,
) {
    let (stop, stopped) = oneshot::channel();
    let policy = policy.into();
    let answering = tokio::spawn(answer(prompter, policy, stopped, std::io::stderr()));
    let support = control.clone().support();
    let shutdown = async {
        shutdown.await;
        control.detach_all().await;
    };
    server::run_supported(bound.listener, barrier, options, support, shutdown).await;
    let _ = stop.send(());
    let _ = answering.await;
    drop(bound.file);
}

/// Answers and logs events until `stop` fires, then logs what is already queued.
pub async fn answer(
    mut prompter: Prompter,
    policy: impl Into<Answering>,
    mut stop: oneshot::Receiver<()>,
    mut log: impl Write,
) {
    let policy = policy.into();
    let mut racing = HashSet::new();
    loop {
        // Cancellation: `next_event` is cancel-safe (an mpsc receive), so stopping loses no
        // event; those still queued are drained below.
        let event = tokio::select! {
            event = prompter.next_event() => match event {
                Some(event) => event,
                None => return,
            },
            _ = &mut stop => break,
        };
        handle(&prompter, policy, &mut racing, event, &mut log);
    }
    while let Some(event) = prompter.try_event() {
        handle(&prompter, policy, &mut racing, event, &mut log);
    }
}

fn handle(
    prompter: &Prompter,
    policy: Answering,
    racing: &mut HashSet<CallId>,
    event: Event,
    log: &mut impl Write,
) {
    let settle = |id| match policy {
        Answering::Unattended(policy) => {
            prompter.unattended(id, policy.on_ask, on_ask_reason(policy.on_ask));
        }
        // The web's human answers, or the ask timeout does.
        Answering::Web => {}
    };
    let races = |route| match policy {
        Answering::Unattended(policy) => policy.classifier && route == Route::Race,
        Answering::Web => false,
    };
    let line = match event {
        Event::Opened(dialog) => {
            if races(dialog.route) {
                racing.insert(dialog.id);
            } else {
                settle(dialog.id);
            }
            if policy == Answering::Web {
                format!(
                    "gatehouse serve: {} {} `{}` waits for an answer on the web",
                    dialog.id,
                    escape(&dialog.call.tool),
                    escape(&shorten(&dialog.call.subject(), 120))
                )
            } else {
                return;
            }
        }
        Event::Classifier { id, state } => {
            let done = !matches!(state, ClassifierState::Asking);
            if done && racing.remove(&id) {
                match policy {
                    Answering::Unattended(policy) => {
                        let reason = after_race_reason(policy.on_ask, &state);
                        prompter.unattended(id, policy.on_ask, reason);
                    }
                    Answering::Web => settle(id),
                }
            }
            return;
        }
        Event::Passed(outcome) | Event::Resolved(outcome) => {
            racing.remove(&outcome.id);
            log_line(&outcome)
        }
        Event::Withdrawn { id } => {
            racing.remove(&id);
            format!("gatehouse serve: {id} withdrawn: the agent went away")
        }
        Event::ModeChanged { mode, .. } => format!("gatehouse serve: mode is now {mode}"),
        Event::ScopeMode { scope, mode, .. } => match mode {
            Some(mode) => format!("gatehouse serve: {scope} is now in {mode}"),
            None => format!("gatehouse serve: {scope} follows the global mode again"),
        },
        Event::ModeTimer(_) => return,
        Event::Audit(AuditHealth::Failing(why)) => {
            format!(
                "gatehouse serve: AUDIT FAILING: {why}; allows are refused until it works again"
            )
        }
        Event::Audit(AuditHealth::Recovered) => {
            "gatehouse serve: the audit log is written again".into()
        }
        Event::SessionEnded { agent, session } => {
            format!(
                "gatehouse serve: {} session {} ended",
                escape(agent.as_str()),
                escape(&session)
            )
        }
        Event::Rerouted { .. } => return,
    };
    let _ = writeln!(log, "{line}");
}

/// One line for one decision. Everything the agent sent is escaped, so no control character
/// or escape sequence reaches the terminal.
pub fn log_line(outcome: &Outcome) -> String {
    let call = &outcome.call;
    let subject = shorten(&call.subject(), 120);
    let mut line = format!(
        "gatehouse serve: {} {} {} `{}` -> {} ({}, {}, {})",
        outcome.id,
        escape(&match &call.remote {
            Some(remote) => format!("{} › {}", remote.host, call.agent),
            None => call.agent.to_string(),
        }),
        escape(&call.tool),
        escape(&subject),
        outcome.decision.name(),
        outcome.decider,
        outcome.class.name(),
        outcome.mode,
    );
    if let Some(device) = &outcome.device {
        line.push_str(" on ");
        line.push_str(&escape(device));
    }
    if let Some(text) = outcome.decision.text() {
        line.push_str(": ");
        line.push_str(&escape(text));
    }
    line
}

fn escape(text: &str) -> String {
    visible(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use crate::core::call::{Agent, Call, CallId};
    use crate::core::decision::{Decider, Decision};
    use crate::core::mode::Mode;
    use crate::core::route::{Class, Route};

    /// A writer denied by the mode in allow-read, as `serve` logs it.
    fn denied(id: u64, agent: Agent, tool: &str, command: &str, reason: &str) -> Outcome {
        Outcome {
            id: CallId(id),
            call: Arc::new(Call {
                agent,
                session: "s".into(),
                cwd: "/".into(),
                tool: tool.into(),
                kind: Some(crate::agents::claude::kind_of(tool)),
                subagent: None,
                input: serde_json::json!({ "command": command }),
                tool_use_id: None,
                stage: Default::default(),
                caps: Default::default(),
                transcript_path: None,
                path_key: None,
                remote: None,
                hook_timeout_secs: None,
            }),
            class: Class::Writer,
            route: Route::Ask,
            mode: Mode::AllowRead,
            mode_of: crate::core::mode_scope::ModeOwner::Global,
            decision: Decision::deny(reason),
            decider: Decider::Mode,
            latency: Duration::ZERO,
            device: None,
            rule: None,
            edited: None,
        }
    }

    #[test]
    fn a_log_line_escapes_what_the_agent_sent() {
        let outcome = denied(
            7,
            Agent::new("claude-code"),
            "Bash\x1b[2J",
            "echo \x1b]0;pwned\x07",
            "no\nmore",
        );
        let line = log_line(&outcome);
        assert!(!line.chars().any(|c| c.is_control()), "{line}");
        assert!(
            line.starts_with("gatehouse serve: #7 claude-code Bash\\e[2J `echo \\e]0;pwned\\x07`"),
            "{line}"
        );
        assert!(
            line.contains("-> deny (mode, writer, allow-read): no\\nmore"),
            "{line}"
        );
    }

    #[test]
    fn a_log_line_shows_hidden_and_reordering_characters_as_escapes() {
        let outcome = denied(
            8,
            Agent::new("bot\u{202e}"),
            "Bash\u{200b}",
            "ls\u{2028}rm -rf ~\u{e0041}\u{85}",
            "x\u{2066}y",
        );
        let line = log_line(&outcome);
        assert!(
            line.contains("bot\\u{202e} Bash\\u{200b} `ls\\u{2028}rm -rf ~\\u{e0041}\\x85`"),
            "{line}"
        );
        assert!(line.ends_with(": x\\u{2066}y"), "{line}");
    }

    #[test]
    fn the_on_ask_reason_says_no_one_is_watching() {
        assert!(on_ask_reason(Fallback::Deny).contains("no one is watching"));
        assert!(on_ask_reason(Fallback::Defer).contains("own permission flow"));
    }
}
