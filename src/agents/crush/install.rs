//! `gatehouse install crush` / `uninstall crush`: gatehouse's hook in Crush's `crush.json`
//! (user: `$XDG_CONFIG_HOME/crush/crush.json`, else `~/.config/crush/crush.json`; project:
//! `crush.json` in the project) as `hooks.PreToolUse[]` entries `{"matcher":".*","command",
//! "timeout"}`, the matcher a regular expression over the tool name and the timeout in seconds
//! (Crush's default, 30 s, is shorter than the console's ask timeout). Built from Crush's
//! documented format; not run against a Crush client.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
use crate::agents::install_file::{self, Change, InstallError, Report};

const EVENT: &str = "PreToolUse";

/// The user's Crush config file.
fn user_file() -> Option<PathBuf> {
    let config = match std::env::var_os("XDG_CONFIG_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => directories::BaseDirs::new()?.home_dir().join(".config"),
    };
    Some(config.join("crush/crush.json"))
}

fn path_of(scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    match scope {
        Scope::User => user_file().ok_or(InstallError::NoHome("~/.config/crush")),
        Scope::Project => Ok(project.join("crush.json")),
        Scope::Local => Err(InstallError::Usage(
            "Crush has no local scope; use --scope user or project".into(),
        )),
    }
}

/// Installs the hook in the config file at `path` (created if missing).
pub fn install(
    path: &Path,
    command: &str,
    timeout_secs: u64,
    dry_run: bool,
) -> Result<Report, InstallError> {
    let entry = json!({"matcher": ".*", "command": command, "timeout": timeout_secs});
    install_file::edit(path, dry_run, None, |file| {
        let list = file.get("hooks").and_then(|h| h.get(EVENT));
        let there = list
            .and_then(Value::as_array)
            .is_some_and(|l| l.contains(&entry));
        if there && install_file::count_flat(file, "crush") == 1 {
            return Ok(Change::Unchanged);
        }
        let removed = install_file::remove_flat(file, "crush");
        let hooks = file.entry("hooks").or_insert_with(|| json!({}));
        let hooks = hooks.as_object_mut().ok_or("`hooks`")?;
        let list = hooks.entry(EVENT).or_insert_with(|| json!([]));
        list.as_array_mut()
            .ok_or(format!("`hooks.{EVENT}`"))?
            .push(entry.clone());
        Ok(if removed > 0 {
            Change::Updated
        } else {
            Change::Added
        })
    })
}

/// Removes gatehouse's crush hooks from the config file at `path`.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    install_file::edit(path, dry_run, None, |file| {
        Ok(Change::removed(install_file::remove_flat(file, "crush")))
    })
}

/// `gatehouse install crush`.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(
            "--event and --keep-reviewer are not options for Crush".into(),
        ));
    }
    let path = path_of(request.scope, &request.project)?;
    let command = request.command.for_agent("crush");
    let report = install(&path, &command, request.timeout_secs, request.dry_run)?;
    Ok(Installed {
        reports: vec![report],
        notes: vec![
            "built from Crush's documented hook format; not tested against a Crush client. \
             `crush run` approves every permission of its session, so headless only a deny \
             shows."
                .into(),
        ],
    })
}

/// `gatehouse uninstall crush`.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![uninstall(&path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each config file, and whether it holds gatehouse's hook.
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let path = path_of(scope, project).ok()?;
            let state = if install_file::events_holding(&path, "crush").is_empty() {
                HookState::Absent
            } else {
                HookState::Active
            };
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_adds_one_entry_once_keeps_the_rest_and_uninstall_restores_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("crush.json");
        let original = r#"{"options":{"debug":true},"hooks":{"PreToolUse":[{"matcher":"^bash$","command":"audit"}]}}"#;
        std::fs::write(&path, original).unwrap();
        let report = install(&path, "/bin/gatehouse hook crush", 180, false).unwrap();
        assert_eq!(report.change, Change::Added);
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(file["options"]["debug"], true);
        let list = file["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1]["matcher"], ".*");
        assert_eq!(list[1]["timeout"], 180);
        let again = install(&path, "/bin/gatehouse hook crush", 180, false).unwrap();
        assert_eq!(again.change, Change::Unchanged);
        assert_eq!(
            install_file::events_holding(&path, "crush"),
            vec!["PreToolUse".to_string()]
        );
        uninstall(&path, false).unwrap();
        let back: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(original).unwrap());
    }

    #[test]
    fn a_dry_run_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("crush.json");
        let report = install(&path, "gatehouse hook crush", 90, true).unwrap();
        assert!(report.text.contains("hook crush"));
        assert!(!path.exists());
    }
}
