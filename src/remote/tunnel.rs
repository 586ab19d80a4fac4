//! The tunnel supervisor: for each configured remote, one `ssh -R` forwarding the remote's
//! socket to the console's, started again with backoff whenever it ends, until the console
//! stops. The console and `serve` start it ([`Tunnels::follow`], which keeps the tunnels in step
//! with the remotes file through [`super::keeper`]); its states are on a [`Board`].
//!
//! Before each start a short ssh removes a stale socket on the remote (sshd leaves the socket
//! of a forward that ended, and refuses to bind over it unless its own `StreamLocalBindUnlink`
//! is on). The forward is up when the remote command prints its line: sshd binds a forward
//! before it runs the session's command. The remote command reads the pipe the console holds,
//! so a console that dies, even by SIGKILL, takes the session and the forward with it.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::RemoteError;
use super::keeper::{Keeper, RemotesFile};
use super::list::RemoteHost;
use super::ssh::{self, TUNNEL_UP};
use super::state::{Backoff, Board, Link};

/// The running tunnels.
pub struct Tunnels {
    pub board: Board,
    stop: watch::Sender<bool>,
    keeper: JoinHandle<()>,
}

impl Tunnels {
    /// Keeps a supervised tunnel for each remote in the remotes file in `folder` to the
    /// console's socket `local`, with the `ssh` on PATH, writing states under `states`; the
    /// file is looked at again every two seconds, so a remote added while the console runs
    /// gets its tunnel and one removed loses it. A file that no longer reads changes nothing
    /// (it is said in the log). Must run inside a tokio runtime.
    pub fn follow(
        folder: &Path,
        local: &Path,
        states: Option<PathBuf>,
    ) -> Result<Tunnels, RemoteError> {
        Tunnels::follow_with(PathBuf::from("ssh"), folder, local, states)
    }

    /// [`Tunnels::follow`] with another ssh program (tests).
    pub fn follow_with(
        program: PathBuf,
        folder: &Path,
        local: &Path,
        states: Option<PathBuf>,
    ) -> Result<Tunnels, RemoteError> {
        let (file, hosts) = RemotesFile::read(folder)?;
        Ok(Tunnels::begin(program, hosts, Some(file), local, states))
    }

    /// A tunnel for each of `hosts`, with another ssh program, the list fixed (tests).
    pub fn start_with(
        program: PathBuf,
        hosts: Vec<RemoteHost>,
        local: &Path,
        folder: Option<PathBuf>,
    ) -> Tunnels {
        Tunnels::begin(program, hosts, None, local, folder)
    }

    fn begin(
        program: PathBuf,
        hosts: Vec<RemoteHost>,
        file: Option<RemotesFile>,
        local: &Path,
        states: Option<PathBuf>,
    ) -> Tunnels {
        let board = Board::new(states);
        for host in &hosts {
            board.set(&host.name, Link::Connecting);
        }
        let (stop, stopped) = watch::channel(false);
        let local = std::path::absolute(local).unwrap_or_else(|_| local.to_path_buf());
        let keeper = Keeper::new(program, local, board.clone());
        let keeper = tokio::spawn(keeper.keep(hosts, file, stopped));
        Tunnels {
            board,
            stop,
            keeper,
        }
    }

    /// Stops every tunnel and waits for their ssh to be gone.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.keeper.await;
    }
}

/// One remote's tunnel, started again with backoff until it is asked to stop.
pub(super) struct Supervisor {
    pub(super) program: PathBuf,
    pub(super) host: RemoteHost,
    pub(super) local: PathBuf,
    pub(super) board: Board,
}

impl Supervisor {
    pub(super) async fn run(self, mut stopped: watch::Receiver<bool>) {
        let mut backoff = Backoff::new();
        loop {
            self.board.set(&self.host.name, Link::Connecting);
            let Some(why) = self.once(&mut backoff, &mut stopped).await else {
                break;
            };
            let wait = backoff.wait();
            self.board.set(
                &self.host.name,
                Link::Down {
                    why,
                    retry_secs: wait.as_secs(),
                },
            );
            // Cancellation: a stop during the wait ends the task; nothing is held.
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = stop_asked(&mut stopped) => break,
            }
        }
        self.board.set(&self.host.name, Link::Stopped);
    }

    /// One run of the tunnel, to its end: why it ended, or `None` when the console stopped it
    /// (its ssh killed and reaped first).
    async fn once(
        &self,
        backoff: &mut Backoff,
        stopped: &mut watch::Receiver<bool>,
    ) -> Option<String> {
        let target = &self.host.target;
        let clear = format!("rm -f {}", ssh::quote(&self.host.socket));
        let cleared = Command::new(&self.program)
            .args(target.command_args(&clear))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .output();
        // Cancellation: a stop drops the short ssh, which kills it.
        let cleared = tokio::select! {
            out = cleared => out,
            _ = stop_asked(stopped) => return None,
        };
        match cleared {
            Err(err) => return Some(format!("cannot run {}: {err}", self.program.display())),
            Ok(out) if !out.status.success() => return Some(last_line(&out.stderr)),
            Ok(_) => {}
        }
        let child = Command::new(&self.program)
            .args(target.tunnel_args(&self.host.socket, &self.local))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(err) => return Some(format!("cannot run {}: {err}", self.program.display())),
        };
        // Held until the tunnel ends: `wait` would close it, and the remote `cat` with it.
        let _pipe = child.stdin.take();
        let errors = collect(&mut child);
        let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
        let waiting_for_up = async {
            loop {
                match lines.next_line().await {
                    Ok(Some(line)) if line.trim() == TUNNEL_UP => break true,
                    Ok(Some(_)) => continue,
                    Ok(None) | Err(_) => break false,
                }
            }
        };
        // Cancellation: on a stop the ssh is killed and reaped before the task ends.
        let up = tokio::select! {
            up = waiting_for_up => up,
            _ = stop_asked(stopped) => {
                let _ = child.kill().await;
                return None;
            }
        };
        let since = tokio::time::Instant::now();
        if up {
            let ssh_pid = child.id().unwrap_or_default();
            self.board.set(&self.host.name, Link::Up { ssh_pid });
        }
        let status = tokio::select! {
            status = child.wait() => status,
            _ = stop_asked(stopped) => {
                let _ = child.kill().await;
                return None;
            }
        };
        if up {
            backoff.was_up(since.elapsed());
        }
        let stderr = errors.await.unwrap_or_default();
        Some(match (stderr.trim().is_empty(), status) {
            (false, _) => last_line(stderr.as_bytes()),
            (true, Ok(status)) => format!("ssh ended ({status})"),
            (true, Err(err)) => format!("ssh ended ({err})"),
        })
    }
}

/// Waits until the console asks the tunnels to stop (or is gone).
pub(super) async fn stop_asked(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|s| *s).await;
}

/// Reads the child's stderr to its end, bounded.
fn collect(child: &mut Child) -> JoinHandle<String> {
    let stderr = child.stderr.take();
    tokio::spawn(async move {
        let mut out = String::new();
        if let Some(stderr) = stderr {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if !line.trim().is_empty() {
                    out = line;
                }
            }
        }
        out
    })
}

/// The last non-empty line of `bytes`, trimmed, at most 200 characters.
fn last_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("ssh failed without a message");
    crate::core::escape::visible_cut(line.trim(), 200)
}

#[cfg(test)]
#[path = "tunnel_tests.rs"]
mod tests;
