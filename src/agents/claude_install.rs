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

use std::fmt;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::claude::HookEvent;

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

/// What install or uninstall did to the settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Added,
    /// Replaced an older gatehouse hook (another path, timeout or event).
    Updated,
    Unchanged,
    /// Uninstall removed this many gatehouse hooks.
    Removed(usize),
}

#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(
        "{path} is not valid JSON ({message}); it was left untouched. Fix it, or move it \
         away and run the command again"
    )]
    NotJson { path: PathBuf, message: String },
    #[error("{path}: {message}; it was left untouched")]
    NotToml { path: PathBuf, message: String },
    #[error("{path}: {what} is not a JSON object/array as Claude Code expects; left untouched")]
    Shape { path: PathBuf, what: String },
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        source: io::Error,
    },
}

/// The outcome of one install or uninstall of one settings file.
#[derive(Debug, Clone)]
pub struct Report {
    pub path: PathBuf,
    pub change: Change,
    pub spec: Option<HookSpec>,
    pub backup: Option<PathBuf>,
    pub dry_run: bool,
    /// The file's new text (what was, or in a dry run would be, written).
    pub text: String,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let would = if self.dry_run { "would have " } else { "" };
        let hook = |spec: &HookSpec| {
            format!(
                "a {} hook `{}` (matcher *, timeout {} s)",
                spec.event.claude_name(),
                spec.command,
                spec.timeout_secs
            )
        };
        match (&self.change, &self.spec) {
            (Change::Unchanged, Some(spec)) => write!(f, "{path} already has {}", hook(spec))?,
            (Change::Unchanged, None) => write!(f, "{path} has no gatehouse hook")?,
            (Change::Added, Some(spec)) => write!(f, "{would}added {} to {path}", hook(spec))?,
            (Change::Updated, Some(spec)) => write!(
                f,
                "{would}replaced the gatehouse hook in {path} with {}",
                hook(spec)
            )?,
            (Change::Removed(n), _) => {
                write!(f, "{would}removed {n} gatehouse hook(s) from {path}")?
            }
            (_, None) => write!(f, "{would}changed {path}")?,
        }
        if let Some(backup) = &self.backup {
            write!(f, "; the previous file is kept at {}", backup.display())?;
        }
        Ok(())
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
    edit(path, dry_run, None, |settings| {
        let removed = remove_ours(settings, None, "claude");
        Ok(if removed == 0 {
            Change::Unchanged
        } else {
            Change::Removed(removed)
        })
    })
}

pub(crate) fn edit(
    path: &Path,
    dry_run: bool,
    spec: Option<&HookSpec>,
    change: impl FnOnce(&mut Map<String, Value>) -> Result<Change, String>,
) -> Result<Report, InstallError> {
    let old = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(io_error("cannot read", path, source)),
    };
    let mut value = match old.as_deref() {
        None => json!({}),
        Some(text) if text.trim().is_empty() => json!({}),
        Some(text) => serde_json::from_str(text).map_err(|e| InstallError::NotJson {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?,
    };
    let shape = |what: String| InstallError::Shape {
        path: path.to_path_buf(),
        what,
    };
    let settings = value
        .as_object_mut()
        .ok_or_else(|| shape("the file".into()))?;
    let change = change(settings).map_err(shape)?;
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialise");
    text.push('\n');
    let mut report = Report {
        path: path.to_path_buf(),
        change,
        spec: spec.cloned(),
        backup: None,
        dry_run,
        text,
    };
    if dry_run || report.change == Change::Unchanged {
        return Ok(report);
    }
    if let Some(old) = &old {
        let backup = sibling(path, "gatehouse-backup");
        write_atomically(&backup, old, path)?;
        report.backup = Some(backup);
    } else if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
    }
    write_atomically(path, &report.text, path)?;
    Ok(report)
}

/// Adds the hook to `settings`, replacing other gatehouse hooks of either event.
fn add_hook(settings: &mut Map<String, Value>, spec: &HookSpec) -> Result<Change, String> {
    let wanted = json!({"matcher": "*", "hooks": [spec.entry()]});
    add_group(settings, spec.event.claude_name(), wanted, "claude", 1)
}

