//! The requests of one OpenCode server being asked about: each in a task of its own that
//! submits its call to the barrier and sends the reply, each asked once however often it is
//! seen, and every task dropped (its dialog withdrawn, nothing sent) when the link ends.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::AbortHandle;

use super::api::Api;
use super::call::{Reply, to_call};
use super::client::{Client, Sent};
use super::event::Permission;
use crate::core::barrier::Barrier;

/// How many requests of one server are asked about at once. Past it a request is left
/// pending, unanswered, and found again by the list after the next reconnect: a server that
/// floods cannot make the console hold without bound.
const MAX_OPEN: usize = 4096;

/// How many answered request ids are remembered, so a late list does not ask again.
const REMEMBERED: usize = 4096;

/// The requests of one server being asked about, and those already answered.
pub(super) struct Requests {
    client: Client,
    /// The API the server was last found to speak; replies go by it.
    pub(super) api: Api,
    barrier: Barrier,
    open: HashMap<String, AbortHandle>,
    answered: HashSet<String>,
    order: VecDeque<String>,
    /// Replies decided but not delivered, by request id.
    unsent: HashMap<String, Reply>,
    done_tx: mpsc::UnboundedSender<(String, Settled)>,
    pub(super) done: mpsc::UnboundedReceiver<(String, Settled)>,
}

impl Requests {
    pub(super) fn new(client: Client, barrier: Barrier) -> Requests {
        let (done_tx, done) = mpsc::unbounded_channel();
        Requests {
            client,
            api: Api::V1,
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
    pub(super) fn ask(&mut self, directory: Option<String>, permission: Permission) {
        let id = permission.id.clone();
        if self.open.contains_key(&id) || self.answered.contains(&id) {
            return;
        }
        if self.open.len() >= MAX_OPEN {
            let url = &self.client.server().url;
            tracing::warn!("opencode {url}: {MAX_OPEN} requests open already; {id} left pending");
            return;
        }
        let client = self.client.clone();
        let barrier = self.barrier.clone();
        let done = self.done_tx.clone();
        let api = self.api;
        if let Some(reply) = self.unsent.remove(&id) {
            let task = tokio::spawn(async move {
                let settled = send(&client, api, &permission, directory.as_deref(), &reply).await;
                let _ = done.send((permission.id, settled));
            });
            self.open.insert(id, task.abort_handle());
            return;
        }
        let task = tokio::spawn(async move {
            let call = to_call(&permission, directory.as_deref());
            let answer = barrier.submit(call).await;
            let settled = match Reply::of(&answer.decision, answer.decider) {
                Some(reply) => send(&client, api, &permission, directory.as_deref(), &reply).await,
                None => Settled::Left,
            };
            let _ = done.send((permission.id, settled));
        });
        self.open.insert(id, task.abort_handle());
    }

    /// Someone answered `id`: stop asking about it (its dialog is withdrawn).
    pub(super) fn answered(&mut self, id: &str) {
        self.unsent.remove(id);
        if let Some(task) = self.open.remove(id) {
            task.abort();
        }
        self.remember(id.to_string());
    }

    /// Our own task for `id` has finished. A reply that did not get through is kept for the
    /// next time the request is seen; one deliberately left unanswered (a `defer`) is not
    /// asked about again by this link.
    pub(super) fn finished(&mut self, id: String, settled: Settled) {
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
pub(super) enum Settled {
    /// The reply got there (or the request was already gone).
    Sent,
    /// Nothing was to be sent (a defer, or the console quitting).
    Left,
    /// The server could not be reached to take this reply: it is sent again when the request
    /// is next listed, without asking anyone again.
    Undelivered(Reply),
}

/// Sends `reply`, trying three times over a few seconds while the server is unreachable.
/// A 1.x reply names the request's instance; a 2.x one its session.
async fn send(
    client: &Client,
    api: Api,
    permission: &Permission,
    directory: Option<&str>,
    reply: &Reply,
) -> Settled {
    let url = &client.server().url;
    let id = permission.id.as_str();
    let mut wait = Duration::from_millis(500);
    for attempt in 1..=3 {
        let sent = match api {
            Api::V1 => client.reply(id, directory, reply).await,
            Api::V2 => client.reply_v2(&permission.session_id, id, reply).await,
        };
        match sent {
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
