//! `gatehouse install claude` / `uninstall claude`: adding and removing gatehouse's hook in
//! Claude Code's settings files.
//!
//! The hook goes under `hooks.PreToolUse` (or `hooks.PermissionRequest`) as its own matcher
//! group, `{"matcher":"*","hooks":[{"type":"command","command":"… hook claude","timeout":N}]}`,
//! with a timeout longer than the console's ask timeout so that Claude Code never kills the
//! hook first (a killed hook fails open). Every other setting and hook is kept, key order
//! included; installing twice changes nothing; the old file is backed up before a write; a
//! file that is not valid JSON is left untouched. A hook entry is ours when its command runs a
//! program named `gatehouse` with `hook claude`; uninstall removes those and nothing else.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::HookEvent;
use crate::agents::dialect::{
    self, HookPlace, HookState, InstallRequest, Installed, UninstallRequest,
};
use crate::agents::install_file::{
    self, Change, InstallError, Report, add_group, edit, is_hook_of,
};

pub use crate::agents::install_file::HookSpec;

/// Which of Claude Code's settings files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`): every project.
    User,
    /// `.claude/settings.json` in the project: shared with everyone who clones it.
    Project,
    /// `.claude/settings.local.json` in the project: this checkout only.
    Local,
}

impl Scope {
    /// The settings file of this scope, for the user's Claude folder and a project folder.
    pub fn settings_path(self, claude_dir: &Path, project: &Path) -> PathBuf {
        match self {
            Scope::User => claude_dir.join("settings.json"),
            Scope::Project => project.join(".claude/settings.json"),
            Scope::Local => project.join(".claude/settings.local.json"),
        }
    }
}

/// The user's Claude Code folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn user_claude_dir() -> Option<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => directories::BaseDirs::new().map(|b| b.home_dir().join(".claude")),
    }
}

/// The hook command for `gatehouse` at `exe` (see [`install_file::hook_command`]).
pub fn command_for(exe: &Path, socket: Option<&Path>, config: Option<&Path>) -> String {
    install_file::hook_command(exe, "claude", socket, config)
}

/// The settings file of `scope` for `project`.
fn path_of(scope: dialect::Scope, project: &Path) -> Result<PathBuf, InstallError> {
    let scope = match scope {
        dialect::Scope::User => Scope::User,
        dialect::Scope::Project => Scope::Project,
        dialect::Scope::Local => Scope::Local,
    };
    let claude_dir = match scope {
        Scope::User => user_claude_dir().ok_or(InstallError::NoHome("~/.claude"))?,
        Scope::Project | Scope::Local => PathBuf::new(),
    };
    Ok(scope.settings_path(&claude_dir, project))
}

/// `gatehouse install claude`: the hook for `--event` (default `PreToolUse`) in the settings
/// file of the request's scope.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.keep_reviewer {
        return Err(InstallError::Usage(
            "--keep-reviewer is for Codex only; Claude Code has no automatic reviewer".into(),
        ));
    }
    let event = match request.event.as_deref() {
        None | Some("pre-tool-use") | Some("PreToolUse") => HookEvent::PreToolUse,
        Some("permission-request") | Some("PermissionRequest") => HookEvent::PermissionRequest,
        Some(other) => {
            return Err(InstallError::Usage(format!(
                "--event {other:?} is not one of Claude Code's: use pre-tool-use (every tool \
                 call, recommended) or permission-request (only the calls it would prompt for)"
            )));
        }
    };
    let spec = HookSpec {
        event: event.claude_name(),
        command: request.command.for_agent("claude"),
        timeout_secs: request.timeout_secs,
    };
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![install(&path, &spec, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// `gatehouse uninstall claude`.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![uninstall(&path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each settings file, and whether it holds gatehouse's hook (Claude Code runs any it finds).
pub fn places(project: &Path) -> Vec<HookPlace> {
    [
        dialect::Scope::User,
        dialect::Scope::Project,
        dialect::Scope::Local,
    ]
    .into_iter()
    .filter_map(|scope| {
        let path = path_of(scope, project).ok()?;
        let held = install_file::events_holding(&path, "claude");
        let state = if !held.is_empty() {
            HookState::Active
        } else {
            HookState::Absent
        };
        Some(HookPlace { scope, path, state })
    })
    .collect()
}

/// Installs `spec` in the settings file at `path` (created if missing).
pub fn install(path: &Path, spec: &HookSpec, dry_run: bool) -> Result<Report, InstallError> {
    edit(path, dry_run, Some(spec), |settings| {
        add_hook(settings, spec)
    })
}

/// Removes every gatehouse hook from the settings file at `path`.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    install_file::uninstall(path, dry_run, "claude")
}

/// Adds the hook to `settings`, replacing other gatehouse hooks of either event.
fn add_hook(settings: &mut Map<String, Value>, spec: &HookSpec) -> Result<Change, String> {
    let wanted = json!({"matcher": "*", "hooks": [spec.entry()]});
    add_group(settings, spec.event, wanted, "claude", 1)
}

/// True for a command hook that runs a program named `gatehouse` with `hook claude`.
pub fn entry_is_ours(entry: &Value) -> bool {
    is_hook_of(entry, "claude")
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
