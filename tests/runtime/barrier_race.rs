//! The classifier race in the barrier, against a scripted classifier: only a read-only verdict
//! on an unclaimed race resolves (contract 2), a claim drops a late verdict (contract 3), and
//! a mode change into an auto mode starts the race.
//!
//! Time is paused: the scripted classifier's delays and the tests' waits run on tokio's
//! clock, which moves only when every task is idle, so their order is fixed however busy the
//! machine is.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::Scripted;
use common::rig::{Rig, mcp_call, write_call};
use gatehouse::core::advice::Advice;
use gatehouse::core::classifier::{BoxFuture, Classifier, ClassifierError, Question};
use gatehouse::core::decision::{Decider, Decision, Verdict};
use gatehouse::core::event::ClassifierState;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::route::Route;

#[tokio::test(start_paused = true)]
async fn contract_2_a_read_only_verdict_resolves_a_race_as_the_classifier() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(5));
    let rig = Rig::new(Mode::AutoMcp, Some(classifier.clone()));
    let answer = rig.barrier.submit(mcp_call()).await;
    assert_eq!(answer.route, Route::Race);
    assert_eq!(
        (answer.decision, answer.decider),
        (Decision::allow(), Decider::Classifier)
    );
    assert_eq!(classifier.calls(), 1);
    assert_eq!(rig.audit()[0]["decider"], "classifier");
}

#[tokio::test(start_paused = true)]
async fn contract_2_writes_unsure_and_errors_only_annotate_the_dialog() {
    for answer in [
        Ok(Verdict::Writes),
        Ok(Verdict::Unsure),
        Err(ClassifierError("HTTP 500".into())),
    ] {
        let classifier = Scripted::new(answer.clone(), Duration::from_millis(1));
        let mut rig = Rig::new(Mode::AutoMcp, Some(classifier));
        let b = rig.barrier.clone();
        let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
        let state = rig.annotation().await;
        match answer {
            Ok(v) => assert_eq!(state, ClassifierState::Advised(common::advice(v))),
            Err(e) => assert_eq!(state, ClassifierState::Failed(e.0)),
        }
        assert_eq!(rig.prompter.open_dialogs().len(), 1, "still the human's");
        let id = rig.prompter.open_dialogs()[0].id;
        rig.prompter.answer(
            id,
            HumanAnswer::Deny {
                reason: "no".into(),
            },
        );
        assert_eq!(submit.await.unwrap().decider, Decider::Human);
    }
}

#[tokio::test(start_paused = true)]
async fn contract_2_the_classifier_is_never_asked_outside_the_auto_modes_or_about_writers() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::ZERO);
    for mode in [Mode::AllowRead, Mode::BlockAll, Mode::Auto] {
        let mut rig = Rig::new(mode, Some(classifier.clone()));
        for c in [mcp_call(), write_call()] {
            let b = rig.barrier.clone();
            let submit = tokio::spawn(async move { b.submit(c).await });
            let id = rig.opened().await;
            tokio::time::sleep(Duration::from_millis(20)).await;
            assert!(
                rig.prompter
                    .answer(id, HumanAnswer::Deny { reason: "x".into() })
            );
            assert_eq!(submit.await.unwrap().decider, Decider::Human);
        }
    }
    let mut rig = Rig::new(Mode::AutoMcp, Some(classifier.clone()));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(write_call()).await });
    let id = rig.opened().await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    rig.prompter
        .answer(id, HumanAnswer::Deny { reason: "x".into() });
    submit.await.unwrap();
    assert_eq!(classifier.calls(), 0);
}

#[tokio::test(start_paused = true)]
async fn contract_3_a_claimed_dialog_drops_the_classifiers_late_verdict() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(50));
    let mut rig = Rig::new(Mode::AutoMcp, Some(classifier.clone()));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
    let id = rig.opened().await;
    assert!(rig.prompter.claim(id));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        rig.prompter.open_dialogs().len(),
        1,
        "the verdict was dropped"
    );
    rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "mine".into(),
        },
    );
    let answer = submit.await.unwrap();
    assert_eq!(answer.decider, Decider::Human);
    assert_eq!(classifier.calls(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_human_answer_first_makes_the_late_verdict_change_nothing() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(30));
    let mut rig = Rig::new(Mode::AutoMcp, Some(classifier));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
    let id = rig.opened().await;
    rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "no".into(),
        },
    );
    let answer = submit.await.unwrap();
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert_eq!(answer.decision, Decision::deny("no"));
    assert_eq!(rig.audit().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn switching_into_auto_mcp_starts_the_race_for_open_mcp_dialogs() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(1));
    let mut rig = Rig::new(Mode::AllowRead, Some(classifier.clone()));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
    rig.opened().await;
    assert_eq!(classifier.calls(), 0);
    rig.prompter.set_mode(Mode::AutoMcp);
    let answer = submit.await.unwrap();
    assert_eq!(answer.decider, Decider::Classifier);
    assert_eq!(classifier.calls(), 1);
}

#[tokio::test(start_paused = true)]
async fn advice_asked_on_a_claimed_race_annotates_it_and_never_resolves() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(50));
    let mut rig = Rig::new(Mode::AutoMcp, Some(classifier.clone()));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
    let id = rig.opened().await;
    assert!(rig.prompter.claim(id));
    assert!(rig.prompter.ask_advice(id), "the human may still ask");
    assert!(!rig.prompter.ask_advice(id), "one request at a time");
    let state = rig.annotation().await;
    assert_eq!(
        state,
        ClassifierState::Advised(common::advice(Verdict::ReadOnly))
    );
    assert_eq!(rig.prompter.open_dialogs().len(), 1, "still the human's");
    rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "no".into(),
        },
    );
    assert_eq!(submit.await.unwrap().decider, Decider::Human);
    assert_eq!(classifier.calls(), 2, "the race, then the advice");
}

/// A classifier that fails its first request and then says read-only.
struct FailsOnce(std::sync::atomic::AtomicUsize);

impl Classifier for FailsOnce {
    fn classify(&self, _: Arc<Question>) -> BoxFuture<Result<Advice, ClassifierError>> {
        let first = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0;
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            match first {
                true => Err(ClassifierError("HTTP 500".into())),
                false => Ok(common::advice(Verdict::ReadOnly)),
            }
        })
    }
}

#[tokio::test(start_paused = true)]
async fn advice_asked_again_after_a_failed_race_is_the_race_and_may_allow() {
    let classifier = Arc::new(FailsOnce(Default::default()));
    let mut rig = Rig::new(Mode::AutoMcp, Some(classifier.clone()));
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(mcp_call()).await });
    let id = rig.opened().await;
    assert!(matches!(rig.annotation().await, ClassifierState::Failed(_)));
    assert_eq!(
        rig.prompter.open_dialogs().len(),
        1,
        "a failure leaves it open"
    );
    assert!(rig.prompter.ask_advice(id));
    assert_eq!(submit.await.unwrap().decider, Decider::Classifier);
}
