//! One answer for many calls through the real hooks over the real socket: three
//! `gatehouse hook` processes (two Claude Code sessions and a Codex one) wait at once, one
//! batch answer reaches each, and the audit has each call's own line with the batch named.

use crate::common;

use std::process::Child;

use common::socket_console::SocketConsole;
use common::{claude_hook, decision_of, fixture};
use gatehouse::core::barrier::Settings;
use gatehouse::core::batch::{BatchAnswer, LeftOut};
use gatehouse::core::call::CallId;
use gatehouse::core::mode::Mode;
use serde_json::{Value, json};

fn start() -> SocketConsole {
    SocketConsole::start(Settings {
        mode: Mode::AllowRead,
        ..Settings::default()
    })
}

/// A Claude Code `PreToolUse` for `line` in session `session`.
fn claude(console: &SocketConsole, session: &str, line: &str) -> Child {
    let mut payload: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    payload["session_id"] = json!(session);
    payload["tool_input"] = json!({ "command": line });
    claude_hook(&console.socket, &payload)
}

/// Codex's recorded `PreToolUse` of `rm -rf build`.
fn codex(console: &SocketConsole) -> Child {
    common::hook(
        &console.socket,
        "codex",
        &fixture("codex/pretooluse-bash.json"),
    )
}

async fn output(hook: Child) -> Value {
    let out = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test]
async fn one_batch_deny_reaches_three_waiting_hooks_and_each_is_audited_in_the_batch() {
    let mut console = start();
    let first = claude(&console, "session-a", "rm -rf build");
    let a = console.opened().await.id;
    let second = claude(&console, "session-b", "touch notes.txt");
    let b = console.opened().await.id;
    let third = codex(&console);
    let c = console.opened().await.id;
    let reason = "hold on: review the plan first";
    let done = console.prompter.answer_batch(
        &[a, b, c],
        BatchAnswer::Deny {
            reason: reason.into(),
        },
    );
    assert_eq!(done.answered, vec![a, b, c]);
    for hook in [first, second] {
        let out = output(hook).await;
        assert_eq!(decision_of(&out), ("deny".into(), reason.into()));
    }
    let codex = output(third).await;
    assert!(codex.to_string().contains(reason), "{codex}");
    let audit = console.audit();
    assert_eq!(audit.len(), 3);
    for (record, id) in audit.iter().zip([a, b, c]) {
        assert_eq!(record["id"], id.0);
        assert_eq!(record["decision"], "deny");
        assert_eq!(record["decider"], "human");
        assert_eq!(record["batch"], json!({"id": a.0, "size": 3}));
    }
    assert_eq!(audit[2]["agent"], "codex");
}

#[tokio::test]
async fn a_batch_allow_always_allows_each_hook_and_leaves_a_credential_read_waiting() {
    let mut console = start();
    let first = claude(&console, "s", "rm -rf build");
    let a = console.opened().await.id;
    let second = claude(&console, "s", "rm -rf build");
    let b = console.opened().await.id;
    let held = claude(&console, "s", "cat ~/.ssh/id_rsa");
    let key = console.opened().await.id;
    let done = console
        .prompter
        .answer_batch(&[a, b, key], BatchAnswer::AllowAlways);
    assert_eq!(done.answered, vec![a, b]);
    assert_eq!(done.left, vec![(key, LeftOut::Guarded)]);
    for hook in [first, second] {
        assert_eq!(decision_of(&output(hook).await).0, "allow");
    }
    // The credential read is still asked: answered alone, it is denied.
    let open: Vec<CallId> = console
        .prompter
        .open_dialogs()
        .iter()
        .map(|d| d.id)
        .collect();
    assert_eq!(open, vec![key]);
    assert!(console.prompter.answer(
        key,
        gatehouse::core::prompter::HumanAnswer::Deny {
            reason: String::new()
        }
    ));
    assert_eq!(decision_of(&output(held).await).0, "deny");
    let audit = console.audit();
    let batches: Vec<&Value> = audit.iter().map(|r| &r["batch"]).collect();
    let named = json!({"id": a.0, "size": 2});
    assert_eq!(batches, vec![&named, &named, &Value::Null]);
}
