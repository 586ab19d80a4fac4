//! The barrier core end to end: routes, first answer wins, the race, timeouts, withdrawal,
//! shutdown and audit. Each test names the safety-contract line (DESIGN.md) it proves.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Scripted, audit_records, call, call_in};
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback, Settings};
use gatehouse::core::classifier::{Classifier, ClassifierError};
use gatehouse::core::decision::{Decider, Decision, Verdict};
use gatehouse::core::event::{ClassifierState, Event};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::{HumanAnswer, Prompter};
use gatehouse::core::route::Route;
use gatehouse::core::rules::SessionAllow;
use serde_json::json;
use tempfile::TempDir;

struct Rig {
    barrier: Barrier,
    prompter: Prompter,
    dir: TempDir,
}

impl Rig {
    fn new(mode: Mode, classifier: Option<Arc<dyn Classifier>>) -> Rig {
        Rig::with(
            Settings {
                mode,
                ..Settings::default()
            },
            classifier,
        )
    }

    fn with(settings: Settings, classifier: Option<Arc<dyn Classifier>>) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (barrier, prompter) = Barrier::new(settings, audit, classifier);
        Rig {
            barrier,
            prompter,
            dir,
        }
    }

    fn audit(&self) -> Vec<serde_json::Value> {
        audit_records(&self.dir.path().join("audit.jsonl"))
    }

    /// Waits for the next dialog to open and returns its id.
    async fn opened(&mut self) -> gatehouse::core::call::CallId {
        loop {
            match self.prompter.next_event().await.expect("barrier alive") {
                Event::Opened(dialog) => return dialog.id,
                _ => continue,
            }
        }
    }

    /// Waits for the classifier's annotation of any dialog.
    async fn annotation(&mut self) -> ClassifierState {
        loop {
            match self.prompter.next_event().await.expect("barrier alive") {
                Event::Classifier { state, .. } if state != ClassifierState::Asking => {
                    return state;
                }
                _ => continue,
            }
        }
    }
}

fn write_call() -> gatehouse::core::call::Call {
    call("Write", json!({"file_path": "/tmp/x", "content": "hi"}))
}

fn mcp_call() -> gatehouse::core::call::Call {
    call("mcp__github__search_issues", json!({"q": "bug"}))
}

#[tokio::test]
async fn a_read_passes_at_once_and_is_audited_as_decided_by_rule() {
    let rig = Rig::new(Mode::AllowRead, None);
    let answer = rig
        .barrier
        .submit(call("Read", json!({"file_path": "a"})))
        .await;
    assert_eq!(answer.decision, Decision::allow());
    assert_eq!(answer.decider, Decider::Rule);
    let audit = rig.audit();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0]["decider"], "rule");
    assert_eq!(audit[0]["class"], "read-only");
}

#[tokio::test]
async fn block_all_asks_even_for_reads_and_allow_all_passes_writers_by_mode() {
    let rig = Rig::new(Mode::AllowAll, None);
    let answer = rig.barrier.submit(write_call()).await;
    assert_eq!(
        (answer.decision, answer.decider),
        (Decision::allow(), Decider::Mode)
    );

    let mut rig = Rig::new(Mode::BlockAll, None);
    let submit = tokio::spawn({
        let barrier = rig.barrier.clone();
        async move { barrier.submit(call("Read", json!({}))).await }
    });
    let id = rig.opened().await;
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: String::new()
        }
    ));
    let answer = submit.await.unwrap();
    assert_eq!(answer.decision, Decision::deny("denied by user"));
}

