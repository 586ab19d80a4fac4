//! The console's Unix socket: hooks connect, send one call, and get one decision back; the
//! console's own commands (`gatehouse attach`, `detach`, `pair`) send their requests on it too.
//!
//! The server holds a [`Barrier`] (it can submit, not answer). Each connection is one request:
//! [`connection`] reads the line, has the wire parse it once into a typed request, and carries
//! it: a call to the barrier (which settles every stage of it, notes and grants included), the
//! console's own requests to the [`Control`] it was given. A peer that goes away first withdraws
//! its call. A request line must be whole within [`Options::request_timeout`] (2 s) of accept.
//! Connections are bounded by memory ([`budget`]: a few KiB each plus their request, within
//! `max_pending_mib`) and counted under the descriptor limit ([`slots`]: at the count, a new
//! connection takes the place of the one that has waited longest without sending its line), so
//! thousands of idle peers or open dialogs fit and none can starve the console of descriptors;
//! past either bound a client is answered at once, never left hanging: the static class settles
//! what it can, and a call that needs a human gets `defer`. Only the console's own user may
//! connect: the socket's folder is 0700 ([`crate::wire::socket`]) and each peer's uid is
//! checked as it is accepted; another uid's connection is answered and closed at once, holding
//! no place.

pub mod budget;
pub mod connection;
pub mod slots;

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::UnixListener;
use tokio::sync::Semaphore;

use crate::core::barrier::Barrier;
use crate::core::call::{Agent, Call, ToolKind};
use crate::wire::control::{Control, NoControl};
use crate::wire::socket::{self, SocketError, SocketFile};

/// Limits of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Memory open connections may hold, in bytes: [`budget::CONNECTION_BYTES`] each plus
    /// their request line. Past it a client is answered at once ([`connection::busy`]).
    pub max_pending_bytes: usize,
    /// How long a client may take, from accept, to send its whole request line.
    pub request_timeout: Duration,
    /// How long shutdown waits for open connections to receive their fallback answer.
    pub drain_timeout: Duration,
    /// Connections open at once, at most; never more than [`slots::Slots::bound_for`] the
    /// process's descriptor limit.
    pub max_connections: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_pending_bytes: DEFAULT_PENDING_MIB * 1024 * 1024,
            request_timeout: Duration::from_secs(2),
            drain_timeout: Duration::from_secs(3),
            max_connections: usize::MAX,
        }
    }
}

/// The default memory bound, in MiB: room for some 30,000 idle connections or open dialogs,
/// or three calls of the largest size the hook sends.
pub const DEFAULT_PENDING_MIB: usize = 256;

/// How many connections past the bound are read at once (each up to
/// [`connection::BUSY_LINE`]); past that a client gets an error line at once, on which the
/// hook decides statically.
const MAX_BUSY: usize = 1024;

/// What the console lends its server besides the barrier.
#[derive(Clone)]
pub struct Support {
    /// Carries out the console's own requests (attach, detach, pair).
    pub control: Arc<dyn Control>,
    /// The kind of a call from a hook older than the call's `kind` field, from its agent's
    /// dialect; without it such a call's kind stays absent, which the core never reads as
    /// read-only.
    pub kind_of: Option<fn(&Agent, &str) -> ToolKind>,
}

impl Default for Support {
    fn default() -> Support {
        Support {
            control: Arc::new(NoControl),
            kind_of: None,
        }
    }
}

impl Support {
    /// The call as the barrier takes it: its kind filled in where an older hook left it out.
    pub fn complete(&self, mut call: Call) -> Call {
        if call.kind.is_none()
            && let Some(kind_of) = self.kind_of
        {
            call.kind = Some(kind_of(&call.agent, &call.tool));
        }
        call
    }
}

/// A bound listener and the socket file that goes away with it.
#[derive(Debug)]
pub struct Bound {
    pub listener: UnixListener,
    pub file: SocketFile,
}

