//! `gatehouse install qwen` / `uninstall qwen`: gatehouse's hook in Qwen Code's
//! `settings.json` (user: `$QWEN_HOME/settings.json`, else `~/.qwen/settings.json`; project:
//! `.qwen/settings.json`) for `PreToolUse` (blocks every call Qwen approved),
//! `PermissionRequest` (grants or refuses where Qwen would ask) and `PostToolUse` (hands the
//! model a note kept on allow), in Claude Code's layout with the timeout in milliseconds.
//!
//! Qwen kills a hook at its timeout and then lets a `PreToolUse` call run, so the timeout is
//! longer than the console's ask timeout: the console's own answer always comes first.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::QwenEvent;
use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
use crate::agents::install_file::{self, InstallError, Report, add_group_to_each};

/// The word after `gatehouse hook`, which marks gatehouse's entries.
const WORD: &str = "qwen";

/// The user's Qwen Code folder: `$QWEN_HOME`, else `~/.qwen`.
pub fn qwen_dir() -> Option<PathBuf> {
    match std::env::var_os("QWEN_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => directories::BaseDirs::new().map(|b| b.home_dir().join(".qwen")),
    }
}

/// The hooks to install, and where.
#[derive(Debug, Clone)]
pub struct QwenHook {
    pub settings_path: PathBuf,
    pub command: String,
    /// Qwen's hook timeout, in milliseconds.
    pub timeout_ms: u64,
}

/// Qwen Code's `settings.json` for `scope`.
fn path_of(scope: Scope, project: &Path) -> Result<PathBuf, InstallError> {
    match scope {
        Scope::User => Ok(qwen_dir()
            .ok_or(InstallError::NoHome("~/.qwen"))?
            .join("settings.json")),
        Scope::Project => Ok(project.join(".qwen/settings.json")),
        Scope::Local => Err(InstallError::Usage(
            "Qwen Code has no local scope; use --scope user or project".into(),
        )),
    }
}

/// What Qwen Code does with each answer, told after an install.
pub const HOW_IT_WORKS: &str = "Qwen Code runs PreToolUse only on calls it has already \
approved, so there gatehouse can refuse but not grant; PermissionRequest, where Qwen would ask, \
grants. A note reaches the model after the output, from PostToolUse.";

/// `gatehouse install qwen`: the three hooks, timeout in milliseconds.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(
            "--event and --keep-reviewer are not options for Qwen Code".into(),
        ));
    }
    let hook = QwenHook {
        settings_path: path_of(request.scope, &request.project)?,
        command: request.command.for_agent(WORD),
        timeout_ms: request.timeout_secs * 1000,
    };
    Ok(Installed {
        reports: vec![install(&hook, request.dry_run)?],
        notes: vec![HOW_IT_WORKS.into()],
    })
}

/// `gatehouse uninstall qwen`.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let path = path_of(request.scope, &request.project)?;
    Ok(Installed {
        reports: vec![uninstall(&path, request.dry_run)?],
        notes: Vec::new(),
    })
}

/// Each `settings.json`, and whether gatehouse's hook is there for every event: without
/// `PreToolUse` a call Qwen approves itself is not gated, without `PermissionRequest` nothing
/// can be granted, without `PostToolUse` no note arrives.
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let path = path_of(scope, project).ok()?;
            let held = install_file::events_holding(&path, WORD);
            let missing: Vec<&str> = QwenEvent::ALL
                .iter()
                .map(|e| e.qwen_name())
                .filter(|name| !held.iter().any(|h| h == name))
                .collect();
            let state = if held.is_empty() {
                HookState::Absent
            } else if missing.is_empty() {
                HookState::Active
            } else {
                HookState::Inactive(format!(
                    "no hook for {}; run `gatehouse install qwen` again",
                    missing.join(", ")
                ))
            };
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

/// Installs the hook for every event, replacing older gatehouse entries.
pub fn install(hook: &QwenHook, dry_run: bool) -> Result<Report, InstallError> {
    let entry = json!({"type": "command", "command": hook.command, "timeout": hook.timeout_ms});
    let group = json!({"matcher": "*", "hooks": [entry]});
    let events = QwenEvent::ALL.map(QwenEvent::qwen_name);
    install_file::edit(&hook.settings_path, dry_run, None, |settings| {
        add_group_to_each(settings, &events, &group, WORD)
    })
}

