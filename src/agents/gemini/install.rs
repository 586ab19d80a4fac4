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

use super::TABLE;
use crate::agents::dialect::{HookPlace, HookState, InstallRequest, Installed, UninstallRequest};
use crate::agents::hook_file;
use crate::agents::install_file::{self, Change, InstallError, Report, io_error, replace};

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

/// The user's policy file, which leaves the hook as Gemini CLI's only gate.
fn policy_path() -> Result<PathBuf, InstallError> {
    Ok(TABLE.hooks.home.find()?.join("policies/gatehouse.toml"))
}

/// `gatehouse install gemini`: both hooks (timeout in milliseconds) and the policy file.
pub fn install_for(request: &InstallRequest) -> Result<Installed, InstallError> {
    let policy = policy_path()?;
    let mut installed = hook_file::install(&TABLE, request)?;
    installed
        .reports
        .push(write_file(&policy, Some(POLICY), request.dry_run)?);
    Ok(installed)
}

/// `gatehouse uninstall gemini`: the hooks and the policy file.
pub fn uninstall_for(request: &UninstallRequest) -> Result<Installed, InstallError> {
    let policy = policy_path()?;
    let mut removed = hook_file::uninstall(&TABLE, request)?;
    removed
        .reports
        .push(write_file(&policy, None, request.dry_run)?);
    Ok(removed)
}

/// Each `settings.json`, and whether its hook is active: it needs the policy file too, or
/// Gemini's own policy refuses the shell and writes that the hook allows.
pub fn places(project: &Path) -> Vec<HookPlace> {
    let Ok(policy) = policy_path() else {
        return Vec::new();
    };
    let written = std::fs::read_to_string(&policy).ok();
    let mut places = hook_file::places(&TABLE, project);
    for place in &mut places {
        if place.state == HookState::Active && written.as_deref() != Some(POLICY) {
            place.state = HookState::Inactive(format!(
                "the policy file {} is missing or changed, so Gemini's own policy still \
                 refuses what the hook allows; run `gatehouse install gemini` again",
                policy.display()
            ));
        }
    }
    places
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
    use serde_json::{Value, json};

    const COMMAND: &str = "/bin/gatehouse hook gemini";

    /// What `install_for` writes: the hooks in `dir`'s settings and the policy file.
    fn install(dir: &Path) -> Vec<Report> {
        let events = hook_file::event_names(&TABLE);
        let settings = dir.join(".gemini/settings.json");
        vec![
            hook_file::add(&TABLE, &settings, &events, COMMAND, 600, false).unwrap(),
            write_file(&dir.join("gatehouse.toml"), Some(POLICY), false).unwrap(),
        ]
    }

    fn read(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn install_adds_before_and_after_tool_hooks_in_milliseconds_and_the_policy() {
        let dir = tempfile::tempdir().unwrap();
        let settings = dir.path().join(".gemini/settings.json");
        std::fs::create_dir_all(dir.path().join(".gemini")).unwrap();
        std::fs::write(&settings, r#"{"security":{"auth":{"selectedType":"x"}}}"#).unwrap();
        install(dir.path());
        let settings = read(&settings);
        assert_eq!(settings["security"]["auth"]["selectedType"], "x");
        for event in ["BeforeTool", "AfterTool"] {
            let entry = &settings["hooks"][event][0]["hooks"][0];
            assert_eq!(entry["command"], COMMAND, "{event}");
            assert_eq!(entry["timeout"], 600_000, "{event}");
        }
        let policy = std::fs::read_to_string(dir.path().join("gatehouse.toml")).unwrap();
        let table: toml::Table = policy.parse().unwrap();
        let rule = &table["rule"][0];
        assert_eq!(rule["argsPattern"].as_str(), Some("."));
        assert_eq!(rule["allowRedirection"].as_bool(), Some(true));
        assert_eq!(rule["modes"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn installing_twice_changes_nothing_and_uninstall_removes_hooks_and_policy() {
        let dir = tempfile::tempdir().unwrap();
        let (settings, policy) = (
            dir.path().join(".gemini/settings.json"),
            dir.path().join("gatehouse.toml"),
        );
        install(dir.path());
        let again = install(dir.path());
        assert!(
            again.iter().all(|r| r.change == Change::Unchanged),
            "{again:?}"
        );
        let dry = hook_file::remove(&TABLE, &settings, true).unwrap();
        assert_eq!(dry.change, Change::Removed(2));
        let said = write_file(&policy, None, true).unwrap().to_string();
        assert!(
            said.starts_with("would have removed the gatehouse policy file ")
                && !said.contains("hook"),
            "the policy file is called one: {said}"
        );
        assert!(policy.exists());
        hook_file::remove(&TABLE, &settings, false).unwrap();
        write_file(&policy, None, false).unwrap();
        assert!(!policy.exists());
        assert_eq!(read(&settings), json!({}));
    }
}