/// Adds the matcher group `wanted` under `hooks.<event>` (Claude Code's layout, which Codex
/// and Gemini CLI share), first removing every hook of `gatehouse hook <word>` from every
/// event. Unchanged when `wanted` is there and gatehouse has `expected` hooks in all.
pub(crate) fn add_group(
    settings: &mut Map<String, Value>,
    event: &str,
    wanted: Value,
    word: &str,
    expected: usize,
) -> Result<Change, String> {
    match settings.get("hooks") {
        None => {}
        Some(Value::Object(hooks)) => match hooks.get(event) {
            None => {}
            Some(Value::Array(groups))
                if count_ours(hooks, word) == expected && groups.contains(&wanted) =>
            {
                return Ok(Change::Unchanged);
            }
            Some(Value::Array(_)) => {}
            Some(_) => return Err(format!("`hooks.{event}`")),
        },
        Some(_) => return Err("`hooks`".into()),
    }
    let removed = remove_ours(settings, Some(event), word);
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let groups = hooks
        .as_object_mut()
        .ok_or("`hooks`")?
        .entry(event)
        .or_insert_with(|| json!([]));
    groups
        .as_array_mut()
        .ok_or(format!("`hooks.{event}`"))?
        .push(wanted);
    Ok(if removed > 0 {
        Change::Updated
    } else {
        Change::Added
    })
}

/// Removes gatehouse hook entries from every event, dropping the groups, event lists and the
/// `hooks` object that only they filled. `keep` names an event whose emptied list may stay
/// (install is about to refill it). Returns how many entries it removed. Ours are the hooks
/// that run `gatehouse hook <word>`.
pub(crate) fn remove_ours(
    settings: &mut Map<String, Value>,
    keep: Option<&str>,
    word: &str,
) -> usize {
    let Some(Value::Object(hooks)) = settings.get_mut("hooks") else {
        return 0;
    };
    let mut removed = 0;
    for (event, groups) in hooks.iter_mut() {
        let Value::Array(list) = groups else { continue };
        let before = list.len();
        let mut emptied = Vec::new();
        for (i, group) in list.iter_mut().enumerate() {
            let Some(Value::Array(entries)) = group.get_mut("hooks") else {
                continue;
            };
            let count = entries.len();
            entries.retain(|entry| !is_hook_of(entry, word));
            removed += count - entries.len();
            if entries.is_empty() && count > 0 {
                emptied.push(i);
            }
        }
        for i in emptied.into_iter().rev() {
            list.remove(i);
        }
        if list.is_empty() && before > 0 && keep != Some(event.as_str()) {
            *groups = Value::Null;
        }
    }
    hooks.retain(|_, groups| !groups.is_null());
    if hooks.is_empty() && keep.is_none() {
        settings.remove("hooks");
    }
    removed
}

fn count_ours(hooks: &Map<String, Value>, word: &str) -> usize {
    hooks
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .filter(|e| is_hook_of(e, word))
        .count()
}

/// True for a command hook that runs a program named `gatehouse` with `hook claude`.
pub fn entry_is_ours(entry: &Value) -> bool {
    is_hook_of(entry, "claude")
}

/// True for a command hook that runs a program named `gatehouse` with `hook <word>`.
pub(crate) fn is_hook_of(entry: &Value, word: &str) -> bool {
    let Some(command) = entry.get("command").and_then(Value::as_str) else {
        return false;
    };
    let (program, rest) = split_program(command.trim());
    let name = program.rsplit('/').next().unwrap_or(program);
    let mut words = rest.split_whitespace();
    name == "gatehouse" && words.next() == Some("hook") && words.next() == Some(word)
}

/// Splits a command into its first word (single quotes removed) and the rest.
fn split_program(command: &str) -> (&str, &str) {
    if let Some(quoted) = command.strip_prefix('\'')
        && let Some(end) = quoted.find('\'')
    {
        return (&quoted[..end], &quoted[end + 1..]);
    }
    command
        .split_once(char::is_whitespace)
        .unwrap_or((command, ""))
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

pub(crate) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    path.with_file_name(name)
}

/// Writes `text` to `path` through a temporary file and a rename, with the mode of `like`.
pub(crate) fn write_atomically(path: &Path, text: &str, like: &Path) -> Result<(), InstallError> {
    let temp = sibling(path, "gatehouse-tmp");
    let mode = std::fs::metadata(like)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644);
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(mode))?;
        std::fs::rename(&temp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        io_error("cannot write", path, e)
    })
}

pub(crate) fn io_error(what: &'static str, path: &Path, source: io::Error) -> InstallError {
    InstallError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
#[path = "claude_install_tests.rs"]
mod tests;
