//! `notify_command`: a command of the user's run whenever a dialog opens, so ntfy, a chat bot
//! or a desktop notifier can be wired without gatehouse knowing each. It runs through `sh -c`
//! with the call in its environment (`GATEHOUSE_AGENT`, `GATEHOUSE_TOOL`, `GATEHOUSE_SUBJECT`
//! (one line, escaped, at most 200 characters) and `GATEHOUSE_ID`), with no terminal: its
//! input and output go nowhere, so it can never draw over the console. It is never waited
//! for, and what it does decides nothing.

use std::process::{Command, Stdio};

use tokio::sync::broadcast;

use crate::core::audit::shorten;
use crate::core::escape::visible;
use crate::core::event::{Dialog, Event};

/// The environment the command gets for `dialog`.
pub fn environment(dialog: &Dialog) -> Vec<(&'static str, String)> {
    let call = &dialog.call;
    let subject = call.subject();
    let first = subject.lines().next().unwrap_or("");
    vec![
        ("GATEHOUSE_ID", dialog.id.0.to_string()),
        (
            "GATEHOUSE_AGENT",
            visible(&call.agent.to_string()).into_owned(),
        ),
        ("GATEHOUSE_TOOL", visible(&call.tool).into_owned()),
        ("GATEHOUSE_SUBJECT", shorten(&visible(first), 200)),
    ]
}

/// Starts `command` for `dialog` and lets it run; a command that cannot start is logged.
pub fn run(command: &str, dialog: &Dialog) {
    let started = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .envs(environment(dialog))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match started {
        // Reaped by a thread so it leaves no zombie; nothing waits on it otherwise.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(err) => tracing::warn!("notify_command could not start: {err}"),
    }
}

/// Runs `command` for every dialog that opens, following a tap of the prompter's events.
pub async fn follow(command: String, mut tap: broadcast::Receiver<Event>) {
    loop {
        match tap.recv().await {
            Ok(Event::Opened(dialog)) => run(&command, &dialog),
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
