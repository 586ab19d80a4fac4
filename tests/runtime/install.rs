//! The real binary's `install claude` / `uninstall claude` on settings files in temporary
//! folders: where each scope writes, the hook command and timeout, dry runs, and bad files.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

/// Runs gatehouse in `project` with `~/.claude` at `claude_dir`.
fn gatehouse(project: &Path, claude_dir: &Path, args: &[&str]) -> Output {
    let config = project.join("gatehouse.toml");
    if !config.exists() {
        std::fs::write(&config, "ask_timeout_secs = 120\n").unwrap();
    }
    Command::new(GATEHOUSE)
        .args(args)
        .arg("--config")
        .arg(&config)
        .current_dir(project)
        .env("CLAUDE_CONFIG_DIR", claude_dir)
        .output()
        .unwrap()
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn install_writes_a_hook_that_outlasts_the_ask_timeout_into_the_user_settings() {
    let dir = tempfile::tempdir().unwrap();
    let claude_dir = dir.path().join("claude");
    let out = gatehouse(dir.path(), &claude_dir, &["install", "claude"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("added PreToolUse and SessionEnd hooks"),
        "{stdout}"
    );
    let settings = read(&claude_dir.join("settings.json"));
    let hook = &settings["hooks"]["PreToolUse"][0];
    assert_eq!(hook["matcher"], "*");
    assert_eq!(hook["hooks"][0]["timeout"], 180, "ask timeout 120 s + 60 s");
    let command = hook["hooks"][0]["command"].as_str().unwrap();
    assert!(command.contains(" hook claude --config "), "{command}");
    // The hook says how long the agent waits for it, so the console answers before then.
    assert!(command.ends_with(" --timeout 180"), "{command}");
    let program = command.split(' ').next().unwrap();
    assert!(Path::new(program).is_absolute(), "{command}");
}

#[test]
fn project_and_local_scopes_write_inside_the_project() {
    let dir = tempfile::tempdir().unwrap();
    let claude_dir = dir.path().join("claude");
    for (scope, file) in [
        ("project", ".claude/settings.json"),
        ("local", ".claude/settings.local.json"),
    ] {
        let out = gatehouse(
            dir.path(),
            &claude_dir,
            &[
                "install",
                "claude",
                "--scope",
                scope,
                "--event",
                "permission-request",
            ],
        );
        assert!(out.status.success());
        let settings = read(&dir.path().join(file));
        assert!(settings["hooks"]["PermissionRequest"][0]["hooks"][0]["command"].is_string());
    }
    assert!(!claude_dir.exists(), "the user's settings were not touched");
}

#[test]
fn a_dry_run_prints_the_new_file_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let claude_dir = dir.path().join("claude");
    let out = gatehouse(dir.path(), &claude_dir, &["install", "claude", "--dry-run"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("would have added"), "{stdout}");
    assert!(stdout.contains("\"PreToolUse\""), "{stdout}");
    assert!(!claude_dir.join("settings.json").exists());
}

#[test]
fn an_invalid_settings_file_fails_clearly_and_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let claude_dir = dir.path().join("claude");
    std::fs::create_dir_all(&claude_dir).unwrap();
    std::fs::write(claude_dir.join("settings.json"), "{ oops").unwrap();
    let out = gatehouse(dir.path(), &claude_dir, &["install", "claude"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("is not valid JSON"), "{stderr}");
    assert!(stderr.contains("left untouched"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(claude_dir.join("settings.json")).unwrap(),
        "{ oops"
    );
}

#[test]
fn uninstall_after_install_restores_the_users_settings() {
    let dir = tempfile::tempdir().unwrap();
    let claude_dir = dir.path().join("claude");
    std::fs::create_dir_all(&claude_dir).unwrap();
    let original =
        r#"{"model":"sonnet","hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#;
    std::fs::write(claude_dir.join("settings.json"), original).unwrap();
    assert!(
        gatehouse(dir.path(), &claude_dir, &["install", "claude"])
            .status
            .success()
    );
    let backup = claude_dir.join("settings.json.gatehouse-backup");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), original);
    let out = gatehouse(dir.path(), &claude_dir, &["uninstall", "claude"]);
    assert!(out.status.success());
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("removed 2 gatehouse hook")
    );
    let expected: Value = serde_json::from_str(original).unwrap();
    assert_eq!(read(&claude_dir.join("settings.json")), expected);
}

/// Runs gatehouse in `dir` with Codex's folder at `dir/codex`.
fn gatehouse_codex(dir: &Path, args: &[&str]) -> String {
    std::fs::write(dir.join("gatehouse.toml"), "ask_timeout_secs = 120\n").unwrap();
    let out = Command::new(GATEHOUSE)
        .args(args)
        .arg("--config")
        .arg(dir.join("gatehouse.toml"))
        .current_dir(dir)
        .env("CODEX_HOME", dir.join("codex"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn install_codex_names_the_automatic_reviewer_and_can_leave_it_its_approvals() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("codex")).unwrap();
    std::fs::write(
        dir.path().join("codex/config.toml"),
        "approvals_reviewer = \"auto_review\"\n",
    )
    .unwrap();
    let stdout = gatehouse_codex(dir.path(), &["install", "codex"]);
    assert!(stdout.contains("automatic reviewer"), "{stdout}");
    assert!(stdout.contains("--keep-reviewer"), "{stdout}");
    let hooks = read(&dir.path().join("codex/hooks.json"));
    assert!(hooks["hooks"]["PermissionRequest"].is_array());

    let stdout = gatehouse_codex(dir.path(), &["install", "codex", "--keep-reviewer"]);
    assert!(
        stdout.contains("left to Codex's automatic reviewer"),
        "{stdout}"
    );
    let hooks = read(&dir.path().join("codex/hooks.json"));
    assert!(hooks["hooks"].get("PermissionRequest").is_none(), "{hooks}");
    assert!(hooks["hooks"]["PreToolUse"].is_array());
}

#[test]
fn an_agent_without_a_local_scope_says_which_scopes_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(GATEHOUSE)
        .args(["install", "gemini", "--scope", "local", "--dry-run"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("Gemini CLI has no local scope"), "{stderr}");
}
