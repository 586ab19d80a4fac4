//! The barrier core end to end: routes, first answer wins, timeouts, withdrawal, shutdown and
//! audit. Each test names the safety-contract line (DESIGN.md) it proves; the classifier race
//! is in `barrier_race.rs`.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::rig::{Rig, write_call};
use common::{audit_records, call, call_in};
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback, Settings};
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::core::rules::SessionAllow;
use serde_json::json;

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

/// A disk that is full: every write fails with ENOSPC.
#[derive(Debug)]
struct FullDisk;

impl std::io::Write for FullDisk {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn contract_6_an_allow_that_cannot_be_audited_becomes_a_deny_and_the_console_is_told() {
    use gatehouse::core::audit::Lines;
    use gatehouse::core::event::AuditHealth;
    let audit = Audit::with_sink(Box::new(Lines::new(FullDisk, false)));
    let (barrier, mut prompter) = Barrier::new(Settings::default(), audit, None);
    let answer = barrier.submit(call("Read", json!({}))).await;
    match answer.decision {
        Decision::Deny { reason } => assert!(reason.contains("audit"), "{reason}"),
        other => panic!("an unaudited allow must not pass: {other:?}"),
    }
    match prompter.next_event().await.unwrap() {
        Event::Audit(AuditHealth::Failing(why)) => {
            assert!(why.contains("No space left"), "{why}")
        }
        other => panic!("the console is told first: {other:?}"),
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
            lasts: None,
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
async fn plan_mode_refuses_a_writer_as_the_mode_not_as_a_rule() {
    let rig = Rig::new(Mode::Plan, None);
    let answer = rig.barrier.submit(write_call()).await;
    assert!(
        matches!(answer.decision, Decision::Deny { .. }),
        "{answer:?}"
    );
    assert_eq!(answer.decider, Decider::Mode);
    assert_eq!(rig.audit()[0]["decider"], "mode");
}

#[tokio::test]
async fn rules_put_in_force_while_running_hold_from_the_next_call_and_refuse_open_dialogs() {
    use gatehouse::core::rules::{Pattern, Rules};
    let mut rig = Rig::new(Mode::AllowRead, None);
    let b = rig.barrier.clone();
    let open = tokio::spawn(async move { b.submit(common::bash("terraform apply")).await });
    rig.opened().await;
    let rules = Rules {
        denied_commands: vec![Pattern::new("terraform apply")],
        ..Rules::default()
    };
    rig.prompter.set_rules(rules);
    let answer = open.await.unwrap();
    assert!(
        matches!(answer.decision, Decision::Deny { .. }),
        "the open dialog is judged again: {answer:?}"
    );
    let next = rig.barrier.submit(common::bash("terraform apply")).await;
    assert_eq!(
        (matches!(next.decision, Decision::Deny { .. }), next.decider),
        (true, Decider::Rule)
    );
}