#[tokio::test]
async fn contract_1_first_answer_wins_and_the_rest_are_no_ops() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let barrier = rig.barrier.clone();
    let submit = tokio::spawn(async move { barrier.submit(write_call()).await });
    let id = rig.opened().await;
    assert!(rig.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "not now".into()
        }
    ));
    assert!(!rig.prompter.answer(id, HumanAnswer::Allow { note: None }));
    assert_eq!(rig.prompter.set_mode(Mode::AllowAll), 0);
    assert_eq!(rig.barrier.shutdown(), 0);
    assert!(!rig.prompter.claim(id));
    let answer = submit.await.unwrap();
    assert_eq!(answer.decision, Decision::deny("not now"));
    assert_eq!(answer.decider, Decider::Human);
    assert_eq!(rig.audit().len(), 1, "one decision, one record");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn contract_1_concurrent_answers_settle_each_dialog_exactly_once() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let mut submits = Vec::new();
    for i in 0..50 {
        let barrier = rig.barrier.clone();
        let c = call_in(
            &format!("s{i}"),
            "Write",
            json!({"file_path": format!("/tmp/{i}")}),
        );
        submits.push(tokio::spawn(async move { barrier.submit(c).await }));
    }
    let mut ids = Vec::new();
    for _ in 0..50 {
        ids.push(rig.opened().await);
    }
    let prompter = Arc::new(rig.prompter);
    let mut racers = Vec::new();
    for &id in &ids {
        let p = prompter.clone();
        racers.push(std::thread::spawn(move || {
            p.answer(id, HumanAnswer::Allow { note: None })
        }));
        let p = prompter.clone();
        racers.push(std::thread::spawn(move || {
            p.answer(id, HumanAnswer::Deny { reason: "x".into() })
        }));
    }
    let barrier = rig.barrier.clone();
    let shut = std::thread::spawn(move || barrier.shutdown());
    let wins: usize = racers.into_iter().map(|t| t.join().unwrap() as usize).sum();
    let shutdown_wins = shut.join().unwrap();
    assert_eq!(wins + shutdown_wins, 50);
    for s in submits {
        let answer = s.await.unwrap();
        assert_ne!(answer.decider, Decider::Timeout);
    }
    let audit = audit_records(&rig.dir.path().join("audit.jsonl"));
    assert_eq!(audit.len(), 50);
    let mut audited: Vec<u64> = audit.iter().map(|r| r["id"].as_u64().unwrap()).collect();
    audited.sort();
    audited.dedup();
    assert_eq!(audited.len(), 50, "no call audited twice");
}

#[tokio::test]
async fn a_mode_change_settles_the_open_dialogs_the_new_mode_allows() {
    let mut rig = Rig::new(Mode::BlockAll, None);
    let b = rig.barrier.clone();
    let read = tokio::spawn(async move { b.submit(call("Read", json!({}))).await });
    rig.opened().await;
    let b = rig.barrier.clone();
    let write = tokio::spawn(async move { b.submit(write_call()).await });
    let write_id = rig.opened().await;

    assert_eq!(rig.prompter.set_mode(Mode::AllowRead), 1);
    let answer = read.await.unwrap();
    assert_eq!(
        (answer.decision, answer.decider),
        (Decision::allow(), Decider::Mode)
    );
    assert_eq!(rig.prompter.open_dialogs().len(), 1);
    assert_eq!(rig.prompter.set_mode(Mode::AllowAll), 1);
    assert_eq!(write.await.unwrap().decider, Decider::Mode);
    assert!(!rig.prompter.answer(
        write_id,
        HumanAnswer::Deny {
            reason: "late".into()
        }
    ));
}

#[tokio::test(start_paused = true)]
async fn contract_5_an_unanswered_dialog_times_out_as_a_deny_that_says_so() {
    let rig = Rig::with(
        Settings {
            ask_timeout: Duration::from_secs(540),
            ..Settings::default()
        },
        None,
    );
    let answer = rig.barrier.submit(write_call()).await;
    assert_eq!(answer.decider, Decider::Timeout);
    match answer.decision {
        Decision::Deny { reason } => assert!(reason.contains("timed out"), "{reason}"),
        other => panic!("expected a deny, got {other:?}"),
    }
    assert_eq!(rig.audit()[0]["decider"], "timeout");
}

#[tokio::test(start_paused = true)]
async fn contract_5_the_timeout_can_be_configured_to_defer() {
    let rig = Rig::with(
        Settings {
            on_timeout: Fallback::Defer,
            ..Settings::default()
        },
        None,
    );
    let answer = rig.barrier.submit(write_call()).await;
    assert!(matches!(answer.decision, Decision::Defer { .. }));
}

