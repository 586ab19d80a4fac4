//! Contract 6's order, seen while it happens: the audit record of a decision is written before
//! the answer is released. An audit sink holds the write of the record open while the test
//! looks at the agent's side; had the barrier sent the answer first, the agent would already
//! hold it.

use crate::common;

use std::io;
use std::pin::pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use common::rig::write_call;
use gatehouse::core::audit::{Audit, Sink};
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::decision::{Decider, Decision};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::HumanAnswer;
use serde_json::Value;

/// An audit sink that keeps each line it is given and then holds the write until the test
/// opens it, so the test can look at the barrier while a record is being written.
#[derive(Debug, Clone, Default)]
struct HeldSink(Arc<(Mutex<Held>, Condvar)>);

#[derive(Debug, Default)]
struct Held {
    lines: Vec<String>,
    open: bool,
}

impl Sink for HeldSink {
    fn append(&mut self, line: &[u8]) -> io::Result<()> {
        let (held, changed) = &*self.0;
        let mut held = held.lock().unwrap();
        held.lines.push(String::from_utf8_lossy(line).into_owned());
        changed.notify_all();
        while !held.open {
            held = changed.wait(held).unwrap();
        }
        Ok(())
    }
}

impl HeldSink {
    /// Waits until a record is being written and returns the lines given so far. Panics when
    /// none comes within `secs` (the barrier never wrote one, or not on the answering thread).
    fn writing(&self, secs: u64) -> Vec<String> {
        let (held, changed) = &*self.0;
        let held = held.lock().unwrap();
        let (held, waited) = changed
            .wait_timeout_while(held, Duration::from_secs(secs), |h| h.lines.is_empty())
            .unwrap();
        assert!(!waited.timed_out(), "no audit record was written");
        held.lines.clone()
    }

    /// Lets the held write, and every later one, finish.
    fn open(&self) {
        let (held, changed) = &*self.0;
        held.lock().unwrap().open = true;
        changed.notify_all();
    }
}

#[tokio::test]
async fn contract_6_the_answer_is_not_released_while_its_audit_record_is_being_written() {
    let sink = HeldSink::default();
    let settings = Settings {
        mode: Mode::AllowRead,
        ..Settings::default()
    };
    let (barrier, mut prompter) =
        Barrier::new(settings, Audit::with_sink(Box::new(sink.clone())), None);
    let mut submit = pin!(barrier.submit(write_call()));
    let id = loop {
        tokio::select! {
            answer = &mut submit => panic!("a Write settled without a dialog: {answer:?}"),
            event = prompter.next_event() => {
                if let Some(Event::Opened(dialog)) = event {
                    break dialog.id;
                }
            }
        }
    };

    // The human answers on a thread of its own, which the held write then stops inside the
    // barrier; this thread meanwhile asks the agent's side whether its answer has come.
    let answering = std::thread::spawn(move || {
        let note = Some("careful".to_string());
        prompter.answer(id, HumanAnswer::Allow { note })
    });
    let lines = sink.writing(30);
    let mut agent = Context::from_waker(Waker::noop());
    let released = submit.as_mut().poll(&mut agent);
    sink.open();
    assert!(
        answering.join().unwrap(),
        "the human's answer settles the dialog"
    );
    assert!(
        matches!(released, Poll::Pending),
        "the answer reached the agent while its audit record was still being written: {released:?}"
    );

    let record: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(
        (&record["id"], &record["decider"], &record["reason"]),
        (&id.0.into(), &"human".into(), &"careful".into())
    );
    let answer = submit.await;
    assert_eq!(answer.id, id);
    assert_eq!(
        (answer.decision, answer.decider),
        (
            Decision::Allow {
                note: Some("careful".into()),
                input: None,
            },
            Decider::Human
        )
    );
}
