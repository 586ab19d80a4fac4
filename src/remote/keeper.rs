//! The keeper of the tunnels: one supervisor per configured remote, kept in step with the
//! remotes file while the console runs. A remote `gatehouse remote add` writes gets its tunnel
//! within a look (every two seconds), and one `gatehouse remote rm` removes loses it: its ssh
//! is stopped and its state taken off the board. A file that no longer reads changes nothing.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::RemoteError;
use super::list::{RemoteHost, Remotes};
use super::state::{Board, Link};
use super::tunnel::{Supervisor, stop_asked};

/// How often the remotes file is looked at.
const LOOK_EVERY: Duration = Duration::from_secs(2);

/// The remotes file, and what was seen of it (inode, size, modification time).
pub(super) struct RemotesFile {
    folder: PathBuf,
    seen: Option<(u64, u64, i64, i64)>,
}

impl RemotesFile {
    /// The file in `folder` and the remotes it holds now.
    pub(super) fn read(folder: &Path) -> Result<(RemotesFile, Vec<RemoteHost>), RemoteError> {
        let mut file = RemotesFile {
            folder: folder.to_path_buf(),
            seen: None,
        };
        file.seen = file.stat();
        let remotes = Remotes::load(folder)?;
        Ok((file, remotes.hosts))
    }

    /// The remotes now, if the file changed since the last look and reads.
    fn look(&mut self) -> Option<Vec<RemoteHost>> {
        let now = self.stat();
        if now == self.seen {
            return None;
        }
        self.seen = now;
        match Remotes::load(&self.folder) {
            Ok(remotes) => Some(remotes.hosts),
            Err(err) => {
                tracing::warn!(
                    "the remotes file changed and does not read ({err}); the tunnels stay as they were"
                );
                None
            }
        }
    }

    fn stat(&self) -> Option<(u64, u64, i64, i64)> {
        let meta = std::fs::metadata(self.folder.join(super::list::FILE)).ok()?;
        Some((meta.ino(), meta.len(), meta.mtime(), meta.mtime_nsec()))
    }
}

/// One running supervisor.
struct Running {
    host: RemoteHost,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl Running {
    /// Stops the supervisor and waits for its ssh to be gone.
    async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// The supervisors, by remote name.
pub(super) struct Keeper {
    program: PathBuf,
    local: PathBuf,
    board: Board,
    running: BTreeMap<String, Running>,
}

impl Keeper {
    pub(super) fn new(program: PathBuf, local: PathBuf, board: Board) -> Keeper {
        Keeper {
            program,
            local,
            board,
            running: BTreeMap::new(),
        }
    }

    /// Runs the tunnels of `hosts`, following `file` if there is one, until `stopped`.
    pub(super) async fn keep(
        mut self,
        hosts: Vec<RemoteHost>,
        mut file: Option<RemotesFile>,
        mut stopped: watch::Receiver<bool>,
    ) {
        self.follow(hosts).await;
        loop {
            // Cancellation: a stop during the wait ends the loop; the tunnels stop below.
            tokio::select! {
                _ = tokio::time::sleep(LOOK_EVERY) => {}
                _ = stop_asked(&mut stopped) => break,
            }
            if let Some(hosts) = file.as_mut().and_then(RemotesFile::look) {
                self.follow(hosts).await;
            }
        }
        for (_, running) in std::mem::take(&mut self.running) {
            running.stop().await;
        }
    }

    /// Stops the tunnels of remotes gone or changed, and starts those new or changed.
    async fn follow(&mut self, hosts: Vec<RemoteHost>) {
        let stale: Vec<String> = self
            .running
            .iter()
            .filter(|(name, running)| !hosts.iter().any(|h| &h.name == *name && *h == running.host))
            .map(|(name, _)| name.clone())
            .collect();
        for name in stale {
            if let Some(running) = self.running.remove(&name) {
                running.stop().await;
            }
            if !hosts.iter().any(|h| h.name == name) {
                self.board.remove(&name);
            }
        }
        for host in hosts {
            if self.running.contains_key(&host.name) {
                continue;
            }
            self.board.set(&host.name, Link::Connecting);
            let (stop, stopped) = watch::channel(false);
            let supervisor = Supervisor {
                program: self.program.clone(),
                host: host.clone(),
                local: self.local.clone(),
                board: self.board.clone(),
            };
            let task = tokio::spawn(supervisor.run(stopped));
            self.running
                .insert(host.name.clone(), Running { host, stop, task });
        }
    }
}
