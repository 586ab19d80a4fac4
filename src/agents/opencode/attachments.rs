//! The console's attachments to OpenCode servers: those of the config's `[[opencode]]` tables,
//! attached at start, and those `gatehouse attach opencode URL` adds while it runs. Each is a
//! [`attach::run`] task; detaching aborts it, which withdraws its open dialogs and answers
//! nothing. The console hands `gatehouse attach` and `detach` requests here.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tokio::runtime::Handle;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::api::Api;
use super::attach::{self, Link, Log, Timing};
use super::client::{Auth, Client, Server};
use super::settings::{self, ServerConfig};
use crate::core::barrier::Barrier;
use crate::wire::control::Target;

/// The agent name control requests use for OpenCode.
pub use super::call::AGENT;

/// Every attachment of one console.
pub struct Attachments {
    barrier: Barrier,
    timing: Timing,
    log: Log,
    runtime: Handle,
    links: Mutex<BTreeMap<String, Entry>>,
}

struct Entry {
    task: JoinHandle<()>,
    link: watch::Receiver<Link>,
}

impl Attachments {
    /// No attachments yet; they will submit to `barrier` and report to `log`. Must be called
    /// inside the tokio runtime the links are to run on.
    pub fn new(barrier: Barrier, timing: Timing, log: Log) -> Arc<Attachments> {
        Arc::new(Attachments {
            barrier,
            timing,
            log,
            runtime: Handle::current(),
            links: Mutex::new(BTreeMap::new()),
        })
    }

    /// Attaches to every configured server, credentials from the process environment. A
    /// server that cannot be reached is shown as down and retried, never fatal.
    pub fn attach_configured(&self, servers: &[ServerConfig]) {
        for config in servers {
            let server = config.server(|key| std::env::var(key).ok());
            if let Err(why) = self.attach(server) {
                (self.log)(format!("opencode {}: {why}", config.url.get_ref()));
            }
        }
    }

    /// Attaches to `server`; attaching again to one already attached changes nothing.
    pub fn attach(&self, server: Server) -> Result<String, String> {
        let url = server.url.clone();
        let mut links = self.lock();
        if links.contains_key(&url) {
            return Ok(format!("already attached to opencode at {url}"));
        }
        let client = Client::new(server).map_err(|e| e.to_string())?;
        let (send, link) = watch::channel(Link::Connecting);
        let task = self.runtime.spawn(attach::run(
            client,
            self.barrier.clone(),
            self.timing,
            send,
            self.log.clone(),
        ));
        links.insert(url.clone(), Entry { task, link });
        Ok(format!("attaching to opencode at {url}"))
    }

    /// Lets go of the server at `url`; true if it was attached. Nothing it asked is answered.
    pub fn detach(&self, url: &str) -> bool {
        let entry = self.lock().remove(url.trim_end_matches('/'));
        match entry {
            Some(entry) => {
                entry.task.abort();
                (self.log)(format!("opencode {url}: detached"));
                true
            }
            None => false,
        }
    }

    /// Lets go of every server (the console is quitting), answering nothing, and waits until
    /// every link has stopped, so their dialogs are withdrawn before the barrier shuts down.
    pub async fn detach_all(&self) {
        let entries: Vec<Entry> = std::mem::take(&mut *self.lock()).into_values().collect();
        for entry in &entries {
            entry.task.abort();
        }
        for entry in entries {
            let _ = entry.task.await;
        }
    }

    /// Each attached server's address and state, in address order.
    pub fn links(&self) -> Vec<(String, Link)> {
        self.lock()
            .iter()
            .map(|(url, entry)| (url.clone(), entry.link.borrow().clone()))
            .collect()
    }

    /// A watch on the state of the link to `url`, if attached.
    pub fn watch(&self, url: &str) -> Option<watch::Receiver<Link>> {
        let links = self.lock();
        links.get(url.trim_end_matches('/')).map(|e| e.link.clone())
    }

    /// One short phrase for the status bar, or `None` with nothing attached.
    pub fn status(&self) -> Option<String> {
        let links = self.links();
        if links.is_empty() {
            return None;
        }
        let parts: Vec<String> = links
            .iter()
            .map(|(url, link)| {
                let at = url
                    .trim_start_matches("http://")
                    .trim_start_matches("https://");
                match link {
                    Link::Connecting => format!("{at} connecting"),
                    Link::Attached(Api::V1) => at.to_string(),
                    Link::Attached(api @ Api::V2) => format!("{at} ({api})"),
                    Link::Down { retry_in, .. } => {
                        format!("{at} DOWN (retry in {}s)", retry_in.as_secs().max(1))
                    }
                }
            })
            .collect();
        Some(format!("opencode: {}", parts.join(", ")))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.links.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Attachments {
    fn drop(&mut self) {
        for entry in self.lock().values() {
            entry.task.abort();
        }
    }
}

impl Attachments {
    /// Attaches to the server `gatehouse attach` names; `Ok` says what was done.
    pub fn attach_to(&self, target: Target) -> Result<String, String> {
        agent_of(&target)?;
        settings::check_url(&target.url)?;
        let auth = target
            .password
            .filter(|p| !p.is_empty())
            .map(|password| Auth {
                username: target.username.unwrap_or_else(|| "opencode".into()),
                password,
            });
        let url = target.url.trim_end_matches('/').to_string();
        Attachments::attach(self, Server { url, auth })
    }

    /// Lets go of the server `gatehouse detach` names, answering nothing it asked.
    pub fn detach_from(&self, target: Target) -> Result<String, String> {
        agent_of(&target)?;
        if Attachments::detach(self, &target.url) {
            Ok(format!(
                "detached from opencode at {}; nothing it asked was answered",
                target.url
            ))
        } else {
            Err(format!("not attached to opencode at {}", target.url))
        }
    }
}

fn agent_of(target: &Target) -> Result<(), String> {
    if target.agent == AGENT {
        Ok(())
    } else {
        Err(format!(
            "gatehouse attaches only to opencode servers, not to {:?}",
            target.agent
        ))
    }
}
