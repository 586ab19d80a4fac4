//! What each tunnel is doing, shared by the supervisor, the console's status bar and `serve`,
//! and written to the state folder (`remotes/NAME.json`, with the console's pid) so that
//! `gatehouse remote list` and `doctor`, other processes, can say it too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

/// One tunnel's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum Link {
    /// Its ssh is starting, or waiting for the forward.
    Connecting,
    /// The forward is in place: the remote's hooks reach the console.
    Up { ssh_pid: u32 },
    /// It ended; it is started again after `retry_secs`. The remote's hooks decide statically.
    Down { why: String, retry_secs: u64 },
    /// The console stopped it.
    Stopped,
}

impl Link {
    /// A few words for the status bar and `remote list`.
    pub fn words(&self) -> String {
        match self {
            Link::Connecting => "connecting".into(),
            Link::Up { .. } => "up".into(),
            Link::Down { why, retry_secs } => format!("down, retry in {retry_secs} s ({why})"),
            Link::Stopped => "stopped".into(),
        }
    }
}

/// A state file: the tunnel's state and the console that keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    pub console_pid: u32,
    #[serde(flatten)]
    pub link: Link,
}

/// The tunnels' states, by remote name, with a watch that changes on every update.
#[derive(Debug, Clone)]
pub struct Board {
    links: Arc<Mutex<BTreeMap<String, Link>>>,
    changed: watch::Sender<u64>,
    folder: Option<PathBuf>,
}

impl Board {
    /// A board that also writes each state to `folder` (`None`: memory only).
    pub fn new(folder: Option<PathBuf>) -> Board {
        Board {
            links: Arc::default(),
            changed: watch::channel(0).0,
            folder,
        }
    }

    pub fn set(&self, name: &str, link: Link) {
        if let Some(folder) = &self.folder {
            let written = Written {
                console_pid: std::process::id(),
                link: link.clone(),
            };
            let _ = std::fs::create_dir_all(folder);
            let text = serde_json::to_string(&written).unwrap_or_default();
            let _ = crate::core::policy::write::write_atomic(&file_of(folder, name), &text);
        }
        self.lock().insert(name.to_string(), link);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Takes a remote off the board (it was removed), with its written state.
    pub fn remove(&self, name: &str) {
        if let Some(folder) = &self.folder {
            let _ = std::fs::remove_file(file_of(folder, name));
        }
        self.lock().remove(name);
        self.changed.send_modify(|n| *n += 1);
    }

    pub fn get(&self, name: &str) -> Option<Link> {
        self.lock().get(name).cloned()
    }

    /// Every tunnel, by name.
    pub fn all(&self) -> Vec<(String, Link)> {
        self.lock()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// `build-box up · gpu down, retry in 4 s (…)`, or `None` with no remotes.
    pub fn summary(&self) -> Option<String> {
        let all = self.all();
        (!all.is_empty()).then(|| {
            all.iter()
                .map(|(name, link)| match link {
                    Link::Down { retry_secs, .. } => format!("{name} down ({retry_secs} s)"),
                    other => format!("{name} {}", other.words()),
                })
                .collect::<Vec<_>>()
                .join(" · ")
        })
    }

    /// A receiver that sees every change.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Link>> {
        self.links.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn file_of(folder: &Path, name: &str) -> PathBuf {
    folder.join(format!("{name}.json"))
}

/// The state folder's subfolder for tunnel states.
pub fn folder(state_dir: &Path) -> PathBuf {
    state_dir.join("remotes")
}

/// What the state folder says of `name`'s tunnel: `None` when no console that is still
/// running wrote it.
pub fn read(folder: &Path, name: &str) -> Option<Written> {
    let text = std::fs::read_to_string(file_of(folder, name)).ok()?;
    let written: Written = serde_json::from_str(&text).ok()?;
    // SAFETY: signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(written.console_pid as libc::pid_t, 0) } == 0;
    alive.then_some(written)
}

/// The wait before the next start of a tunnel that ended: one second, doubling to half a
/// minute, and one second again after a link that stayed up.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
}

impl Backoff {
    pub const FIRST: Duration = Duration::from_secs(1);
    pub const MOST: Duration = Duration::from_secs(30);

    pub fn new() -> Backoff {
        Backoff { next: Self::FIRST }
    }

    /// The wait now, doubling the one after.
    pub fn wait(&mut self) -> Duration {
        let now = self.next;
        self.next = (self.next * 2).min(Self::MOST);
        now
    }

    /// A link was up for `lasted`: from ten seconds on, start again from the first wait.
    pub fn was_up(&mut self, lasted: Duration) {
        if lasted >= Duration::from_secs(10) {
            self.next = Self::FIRST;
        }
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_to_its_cap_and_starts_over_after_a_lasting_link() {
        let mut b = Backoff::new();
        let waits: Vec<u64> = (0..7).map(|_| b.wait().as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        b.was_up(Duration::from_secs(3));
        assert_eq!(b.wait().as_secs(), 30, "a link that dropped at once");
        b.was_up(Duration::from_secs(60));
        assert_eq!(b.wait().as_secs(), 1);
    }

    #[test]
    fn states_are_written_for_other_processes_with_the_console_pid() {
        let dir = tempfile::tempdir().unwrap();
        let board = Board::new(Some(dir.path().to_path_buf()));
        let mut seen = board.watch();
        board.set("build-box", Link::Up { ssh_pid: 42 });
        assert!(seen.has_changed().unwrap());
        seen.mark_unchanged();
        let written = read(dir.path(), "build-box").unwrap();
        assert_eq!(written.console_pid, std::process::id());
        assert_eq!(written.link, Link::Up { ssh_pid: 42 });
        board.set(
            "gpu",
            Link::Down {
                why: "refused".into(),
                retry_secs: 4,
            },
        );
        assert_eq!(board.summary().unwrap(), "build-box up · gpu down (4 s)");
        assert!(read(dir.path(), "other").is_none());
        let dead = Written {
            console_pid: i32::MAX as u32,
            link: Link::Connecting,
        };
        std::fs::write(
            dir.path().join("old.json"),
            serde_json::to_string(&dead).unwrap(),
        )
        .unwrap();
        assert!(read(dir.path(), "old").is_none(), "its console is gone");
    }
}