/// Removes gatehouse's qwen hooks, and nothing else, from the settings file at `path`.
pub fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    install_file::uninstall(path, dry_run, WORD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::install_file::Change;
    use serde_json::Value;

    fn hook(dir: &Path) -> QwenHook {
        QwenHook {
            settings_path: dir.join(".qwen/settings.json"),
            command: "/bin/gatehouse hook qwen".into(),
            timeout_ms: 660_000,
        }
    }

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn install_adds_all_three_events_in_milliseconds_and_keeps_the_other_settings() {
        let dir = tempfile::tempdir().unwrap();
        let hook = hook(dir.path());
        std::fs::create_dir_all(dir.path().join(".qwen")).unwrap();
        let theirs = r#"{"model":{"name":"qwen3"},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./notify"}]}]}}"#;
        std::fs::write(&hook.settings_path, theirs).unwrap();
        let report = install(&hook, false).unwrap();
        assert_eq!(report.change, Change::Added);
        assert!(report.backup.as_ref().is_some_and(|b| b.exists()));
        let settings = read(&hook.settings_path);
        assert_eq!(settings["model"]["name"], "qwen3");
        assert_eq!(
            settings["hooks"]["Stop"][0]["hooks"][0]["command"],
            "./notify"
        );
        for event in ["PreToolUse", "PermissionRequest", "PostToolUse"] {
            let group = &settings["hooks"][event][0];
            assert_eq!(group["matcher"], "*", "{event}");
            assert_eq!(group["hooks"][0]["command"], hook.command, "{event}");
            assert_eq!(group["hooks"][0]["timeout"], 660_000, "{event}");
        }
    }

    #[test]
    fn installing_twice_changes_nothing_and_a_new_path_replaces_the_old_hooks() {
        let dir = tempfile::tempdir().unwrap();
        let mut hook = hook(dir.path());
        install(&hook, false).unwrap();
        assert_eq!(install(&hook, false).unwrap().change, Change::Unchanged);
        hook.command = "/opt/gatehouse hook qwen".into();
        assert_eq!(install(&hook, false).unwrap().change, Change::Updated);
        let settings = read(&hook.settings_path);
        for event in ["PreToolUse", "PermissionRequest", "PostToolUse"] {
            let groups = settings["hooks"][event].as_array().unwrap();
            assert_eq!(groups.len(), 1, "{event}: {settings}");
            assert_eq!(groups[0]["hooks"][0]["command"], hook.command);
        }
    }

    #[test]
    fn a_dry_run_writes_nothing_and_uninstall_leaves_only_the_users_own_settings() {
        let dir = tempfile::tempdir().unwrap();
        let hook = hook(dir.path());
        let dry = install(&hook, true).unwrap();
        assert!(dry.text.contains("hook qwen"));
        assert!(!hook.settings_path.exists());
        std::fs::create_dir_all(dir.path().join(".qwen")).unwrap();
        std::fs::write(&hook.settings_path, r#"{"general":{"vimMode":true}}"#).unwrap();
        install(&hook, false).unwrap();
        let dry = uninstall(&hook.settings_path, true).unwrap();
        assert_eq!(dry.change, Change::Removed(3));
        assert!(read(&hook.settings_path)["hooks"].is_object());
        assert_eq!(
            uninstall(&hook.settings_path, false).unwrap().change,
            Change::Removed(3)
        );
        assert_eq!(
            read(&hook.settings_path),
            json!({"general": {"vimMode": true}})
        );
        assert_eq!(
            uninstall(&hook.settings_path, false).unwrap().change,
            Change::Unchanged
        );
    }

    #[test]
    fn the_doctor_sees_the_hook_active_only_with_all_three_events() {
        let dir = tempfile::tempdir().unwrap();
        let hook = QwenHook {
            settings_path: dir.path().join(".qwen/settings.json"),
            ..hook(dir.path())
        };
        let state = |dir: &Path| {
            places(dir)
                .into_iter()
                .find(|p| p.scope == Scope::Project)
                .unwrap()
                .state
        };
        assert_eq!(state(dir.path()), HookState::Absent);
        install(&hook, false).unwrap();
        assert_eq!(state(dir.path()), HookState::Active);
        let mut settings = read(&hook.settings_path);
        settings["hooks"]
            .as_object_mut()
            .unwrap()
            .remove("PermissionRequest");
        std::fs::write(&hook.settings_path, settings.to_string()).unwrap();
        assert!(
            matches!(state(dir.path()), HookState::Inactive(why) if why.contains("PermissionRequest"))
        );
    }

    #[test]
    fn a_settings_file_that_is_not_json_is_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let hook = hook(dir.path());
        std::fs::create_dir_all(dir.path().join(".qwen")).unwrap();
        std::fs::write(&hook.settings_path, "{ not json").unwrap();
        assert!(matches!(
            install(&hook, false),
            Err(InstallError::NotJson { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(&hook.settings_path).unwrap(),
            "{ not json"
        );
    }
}
