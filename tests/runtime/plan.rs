//! A plan presented for approval (Claude Code's `ExitPlanMode`), through the real
//! `gatehouse hook claude` against a console on a real socket: in plan mode it opens a dialog
//! (where every write is refused), a deny reason reaches the hook's answer as the model's
//! feedback, and an approval allows it and moves the console out of plan mode, which the audit
//! names; in allow-all it passes unseen.

use crate::common;

use std::process::Child;

use common::socket_console::SocketConsole;
use common::{claude_hook, fixture};
use gatehouse::core::barrier::Settings;
use gatehouse::core::call::CallId;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::route::{Class, Route};
use serde_json::{Value, json};

const PLAN: &str = "## Plan\n1. Add the flag to the parser\n2. Test it";

/// A console in `mode` on a real socket.
fn console(mode: Mode) -> SocketConsole {
    SocketConsole::start(Settings {
        mode,
        ..Settings::default()
    })
}

/// Claude Code's `PreToolUse` for `tool` with `input`, in its plan mode.
fn payload(tool: &str, input: Value) -> Value {
    let mut value: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    value["permission_mode"] = json!("plan");
    value["tool_name"] = json!(tool);
    value["tool_input"] = input;
    value
}

/// What `ExitPlanMode` carries: Claude Code 2.1.328 adds the plan file's text and path to
/// the (otherwise empty) input it hands its hooks.
fn exit_plan_mode() -> Value {
    payload(
        "ExitPlanMode",
        json!({"plan": PLAN, "planFilePath": "/home/dev/.claude/plans/p.md"}),
    )
}

async fn answer_of(hook: Child) -> Value {
    let out = tokio::task::spawn_blocking(move || hook.wait_with_output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test]
async fn in_plan_mode_the_plan_opens_a_dialog_and_a_deny_reason_reaches_the_model() {
    let mut console = console(Mode::Plan);
    let hook = claude_hook(&console.socket, &exit_plan_mode());
    let dialog = console.opened().await;
    assert_eq!(dialog.assessment.class, Class::Plan);
    assert_eq!(dialog.route, Route::Ask);
    assert_eq!(dialog.call.plan_text(), Some(PLAN));
    let feedback = "Step 2 must also cover the error path";
    assert!(console.prompter.answer(
        dialog.id,
        HumanAnswer::Deny {
            reason: feedback.into()
        }
    ));
    let answer = answer_of(hook).await;
    assert_eq!(
        common::decision_of(&answer),
        ("deny".to_string(), feedback.to_string()),
        "{answer}"
    );
    assert_eq!(console.prompter.mode(), Mode::Plan, "a deny moves no mode");
    let record = console.audit().pop().unwrap();
    assert_eq!(
        (&record["class"], &record["decider"]),
        (&json!("plan"), &json!("human"))
    );
}

#[tokio::test]
async fn approving_the_plan_allows_it_and_moves_the_console_out_of_plan_mode_audited() {
    let mut console = console(Mode::Plan);
    let hook = claude_hook(&console.socket, &exit_plan_mode());
    let id: CallId = console.opened().await.id;
    let approve = HumanAnswer::AllowPlan {
        mode: Some(Mode::AllowRead),
        note: Some("keep the diff small".into()),
    };
    assert!(console.prompter.answer(id, approve));
    let answer = answer_of(hook).await;
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{answer}");
    assert_eq!(specific["additionalContext"], "keep the diff small");
    assert_eq!(console.prompter.mode(), Mode::AllowRead);
    let record = console.audit().pop().unwrap();
    assert_eq!(record["decision"], "allow");
    assert_eq!(
        record["rule"], "plan approved; mode plan -> allow-read",
        "{record}"
    );
    // The write the plan goes on to make is now asked, where plan mode refused it.
    let write = payload(
        "Write",
        json!({"file_path": "/home/dev/project/a.txt", "content": "x"}),
    );
    let hook = claude_hook(&console.socket, &write);
    let dialog = console.opened().await;
    assert_eq!(dialog.route, Route::Ask);
    assert!(console.prompter.answer(
        dialog.id,
        HumanAnswer::Deny {
            reason: String::new()
        }
    ));
    answer_of(hook).await;
}

#[tokio::test]
async fn a_plan_answer_for_a_call_that_is_no_plan_is_refused_and_moves_no_mode() {
    let mut console = console(Mode::AllowRead);
    let write = payload(
        "Write",
        json!({"file_path": "/home/dev/project/a.txt", "content": "x"}),
    );
    let hook = claude_hook(&console.socket, &write);
    let id = console.opened().await.id;
    let approve = HumanAnswer::AllowPlan {
        mode: Some(Mode::AllowAll),
        note: None,
    };
    assert!(!console.prompter.answer(id, approve));
    assert_eq!(console.prompter.mode(), Mode::AllowRead);
    assert!(console.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: String::new()
        }
    ));
    let (decision, _) = common::decision_of(&answer_of(hook).await);
    assert_eq!(decision, "deny");
}

