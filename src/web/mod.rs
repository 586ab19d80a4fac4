//! The web console: the same queue as the TUI on a page a phone can open, with nothing in
//! between. It is an adapter beside the TUI: it answers through a [`Responder`] (first answer
//! wins, as for every other answer) and follows a tap of the prompter's events.
//!
//! Only the page shell and the pairing step answer without a device token ([`http`]); the
//! state, the live updates and every answer need `Authorization: Bearer <token>` (no cookies,
//! so no cross-site request can ride on one; no CORS headers; the `Host` header is checked
//! against DNS rebinding). A device pairs by opening a one-time link ([`pairing`]) made by
//! `gatehouse pair` over the console's socket (`crate::wire::control`) or drawn as a QR code by
//! the TUI ([`qr`]); its token is kept hashed ([`devices`]). Loopback is the default; any
//! other address needs TLS with a self-signed certificate kept in the state folder ([`tls`])
//! or an explicit `allow_plain_http`. Every answer is in the audit log with the device's name,
//! and every refused request beside it.

mod always;
mod answer;
mod batch;
pub mod devices;
pub mod hosts;
pub mod http;
mod judge;
pub mod listen;
mod modes;
pub mod notify;
pub mod pairing;
mod plan;
pub mod qr;
pub mod refusals;
pub mod snapshot;
pub mod tls;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, oneshot, watch};

use crate::core::audit::Audit;
use crate::core::call::CallId;
use crate::core::event::{ClassifierState, Event};
use crate::core::prompter::Responder;
use devices::Devices;
use pairing::Codes;
use snapshot::Previews;

/// The default address: loopback only.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7870";

/// Why the web console cannot start or do what was asked, said so a person can fix it.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error(
        "cannot listen on {addr} for the web console: {source}; pick another [web] listen or --web ADDR"
    )]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the devices file {path}: {message}")]
    Devices { path: PathBuf, message: String },
    #[error("the web console's certificate in {path}: {message}")]
    Certificate { path: PathBuf, message: String },
    #[error("no random numbers from the system: {0}")]
    Random(String),
}

/// How the web console is set up, from `[web]` and `--web`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub listen: SocketAddr,
    /// The address the pairing link names, when the listening address is not the one a phone
    /// reaches (`https://box.tailnet.ts.net:7870`).
    pub url: Option<String>,
    /// Serve plain HTTP on an address that is not loopback.
    pub allow_plain_http: bool,
    /// How many connections, and how long each step of one may take.
    pub limits: listen::Limits,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            listen: DEFAULT_LISTEN.parse().expect("a socket address"),
            url: None,
            allow_plain_http: false,
            limits: listen::Limits::default(),
        }
    }
}

/// Whether the page is served over TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Plain,
    Tls,
}

impl Settings {
    /// TLS unless the address is loopback or plain HTTP was asked for.
    pub fn transport(&self) -> Transport {
        if self.listen.ip().is_loopback() || self.allow_plain_http {
            Transport::Plain
        } else {
            Transport::Tls
        }
    }
}

pub use crate::wire::control::Link;

/// The web console's shared state: what every request handler and the event follower use.
pub struct Hub {
    responder: Responder,
    devices: Devices,
    codes: Codes,
    audit: Option<Audit>,
    live: Mutex<Live>,
    changed: watch::Sender<u64>,
    /// Set when the web console stops: live update streams end, so no phone holds it open.
    stopping: watch::Sender<bool>,
    base: String,
    hosts: http::Hosts,
    fingerprint: Option<String>,
    refusals: refusals::Refusals,
    /// Live update streams open per device.
    streams: Mutex<HashMap<String, usize>>,
}

#[derive(Default)]
struct Live {
    previews: Previews,
    classifier: HashMap<CallId, ClassifierState>,
}

impl Hub {
    /// A new one-time pairing link.
    pub fn pair_link(&self) -> Result<Link, WebError> {
        let code = self.codes.issue(Instant::now())?;
        Ok(Link {
            link: format!("{}/#pair={code}", self.base),
            fingerprint: self.fingerprint.clone(),
            expires_secs: pairing::CODE_LIFETIME.as_secs(),
        })
    }

    pub fn devices(&self) -> &Devices {
        &self.devices
    }

    /// Notes a refused request in the audit log, within [`refusals`]' bounds (a connection
    /// refused before any request has status 0 and no path). A failed write is logged, not
    /// fatal: the request was refused either way.
    fn refused(&self, status: u16, why: &str, path: &str, from: SocketAddr) {
        match self.refusals.note(status, why, path, from, Instant::now()) {
            refusals::Note::Write(summaries, refused) => {
                summaries.iter().for_each(|s| self.note(s));
                self.note(&refused);
            }
            refusals::Note::Counted(summaries) => summaries.iter().for_each(|s| self.note(s)),
        }
    }

    /// Writes the summaries of the refusals' windows that are over (all of them at `None`).
    fn flush_refusals(&self, now: Option<Instant>) {
        for summary in self.refusals.flush(now) {
            self.note(&summary);
        }
    }

    /// Counts one more live update stream of `device`, or `None` when it holds
    /// [`STREAMS_PER_DEVICE`] already.
    fn open_stream(self: &Arc<Self>, device: &str) -> Option<Stream> {
        let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
        let open = streams.entry(device.to_string()).or_default();
        if *open >= STREAMS_PER_DEVICE {
            return None;
        }
        *open += 1;
        Some(Stream {
            hub: self.clone(),
            device: device.to_string(),
        })
    }

    fn note(&self, what: &impl Serialize) {
        if let Some(audit) = &self.audit
            && let Err(err) = audit.write_other(what)
        {
            tracing::warn!("web: cannot write to the audit log: {err}");
        }
    }

    fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }
}

/// Live update streams one paired device may hold open at once (a phone and a laptop's tab or
/// two, reconnecting): enough for a person, not for a device that opens them by the thousand.
pub const STREAMS_PER_DEVICE: usize = 4;

/// One open live update stream of a device; dropping it closes the count.
struct Stream {
    hub: Arc<Hub>,
    device: String,
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut streams = self.hub.streams.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(open) = streams.get_mut(&self.device) {
            *open -= 1;
            if *open == 0 {
                streams.remove(&self.device);
            }
        }
    }
}

/// A running web console. Stop it with [`Running::stop`].
pub struct Running {
    pub hub: Arc<Hub>,
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    served: tokio::task::JoinHandle<()>,
    followed: tokio::task::JoinHandle<()>,
    flushing: tokio::task::JoinHandle<()>,
}

impl Running {
    /// The page's address, as a person would open it.
    pub fn url(&self) -> &str {
        &self.hub.base
    }

    /// Stops serving: ends every live update stream, lets requests in flight finish for up to
    /// two seconds, then drops what is left.
    pub async fn stop(mut self) {
        self.hub.stopping.send_replace(true);
        let _ = self.stop.send(());
        // Cancellation: a request still running past the grace is dropped with the task.
        if tokio::time::timeout(Duration::from_secs(2), &mut self.served)
            .await
            .is_err()
        {
            self.served.abort();
        }
        self.followed.abort();
        self.flushing.abort();
        self.hub.flush_refusals(None);
    }
}

/// What the web console needs to start.
pub struct Start {
    pub settings: Settings,
    pub responder: Responder,
    pub tap: broadcast::Receiver<Event>,
    /// The state folder: devices and the certificate live there.
    pub state: PathBuf,
    /// The audit log, for refused requests (a second handle on the barrier's file).
    pub audit_log: Option<PathBuf>,
}

/// Binds the address and starts serving. Fails before anything runs if the address cannot be
/// used. Must run inside a tokio runtime.
pub async fn start(start: Start) -> Result<Running, WebError> {
    let settings = start.settings;
    let transport = settings.transport();
    let tls = match transport {
        Transport::Tls => Some(tls::Certificate::load_or_make(&start.state)?),
        Transport::Plain => None,
    };
    let listener = tokio::net::TcpListener::bind(settings.listen)
        .await
        .map_err(|source| WebError::Listen {
            addr: settings.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| WebError::Listen {
        addr: settings.listen,
        source,
    })?;
    let scheme = match transport {
        Transport::Tls => "https",
        Transport::Plain => "http",
    };
    let base = match &settings.url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => format!("{scheme}://{}", http::link_host(addr)),
    };
    let audit = match &start.audit_log {
        Some(path) => match Audit::open(path) {
            Ok(audit) => Some(audit),
            Err(err) => {
                tracing::warn!("web: refused requests will not be audited: {err}");
                None
            }
        },
        None => None,
    };
    let hub = Arc::new(Hub {
        responder: start.responder,
        devices: Devices::in_state(&start.state),
        codes: Codes::default(),
        audit,
        live: Mutex::new(Live::default()),
        changed: watch::channel(0).0,
        stopping: watch::channel(false).0,
        hosts: http::Hosts::new(addr, settings.url.as_deref()),
        base,
        fingerprint: tls.as_ref().map(|c| c.fingerprint.clone()),
        refusals: refusals::Refusals::default(),
        streams: Mutex::new(HashMap::new()),
    });
    let acceptor = match &tls {
        Some(cert) => Some(cert.acceptor()?),
        None => None,
    };
    let (stop, stopped) = oneshot::channel();
    let router = http::router(hub.clone(), settings.limits.request);
    let served = tokio::spawn(listen::serve(
        listener,
        acceptor,
        router,
        settings.limits,
        Some(hub.clone()),
        async {
            let _ = stopped.await;
        },
    ));
    let followed = tokio::spawn(follow(hub.clone(), start.tap));
    let flushing = tokio::spawn({
        let hub = hub.clone();
        async move {
            let mut every = tokio::time::interval(refusals::WINDOW);
            loop {
                every.tick().await;
                hub.flush_refusals(Some(Instant::now()));
            }
        }
    });
    Ok(Running {
        hub,
        addr,
        stop,
        served,
        followed,
        flushing,
    })
}

/// Follows the barrier's events: keeps the classifier's state per dialog, and tells every
/// live page that something changed.
async fn follow(hub: Arc<Hub>, mut tap: broadcast::Receiver<Event>) {
    loop {
        match tap.recv().await {
            Ok(event) => {
                {
                    let mut live = hub.live.lock().unwrap_or_else(|p| p.into_inner());
                    match &event {
                        Event::Classifier { id, state } => {
                            live.classifier.insert(*id, state.clone());
                        }
                        Event::Resolved(outcome) => {
                            live.classifier.remove(&outcome.id);
                        }
                        Event::Withdrawn { id } => {
                            live.classifier.remove(id);
                        }
                        _ => {}
                    }
                }
                hub.bump();
            }
            // Missed events: the snapshot is read afresh from the barrier anyway.
            Err(broadcast::error::RecvError::Lagged(_)) => hub.bump(),
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// `bytes` in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `n` random bytes from the system, in hex.
pub fn random_hex(n: usize) -> Result<String, WebError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| WebError::Random(e.to_string()))?;
    Ok(hex(&bytes))
}

/// The state folder's devices, for `gatehouse devices` (no console needed).
pub fn devices_in(state: &Path) -> Devices {
    Devices::in_state(state)
}
