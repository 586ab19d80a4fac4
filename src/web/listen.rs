//! The web console's listener: every connection counted and timed, so that nobody who can
//! reach the port (another user on this machine included) can take the console's descriptors
//! or hold it open with idle or slow connections. The console's Unix socket, which every hook
//! call needs, must keep descriptors however the web is used.
//!
//! - At most [`Limits::total`] connections at once, and never more than a quarter of the
//!   process's descriptor limit; past it, new connections wait in the kernel's backlog (they
//!   hold no descriptor of ours) until one closes.
//! - At most [`Limits::per_peer`] at once from one peer (every loopback address is one peer,
//!   and an IPv6 peer is its /64); one more is closed at once and noted as refused.
//! - A TLS handshake has [`Limits::handshake`], and every request's head (an idle keep-alive
//!   connection waiting for its next one included) [`Limits::header_read`]: hyper's header read
//!   timeout, which needs its timer set. A request's body and handler have [`Limits::request`]
//!   (see `http::guard`); a live update stream, once answered, is bounded per device instead.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio_rustls::TlsAcceptor;
use tower::Layer;

use super::Hub;
use super::http::Peer;

/// How many connections, and how long each step may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections open at once, from everyone.
    pub total: usize,
    /// Connections open at once from one peer.
    pub per_peer: usize,
    /// A TLS handshake.
    pub handshake: Duration,
    /// A request's head, from the connection's first byte or the previous response.
    pub header_read: Duration,
    /// A request's body and its answer (not a live update stream once it is answered).
    pub request: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            total: 128,
            per_peer: 16,
            handshake: Duration::from_secs(10),
            header_read: Duration::from_secs(10),
            request: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// The total, never more than a quarter of the descriptors this process may open.
    fn total_within_descriptors(&self) -> usize {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `limit` is valid for writes of an rlimit.
        let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
        let quarter = match got {
            true if limit.rlim_cur != libc::RLIM_INFINITY => (limit.rlim_cur / 4) as usize,
            _ => usize::MAX,
        };
        self.total.min(quarter).max(1)
    }
}

/// The peer a connection counts against: loopback is one peer (local users share it, and any
/// 127.x address reaches the port), an IPv6 address its /64, an IPv4 address itself.
pub fn peer_key(ip: IpAddr) -> IpAddr {
    let ip = ip.to_canonical();
    match ip {
        _ if ip.is_loopback() => IpAddr::from([127, 0, 0, 1]),
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let mut bits = v6.to_bits();
            bits &= !0u128 << 64;
            IpAddr::from(std::net::Ipv6Addr::from_bits(bits))
        }
    }
}

/// Open connections per peer.
#[derive(Debug, Default)]
struct Peers {
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open connection of a peer; dropping it closes the count.
struct Slot {
    peers: Arc<Peers>,
    key: IpAddr,
}

impl Peers {
    fn take(self: &Arc<Self>, key: IpAddr, most: usize) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(key).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Slot {
            peers: self.clone(),
            key,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.peers.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

/// Serves `router` on `listener` (over TLS with `tls`) within `limits` until `shutdown`
/// completes; then lets each connection finish its request and waits for them all.
pub async fn serve(
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
    router: Router,
    limits: Limits,
    hub: Option<Arc<Hub>>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let total = Arc::new(Semaphore::new(limits.total_within_descriptors()));
    let peers = Arc::new(Peers::default());
    // Every connection holds a receiver: a value sent asks them to finish, and `closed`
    // resolves once the last is gone.
    let (stop, stopping) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // Cancellation: at shutdown a permit not yet taken, or a connection not yet accepted
        // (still in the kernel's backlog), is simply dropped.
        let permit = tokio::select! {
            permit = total.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, from) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of descriptors, say: try again shortly rather than spin.
                    tracing::warn!("web: cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = peers.take(peer_key(from.ip()), limits.per_peer) else {
            drop(stream);
            if let Some(hub) = &hub {
                hub.refused(0, "too many connections from this peer", "", from);
            }
            continue;
        };
        let router = router.clone();
        let tls = tls.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            let _held = (permit, slot);
            match tls {
                None => connection(stream, from, router, limits, stopping).await,
                Some(acceptor) => {
                    let handshake = acceptor.accept(stream);
                    if let Ok(Ok(stream)) = tokio::time::timeout(limits.handshake, handshake).await
                    {
                        connection(stream, from, router, limits, stopping).await;
                    }
                }
            }
        });
    }
    let _ = stop.send(());
    drop(stopping);
    stop.closed().await;
}

/// Serves one connection until it closes, times out, or the listener stops (then its request
/// in flight finishes first).
async fn connection<I>(
    io: I,
    from: SocketAddr,
    router: Router,
    limits: Limits,
    mut stopping: watch::Receiver<()>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = axum::Extension(ConnectInfo(Peer(from))).layer(router);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read);
    let conn = builder.serve_connection(TokioIo::new(io), TowerToHyperService::new(service));
    let mut conn = std::pin::pin!(conn);
    // Cancellation: on stop the connection is asked to finish gracefully and polled on.
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = stopping.changed() => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = conn.await;
}
