//! `gatehouse install gemini` / `uninstall gemini`: the `BeforeTool` and `AfterTool` hooks in
//! Gemini CLI's `settings.json` (user: `~/.gemini/settings.json`, under `$GEMINI_CLI_HOME` when
//! set; project: `.gemini/settings.json`), timeout in milliseconds, and the user policy file
//! `~/.gemini/policies/gatehouse.toml` that leaves the hook as the only gate.
//!
//! Gemini's hook `allow` does not skip Gemini's own policy, and in `-p` that policy refuses the
//! shell and file writes outright. The policy below (every line verified to matter against
//! Gemini CLI 0.61.0) allows every tool in default, autoEdit and yolo modes, so that the hook
//! decides; plan mode stays read-only.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::agents::dialect::{
    HookPlace, HookState, InstallRequest, Installed, Scope, UninstallRequest,
};
use crate::agents::install_file::{
    self, Change, InstallError, Report, add_group_to_each, io_error, replace,
};

/// The policy file's text.
pub const POLICY: &str = r#"# Written by `gatehouse install gemini`: Gemini CLI allows every tool call in these modes,
# so that gatehouse's BeforeTool hook is the only gate. Every line matters:
# argsPattern skips Gemini's shell heuristics, allowRedirection lets `>` through, and modes
# leaves plan mode read-only. `gatehouse uninstall gemini` removes this file.
[[rule]]
toolName = "*"
argsPattern = "."
decision = "allow"
priority = 999
allowRedirection = true
modes = ["default", "autoEdit", "yolo"]
"#;

/// What Gemini CLI still refuses on its own with the hook and policy in place.
pub const STILL_REFUSED: &str = "Gemini CLI still refuses some calls after gatehouse allows them: \
write_file and replace on build files (Cargo.toml, package.json, Makefile, Dockerfile, \
pyproject.toml, go.mod, ...) need its own confirmation, which `gemini -p` cannot give; a shell \
line its parser cannot read is refused outside yolo mode; plan mode stays read-only.";

/// The user's Gemini folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`.
pub fn gemini_dir() -> Option<PathBuf> {
    match std::env::var_os("GEMINI_CLI_HOME").filter(|d| !d.is_empty()) {
        Some(home) => Some(PathBuf::from(home).join(".gemini")),
        None => directories::BaseDirs::new().map(|b| b.home_dir().join(".gemini")),
    }
}

/// The hooks to install, and where.
#[derive(Debug, Clone)]
pub struct GeminiHook {
    pub settings_path: PathBuf,
    pub policy_path: PathBuf,
    pub command: String,
    /// Gemini's hook timeout, in milliseconds.
    pub timeout_ms: u64,
}

/// Gemini CLI's `settings.json` for `scope` and the user's policy file.
fn paths(scope: Scope, project: &Path) -> Result<(PathBuf, PathBuf), InstallError> {
    let dir = gemini_dir().ok_or(InstallError::NoHome("~/.gemini"))?;
    let settings_path = match scope {
        Scope::User => dir.join("settings.json"),
        Scope::Project => project.join(".gemini/settings.json"),
        Scope::Local => {
            return Err(InstallError::Usage(
                "Gemini CLI has no local scope; use --scope user or project".into(),
            ));
        }
    };
    Ok((settings_path, dir.join("policies/gatehouse.toml")))
}

/// `gatehouse install gemini`: both hooks (timeout in milliseconds) and the policy file.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    if request.event.is_some() || request.keep_reviewer {
        return Err(InstallError::Usage(
            "--event and --keep-reviewer are not options for Gemini CLI".into(),
        ));
    }
    let (settings_path, policy_path) = paths(request.scope, &request.project)?;
    let hook = GeminiHook {
        settings_path,
        policy_path,
        command: request.command.for_agent("gemini"),
        timeout_ms: request.timeout_secs * 1000,
    };
    Ok(Installed {
        reports: install(&hook, request.dry_run)?,
        notes: vec![STILL_REFUSED.to_string()],
    })
}

/// `gatehouse uninstall gemini`: the hooks and the policy file.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let (settings_path, policy_path) = paths(request.scope, &request.project)?;
    Ok(Installed {
        reports: uninstall(&settings_path, &policy_path, request.dry_run)?,
        notes: Vec::new(),
    })
}

/// Each `settings.json`, and whether its hook is active: it needs the policy file too, or
/// Gemini's own policy refuses the shell and writes that the hook allows.
pub fn places(project: &Path) -> Vec<HookPlace> {
    [Scope::User, Scope::Project]
        .into_iter()
        .filter_map(|scope| {
            let (path, policy) = paths(scope, project).ok()?;
            let held = install_file::events_holding(&path, "gemini");
            let state = if !held.iter().any(|e| e == "BeforeTool") {
                HookState::Absent
            } else if std::fs::read_to_string(&policy).ok().as_deref() != Some(POLICY) {
                HookState::Inactive(format!(
                    "the policy file {} is missing or changed, so Gemini's own policy still \
                     refuses what the hook allows; run `gatehouse install gemini` again",
                    policy.display()
                ))
            } else {
                HookState::Active
            };
            Some(HookPlace { scope, path, state })
        })
        .collect()
}

