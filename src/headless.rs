//! `gatehouse serve`: the console without a screen, for unattended agents and for tests.
//!
//! It runs the barrier and the socket server; a task takes the [`Prompter`]'s events, settles
//! every dialog that needs a human with the `--on-ask` policy (`deny` or `defer`, never
//! `allow`), and logs one line per decision. Shutdown answers every open call with the
//! barrier's shutdown fallback and removes the socket.

use std::future::Future;
use std::io::Write;

use tokio::sync::oneshot;

use crate::core::audit::shorten;
use crate::core::barrier::{Barrier, Fallback};
use crate::core::escape::visible;
use crate::core::event::{Event, Outcome};
use crate::core::prompter::Prompter;
use crate::server::{self, Bound, Options};

/// The reason given to calls that need a human when none is watching.
pub fn on_ask_reason(on_ask: Fallback) -> String {
    let what = match on_ask {
        Fallback::Deny => "denied (gatehouse serve --on-ask deny)",
        Fallback::Defer => {
            "left to the agent's own permission flow (gatehouse serve --on-ask defer)"
        }
    };
    format!("gatehouse: no one is watching the console, so a call that needs a human is {what}")
}

/// Serves until `shutdown` completes, answering dialogs per `on_ask` and logging decisions to
/// stderr. The socket file is removed on return.
pub async fn serve(
    bound: Bound,
    barrier: Barrier,
    prompter: Prompter,
    on_ask: Fallback,
    options: Options,
    shutdown: impl Future<Output = ()>,
) {
    let (stop, stopped) = oneshot::channel();
    let answering = tokio::spawn(answer(prompter, on_ask, stopped, std::io::stderr()));
    server::run_with(bound.listener, barrier, options, shutdown).await;
    let _ = stop.send(());
    let _ = answering.await;
    drop(bound.file);
}

/// Answers and logs events until `stop` fires, then logs what is already queued.
pub async fn answer(
    mut prompter: Prompter,
    on_ask: Fallback,
    mut stop: oneshot::Receiver<()>,
    mut log: impl Write,
) {
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
        handle(&prompter, on_ask, event, &mut log);
    }
    while let Some(event) = prompter.try_event() {
        handle(&prompter, on_ask, event, &mut log);
    }
}

fn handle(prompter: &Prompter, on_ask: Fallback, event: Event, log: &mut impl Write) {
    let line = match event {
        Event::Opened(dialog) => {
            prompter.unattended(dialog.id, on_ask, on_ask_reason(on_ask));
            return;
        }
        Event::Passed(outcome) | Event::Resolved(outcome) => log_line(&outcome),
        Event::Withdrawn { id } => format!("gatehouse: {id} withdrawn: the agent went away"),
        Event::ModeChanged { mode, .. } => format!("gatehouse: mode is now {mode}"),
        Event::Rerouted { .. } | Event::Classifier { .. } => return,
    };
    let _ = writeln!(log, "{line}");
}

/// One line for one decision. Everything the agent sent is escaped, so no control character
/// or escape sequence reaches the terminal.
pub fn log_line(outcome: &Outcome) -> String {
    let call = &outcome.call;
    let subject = shorten(&call.subject(), 120);
    let mut line = format!(
        "gatehouse: {} {} {} `{}` -> {} ({}, {}, {})",
        outcome.id,
        escape(&call.agent.to_string()),
        escape(&call.tool),
        escape(&subject),
        outcome.decision.name(),
        outcome.decider,
        outcome.class.name(),
        outcome.mode,
    );
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
    use std::sync::Arc;
    use std::time::Duration;

    use crate::core::call::{Agent, Call, CallId};
    use crate::core::decision::{Decider, Decision};
    use crate::core::mode::Mode;
    use crate::core::route::{Class, Route};

    #[test]
    fn a_log_line_escapes_what_the_agent_sent() {
        let outcome = Outcome {
            id: CallId(7),
            call: Arc::new(Call {
                agent: Agent::ClaudeCode,
                session: "s".into(),
                cwd: "/".into(),
                tool: "Bash\x1b[2J".into(),
                input: serde_json::json!({"command": "echo \x1b]0;pwned\x07"}),
                tool_use_id: None,
                event: None,
            }),
            class: Class::Writer,
            route: Route::Ask,
            mode: Mode::AllowRead,
            decision: Decision::deny("no\nmore"),
            decider: Decider::Mode,
            latency: Duration::ZERO,
        };
        let line = log_line(&outcome);
        assert!(!line.chars().any(|c| c.is_control()), "{line}");
        assert!(
            line.starts_with("gatehouse: #7 claude-code Bash\\e[2J `echo \\e]0;pwned\\x07`"),
            "{line}"
        );
        assert!(
            line.contains("-> deny (mode, writer, allow-read): no\\nmore"),
            "{line}"
        );
    }

    #[test]
    fn the_on_ask_reason_says_no_one_is_watching() {
        assert!(on_ask_reason(Fallback::Deny).contains("no one is watching"));
        assert!(on_ask_reason(Fallback::Defer).contains("own permission flow"));
    }
}
