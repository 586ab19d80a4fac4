//! One attachment: the console's link to one `opencode serve`.
//!
//! It subscribes to `/global/event` first and only then lists what is already pending (events
//! are not replayed, so a request asked before the stream opened is found only by the list):
//! the server's own instance and every project's worktree. Each request becomes a call
//! submitted to the barrier, in a task of its own, and the barrier's answer goes back as the
//! reply ([`Reply::of`]). A request is handled once however often it is seen (stream and lists
//! overlap, and lists are taken again on every reconnect). A `permission.replied` from anyone
//! else (OpenCode's own screen, a reject sweeping up the session's other requests) withdraws
//! the dialog.
//!
//! When the stream drops, or stays silent past three heartbeats, the link is shown as down and
//! retried with a doubling backoff; open dialogs stay open meanwhile. Ending the attachment
//! (detach, the console quitting) drops every task, which withdraws their dialogs and sends
//! nothing: a request left pending stays OpenCode's to answer.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::AbortHandle;

use super::call::{Reply, to_call};
use super::client::{Client, ClientError, Sent};
use super::event::{Permission, StreamEvent};
use super::sse::Frames;
use crate::core::barrier::Barrier;

/// How the link waits: for a silent stream, and between attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// A stream with no byte for this long is taken as dead (OpenCode beats every 10 s).
    pub silence: Duration,
    /// The first wait after a failure; it doubles up to `max_backoff`.
    pub first_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            silence: Duration::from_secs(35),
            first_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }
}

/// The state of a link, as the console shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting,
    /// Subscribed, and the pending requests listed.
    Attached,
    /// Not reachable now; tried again after `retry_in`.
    Down {
        why: String,
        retry_in: Duration,
    },
}

/// Where a link reports what happens to it: its state, and log lines for `serve`.
pub type Log = Arc<dyn Fn(String) + Send + Sync>;

/// The largest event read from the stream (an edit's diff rides in it).
const MAX_EVENT: usize = 16 * 1024 * 1024;

/// How many answered request ids are remembered, so a late list does not ask again.
const REMEMBERED: usize = 4096;

/// Runs the link until the task running it is dropped or aborted.
pub async fn run(
    client: Client,
    barrier: Barrier,
    timing: Timing,
    link: watch::Sender<Link>,
    log: Log,
) {
    let url = client.server().url.clone();
    let mut requests = Requests::new(client.clone(), barrier);
    let mut backoff = timing.first_backoff;
    loop {
        link.send_replace(Link::Connecting);
        let why = match attached(&client, &mut requests, timing, &link, &log).await {
            Ok(Ended::Up) => {
                backoff = timing.first_backoff;
                "the event stream ended".to_string()
            }
            Ok(Ended::Silent) => {
                backoff = timing.first_backoff;
                format!("the event stream was silent for {:?}", timing.silence)
            }
            Err(err) => err.to_string(),
        };
        log(format!(
            "opencode {url}: down: {why}; retrying in {backoff:?}"
        ));
        link.send_replace(Link::Down {
            why,
            retry_in: backoff,
        });
        // Cancellation: the sleep holds nothing; the requests' tasks keep their dialogs open.
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(timing.max_backoff);
    }
}

/// How a stream that was up came to an end.
enum Ended {
    Up,
    Silent,
}

async fn attached(
    client: &Client,
    requests: &mut Requests,
    timing: Timing,
    link: &watch::Sender<Link>,
    log: &Log,
) -> Result<Ended, ClientError> {
    let mut stream = client.subscribe().await?;
    for (directory, pending) in list(client).await? {
        for permission in pending {
            requests.ask(directory.clone(), permission);
        }
    }
    link.send_replace(Link::Attached);
    log(format!("opencode {}: attached", client.server().url));
    let mut frames = Frames::new(MAX_EVENT);
    loop {
        // Cancellation: `chunk` is dropped only with the whole link (the stream goes too), and
        // a finished request's id is taken from the channel on the next turn.
        let chunk = tokio::select! {
            chunk = tokio::time::timeout(timing.silence, stream.chunk()) => chunk,
            Some((id, settled)) = requests.done.recv() => {
                requests.finished(id, settled);
                continue;
            }
        };
        let bytes = match chunk {
            Err(_) => return Ok(Ended::Silent),
            Ok(Err(err)) => return Err(ClientError::Unreachable(err.to_string())),
            Ok(Ok(None)) => return Ok(Ended::Up),
            Ok(Ok(Some(bytes))) => bytes,
        };
        let events = frames
            .push(&bytes)
            .map_err(|e| ClientError::Unreachable(e.to_string()))?;
        for data in events {
            match StreamEvent::parse(&data) {
                Ok(StreamEvent::Asked {
                    directory,
                    permission,
                }) => requests.ask(directory, *permission),
                Ok(StreamEvent::Replied { request_id, .. }) => requests.answered(&request_id),
                Ok(StreamEvent::Connected | StreamEvent::Other) => {}
                Err(err) => tracing::warn!("opencode {}: {err}", client.server().url),
            }
        }
    }
}

