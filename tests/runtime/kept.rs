//! What an answer leaves for the hook call that follows it, settled by the barrier's one settle
//! path: the note an after-tool report takes (Gemini CLI, Qwen Code) and the grant the question
//! after an allowed permission request takes (Qwen Code), each audited with its own decider,
//! and a grant judged again before it is taken.

use crate::common;

use common::call;
use common::rig::Rig;
use gatehouse::core::call::{Call, Stage};
use gatehouse::core::caps::{AllowEffect, Caps, NoteEffect};
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use serde_json::json;

/// A Qwen-shaped shell call of `line` at `stage`, whose allow does `allow`.
fn qwen(stage: Stage, allow: AllowEffect, line: &str) -> Call {
    Call {
        stage,
        caps: Caps {
            allow,
            note: NoteEffect::AfterTool,
            reason: true,
            input: gatehouse::core::caps::InputEffect::Fixed,
        },
        ..call("Bash", json!({ "command": line }))
    }
}

/// Asks the permission-first question about `line` and has the human allow it with `note`.
async fn allowed_first(rig: &mut Rig, line: &str, note: Option<&str>) {
    let barrier = rig.barrier.clone();
    let first = qwen(Stage::PermissionFirst, AllowEffect::Grant, line);
    let asked = tokio::spawn(async move { barrier.submit(first).await });
    let id = rig.opened().await;
    let note = note.map(String::from);
    assert!(rig.prompter.answer(id, HumanAnswer::Allow { note }));
    assert!(matches!(
        asked.await.unwrap().decision,
        Decision::Allow { .. }
    ));
}

#[tokio::test]
async fn the_question_after_an_allowed_permission_request_takes_its_grant_once() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    allowed_first(&mut rig, "rm -rf build", None).await;
    let pre = qwen(Stage::Question, AllowEffect::Pass, "rm -rf build");
    let answer = rig.barrier.submit(pre.clone()).await;
    assert_eq!(
        (answer.decision, answer.decider),
        (Decision::allow(), Decider::Grant)
    );
    let audit = rig.audit();
    assert_eq!(audit.len(), 2, "{audit:?}");
    assert_eq!(audit[1]["decider"], "grant");
    assert_eq!(audit[1]["class"], "writer");

    // Used once: the same question again is asked.
    let barrier = rig.barrier.clone();
    let again = tokio::spawn(async move { barrier.submit(pre).await });
    let id = rig.opened().await;
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "once is enough".into()
        }
    ));
    assert_eq!(
        again.await.unwrap().decision,
        Decision::deny("once is enough")
    );
}

#[tokio::test]
async fn a_grant_is_judged_again_so_a_switch_to_plan_mode_refuses_the_call() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    allowed_first(&mut rig, "rm -rf build", None).await;
    rig.prompter.set_mode(Mode::Plan);
    let pre = qwen(Stage::Question, AllowEffect::Pass, "rm -rf build");
    let answer = rig.barrier.submit(pre).await;
    assert!(
        matches!(answer.decision, Decision::Deny { .. }),
        "{answer:?}"
    );
    assert_eq!(answer.decider, Decider::Mode, "plan mode refuses it");
}

#[tokio::test]
async fn a_grant_is_never_taken_from_another_folder() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    allowed_first(&mut rig, "rm -rf build", None).await;
    let elsewhere = Call {
        cwd: "/home".into(),
        ..qwen(Stage::Question, AllowEffect::Pass, "rm -rf build")
    };
    let barrier = rig.barrier.clone();
    let asked = tokio::spawn(async move { barrier.submit(elsewhere).await });
    let id = rig.opened().await;
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "not there".into()
        }
    ));
    assert_eq!(asked.await.unwrap().decider, Decider::Human);
}

#[tokio::test]
async fn an_after_tool_report_takes_the_note_kept_for_its_call_once() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    allowed_first(&mut rig, "make", Some("mind the warnings")).await;
    let report = qwen(Stage::AfterTool, AllowEffect::Pass, "make");
    let answer = rig.barrier.submit(report.clone()).await;
    assert_eq!(
        (answer.decision, answer.decider),
        (
            Decision::Allow {
                note: Some("mind the warnings".into()),
                input: None,
            },
            Decider::Note
        )
    );
    let again = rig.barrier.submit(report).await;
    assert_eq!(
        (again.decision, again.decider),
        (Decision::allow(), Decider::Note)
    );
    let audit = rig.audit();
    assert_eq!(audit.len(), 3, "{audit:?}");
    assert_eq!(audit[1]["class"], "after-tool");
    assert_eq!(audit[1]["route"], "allow");
    assert_eq!(audit[1]["reason"], "mind the warnings");
    assert_eq!(audit[2]["reason"], "no note was kept for this call");
}
