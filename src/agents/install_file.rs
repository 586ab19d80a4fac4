//! One agent settings file edited for an install or uninstall, the same way for every agent:
//! read it (missing or empty is `{}`), change it in place keeping every other key in order,
//! refuse a file that is not JSON or not shaped as expected, back up the old file, and write
//! the new one atomically with the old file's mode. Also how gatehouse finds its own entries
//! in the `hooks.<event>[].hooks[]` layout that Claude Code, Codex and Gemini CLI share: a
//! command hook that runs a program named `gatehouse` with `hook <agent>`.

use std::fmt;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// One hook entry to install in a `hooks.<event>[].hooks[]` settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookSpec {
    /// The agent's own names for the events, in order: `PreToolUse`, `SessionEnd`.
    pub events: Vec<&'static str>,
    /// The shell command the agent runs.
    pub command: String,
    /// The agent's hook timeout, in seconds.
    pub timeout_secs: u64,
}

/// The command line `<exe> hook <agent>`, with `--socket` and `--config` when they were chosen,
/// so that the hook finds the same console and rules.
pub fn hook_command(
    exe: &Path,
    agent: &str,
    (socket, config): (Option<&Path>, Option<&Path>),
    host: Option<&str>,
) -> String {
    let mut command = format!("{} hook {agent}", shell_quote(&exe.to_string_lossy()));
    for (flag, path) in [("--socket", socket), ("--config", config)] {
        if let Some(path) = path {
            command.push_str(&format!(" {flag} {}", shell_quote(&path.to_string_lossy())));
        }
    }
    if let Some(host) = host {
        command.push_str(&format!(" --host {}", shell_quote(host)));
    }
    command
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

impl Change {
    /// What removing `count` gatehouse hooks did: nothing when there were none.
    pub fn removed(count: usize) -> Change {
        if count == 0 {
            Change::Unchanged
        } else {
            Change::Removed(count)
        }
    }
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
    /// The request does not fit this agent (a scope or option it does not have).
    #[error("{0}")]
    Usage(String),
    /// A folder the agent's files live in cannot be found.
    #[error("cannot find {0}; set HOME, or use --scope project")]
    NoHome(&'static str),
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
    /// What gatehouse keeps in the file, for the words of the report.
    pub holds: Holds,
}

/// What gatehouse keeps in a file it installs into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// Hook entries in an agent's settings.
    Hooks,
    /// A policy file of its own, written and removed whole (Gemini CLI's).
    Policy,
    /// Entries that trust its hooks (Codex's `config.toml`).
    Trust,
}

impl Holds {
    fn words(self) -> &'static str {
        match self {
            Holds::Hooks => "gatehouse hook",
            Holds::Policy => "gatehouse policy file",
            Holds::Trust => "gatehouse trust entry",
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let would = if self.dry_run { "would have " } else { "" };
        let hook = |spec: &HookSpec| {
            let hooks = match &spec.events[..] {
                [one] => format!("a {one} hook"),
                many => format!("{} hooks", many.join(" and ")),
            };
            format!(
                "{hooks} `{}` (matcher *, timeout {} s)",
                spec.command, spec.timeout_secs
            )
        };
        match (&self.change, &self.spec) {
            (Change::Unchanged, Some(spec)) => write!(f, "{path} already has {}", hook(spec))?,
            (Change::Unchanged, None) => write!(f, "{path}: no {} there", self.holds.words())?,
            (Change::Added, Some(spec)) => write!(f, "{would}added {} to {path}", hook(spec))?,
            (Change::Updated, Some(spec)) => write!(
                f,
                "{would}replaced the gatehouse hook in {path} with {}",
                hook(spec)
            )?,
            (Change::Removed(_), _) if self.holds == Holds::Policy => {
                write!(f, "{would}removed the {} {path}", self.holds.words())?
            }
            (Change::Removed(n), _) => write!(
                f,
                "{would}removed {n} {}(s) from {path}",
                self.holds.words()
            )?,
            (_, None) => write!(f, "{would}changed {path}")?,
        }
        if let Some(backup) = &self.backup {
            write!(f, "; the previous file is kept at {}", backup.display())?;
        }
        Ok(())
    }
}

pub(crate) fn edit(
    path: &Path,
    dry_run: bool,
    spec: Option<&HookSpec>,
    change: impl FnOnce(&mut Map<String, Value>) -> Result<Change, String>,
) -> Result<Report, InstallError> {
    let old = read_old(path)?;
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
        holds: Holds::Hooks,
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
    report.backup = replace(path, old.as_deref(), &report.text)?;
    Ok(report)
}

/// The old text of the file at `path`, or `None` when there is no file.
pub(crate) fn read_old(path: &Path) -> Result<Option<String>, InstallError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(io_error("cannot read", path, source)),
    }
}