/// Every pending request the server has, each with the directory to reply with: every
/// project's worktree first, then the server's own instance (whose requests may be among the
/// former, and are then handled there).
async fn list(client: &Client) -> Result<Vec<(Option<String>, Vec<Permission>)>, ClientError> {
    let mut all = Vec::new();
    for worktree in client.worktrees().await? {
        let pending = client.pending(Some(&worktree)).await?;
        all.push((Some(worktree), pending));
    }
    all.push((None, client.pending(None).await?));
    Ok(all)
}

/// The requests of one server being asked about, and those already answered.
struct Requests {
    client: Client,
    barrier: Barrier,
    open: HashMap<String, AbortHandle>,
    answered: HashSet<String>,
    order: VecDeque<String>,
    /// Replies decided but not delivered, by request id.
    unsent: HashMap<String, Reply>,
    done_tx: mpsc::UnboundedSender<(String, Settled)>,
    done: mpsc::UnboundedReceiver<(String, Settled)>,
}

impl Requests {
    fn new(client: Client, barrier: Barrier) -> Requests {
        let (done_tx, done) = mpsc::unbounded_channel();
        Requests {
            client,
            barrier,
            open: HashMap::new(),
            answered: HashSet::new(),
            order: VecDeque::new(),
            unsent: HashMap::new(),
            done_tx,
            done,
        }
    }

    /// Asks the barrier about `permission` unless it is being asked or was answered.
    fn ask(&mut self, directory: Option<String>, permission: Permission) {
        let id = permission.id.clone();
        if self.open.contains_key(&id) || self.answered.contains(&id) {
            return;
        }
        let client = self.client.clone();
        let barrier = self.barrier.clone();
        let done = self.done_tx.clone();
        if let Some(reply) = self.unsent.remove(&id) {
            let task = tokio::spawn(async move {
                let settled = send(&client, &permission.id, directory.as_deref(), &reply).await;
                let _ = done.send((permission.id, settled));
            });
            self.open.insert(id, task.abort_handle());
            return;
        }
        let task = tokio::spawn(async move {
            let call = to_call(&permission, directory.as_deref());
            let answer = barrier.submit(call).await;
            let settled = match Reply::of(&answer.decision, answer.decider) {
                Some(reply) => send(&client, &permission.id, directory.as_deref(), &reply).await,
                None => Settled::Left,
            };
            let _ = done.send((permission.id, settled));
        });
        self.open.insert(id, task.abort_handle());
    }

    /// Someone answered `id`: stop asking about it (its dialog is withdrawn).
    fn answered(&mut self, id: &str) {
        self.unsent.remove(id);
        if let Some(task) = self.open.remove(id) {
            task.abort();
        }
        self.remember(id.to_string());
    }

    /// Our own task for `id` has finished. A reply that did not get through is kept for the
    /// next time the request is seen; one deliberately left unanswered (a `defer`) is not
    /// asked about again by this link.
    fn finished(&mut self, id: String, settled: Settled) {
        self.open.remove(&id);
        match settled {
            Settled::Sent | Settled::Left => self.remember(id),
            Settled::Undelivered(reply) => {
                self.unsent.insert(id, reply);
            }
        }
    }

    fn remember(&mut self, id: String) {
        if self.answered.insert(id.clone()) {
            self.order.push_back(id);
        }
        while self.order.len() > REMEMBERED {
            if let Some(old) = self.order.pop_front() {
                self.answered.remove(&old);
            }
        }
    }
}

impl Drop for Requests {
    /// The attachment is over: every open question is withdrawn and nothing is answered.
    fn drop(&mut self) {
        for task in self.open.values() {
            task.abort();
        }
    }
}

/// What became of one request once the barrier answered it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Settled {
    /// The reply got there (or the request was already gone).
    Sent,
    /// Nothing was to be sent (a defer, or the console quitting).
    Left,
    /// The server could not be reached to take this reply: it is sent again when the request
    /// is next listed, without asking anyone again.
    Undelivered(Reply),
}

/// Sends `reply`, trying three times over a few seconds while the server is unreachable.
async fn send(client: &Client, id: &str, directory: Option<&str>, reply: &Reply) -> Settled {
    let url = &client.server().url;
    let mut wait = Duration::from_millis(500);
    for attempt in 1..=3 {
        match client.reply(id, directory, reply).await {
            Ok(Sent::Taken) => return Settled::Sent,
            Ok(Sent::Gone) => {
                tracing::info!("opencode {url}: {id} was answered elsewhere first");
                return Settled::Sent;
            }
            Err(err) if attempt < 3 => {
                tracing::warn!("opencode {url}: replying to {id} failed ({err}); trying again");
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            Err(err) => tracing::warn!("opencode {url}: replying to {id} failed: {err}"),
        }
    }
    Settled::Undelivered(reply.clone())
}
