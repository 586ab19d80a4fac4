//! Attaching to an OpenCode server, against a loopback server that speaks its API
//! (`fake.rs`): requests pending before the attach are listed and asked, each request is asked
//! once, answers go back as OpenCode's replies, the link comes back after the stream drops,
//! a dead server is shown and retried, and detaching (or the console quitting) answers nothing.
//! The last tests drive the real binary: `gatehouse serve` and `gatehouse attach opencode`.

mod fake;
mod fake_v2;
mod v2;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use fake::Fake;
use gatehouse::agents::opencode::Attachments;
use gatehouse::agents::opencode::attach::{Link, Log, Timing};
use gatehouse::agents::opencode::client::{Auth, Server};
use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::call::{Call, CallId};
use gatehouse::core::event::Event;
use gatehouse::core::mode::Mode;
use gatehouse::core::prompter::{HumanAnswer, Prompter};
use serde_json::{Value, json};

const PROJECT: &str = "/home/dev/project";

/// Short waits, so a reconnect happens within a test's patience.
const FAST: Timing = Timing {
    silence: Duration::from_secs(5),
    first_backoff: Duration::from_millis(50),
    max_backoff: Duration::from_millis(200),
};

struct Console {
    barrier: Barrier,
    prompter: Prompter,
    attachments: Arc<Attachments>,
    log: Arc<Mutex<Vec<String>>>,
    _dir: tempfile::TempDir,
}

fn console(mode: Mode) -> Console {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
    let settings = Settings {
        mode,
        ..Settings::default()
    };
    let (barrier, prompter) = Barrier::new(settings, audit, None);
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let log: Log = Arc::new(move |line| sink.lock().unwrap().push(line));
    let attachments = Attachments::new(barrier.clone(), FAST, log);
    Console {
        barrier,
        prompter,
        attachments,
        log: lines,
        _dir: dir,
    }
}

fn server(fake: &Fake) -> Server {
    Server {
        url: fake.url.clone(),
        auth: None,
    }
}

fn shell_request(id: &str, command: &str) -> Value {
    json!({
        "id": id,
        "sessionID": "ses_1",
        "permission": "bash",
        "patterns": [command],
        "metadata": {"command": command},
        "always": ["touch *"],
        "tool": {"messageID": "msg_1", "callID": "call_1"},
    })
}

