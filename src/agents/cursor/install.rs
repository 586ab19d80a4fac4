//! `gatehouse install cursor` / `uninstall cursor`: gatehouse's hook in Cursor's
//! `~/.cursor/hooks.json` (project: `.cursor/hooks.json`) for `beforeShellExecution`,
//! `beforeMCPExecution`, `beforeReadFile` and `preToolUse`, each with `failClosed: true`:
//! Cursor lets a call run when a hook crashes or times out unless that is set. Built from
//! Cursor's documented format; not run against a Cursor client.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::CursorEvent;
use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
use crate::agents::install_file::{self, Change, InstallError, Report};

/// The user's Cursor folder: `~/.cursor`.
pub fn cursor_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.home_dir().join(".cursor"))
}

/// Cursor's `hooks.json` for `scope`.
fn path_of(scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    match scope {
        Scope::User => Ok(cursor_dir()
            .ok_or(InstallError::NoHome("~/.cursor"))?
            .join("hooks.json")),
        Scope::Project => Ok(project.join(".cursor/hooks.json")),
        Scope::Local => Err(InstallError::Usage(
            "Cursor has no local scope; use --scope user or project".into(),
        )),
    }
}

/// `gatehouse install cursor`.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(
            "--event and --keep-reviewer are not options for Cursor".into(),
        ));
    }
    let path = path_of(request.scope, &request.project)?;
    let command = request.command.for_agent("cursor");
    let report = install(&path, &command, request.timeout_secs, request.dry_run)?;
    Ok(Installed {
        reports: vec![report],
        notes: vec![
            "built from Cursor's documented hook format; not tested against a Cursor client."
                .into(),
        ],
    })
}

/// `gatehouse uninstall cursor`.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![uninstall(&path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each `hooks.json`, and whether gatehouse's hook is there for every event.
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let path = path_of(scope, project).ok()?;
            let held = install_file::events_holding(&path, "cursor");
            let missing: Vec<&str> = CursorEvent::ALL
                .iter()
                .map(|e| e.cursor_name())
                .filter(|name| !held.iter().any(|h| h == name))
                .collect();
            let state = if held.is_empty() {
                HookState::Absent
            } else if missing.is_empty() {
                HookState::Active
            } else {
                HookState::Inactive(format!(
                    "no hook for {}; run `gatehouse install cursor` again",
                    missing.join(", ")
                ))
            };
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

/// Installs the hook for every event in the hooks file at `path`.
pub fn install(
    path: &Path,
    command: &str,
    timeout_secs: u64,
    dry_run: bool,
) -> Result<Report, InstallError> {
    let entry = json!({"command": command, "timeout": timeout_secs, "failClosed": true});
    install_file::edit(path, dry_run, None, |file| {
        let already = CursorEvent::ALL.iter().all(|e| {
            file.get("hooks")
                .and_then(|h| h.get(e.cursor_name()))
                .and_then(Value::as_array)
                .is_some_and(|list| list.contains(&entry))
        });
        if already && install_file::count_flat(file, "cursor") == CursorEvent::ALL.len() {
            return Ok(Change::Unchanged);
        }
        let removed = install_file::remove_flat(file, "cursor");
        file.entry("version").or_insert(json!(1));
        let hooks = file.entry("hooks").or_insert_with(|| json!({}));
        let hooks = hooks.as_object_mut().ok_or("`hooks`")?;
        for event in CursorEvent::ALL {
            let list = hooks
                .entry(event.cursor_name())
                .or_insert_with(|| json!([]));
            list.as_array_mut()
                .ok_or(format!("`hooks.{}`", event.cursor_name()))?
                .push(entry.clone());
        }
        Ok(if removed > 0 {
            Change::Updated
        } else {
            Change::Added
        })
    })
}

/// Removes gatehouse's cursor hooks from the hooks file at `path`.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    install_file::edit(path, dry_run, None, |file| {
        Ok(Change::removed(install_file::remove_flat(file, "cursor")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_gates_every_event_fail_closed_and_uninstall_keeps_other_hooks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".cursor/hooks.json");
        std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
        std::fs::write(
            &path,
            r#"{"version":1,"hooks":{"stop":[{"command":"./audit.sh"}]}}"#,
        )
        .unwrap();
        let command = "/bin/gatehouse hook cursor";
        install(&path, command, 600, false).unwrap();
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for event in CursorEvent::ALL {
            let entry = &file["hooks"][event.cursor_name()][0];
            assert_eq!(entry["command"], command);
            assert_eq!(entry["failClosed"], true);
        }
        assert_eq!(
            install(&path, command, 600, false).unwrap().change,
            Change::Unchanged
        );
        assert_eq!(uninstall(&path, false).unwrap().change, Change::Removed(4));
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            file,
            json!({"version": 1, "hooks": {"stop": [{"command": "./audit.sh"}]}})
        );
    }
}