/// Writes `text` to `path` atomically. The `old` file, if there was one, is first kept
/// beside it (its path is returned); else the folder is created.
pub(crate) fn replace(
    path: &Path,
    old: Option<&str>,
    text: &str,
) -> Result<Option<PathBuf>, InstallError> {
    let mut kept = None;
    if let Some(old) = old {
        let backup = sibling(path, "gatehouse-backup");
        write_atomically(&backup, old, path)?;
        kept = Some(backup);
    } else if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_error("cannot create", dir, e))?;
    }
    write_atomically(path, text, path)?;
    Ok(kept)
}

/// How many `gatehouse hook <word>` entries sit straight in the lists under `hooks` (the flat
/// layout of Cursor and Crush, `hooks.<event>[]`).
pub(crate) fn count_flat(file: &Map<String, Value>, word: &str) -> usize {
    let Some(Value::Object(hooks)) = file.get("hooks") else {
        return 0;
    };
    hooks
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter(|e| is_hook_of(e, word))
        .count()
}

/// Removes every `gatehouse hook <word>` entry from the flat layout, and the event lists it
/// leaves empty; returns how many it removed.
pub(crate) fn remove_flat(file: &mut Map<String, Value>, word: &str) -> usize {
    let Some(Value::Object(hooks)) = file.get_mut("hooks") else {
        return 0;
    };
    let mut removed = 0;
    for list in hooks.values_mut() {
        if let Value::Array(list) = list {
            let before = list.len();
            list.retain(|e| !is_hook_of(e, word));
            removed += before - list.len();
        }
    }
    hooks.retain(|_, list| list.as_array().is_none_or(|l| !l.is_empty()));
    removed
}

/// Each hook of `gatehouse hook <word>` in the settings file at `path`, as its event and its
/// command line, in either layout: matcher groups (`hooks.<event>[].hooks[]`) or entries
/// straight in the list (Cursor's `hooks.<event>[]`). A missing or unreadable file holds none.
pub fn hooks_holding(path: &Path, word: &str) -> Vec<(String, String)> {
    let Some(Value::Object(hooks)) = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|mut v| v.get_mut("hooks").map(Value::take))
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, list) in &hooks {
        for entry in list.as_array().into_iter().flatten() {
            let inner = entry["hooks"].as_array().into_iter().flatten();
            for hook in std::iter::once(entry).chain(inner) {
                if let Some(line) = hook_line(hook).filter(|line| runs_hook(line, word)) {
                    found.push((event.clone(), line.to_string()));
                }
            }
        }
    }
    found
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
    groups_mut(settings, event)?.push(wanted);
    Ok(if removed > 0 {
        Change::Updated
    } else {
        Change::Added
    })
}

/// Adds the matcher group `wanted` under each of `events`: the first through [`add_group`]
/// (which removes every other hook of `gatehouse hook <word>`, and expects one per event), the
/// others only where it is missing. The change is the first event's, else any later add.
pub(crate) fn add_group_to_each(
    settings: &mut Map<String, Value>,
    events: &[&str],
    wanted: &Value,
    word: &str,
) -> Result<Change, String> {
    let (first, rest) = events.split_first().expect("at least one event");
    let mut change = add_group(settings, first, wanted.clone(), word, events.len())?;
    for event in rest {
        let groups = groups_mut(settings, event)?;
        if !groups.contains(wanted) {
            groups.push(wanted.clone());
            if change == Change::Unchanged {
                change = Change::Added;
            }
        }
    }
    Ok(change)
}

/// The list of matcher groups under `hooks.<event>`, created empty where missing.
fn groups_mut<'a>(
    settings: &'a mut Map<String, Value>,
    event: &str,
) -> Result<&'a mut Vec<Value>, String> {
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let groups = hooks
        .as_object_mut()
        .ok_or("`hooks`")?
        .entry(event)
        .or_insert_with(|| json!([]));
    groups.as_array_mut().ok_or(format!("`hooks.{event}`"))
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

/// True for a command hook (`command`, or Copilot's `bash`) that runs a program named
/// `gatehouse` with `hook <word>`.
pub(crate) fn is_hook_of(entry: &Value, word: &str) -> bool {
    hook_line(entry).is_some_and(|command| runs_hook(command, word))
}

/// A command hook's command line: `command`, or Copilot's `bash`.
fn hook_line(entry: &Value) -> Option<&str> {
    entry
        .get("command")
        .or_else(|| entry.get("bash"))
        .and_then(Value::as_str)
}

/// True for a command line that runs a program named `gatehouse` with `hook <word>`.
pub(crate) fn runs_hook(command: &str, word: &str) -> bool {
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
