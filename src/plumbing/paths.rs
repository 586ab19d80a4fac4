//! Where gatehouse keeps its files, by the XDG conventions.

use std::path::{Path, PathBuf};

use directories::ProjectDirs;

fn dirs() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "gatehouse")
}

/// `$XDG_CONFIG_HOME/gatehouse/config.toml`, when a home can be found.
pub fn config_file() -> Option<PathBuf> {
    dirs().map(|d| d.config_dir().join("config.toml"))
}

/// The folder of the config file, `$XDG_CONFIG_HOME/gatehouse`, when a home can be found.
pub fn config_dir() -> Option<PathBuf> {
    dirs().map(|d| d.config_dir().to_path_buf())
}

/// The home folder, when one is known.
pub fn home() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf())
}

/// `$XDG_STATE_HOME/gatehouse`, falling back to a folder under the temp dir when no home is
/// known (a service account, say).
pub fn state_dir() -> PathBuf {
    dirs()
        .and_then(|d| d.state_dir().map(PathBuf::from))
        .unwrap_or_else(|| {
            std::env::temp_dir()
                .join(format!("gatehouse-{}", uid()))
                .join("state")
        })
}

/// `$XDG_STATE_HOME/gatehouse/audit.jsonl`.
pub fn audit_log() -> PathBuf {
    state_dir().join("audit.jsonl")
}

/// `path` with a leading `~/` replaced by the home folder, where one is known.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), directories::BaseDirs::new()) {
        (Ok(rest), Some(base)) => base.home_dir().join(rest),
        _ => path.to_path_buf(),
    }
}

/// The effective user id of this process (the core's, where the audit log's owner is checked).
pub use crate::core::uid;

/// How a person runs this program from a shell: `gatehouse` when that name on `PATH` is this
/// very program, else this program's own path (after `cargo run`, `gatehouse` may be missing
/// or an older copy).
pub fn command_name() -> String {
    let Ok(me) = std::env::current_exe() else {
        return "gatehouse".into();
    };
    let me = me.canonicalize().unwrap_or(me);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let first = std::env::split_paths(&path)
        .map(|dir| dir.join("gatehouse"))
        .find(|candidate| candidate.is_file());
    match first.and_then(|p| p.canonicalize().ok()) {
        Some(found) if found == me => "gatehouse".into(),
        _ => me.display().to_string(),
    }
}
