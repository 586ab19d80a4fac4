use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::agents::dialect::Scope;
use crate::agents::install_file::{Change, Report, hook_command, is_hook_of};

/// Installs the hook for `event` in the settings file at `path`.
fn install(path: &Path, event: &'static str, dry_run: bool) -> Result<Report, InstallError> {
    hook_file::add(
        &TABLE,
        path,
        &[event],
        "/opt/bin/gatehouse hook claude",
        600,
        dry_run,
    )
}

fn uninstall(path: &Path, dry_run: bool) -> Result<Report, InstallError> {
    hook_file::remove(&TABLE, path, dry_run)
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const USER_SETTINGS: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/audit-bash"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  }
}
"#;

#[test]
fn scopes_name_claude_codes_three_settings_files() {
    let path = |scope| hook_file::path(&TABLE, scope, Path::new("/p")).unwrap();
    let home = TABLE.hooks.home.dir().unwrap();
    assert_eq!(path(Scope::User), home.join("settings.json"));
    assert_eq!(path(Scope::Project), Path::new("/p/.claude/settings.json"));
    assert_eq!(
        path(Scope::Local),
        Path::new("/p/.claude/settings.local.json")
    );
}

#[test]
fn install_creates_a_missing_file_with_our_hook_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".claude/settings.json");
    let report = install(&path, "PreToolUse", false).unwrap();
    assert_eq!(report.change, Change::Added);
    assert_eq!(report.backup, None);
    assert_eq!(
        read(&path),
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "/opt/bin/gatehouse hook claude", "timeout": 600}
        ]}]}})
    );
    assert!(report.to_string().contains("added a PreToolUse hook"));
}

#[test]
fn install_keeps_every_other_setting_and_hook_and_backs_up_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, USER_SETTINGS).unwrap();
    let report = install(&path, "PreToolUse", false).unwrap();
    assert_eq!(report.change, Change::Added);
    let backup = report.backup.clone().unwrap();
    assert_eq!(std::fs::read_to_string(backup).unwrap(), USER_SETTINGS);
    let after = read(&path);
    assert_eq!(after["model"], "opus");
    assert_eq!(after["permissions"]["allow"][0], "Bash(ls:*)");
    assert_eq!(
        after["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    let pre = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[0]["hooks"][0]["command"], "/usr/local/bin/audit-bash");
    assert_eq!(pre[1]["matcher"], "*");
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["model", "permissions", "hooks"], "key order is kept");
}

#[test]
fn installing_twice_changes_nothing_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, USER_SETTINGS).unwrap();
    install(&path, "PreToolUse", false).unwrap();
    let once = std::fs::read_to_string(&path).unwrap();
    let again = install(&path, "PreToolUse", false).unwrap();
    assert_eq!(again.change, Change::Unchanged);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), once);
    assert!(again.to_string().contains("already has"));
}

#[test]
fn installing_for_the_other_event_moves_our_hook_there() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, USER_SETTINGS).unwrap();
    install(&path, "PreToolUse", false).unwrap();
    let report = install(&path, "PermissionRequest", false).unwrap();
    assert_eq!(report.change, Change::Updated);
    let after = read(&path);
    assert_eq!(after["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
    assert_eq!(
        after["hooks"]["PermissionRequest"][0]["hooks"][0]["command"],
        "/opt/bin/gatehouse hook claude"
    );
}

#[test]
fn a_dry_run_prints_the_change_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, USER_SETTINGS).unwrap();
    let report = install(&path, "PreToolUse", true).unwrap();
    assert_eq!(report.change, Change::Added);
    assert!(report.text.contains("gatehouse hook claude"));
    assert!(report.to_string().starts_with("would have added"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), USER_SETTINGS);
    assert!(!dir.path().join("settings.json.gatehouse-backup").exists());
}

