//! A batch answer through the barrier: each call settled as if alone, each audited with the
//! batch, calls the answer does not fit left open, and "allow always" rules applied to other
//! dialogs only once the batch's own calls are answered.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::super::{Barrier, Settings};
use super::*;
use crate::core::audit::Audit;
use crate::core::call::{Call, test_call};
use crate::core::decision::{Decider, Decision};
use crate::core::event::Event;
use crate::core::prompter::{HumanAnswer, Prompter};

struct Rig {
    barrier: Barrier,
    prompter: Prompter,
    dir: tempfile::TempDir,
}

impl Rig {
    fn new() -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (barrier, prompter) = Barrier::new(Settings::default(), audit, None);
        Rig {
            barrier,
            prompter,
            dir,
        }
    }

    /// Submits `call` and waits until its dialog is open.
    async fn ask(&mut self, call: Call) -> (CallId, JoinHandle<super::super::Answer>) {
        let barrier = self.barrier.clone();
        let task = tokio::spawn(async move { barrier.submit(call).await });
        loop {
            if let Some(Event::Opened(dialog)) = self.prompter.next_event().await {
                return (dialog.id, task);
            }
        }
    }

    fn audit(&self) -> Vec<Value> {
        read(&self.dir.path().join("audit.jsonl"))
    }
}

fn read(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn bash(session: &str, line: &str) -> Call {
    Call {
        session: session.into(),
        ..test_call("Bash", json!({ "command": line }))
    }
}

#[tokio::test]
async fn a_batch_deny_reaches_each_call_with_its_reason_and_each_is_audited_in_the_batch() {
    let mut rig = Rig::new();
    let (a, first) = rig.ask(bash("s1", "rm -rf build")).await;
    let (b, second) = rig.ask(bash("s2", "touch x")).await;
    let reason = "stop and explain first".to_string();
    let done = rig.prompter.answer_batch(
        &[a, b],
        BatchAnswer::Deny {
            reason: reason.clone(),
        },
    );
    assert_eq!(done.answered, vec![a, b]);
    assert_eq!(done.batch, Some(Batch { id: a.0, size: 2 }));
    for task in [first, second] {
        let answer = task.await.unwrap();
        assert_eq!(answer.decision, Decision::deny(reason.clone()));
        assert_eq!(answer.decider, Decider::Human);
    }
    let audit = rig.audit();
    assert_eq!(audit.len(), 2);
    for (record, id) in audit.iter().zip([a, b]) {
        assert_eq!(record["id"], id.0);
        assert_eq!(record["batch"], json!({"id": a.0, "size": 2}));
        assert_eq!(record["reason"], reason.as_str());
    }
}

#[tokio::test]
async fn a_batch_allow_always_answers_its_own_calls_before_its_rules_cover_the_rest() {
    let mut rig = Rig::new();
    let (a, first) = rig.ask(bash("s", "rm -rf build")).await;
    let (b, second) = rig.ask(bash("s", "rm -rf build")).await;
    let (c, third) = rig.ask(bash("s", "rm -rf build")).await;
    let (key, _held) = rig.ask(bash("s", "cat ~/.ssh/id_rsa")).await;
    let done = rig
        .prompter
        .answer_batch(&[a, b, key], BatchAnswer::AllowAlways);
    assert_eq!(done.answered, vec![a, b]);
    assert_eq!(done.left, vec![(key, LeftOut::Guarded)]);
    for task in [first, second] {
        assert_eq!(task.await.unwrap().decider, Decider::Human);
    }
    // The call outside the batch is then covered by the session rule the batch made.
    assert_eq!(third.await.unwrap().decider, Decider::SessionAllow);
    let audit = rig.audit();
    let batch_of = |id: CallId| {
        let record = audit.iter().find(|r| r["id"] == id.0).unwrap();
        (record["decider"].clone(), record["batch"].clone())
    };
    let named = json!({"id": a.0, "size": 2});
    assert_eq!(batch_of(a), (json!("human"), named.clone()));
    assert_eq!(batch_of(b), (json!("human"), named));
    assert_eq!(batch_of(c), (json!("session-allow"), Value::Null));
    // The credential is still open, for the human to answer alone.
    let open: Vec<CallId> = rig.prompter.open_dialogs().iter().map(|d| d.id).collect();
    assert_eq!(open, vec![key]);
}

#[tokio::test]
async fn a_web_batch_leaves_out_calls_still_arming_and_reports_calls_already_gone() {
    let mut rig = Rig::new();
    let (a, _held) = rig.ask(bash("s", "rm a")).await;
    let (b, second) = rig.ask(bash("s", "rm b")).await;
    assert!(rig.prompter.answer(b, HumanAnswer::Allow { note: None }));
    second.await.unwrap();
    let web = rig.prompter.responder();
    let done = web.answer_batch_from(
        &[a, b],
        BatchAnswer::Allow { note: None },
        "phone",
        Instant::now() - ARMING,
    );
    assert_eq!(done.left, vec![(a, LeftOut::Arming)]);
    assert_eq!(done.gone, vec![b]);
    assert_eq!(done.batch, None);
    assert_eq!(rig.prompter.open_dialogs().len(), 1);
}