impl Console {
    /// The next dialog to open, with its call.
    async fn opened(&mut self) -> (CallId, Arc<Call>) {
        let wait = async {
            loop {
                if let Event::Opened(dialog) = self.prompter.next_event().await.unwrap() {
                    return (dialog.id, dialog.call.clone());
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("no dialog opened")
    }

    /// Waits for dialog `id` to be withdrawn; panics if another dialog opens first.
    async fn withdrawn(&mut self, id: CallId) {
        let wait = async {
            loop {
                match self.prompter.next_event().await.unwrap() {
                    Event::Withdrawn { id: gone } if gone == id => return,
                    Event::Opened(dialog) => panic!("a second dialog opened: {:?}", dialog.call),
                    _ => {}
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("the dialog was not withdrawn")
    }

    /// Waits for the first link to reach a state `want` accepts, and returns it.
    async fn link(&self, want: impl Fn(&Link) -> bool) -> Link {
        let (url, _) = self
            .attachments
            .links()
            .into_iter()
            .next()
            .expect("attached");
        let mut watch = self.attachments.watch(&url).unwrap();
        let wait = async { watch.wait_for(|l| want(l)).await.unwrap().clone() };
        tokio::time::timeout(Duration::from_secs(10), wait)
            .await
            .expect("the link never reached the state")
    }
}

#[tokio::test]
async fn a_request_pending_before_the_attach_is_listed_asked_and_rejected_with_the_reason() {
    let fake = Fake::start(None).await;
    fake.pend(Some(PROJECT), shell_request("per_1", "touch ran.txt"));
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    let (id, call) = console.opened().await;
    assert_eq!(call.agent.as_str(), "opencode");
    assert_eq!(call.tool, "bash");
    assert_eq!(call.shell_line(), Some("touch ran.txt"));
    assert_eq!(call.cwd, PROJECT);
    assert!(console.prompter.answer(
        id,
        HumanAnswer::Deny {
            reason: "use make clean".into()
        }
    ));
    fake.until("the reject", |f| !f.replies().is_empty()).await;
    let reply = &fake.replies()[0];
    assert_eq!(reply.id, "per_1");
    assert_eq!(reply.directory.as_deref(), Some(PROJECT));
    assert_eq!(
        reply.body,
        json!({"reply": "reject", "message": "use make clean"})
    );
}

#[tokio::test]
async fn a_request_on_the_stream_that_is_also_listed_is_asked_once_and_allowed_once() {
    let fake = Fake::start(None).await;
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    console.link(|l| matches!(l, Link::Attached(_))).await;
    fake.ask(PROJECT, shell_request("per_2", "touch a.txt"));
    let (id, _) = console.opened().await;
    // Seen again by a list after a reconnect, it is the same dialog, not a new one.
    fake.drop_streams();
    fake.until("a second subscription", |f| f.subscribed() >= 2)
        .await;
    console.link(|l| matches!(l, Link::Attached(_))).await;
    assert_eq!(console.prompter.open_dialogs().len(), 1);
    assert!(
        console
            .prompter
            .answer(id, HumanAnswer::Allow { note: None })
    );
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].body, json!({"reply": "once"}));
}

#[tokio::test]
async fn after_the_stream_drops_the_link_comes_back_and_lists_what_was_asked_meanwhile() {
    let fake = Fake::start(None).await;
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    console.link(|l| matches!(l, Link::Attached(_))).await;
    fake.drop_streams();
    // Asked while no stream is open: only the list after the reconnect can find it.
    fake.pend(Some(PROJECT), shell_request("per_3", "touch b.txt"));
    let (_, call) = console.opened().await;
    assert_eq!(call.shell_line(), Some("touch b.txt"));
    assert!(fake.subscribed() >= 2);
    let log = console.log.lock().unwrap().join("\n");
    assert!(log.contains("down: the event stream ended"), "{log}");
}

#[tokio::test]
async fn a_dead_server_is_shown_down_and_retried_not_fatal() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let console = console(Mode::AllowRead);
    let url = format!("http://127.0.0.1:{port}");
    console
        .attachments
        .attach(Server {
            url: url.clone(),
            auth: None,
        })
        .unwrap();
    let Link::Down { why, .. } = console.link(|l| matches!(l, Link::Down { .. })).await else {
        unreachable!()
    };
    assert!(why.contains("cannot reach it"), "{why}");
    let status = console.attachments.status().unwrap();
    assert!(status.contains("DOWN"), "{status}");
    // Retried: it tries again (connecting) and is down again, and the console goes on.
    console.link(|l| *l == Link::Connecting).await;
    console.link(|l| matches!(l, Link::Down { .. })).await;
    assert!(console.log.lock().unwrap().len() >= 2);
    assert!(console.attachments.detach(&url));
}

#[tokio::test]
async fn detaching_withdraws_the_dialog_and_answers_nothing() {
    let fake = Fake::start(None).await;
    fake.pend(Some(PROJECT), shell_request("per_4", "touch c.txt"));
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    let (id, _) = console.opened().await;
    assert!(console.attachments.detach(&fake.url));
    console.withdrawn(id).await;
    assert!(console.attachments.links().is_empty());
    // Attach again: the request is still pending at the server, and asked again.
    console.attachments.attach(server(&fake)).unwrap();
    let (_, call) = console.opened().await;
    assert_eq!(call.shell_line(), Some("touch c.txt"));
    assert_eq!(fake.replies(), []);
}

#[tokio::test]
async fn the_console_quitting_answers_nothing_whatever_its_shutdown_fallback() {
    let fake = Fake::start(None).await;
    fake.pend(Some(PROJECT), shell_request("per_5", "touch d.txt"));
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    let (id, _) = console.opened().await;
    console.attachments.detach_all().await;
    console.barrier.shutdown();
    console.withdrawn(id).await;
    assert_eq!(fake.replies(), []);
}

#[tokio::test]
async fn an_answer_given_in_opencode_itself_withdraws_the_dialog() {
    let fake = Fake::start(None).await;
    let mut console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    console.link(|l| matches!(l, Link::Attached(_))).await;
    fake.ask(PROJECT, shell_request("per_6", "touch e.txt"));
    let (id, _) = console.opened().await;
    fake.answer_elsewhere("per_6");
    console.withdrawn(id).await;
    assert_eq!(fake.replies(), []);
}

#[tokio::test]
async fn what_the_mode_decides_alone_is_answered_without_a_dialog() {
    let fake = Fake::start(None).await;
    fake.pend(
        Some(PROJECT),
        json!({"id": "per_7", "sessionID": "ses_1", "permission": "read",
               "patterns": ["config.txt"], "metadata": {}, "always": ["*"]}),
    );
    let console = console(Mode::AllowRead);
    console.attachments.attach(server(&fake)).unwrap();
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].body, json!({"reply": "once"}));
}

#[tokio::test]
async fn with_a_password_every_call_signs_in_and_a_wrong_one_is_shown() {
    let fake = Fake::start(Some("s3cret")).await;
    fake.pend(Some(PROJECT), shell_request("per_8", "rm -rf build"));
    let console = console(Mode::AllowAll);
    let auth = |password: &str| {
        Some(Auth {
            username: "opencode".into(),
            password: password.into(),
        })
    };
    let wrong = Server {
        url: fake.url.clone(),
        auth: auth("nope"),
    };
    console.attachments.attach(wrong).unwrap();
    let Link::Down { why, .. } = console.link(|l| matches!(l, Link::Down { .. })).await else {
        unreachable!()
    };
    assert!(why.contains("401"), "{why}");
    assert!(console.attachments.detach(&fake.url));
    let right = Server {
        url: fake.url.clone(),
        auth: auth("s3cret"),
    };
    console.attachments.attach(right).unwrap();
    fake.until("the reply", |f| !f.replies().is_empty()).await;
    assert_eq!(fake.replies()[0].body, json!({"reply": "once"}));
}

mod cli;
