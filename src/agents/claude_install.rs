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

use super::claude::HookEvent;
use super::install_file::{self, Change, InstallError, Report, add_group, edit, is_hook_of};

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

/// The hook to install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    pub event: HookEvent,
    /// The shell command Claude Code runs.
    pub command: String,
    /// Claude Code's hook timeout, in seconds.
    pub timeout_secs: u64,
}

impl HookSpec {
    /// The command line for `gatehouse` at `exe`, with `--socket` and `--config` when they
    /// were chosen, so that the hook finds the same console and rules.
    pub fn command_for(exe: &Path, socket: Option<&Path>, config: Option<&Path>) -> String {
        hook_command(exe, "claude", socket, config)
    }
}

/// The command line `<exe> hook <agent>`, with `--socket` and `--config` when they were chosen,
/// so that the hook finds the same console and rules.
pub fn hook_command(
    exe: &Path,
    agent: &str,
    socket: Option<&Path>,
    config: Option<&Path>,
) -> String {
    let mut command = format!("{} hook {agent}", shell_quote(&exe.to_string_lossy()));
    for (flag, path) in [("--socket", socket), ("--config", config)] {
        if let Some(path) = path {
            command.push_str(&format!(" {flag} {}", shell_quote(&path.to_string_lossy())));
        }
    }
    command
}

impl HookSpec {
    fn entry(&self) -> Value {
        json!({"type": "command", "command": self.command, "timeout": self.timeout_secs})
    }
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
    add_group(settings, spec.event.claude_name(), wanted, "claude", 1)
}

/// True for a command hook that runs a program named `gatehouse` with `hook claude`.
pub fn entry_is_ours(entry: &Value) -> bool {
    is_hook_of(entry, "claude")
}

/// Quotes `word` for a POSIX shell when it needs it.
pub(crate) fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
#[path = "claude_install_tests.rs"]
mod tests;
