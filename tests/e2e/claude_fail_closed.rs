//! Claude Code's `onFailure: "block"`, end to end with the real Claude Code 2.1.328: `gatehouse
//! install claude` sets it when the `claude` on `PATH` takes it, the doctor says the hook fails
//! closed, and with the gatehouse binary gone the call is blocked; the same hook without the
//! key lets the call run (Claude's own settings allow it), which is what the key changes.
//!
//! Only with `GATEHOUSE_E2E=1` (`.ci/e2e`).

use crate::common;

use std::path::Path;

use serde_json::{Value, json};

use common::e2e::{self, AgentHome, GATEHOUSE, client};

/// `PATH` with a folder holding `claude`, the cached client, first.
fn path_with(claude: &str, at: &AgentHome) -> String {
    let bin = at.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(claude, bin.join("claude")).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Claude Code's run of `touch made.txt` with the hook file as installed, whose gatehouse is
/// now missing; `keep_on_failure` false takes the key out first.
fn run_with_gatehouse_gone(at: &AgentHome, claude: &str, keep_on_failure: bool) -> Value {
    let local = at.project().join(".claude/settings.local.json");
    let text = std::fs::read_to_string(&local).unwrap();
    let mut settings: Value =
        serde_json::from_str(&text.replace(GATEHOUSE, "/nonexistent/gatehouse")).unwrap();
    if !keep_on_failure {
        let entry = &mut settings["hooks"]["PreToolUse"][0]["hooks"][0];
        entry.as_object_mut().unwrap().remove("onFailure");
    }
    std::fs::write(&local, settings.to_string()).unwrap();
    // Claude Code's own settings let Bash run unasked: only the hook can stop it.
    let allow = at.path().join("allow-bash.json");
    std::fs::write(
        &allow,
        json!({"permissions": {"allow": ["Bash"]}}).to_string(),
    )
    .unwrap();
    let flags = [
        ("--claude", claude.as_ref()),
        ("--settings", allow.as_os_str()),
    ];
    let tool = json!({"name": "Bash", "input": {"command": "touch made.txt"}});
    at.drive("claude_e2e.py", &flags, &tool, &[])
}

/// `gatehouse install claude --scope local` with `path`; what it printed.
fn install(at: &AgentHome, path: &str) -> String {
    e2e::succeed(
        at.gatehouse(&["install", "claude", "--scope", "local"])
            .current_dir(at.project())
            .env("PATH", path),
    )
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_missing_gatehouse_blocks_the_call_once_install_set_on_failure_block() {
    let Some(claude) = client("Claude Code", "install_claude.sh") else {
        return;
    };
    let at = AgentHome::new("");
    let path = path_with(&claude, &at);
    let said = install(&at, &path);
    assert!(said.contains("set to \"block\""), "{said}");
    let doctor = e2e::succeed(
        at.gatehouse(&["agents"])
            .current_dir(at.project())
            .env("PATH", &path),
    );
    assert!(
        doctor.contains("fails closed (onFailure: block)"),
        "{doctor}"
    );

    let summary = run_with_gatehouse_gone(&at, &claude, true);
    let result = summary["tool_result"].as_str().unwrap_or("");
    assert!(result.contains("onFailure is \"block\""), "{summary}");
    assert!(!made(&at.project()), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn without_on_failure_the_same_missing_gatehouse_lets_the_call_run() {
    let Some(claude) = client("Claude Code", "install_claude.sh") else {
        return;
    };
    let at = AgentHome::new("");
    let path = path_with(&claude, &at);
    install(&at, &path);
    let summary = run_with_gatehouse_gone(&at, &claude, false);
    assert!(made(&at.project()), "fails open without the key: {summary}");
}

fn made(project: &Path) -> bool {
    project.join("made.txt").exists()
}
