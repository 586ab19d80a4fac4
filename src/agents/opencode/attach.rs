//! One attachment: the console's link to one `opencode serve`.
//!
//! Each connection first finds which API the server speaks ([`Client::detect`]); the 2.x one
//! has its own stream (`/api/event`) and list (`GET /api/permission/request`), and everything
//! below holds of both. It subscribes to the event stream first and only then lists what is already pending (events
//! are not replayed, so a request asked before the stream opened is found only by the list):
//! the server's own instance and every project's worktree. Each request becomes a call
//! submitted to the barrier, in a task of its own, and the barrier's answer goes back as the
//! reply ([`Reply::of`](super::call::Reply::of)). A request is handled once however often it
//! is seen (stream and lists overlap, and lists are taken again on every reconnect). A
//! `permission.replied` from anyone else (OpenCode's own screen, a reject sweeping up the
//! session's other requests) withdraws the dialog.
//!
//! When the stream drops, or stays silent past three heartbeats, the link is shown as down and
//! retried with a doubling backoff; open dialogs stay open meanwhile. Ending the attachment
//! (detach, the console quitting) drops every task, which withdraws their dialogs and sends
//! nothing: a request left pending stays OpenCode's to answer.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::api::Api;
use super::client::{Client, ClientError};
use super::event::{EventError, Permission, StreamEvent};
use super::requests::Requests;
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
    /// Subscribed, and the pending requests listed, over this API.
    Attached(Api),
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

/// How one API's events are read.
type Parse = fn(&str) -> Result<StreamEvent, EventError>;

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
    let api = client.detect().await?;
    requests.api = api;
    let (mut stream, parse): (_, Parse) = match api {
        Api::V1 => (client.subscribe().await?, StreamEvent::parse),
        Api::V2 => (client.subscribe_v2().await?, super::v2::parse_event),
    };
    for (directory, pending) in list(client, api).await? {
        for permission in pending {
            requests.ask(directory.clone(), permission);
        }
    }
    link.send_replace(Link::Attached(api));
    log(format!(
        "opencode {}: attached ({api})",
        client.server().url
    ));
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
            match parse(&data) {
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

/// Every pending request the server has, each with the directory to reply with: on 1.x every
/// project's worktree first, then the server's own instance (whose requests may be among the
/// former, and are then handled there); on 2.x the server's own location's.
async fn list(
    client: &Client,
    api: Api,
) -> Result<Vec<(Option<String>, Vec<Permission>)>, ClientError> {
    if api == Api::V2 {
        let (directory, pending) = client.pending_v2().await?;
        return Ok(vec![(Some(directory), pending)]);
    }
    let mut all = Vec::new();
    for worktree in client.worktrees().await? {
        let pending = client.pending(Some(&worktree)).await?;
        all.push((Some(worktree), pending));
    }
    all.push((None, client.pending(None).await?));
    Ok(all)
}
