//! `gatehouse install copilot` / `uninstall copilot`: gatehouse's own hooks file in Copilot
//! CLI's format, `gatehouse.json` in the user's hooks folder (`$COPILOT_HOME/hooks/`, else
//! `~/.copilot/hooks/`) or the project's `.github/hooks/`, with `preToolUse` (gates and
//! grants every call) and `permissionRequest` (answers what reaches Copilot's own permission
//! check when `preToolUse` left it to Copilot):
//!
//! ```json
//! {"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"… hook copilot","timeoutSec":N}],
//!                       "permissionRequest":[{"type":"command","bash":"… hook copilot","timeoutSec":N}]}}
//! ```
//!
//! Copilot format, never Claude Code's: the dialect answers only in Copilot's flat shape, which
//! a Claude-format file would ignore. Copilot lets a `preToolUse` call run when it kills a hook
//! at `timeoutSec`, so the timeout is longer than the console's ask timeout. Uninstall removes
//! gatehouse's entries and, when nothing else is left in the file, the file.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::CopilotEvent;
use crate::agents::install_file::{self, Change, InstallError, Report, io_error, runs_hook};

/// The word after `gatehouse hook`, which marks gatehouse's entries.
const WORD: &str = "copilot";

/// The name of gatehouse's hooks file in a hooks folder.
pub const FILE_NAME: &str = "gatehouse.json";

/// The user's Copilot folder: `$COPILOT_HOME`, else `~/.copilot`.
pub fn copilot_home() -> Option<PathBuf> {
    match std::env::var_os("COPILOT_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => directories::BaseDirs::new().map(|b| b.home_dir().join(".copilot")),
    }
}

/// Installs the hook for both events in the hooks file at `path` (created if missing).
pub fn install(
    path: &Path,
    command: &str,
    timeout_secs: u64,
    dry_run: bool,
) -> Result<Report, InstallError> {
    let entry = json!({"type": "command", "bash": command, "timeoutSec": timeout_secs});
    install_file::edit(path, dry_run, None, |file| {
        let already = CopilotEvent::ALL.iter().all(|event| {
            file.get("hooks")
                .and_then(|h| h.get(event.copilot_name()))
                .and_then(Value::as_array)
                .is_some_and(|list| list.contains(&entry))
        });
        if already && count(file) == CopilotEvent::ALL.len() {
            return Ok(Change::Unchanged);
        }
        let removed = remove(file)?;
        file.entry("version").or_insert(json!(1));
        let hooks = file.entry("hooks").or_insert_with(|| json!({}));
        let hooks = hooks.as_object_mut().ok_or("`hooks`")?;
        for event in CopilotEvent::ALL {
            let name = event.copilot_name();
            let list = hooks.entry(name).or_insert_with(|| json!([]));
            list.as_array_mut()
                .ok_or(format!("`hooks.{name}`"))?
                .push(entry.clone());
        }
        Ok(if removed > 0 {
            Change::Updated
        } else {
            Change::Added
        })
    })
}

/// Removes gatehouse's copilot hooks from the hooks file at `path`; the file goes too when
/// nothing but its `version` is left.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    let mut report = install_file::edit(path, dry_run, None, |file| {
        Ok(Change::removed(remove(file)?))
    })?;
    if let Change::Removed(_) = report.change
        && is_empty(&report.text)
    {
        report.text = String::new();
        if !dry_run {
            std::fs::remove_file(path).map_err(|e| io_error("cannot remove", path, e))?;
        }
    }
    Ok(report)
}

/// True for a hooks file with no hooks and nothing else but `version`.
fn is_empty(text: &str) -> bool {
    let Ok(Value::Object(file)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    file.iter().all(|(key, value)| match key.as_str() {
        "version" => true,
        "hooks" => value.as_object().is_some_and(Map::is_empty),
        _ => false,
    })
}

/// True for a Copilot command hook that runs `gatehouse hook copilot`.
fn is_ours(entry: &Value) -> bool {
    entry
        .get("bash")
        .and_then(Value::as_str)
        .is_some_and(|command| runs_hook(command, WORD))
}

fn count(file: &Map<String, Value>) -> usize {
    let Some(Value::Object(hooks)) = file.get("hooks") else {
        return 0;
    };
    hooks
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter(|e| is_ours(e))
        .count()
}

/// Removes every `gatehouse hook copilot` entry, and the event lists it leaves empty.
fn remove(file: &mut Map<String, Value>) -> Result<usize, String> {
    let hooks = match file.get_mut("hooks") {
        None => return Ok(0),
        Some(Value::Object(hooks)) => hooks,
        Some(_) => return Err("`hooks`".into()),
    };
    let mut removed = 0;
    for list in hooks.values_mut() {
        if let Value::Array(list) = list {
            let before = list.len();
            list.retain(|e| !is_ours(e));
            removed += before - list.len();
        }
    }
    hooks.retain(|_, list| list.as_array().is_none_or(|l| !l.is_empty()));
    Ok(removed)
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
