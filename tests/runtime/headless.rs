//! The headless console (`gatehouse serve`) with a classifier, over a real socket: a `race`
//! dialog waits for the classifier, only a read-only verdict allows it, and every other
//! outcome gets `--on-ask`.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::{Scripted, call};
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Fallback, Settings};
use gatehouse::core::classifier::{Classifier, ClassifierError};
use gatehouse::core::decision::Verdict;
use gatehouse::core::mode::Mode;
use gatehouse::headless::{self, Unattended};
use gatehouse::server::{self, Options};
use gatehouse::wire::{Response, request_line};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::sync::oneshot;

/// Starts a headless console in auto+mcp mode with `classifier`, sends one unverified MCP call
/// and one write, and returns their answers.
async fn ask_with(classifier: Option<Arc<dyn Classifier>>) -> (Response, Response) {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("run/gatehouse.sock");
    let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
    let settings = Settings {
        mode: Mode::AutoMcp,
        ..Settings::default()
    };
    let policy = Unattended {
        on_ask: Fallback::Deny,
        classifier: classifier.is_some(),
    };
    let (barrier, prompter) = Barrier::new(settings, audit, classifier);
    let bound = server::bind(&socket).unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let console = tokio::spawn(headless::serve(
        bound,
        barrier,
        prompter,
        policy,
        Options::default(),
        async {
            let _ = stopped.await;
        },
    ));
    let mcp = ask(&socket, &call("mcp__docs__search", json!({"q": "x"}))).await;
    let write = ask(&socket, &call("Write", json!({"file_path": "/tmp/x"}))).await;
    let _ = stop.send(());
    console.await.unwrap();
    assert!(!socket.exists());
    (mcp, write)
}

async fn ask(socket: &std::path::Path, call: &gatehouse::core::call::Call) -> Response {
    let mut stream = UnixStream::connect(socket).await.unwrap();
    stream.write_all(&request_line(call)).await.unwrap();
    let mut line = String::new();
    let mut reader = BufReader::new(stream);
    let read = reader.read_line(&mut line);
    tokio::time::timeout(Duration::from_secs(5), read)
        .await
        .expect("an answer, not a wait for a human")
        .unwrap();
    serde_json::from_str(&line).unwrap()
}

fn decided(response: &Response) -> (&str, &str) {
    (
        response.decision.as_deref().unwrap_or(""),
        response.decider.as_deref().unwrap_or(""),
    )
}

#[tokio::test]
async fn a_read_only_verdict_allows_a_racing_call_and_a_writer_is_still_refused() {
    let classifier = Scripted::new(Ok(Verdict::ReadOnly), Duration::from_millis(20));
    let (mcp, write) = ask_with(Some(classifier.clone())).await;
    assert_eq!(decided(&mcp), ("allow", "classifier"));
    assert_eq!(decided(&write), ("deny", "mode"));
    assert_eq!(classifier.calls(), 1, "writers never reach the classifier");
}

#[tokio::test]
async fn any_other_verdict_or_a_failure_gets_on_ask() {
    for answer in [
        Ok(Verdict::Writes),
        Ok(Verdict::Unsure),
        Err(ClassifierError("model down".into())),
    ] {
        let classifier = Scripted::new(answer.clone(), Duration::from_millis(20));
        let (mcp, _) = ask_with(Some(classifier)).await;
        assert_eq!(decided(&mcp), ("deny", "mode"), "{answer:?}");
        assert!(mcp.reason.unwrap().contains("no one is watching"));
    }
}

#[tokio::test]
async fn without_a_classifier_a_racing_call_gets_on_ask_at_once() {
    let (mcp, _) = ask_with(None).await;
    assert_eq!(decided(&mcp), ("deny", "mode"));
}
