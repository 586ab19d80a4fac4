//! Agents on other machines and in containers, answered by this console over OpenSSH and the
//! container runtime, with no relay or daemon of gatehouse's own.
//!
//! `list` is the file of configured remotes (`remotes.toml` beside the config file): each
//! one's ssh target, the gatehouse and socket on the remote, and the agents whose hooks `remote
//! add` installed there. `ssh` builds every `ssh` invocation from one target (the same options
//! for `remote add`, `rm`, `doctor` and the tunnel) and runs the short ones. `tunnel` is the
//! supervisor the console and `serve` start for every configured remote: one `ssh -R` that
//! forwards the remote socket to the console's, started again with backoff when it ends, its
//! state shared with the status bar and written to the state folder for `gatehouse remote
//! list` (`state`); the keeper follows the remotes file, so a remote added or removed while
//! the console runs gains or loses its tunnel at once. `container` is `gatehouse install AGENT --container NAME`.
//!
//! The hooks on a remote send their calls with a host label (`--host NAME`) and the project
//! files that govern them there (`core::origin`); when the tunnel is down they find no console
//! and decide statically, as any hook does.

pub mod container;
pub mod here;
mod keeper;
pub mod list;
pub mod ssh;
pub mod state;
pub mod tunnel;

/// The remote's socket folder under its home: private to the remote user, made by `remote add`.
pub const REMOTE_SOCKET_DIR: &str = ".local/state/gatehouse/remote";

/// Errors of the remote commands, each saying what failed and how to fix it.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error("{path}: {message}\n  fix: {fix}")]
    File {
        path: std::path::PathBuf,
        message: String,
        fix: String,
    },
    #[error("{0}")]
    Usage(String),
    #[error("{step} failed on {target}: {why}\n  fix: {fix}")]
    Step {
        step: &'static str,
        target: String,
        why: String,
        fix: String,
    },
}
