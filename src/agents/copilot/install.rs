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
use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
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

/// gatehouse's hooks file for `scope`.
fn path_of(scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    let folder = match scope {
        Scope::User => copilot_home()
            .ok_or(InstallError::NoHome("~/.copilot"))?
            .join("hooks"),
        Scope::Project => project.join(".github/hooks"),
        Scope::Local => {
            return Err(InstallError::Usage(
                "Copilot CLI has no local scope; use --scope user or project".into(),
            ));
        }
    };
    Ok(folder.join(FILE_NAME))
}

/// Told after every install: what an allow means in Copilot.
pub const GRANTS: &str = "an allow from gatehouse grants the call in Copilot CLI, even one \
your --deny-tool rules refuse.";

/// Told after a project install.
pub const PROJECT_TRUST: &str = "`copilot -p` loads .github/hooks only with --trust-folder (or \
GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true); without it the calls run ungated.";

/// `gatehouse install copilot`.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(
            "--event and --keep-reviewer are not options for Copilot CLI".into(),
        ));
    }
    let path = path_of(request.scope, &request.project)?;
    let command = request.command.for_agent(WORD);
    let report = install(&path, &command, request.timeout_secs, request.dry_run)?;
    let mut notes = vec![GRANTS.to_string()];
    if request.scope == Scope::Project {
        notes.push(PROJECT_TRUST.into());
    }
    Ok(Installed {
        reports: vec![report],
        notes,
    })
}

/// `gatehouse uninstall copilot`.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![uninstall(&path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each hooks file, and whether gatehouse's hook is there for `preToolUse`, which gates every
/// call (`permissionRequest` alone sees only what reaches Copilot's own check).
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let path = path_of(scope, project).ok()?;
            let held = install_file::events_holding(&path, WORD);
            let state = if held.is_empty() {
                HookState::Absent
            } else if held
                .iter()
                .any(|e| e == CopilotEvent::PreToolUse.copilot_name())
            {
                HookState::Active
            } else {
                HookState::Inactive(
                    "no preToolUse hook; run `gatehouse install copilot` again".into(),
                )
            };
            Some(HookPlace { scope, path, state })
        })
        .collect()
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