#[test]
fn a_settings_file_that_is_not_json_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, "{ \"model\": \"opus\", }").unwrap();
    let err = install(&path, "PreToolUse", false).unwrap_err();
    assert!(matches!(err, InstallError::NotJson { .. }));
    assert!(err.to_string().contains("left untouched"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{ \"model\": \"opus\", }"
    );
    std::fs::write(&path, r#"{"hooks": []}"#).unwrap();
    let err = install(&path, "PreToolUse", false).unwrap_err();
    assert!(matches!(err, InstallError::Shape { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), r#"{"hooks": []}"#);
}

#[test]
fn uninstall_removes_only_what_install_added() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, USER_SETTINGS).unwrap();
    let original = read(&path);
    install(&path, "PreToolUse", false).unwrap();
    let report = uninstall(&path, false).unwrap();
    assert_eq!(report.change, Change::Removed(1));
    assert_eq!(read(&path), original);
    assert_eq!(uninstall(&path, false).unwrap().change, Change::Unchanged);

    let fresh = dir.path().join("fresh.json");
    install(&fresh, "PermissionRequest", false).unwrap();
    uninstall(&fresh, false).unwrap();
    assert_eq!(read(&fresh), json!({}));
}

#[test]
fn uninstall_keeps_a_foreign_hook_sharing_a_group_with_ours() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let shared = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "'/my bin/gatehouse' hook claude --socket /s"},
        {"type": "command", "command": "gatehouse-stats hook claude"},
        {"type": "command", "command": "echo gatehouse hook claude"}
    ]}], "PostToolUse": []}});
    std::fs::write(&path, shared.to_string()).unwrap();
    assert_eq!(uninstall(&path, false).unwrap().change, Change::Removed(1));
    let after = read(&path);
    let left = after["hooks"]["PreToolUse"][0]["hooks"].as_array().unwrap();
    assert_eq!(left.len(), 2);
    assert_eq!(after["hooks"]["PostToolUse"], json!([]));
}

#[test]
fn commands_quote_paths_that_need_it() {
    assert_eq!(
        hook_command(
            Path::new("/a b/gatehouse"),
            "claude",
            (
                Some(Path::new("/run/g.sock")),
                Some(Path::new("/c/it's.toml"))
            ),
            None
        ),
        r"'/a b/gatehouse' hook claude --socket /run/g.sock --config '/c/it'\''s.toml'"
    );
    let remote = hook_command(
        Path::new("/opt/gatehouse"),
        "claude",
        (None, None),
        Some("build-box"),
    );
    assert_eq!(remote, "/opt/gatehouse hook claude --host build-box");
    assert!(is_hook_of(&json!({ "command": remote }), "claude"));
    assert!(is_hook_of(
        &json!({"command": "'/a b/gatehouse' hook claude"}),
        "claude"
    ));
    assert!(is_hook_of(
        &json!({"command": "gatehouse hook claude"}),
        "claude"
    ));
    assert!(!is_hook_of(
        &json!({"command": "gatehouse hook codex"}),
        "claude"
    ));
}

#[test]
fn a_claude_code_that_takes_on_failure_gets_block_and_the_doctor_says_it_fails_closed() {
    use crate::agents::claude::fail_closed::{OnFailure, describe};
    use crate::agents::dialect::HookCommand;
    let dir = tempfile::tempdir().unwrap();
    let request = InstallRequest {
        scope: Scope::Project,
        project: dir.path().to_path_buf(),
        command: HookCommand {
            exe: "/opt/bin/gatehouse".into(),
            socket: None,
            config: None,
            host: None,
            timeout_secs: None,
        },
        timeout_secs: 600,
        dry_run: false,
        event: None,
        keep_reviewer: false,
    };
    let path = dir.path().join(".claude/settings.json");
    let old = OnFailure::for_version(Some("2.1.200 (Claude Code)"));
    let installed = install_with(&request, "PreToolUse", &old).unwrap();
    assert!(
        installed
            .notes
            .iter()
            .any(|n| n.contains("older than 2.1.295"))
    );
    let entry = &read(&path)["hooks"]["PreToolUse"][0]["hooks"][0];
    assert!(entry.get("onFailure").is_none(), "{entry}");
    assert!(describe(&path).starts_with("fails open"));

    let new = OnFailure::for_version(Some("2.1.328 (Claude Code)"));
    let installed = install_with(&request, "PreToolUse", &new).unwrap();
    assert!(
        installed
            .notes
            .iter()
            .any(|n| n.contains("set to \"block\""))
    );
    let hooks = read(&path)["hooks"]["PreToolUse"].clone();
    assert_eq!(
        hooks.as_array().unwrap().len(),
        1,
        "replaced, not added: {hooks}"
    );
    assert_eq!(hooks[0]["hooks"][0]["onFailure"], "block");
    assert!(is_hook_of(&hooks[0]["hooks"][0], "claude"));
    assert_eq!(describe(&path), "fails closed (onFailure: block)");
}
