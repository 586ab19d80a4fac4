//! A step toward a mode that refuses open dialogs (plan) refuses them only after
//! `REFUSAL_GRACE`, so a hurried step can be taken back; new calls meet the new mode at once.
//! Paused tokio time: the grace passes when the test says so.

use crate::common;

use common::rig::{Rig, write_call};
use gatehouse::core::barrier::REFUSAL_GRACE;
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;

/// Lets every task that can run, run.
async fn settle() {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_step_to_plan_refuses_an_open_writer_after_the_grace_and_new_ones_at_once() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let open = tokio::spawn(async move { b.submit(write_call()).await });
    rig.opened().await;
    rig.prompter.set_mode(Mode::Plan);
    let refusing = loop {
        if let Some(Event::ModeChanged { refusing, .. }) = rig.prompter.next_event().await {
            break refusing;
        }
    };
    assert_eq!(refusing, 1, "the change says one dialog will be refused");
    let new = rig.barrier.submit(write_call()).await;
    assert_eq!(
        (matches!(new.decision, Decision::Deny { .. }), new.decider),
        (true, Decider::Mode),
        "a new call meets plan at once"
    );
    settle().await;
    assert!(!open.is_finished(), "the open one waits out the grace");
    tokio::time::sleep(REFUSAL_GRACE).await;
    let answer = open.await.unwrap();
    assert!(
        matches!(&answer.decision, Decision::Deny { reason } if reason.contains("plan")),
        "{answer:?}"
    );
    assert_eq!(answer.decider, Decider::Mode);
}

#[tokio::test(start_paused = true)]
async fn stepping_back_within_the_grace_leaves_the_dialog_open_for_the_human() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let open = tokio::spawn(async move { b.submit(write_call()).await });
    let id = rig.opened().await;
    rig.prompter.set_mode(Mode::Plan);
    rig.prompter.set_mode(Mode::AllowRead);
    tokio::time::sleep(REFUSAL_GRACE * 3).await;
    settle().await;
    assert!(!open.is_finished(), "still the human's");
    assert!(rig.prompter.answer(id, HumanAnswer::Allow { note: None }));
    assert_eq!(open.await.unwrap().decider, Decider::Human);
}
