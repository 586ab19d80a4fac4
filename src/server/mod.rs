//! The console's Unix socket: hooks connect, send one call, and get one decision back.
//!
//! The server holds a [`Barrier`] (it can submit, not answer). Each connection is one call:
//! [`connection`] reads the request line, submits it, and writes the answer; a peer that goes
//! away first withdraws its call. Connections are bounded; past the bound a client gets a
//! prompt `defer`, never a hang. Only the console's own user may connect: the socket's folder
//! is 0700 ([`socket`]) and each peer's uid is checked. A Gemini `after-tool` call is not
//! submitted: it takes the note kept for the call it follows ([`notes`]).

pub mod connection;
pub mod notes;
pub mod protocol;
pub mod socket;

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::UnixListener;
use tokio::sync::Semaphore;

use crate::core::barrier::Barrier;
use socket::{SocketError, SocketFile};

/// Limits of one server.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Connections served at once; past it a client is answered `defer` at once.
    pub max_connections: usize,
    /// How long a client may take to send its request line.
    pub request_timeout: Duration,
    /// How long shutdown waits for open connections to receive their fallback answer.
    pub drain_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_connections: 256,
            request_timeout: Duration::from_secs(10),
            drain_timeout: Duration::from_secs(3),
        }
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
/// written.
pub async fn run_with(
    listener: UnixListener,
    barrier: Barrier,
    options: Options,
    shutdown: impl Future<Output = ()>,
) {
    let max = options.max_connections.max(1);
    let slots = Arc::new(Semaphore::new(max));
    let notes = Arc::new(notes::Notes::default());
    tokio::pin!(shutdown);
    loop {
        // Cancellation: dropping `accept` loses no connection (tokio's accept is cancel-safe);
        // connections already accepted keep running in their own tasks.
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    eprintln!("gatehouse: accepting a connection failed: {err}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        match slots.clone().try_acquire_owned() {
            Ok(slot) => {
                let barrier = barrier.clone();
                let notes = notes.clone();
                tokio::spawn(async move {
                    connection::serve(stream, barrier, &notes, options.request_timeout).await;
                    drop(slot);
                });
            }
            Err(_) => {
                tokio::spawn(connection::busy(stream, barrier.clone(), max));
            }
        }
    }
    drop(listener);
    barrier.shutdown();
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(options.drain_timeout, slots.acquire_many(all)).await;
}