#[tokio::test]
async fn in_allow_all_a_plan_passes_unseen() {
    let console = console(Mode::AllowAll);
    let answer = answer_of(claude_hook(&console.socket, &exit_plan_mode())).await;
    assert_eq!(common::decision_of(&answer).0, "allow", "{answer}");
    let record = console.audit().pop().unwrap();
    assert_eq!(
        (&record["class"], &record["decider"]),
        (&json!("plan"), &json!("mode"))
    );
}

/// The floor's `mode_ceiling` still caps the mode an approved plan moves to: the console is in
/// allow-all afterwards, and the write the plan goes on to make is still asked.
#[tokio::test]
async fn a_floor_ceiling_still_caps_the_mode_an_approved_plan_moves_to() {
    use gatehouse::core::policy::file::parse_file;
    use gatehouse::core::policy::load::Policy;
    use gatehouse::core::policy::{Layer, Trust};
    let floor = parse_file(
        "mode_ceiling = \"allow-read\"\n",
        std::path::Path::new("/etc/gatehouse/policy.toml"),
        Layer::Floor,
        Trust::FloorOnly,
        &[],
    )
    .unwrap();
    let mut settings = Settings {
        mode: Mode::Plan,
        ..Settings::default()
    };
    settings.rules.policy = std::sync::Arc::new(Policy::of_files(Some(floor), None));
    let mut console = SocketConsole::start(settings);
    let hook = claude_hook(&console.socket, &exit_plan_mode());
    let id = console.opened().await.id;
    let approve = HumanAnswer::AllowPlan {
        mode: Some(Mode::AllowAll),
        note: None,
    };
    assert!(console.prompter.answer(id, approve));
    assert_eq!(common::decision_of(&answer_of(hook).await).0, "allow");
    assert_eq!(console.prompter.mode(), Mode::AllowAll);
    let write = payload(
        "Write",
        json!({"file_path": "/home/dev/project/a.txt", "content": "x"}),
    );
    let hook = claude_hook(&console.socket, &write);
    let dialog = console.opened().await;
    assert_eq!(dialog.route, Route::Ask, "capped by the floor's allow-read");
    assert!(console.prompter.answer(
        dialog.id,
        HumanAnswer::Deny {
            reason: String::new()
        }
    ));
    answer_of(hook).await;
}

#[tokio::test]
async fn a_long_plan_is_audited_by_its_first_line_length_and_digest_not_its_whole_text() {
    let mut console = console(Mode::Plan);
    let long = format!(
        "# Move the cache to disk\n\n{}",
        "- a step of the plan\n".repeat(5000)
    );
    let hook = claude_hook(
        &console.socket,
        &payload(
            "ExitPlanMode",
            json!({"plan": long, "planFilePath": "/home/dev/.claude/plans/p.md"}),
        ),
    );
    let dialog = console.opened().await;
    let approve = HumanAnswer::AllowPlan {
        mode: None,
        note: None,
    };
    assert!(console.prompter.answer(dialog.id, approve));
    answer_of(hook).await;
    let record = console.audit().pop().unwrap();
    let shown: String = record["subject"]
        .as_str()
        .unwrap()
        .chars()
        .take(200)
        .collect();
    assert_eq!(
        shown, "# Move the cache to disk",
        "the subject, cut here to 200 characters"
    );
    assert_eq!(record["plan"]["bytes"], long.len());
    assert_eq!(
        record["plan"]["sha256"],
        gatehouse::core::policy::load::hash(long.as_bytes())
    );
    let line = serde_json::to_string(&record).unwrap();
    assert!(
        line.len() < 2048,
        "a bounded audit line: {} bytes",
        line.len()
    );
}