/// Installs both hooks and the policy file.
pub fn install(hook: &GeminiHook, dry_run: bool) -> Result<Vec<Report>, InstallError> {
    let entry = json!({"type": "command", "command": hook.command, "timeout": hook.timeout_ms});
    let group = json!({"matcher": "*", "hooks": [entry]});
    let settings = install_file::edit(&hook.settings_path, dry_run, None, |settings| {
        add_group_to_each(settings, &["BeforeTool", "AfterTool"], &group, "gemini")
    })?;
    let policy = write_file(&hook.policy_path, Some(POLICY), dry_run)?;
    Ok(vec![settings, policy])
}

/// Removes gatehouse's gemini hooks and the policy file.
pub fn uninstall(
    settings_path: &Path,
    policy_path: &Path,
    dry_run: bool,
) -> Result<Vec<Report>, InstallError> {
    let settings = install_file::uninstall(settings_path, dry_run, "gemini")?;
    let policy = write_file(policy_path, None, dry_run)?;
    Ok(vec![settings, policy])
}

/// Writes `text` to `path` (backing up a different file), or removes it with `None`.
fn write_file(path: &Path, text: Option<&str>, dry_run: bool) -> Result<Report, InstallError> {
    let old = std::fs::read_to_string(path).ok();
    let change = match (&old, text) {
        (Some(old), Some(new)) if old == new => Change::Unchanged,
        (None, None) => Change::Unchanged,
        (Some(_), Some(_)) => Change::Updated,
        (None, Some(_)) => Change::Added,
        (Some(_), None) => Change::Removed(1),
    };
    let mut report = Report {
        holds: install_file::Holds::Policy,
        path: path.to_path_buf(),
        change,
        spec: None,
        backup: None,
        dry_run,
        text: text.unwrap_or("").to_string(),
    };
    if dry_run || report.change == Change::Unchanged {
        return Ok(report);
    }
    match text {
        Some(text) => report.backup = replace(path, old.as_deref(), text)?,
        None => std::fs::remove_file(path).map_err(|e| io_error("cannot remove", path, e))?,
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn hook(dir: &Path) -> GeminiHook {
        GeminiHook {
            settings_path: dir.join(".gemini/settings.json"),
            policy_path: dir.join(".gemini/policies/gatehouse.toml"),
            command: "/bin/gatehouse hook gemini".into(),
            timeout_ms: 600_000,
        }
    }

    #[test]
    fn install_adds_before_and_after_tool_hooks_in_milliseconds_and_the_policy() {
        let dir = tempfile::tempdir().unwrap();
        let hook = hook(dir.path());
        std::fs::create_dir_all(dir.path().join(".gemini")).unwrap();
        std::fs::write(
            &hook.settings_path,
            r#"{"security":{"auth":{"selectedType":"x"}}}"#,
        )
        .unwrap();
        install(&hook, false).unwrap();
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&hook.settings_path).unwrap()).unwrap();
        assert_eq!(settings["security"]["auth"]["selectedType"], "x");
        for event in ["BeforeTool", "AfterTool"] {
            let entry = &settings["hooks"][event][0]["hooks"][0];
            assert_eq!(entry["command"], hook.command, "{event}");
            assert_eq!(entry["timeout"], 600_000, "{event}");
        }
        let policy = std::fs::read_to_string(&hook.policy_path).unwrap();
        let table: toml::Table = policy.parse().unwrap();
        let rule = &table["rule"][0];
        assert_eq!(rule["argsPattern"].as_str(), Some("."));
        assert_eq!(rule["allowRedirection"].as_bool(), Some(true));
        assert_eq!(rule["modes"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn installing_twice_changes_nothing_and_uninstall_removes_hooks_and_policy() {
        let dir = tempfile::tempdir().unwrap();
        let hook = hook(dir.path());
        install(&hook, false).unwrap();
        let again = install(&hook, false).unwrap();
        assert!(
            again.iter().all(|r| r.change == Change::Unchanged),
            "{again:?}"
        );
        let dry = uninstall(&hook.settings_path, &hook.policy_path, true).unwrap();
        assert_eq!(dry[0].change, Change::Removed(2));
        let said = dry[1].to_string();
        assert!(
            said.starts_with("would have removed the gatehouse policy file ")
                && !said.contains("hook"),
            "the policy file is called one: {said}"
        );
        assert!(hook.policy_path.exists());
        uninstall(&hook.settings_path, &hook.policy_path, false).unwrap();
        assert!(!hook.policy_path.exists());
        let left: Value =
            serde_json::from_str(&std::fs::read_to_string(&hook.settings_path).unwrap()).unwrap();
        assert_eq!(left, json!({}));
    }
}