/// Binds the console's socket at `path`: makes or checks its private folder, replaces a stale
/// socket, and refuses to start beside a live console. Must run inside a tokio runtime.
pub fn bind(path: &Path) -> Result<Bound, SocketError> {
    raise_open_files_limit();
    socket::prepare_folder(path)?;
    socket::clear_stale(path)?;
    let io_err = |what| {
        move |source| SocketError::Io {
            what,
            path: path.to_path_buf(),
            source,
        }
    };
    let std_listener =
        std::os::unix::net::UnixListener::bind(path).map_err(io_err("cannot listen on"))?;
    let file = SocketFile::bound(path)?;
    std_listener
        .set_nonblocking(true)
        .map_err(io_err("cannot set up"))?;
    let listener = UnixListener::from_std(std_listener).map_err(io_err("cannot set up"))?;
    Ok(Bound { listener, file })
}

/// Serves calls with default [`Options`] until `shutdown` completes.
pub async fn run(listener: UnixListener, barrier: Barrier, shutdown: impl Future<Output = ()>) {
    run_with(listener, barrier, Options::default(), shutdown).await
}

/// Serves calls until `shutdown` completes; then stops accepting, answers every open call with
/// the barrier's shutdown fallback (never `allow`), and waits briefly for those answers to be
/// written. The console's own requests (`gatehouse attach`, `pair`) are refused: see
/// [`run_supported`].
pub async fn run_with(
    listener: UnixListener,
    barrier: Barrier,
    options: Options,
    shutdown: impl Future<Output = ()>,
) {
    run_supported(listener, barrier, options, Support::default(), shutdown).await
}

/// [`run_with`], with `support` carrying out the console's own requests and completing older
/// hooks' calls.
pub async fn run_supported(
    listener: UnixListener,
    barrier: Barrier,
    options: Options,
    support: Support,
    shutdown: impl Future<Output = ()>,
) {
    let budget = budget::Budget::new(options.max_pending_bytes);
    let descriptors = slots::descriptors();
    let slots = slots::Slots::new(slots::Slots::bound_for(
        descriptors,
        options.max_connections,
    ));
    let busy_slots = Arc::new(Semaphore::new(MAX_BUSY.min(descriptors / 8).max(1)));
    let mut quiet_until = tokio::time::Instant::now();
    tokio::pin!(shutdown);
    loop {
        // Cancellation: dropping `accept` loses no connection (tokio's accept is cancel-safe);
        // connections already accepted keep running in their own tasks.
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    // Said once a second at most: out of descriptors, this repeats.
                    if tokio::time::Instant::now() >= quiet_until {
                        tracing::warn!("accepting a connection failed: {err}");
                        quiet_until = tokio::time::Instant::now() + Duration::from_secs(1);
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        if let Some(refusal) = connection::stranger(&stream) {
            let _ = stream.try_write(&refusal);
            continue;
        }
        let place = slots.take_soon(Duration::from_secs(1)).await;
        let charge = budget.try_charge(budget::CONNECTION_BYTES);
        if let (Some((slot, evicted)), Some(charge)) = (place, charge) {
            let barrier = barrier.clone();
            let support = support.clone();
            tokio::spawn(async move {
                let held = connection::Held {
                    charge,
                    slot,
                    evicted,
                };
                let timeout = options.request_timeout;
                connection::serve(stream, barrier, &support, timeout, held).await;
            });
        } else if let Ok(slot) = busy_slots.clone().try_acquire_owned() {
            let barrier = barrier.clone();
            let support = support.clone();
            let total = budget.total();
            tokio::spawn(async move {
                connection::busy(stream, barrier, &support, total).await;
                drop(slot);
            });
        } else {
            connection::refuse_at_once(&stream, budget.total());
        }
    }
    drop(listener);
    barrier.shutdown();
    let _ = tokio::time::timeout(options.drain_timeout, budget.all_returned()).await;
}

/// Lets this process hold as many open files as its hard limit allows, so that the memory
/// bound, not a small default of open files, is what limits connections.
pub fn raise_open_files_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid rlimit to write into and then to read from.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_hooks_call_gets_its_kind_from_the_support_and_without_one_stays_unread() {
        let call: Call =
            serde_json::from_value(serde_json::json!({"agent": "claude-code", "tool": "Read"}))
                .unwrap();
        assert_eq!(Support::default().complete(call.clone()).kind, None);
        let support = Support {
            kind_of: Some(crate::agents::registry::kind_of),
            ..Support::default()
        };
        assert_eq!(support.complete(call).kind, Some(ToolKind::Read));
    }
}
