//! A barrier with a private audit log and its prompter, for the barrier tests.

use std::sync::Arc;

use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::call::{Call, CallId};
use gatehouse::core::classifier::Classifier;
use gatehouse::core::event::{ClassifierState, Event};
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::Prompter;
use serde_json::json;
use tempfile::TempDir;

use super::{audit_records, call};

pub struct Rig {
    pub barrier: Barrier,
    pub prompter: Prompter,
    pub dir: TempDir,
}

impl Rig {
    pub fn new(mode: Mode, classifier: Option<Arc<dyn Classifier>>) -> Rig {
        Rig::with(
            Settings {
                mode,
                ..Settings::default()
            },
            classifier,
        )
    }

    pub fn with(settings: Settings, classifier: Option<Arc<dyn Classifier>>) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
        let (barrier, prompter) = Barrier::new(settings, audit, classifier);
        Rig {
            barrier,
            prompter,
            dir,
        }
    }

    pub fn audit(&self) -> Vec<serde_json::Value> {
        audit_records(&self.dir.path().join("audit.jsonl"))
    }

    /// Waits for the next dialog to open and returns its id.
    pub async fn opened(&mut self) -> CallId {
        loop {
            match self.prompter.next_event().await.expect("barrier alive") {
                Event::Opened(dialog) => return dialog.id,
                _ => continue,
            }
        }
    }

    /// Waits for the classifier's annotation of any dialog.
    pub async fn annotation(&mut self) -> ClassifierState {
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

pub fn write_call() -> Call {
    call("Write", json!({"file_path": "/tmp/x", "content": "hi"}))
}

pub fn mcp_call() -> Call {
    call("mcp__github__search_issues", json!({"q": "bug"}))
}

/// Submits each of `lines` in each of `modes` beside a classifier that would allow at once, and
/// checks that every one opened a dialog routed `ask` that only the human answered, and that
/// none reached the classifier (had one been raced, it could have answered first). `what` names
/// the lines in the failure message.
pub async fn asked_of_the_human_and_never_raced(modes: &[Mode], lines: &[&str], what: &str) {
    use gatehouse::core::decision::{Decider, Verdict};
    use gatehouse::core::prompter::HumanAnswer;
    use gatehouse::core::route::Route;
    let classifier = super::Scripted::new(Ok(Verdict::ReadOnly), std::time::Duration::ZERO);
    for &mode in modes {
        for &line in lines {
            let mut rig = Rig::new(mode, Some(classifier.clone()));
            let b = rig.barrier.clone();
            let call = super::bash(line);
            let submit = tokio::spawn(async move { b.submit(call).await });
            let id = rig.opened().await;
            let mine = HumanAnswer::Deny {
                reason: "mine".into(),
            };
            assert!(
                rig.prompter.answer(id, mine),
                "{mode} {line}: the dialog was still the human's"
            );
            let answer = submit.await.unwrap();
            assert_eq!(answer.route, Route::Ask, "{mode} {line}");
            assert_eq!(answer.decider, Decider::Human, "{mode} {line}");
        }
    }
    assert_eq!(classifier.calls(), 0, "no {what} reached the classifier");
}
