//! A command edited before approving, through the real `gatehouse hook claude` against a
//! console on a real socket: the edited line is judged afresh, runs in place of the original
//! where the event takes a changed input (`PreToolUse`'s `updatedInput`), reaches the model in
//! a deny of the original where it cannot (`PermissionRequest`), and is refused like any call
//! when a denied command is edited in. The audit names the edit.

use crate::common;

use common::socket_console::SocketConsole;
use common::{claude_hook, fixture};
use gatehouse::core::barrier::{EditEnd, Settings};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::route::Class;
use gatehouse::core::rules::{Pattern, Rules};
use serde_json::{Value, json};

/// A console in allow-read whose rules deny `git push`.
fn start() -> SocketConsole {
    SocketConsole::start(Settings {
        mode: Mode::AllowRead,
        rules: Rules {
            denied_commands: vec![Pattern::new("git push")],
            ..Rules::default()
        },
        ..Settings::default()
    })
}

/// Runs the Claude hook on `payload`, answers its dialog with `line` edited in (after checking
/// what the console says approving will do), and returns the hook's answer.
async fn edit(console: &mut SocketConsole, payload: Value, line: &str, end: EditEnd) -> Value {
    let hook = claude_hook(&console.socket, &payload);
    let id = console.opened().await.id;
    let judged = console.prompter.judge_edit(id, line).unwrap();
    assert_eq!(judged.end, end, "{judged:?}");
    assert!(console.prompter.answer(
        id,
        HumanAnswer::AllowEdited {
            line: line.to_string()
        }
    ));
    let out = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn pre_tool_use(line: &str) -> Value {
    let mut value: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    value["tool_input"] = json!({"command": line, "description": "clean up"});
    value
}

#[tokio::test]
async fn an_edited_line_runs_in_place_of_the_original_and_the_audit_names_it() {
    let mut console = start();
    let hook = claude_hook(&console.socket, &pre_tool_use("rm -rf build"));
    let id = console.opened().await.id;
    let judged = console.prompter.judge_edit(id, "ls build").unwrap();
    assert_eq!(judged.class, Class::ReadOnly);
    let judged = console
        .prompter
        .judge_edit(id, "rm -rf build/cache")
        .unwrap();
    assert_eq!(
        (judged.class, judged.end),
        (Class::Writer, EditEnd::RunsInstead)
    );
    assert!(console.prompter.answer(
        id,
        HumanAnswer::AllowEdited {
            line: "rm -rf build/cache".into()
        }
    ));
    let out = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap())
        .await
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{answer}");
    // The whole input, the other fields kept, the command replaced.
    assert_eq!(
        specific["updatedInput"],
        json!({"command": "rm -rf build/cache", "description": "clean up"})
    );
    let record = console.audit().pop().unwrap();
    assert_eq!(record["decision"], "allow");
    assert_eq!(record["decider"], "human");
    assert_eq!(record["subject"], "rm -rf build");
    assert_eq!(record["edited"], "rm -rf build/cache");
}

#[tokio::test]
async fn a_denied_command_edited_in_is_refused_like_any_call() {
    let mut console = start();
    let answer = edit(
        &mut console,
        pre_tool_use("git commit -m wip"),
        "git push --force",
        EditEnd::Refused,
    )
    .await;
    let (decision, reason) = common::decision_of(&answer);
    assert_eq!(decision, "deny", "{answer}");
    assert!(reason.contains("edited command was refused"), "{reason}");
    assert!(answer["hookSpecificOutput"]["updatedInput"].is_null());
    let record = console.audit().pop().unwrap();
    assert_eq!(record["decider"], "rule");
    assert_eq!(record["edited"], "git push --force");
}

#[tokio::test]
async fn where_the_event_takes_no_changed_input_the_original_is_denied_with_the_edited_line() {
    let mut console = start();
    let mut payload: Value =
        serde_json::from_slice(&fixture("claude-code/permissionrequest-bash.json")).unwrap();
    payload["tool_input"] = json!({"command": "rm -rf build"});
    let answer = edit(
        &mut console,
        payload,
        "rm -rf build/cache",
        EditEnd::DeniedWithLine,
    )
    .await;
    let decision = &answer["hookSpecificOutput"]["decision"];
    assert_eq!(decision["behavior"], "deny", "{answer}");
    let message = decision["message"].as_str().unwrap();
    assert!(
        message.contains("run this command instead: rm -rf build/cache"),
        "{message}"
    );
    assert!(decision["updatedInput"].is_null());
    let record = console.audit().pop().unwrap();
    assert_eq!(record["decision"], "deny");
    assert_eq!(record["edited"], "rm -rf build/cache");
}