#[tokio::test]
async fn contract_5_shutdown_answers_open_dialogs_with_defer_or_deny_never_allow() {
    for (fallback, expected) in [(Fallback::Defer, "defer"), (Fallback::Deny, "deny")] {
        let mut rig = Rig::with(
            Settings {
                on_shutdown: fallback,
                mode: Mode::AllowRead,
                ..Settings::default()
            },
            None,
        );
        let b = rig.barrier.clone();
        let open = tokio::spawn(async move { b.submit(write_call()).await });
        rig.opened().await;
        assert_eq!(rig.barrier.shutdown(), 1);
        let answer = open.await.unwrap();
        assert_eq!(answer.decision.name(), expected);
        assert_eq!(answer.decider, Decider::Shutdown);
        // After shutdown, new calls that would need a human get the same answer at once.
        let late = rig.barrier.submit(write_call()).await;
        assert_eq!(late.decision.name(), expected);
    }
}

#[tokio::test]
async fn dropping_a_submit_withdraws_its_dialog_and_audits_it() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(write_call()).await });
    let id = rig.opened().await;
    submit.abort();
    let _ = submit.await;
    loop {
        match rig.prompter.next_event().await.unwrap() {
            Event::Withdrawn { id: gone } => {
                assert_eq!(gone, id);
                break;
            }
            _ => continue,
        }
    }
    assert!(rig.prompter.open_dialogs().is_empty());
    assert!(!rig.prompter.answer(id, HumanAnswer::Allow { note: None }));
    let audit = rig.audit();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0]["decision"], "withdrawn");
}

#[tokio::test]
async fn contract_6_the_audit_record_is_on_disk_before_the_answer_is_released() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let submit = tokio::spawn(async move { b.submit(write_call()).await });
    let id = rig.opened().await;
    rig.prompter.answer(
        id,
        HumanAnswer::Allow {
            note: Some("careful".into()),
        },
    );
    let answer = submit.await.unwrap();
    assert_eq!(
        answer.decision,
        Decision::Allow {
            note: Some("careful".into())
        }
    );
    let audit = rig.audit();
    assert_eq!(audit[0]["id"], answer.id.0);
    assert_eq!(audit[0]["decider"], "human");
    assert_eq!(audit[0]["reason"], "careful");
    assert_eq!(audit[0]["tool"], "Write");
}

#[tokio::test]
async fn contract_6_an_allow_that_cannot_be_audited_becomes_a_deny() {
    let audit = Audit::open(std::path::Path::new("/dev/full")).unwrap();
    let (barrier, _prompter) = Barrier::new(Settings::default(), audit, None);
    let answer = barrier.submit(call("Read", json!({}))).await;
    match answer.decision {
        Decision::Deny { reason } => assert!(reason.contains("audit"), "{reason}"),
        other => panic!("an unaudited allow must not pass: {other:?}"),
    }
}

#[tokio::test]
async fn allow_always_passes_later_calls_of_the_same_session_only() {
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let first = tokio::spawn(async move { b.submit(call("WebFetch", json!({"url": "a"}))).await });
    let id = rig.opened().await;
    let b = rig.barrier.clone();
    let second = tokio::spawn(async move { b.submit(call("WebFetch", json!({"url": "b"}))).await });
    rig.opened().await;
    rig.prompter.answer(
        id,
        HumanAnswer::AllowAlways {
            allow: SessionAllow::Tool("WebFetch".into()),
            note: None,
        },
    );
    assert_eq!(first.await.unwrap().decider, Decider::Human);
    assert_eq!(
        second.await.unwrap().decider,
        Decider::SessionAllow,
        "the open twin is settled"
    );
    let third = rig
        .barrier
        .submit(call("WebFetch", json!({"url": "c"})))
        .await;
    assert_eq!(third.decider, Decider::SessionAllow);
    let b = rig.barrier.clone();
    let other = tokio::spawn(async move {
        b.submit(call_in("s2", "WebFetch", json!({"url": "c"})))
            .await
    });
    rig.opened().await;
    other.abort();
}

#[tokio::test]
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

#[tokio::test]
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
            Ok(v) => assert_eq!(state, ClassifierState::Advised(v)),
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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

#[tokio::test]
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
