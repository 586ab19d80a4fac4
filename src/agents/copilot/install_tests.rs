use super::*;

const COMMAND: &str = "/bin/gatehouse hook copilot";

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn install_writes_a_copilot_format_file_with_both_events_and_no_claude_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks").join(FILE_NAME);
    let report = install(&path, COMMAND, 660, false).unwrap();
    assert_eq!(report.change, Change::Added);
    let file = read(&path);
    assert_eq!(file["version"], 1);
    for event in CopilotEvent::ALL {
        let entries = file["hooks"][event.copilot_name()].as_array().unwrap();
        assert_eq!(
            entries,
            &vec![json!({"type": "command", "bash": COMMAND, "timeoutSec": 660})],
            "{event:?}"
        );
    }
    // Claude Code's layout (`PreToolUse`, `matcher`, `command`, `timeout`) would make Copilot
    // send Claude-shaped payloads, which the dialect refuses.
    let text = std::fs::read_to_string(&path).unwrap();
    for claude in ["PreToolUse", "matcher", "\"command\":", "\"timeout\":"] {
        assert!(!text.contains(claude), "{claude} in {text}");
    }
}

#[test]
fn installing_twice_changes_nothing_and_a_new_timeout_replaces_the_entries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    install(&path, COMMAND, 660, false).unwrap();
    assert_eq!(
        install(&path, COMMAND, 660, false).unwrap().change,
        Change::Unchanged
    );
    let report = install(&path, COMMAND, 90, false).unwrap();
    assert_eq!(report.change, Change::Updated);
    assert!(report.backup.as_ref().is_some_and(|b| b.exists()));
    let file = read(&path);
    for event in CopilotEvent::ALL {
        let entries = file["hooks"][event.copilot_name()].as_array().unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0]["timeoutSec"], 90);
    }
}

#[test]
fn uninstall_keeps_other_hooks_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let theirs = json!({"version": 1, "hooks": {
        "sessionStart": [{"type": "command", "bash": "./hello.sh"}],
        "preToolUse": [{"type": "command", "bash": "./lint.sh"}]}});
    std::fs::write(&path, theirs.to_string()).unwrap();
    install(&path, COMMAND, 660, false).unwrap();
    assert_eq!(
        read(&path)["hooks"]["preToolUse"].as_array().unwrap().len(),
        2
    );
    let report = uninstall(&path, false).unwrap();
    assert_eq!(report.change, Change::Removed(2));
    assert_eq!(read(&path), theirs);
}

#[test]
fn uninstall_removes_a_file_left_with_nothing_and_a_dry_run_removes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    install(&path, COMMAND, 660, false).unwrap();
    let dry = uninstall(&path, true).unwrap();
    assert_eq!(dry.change, Change::Removed(2));
    assert!(dry.dry_run);
    assert!(path.exists());
    uninstall(&path, false).unwrap();
    assert!(!path.exists());
    assert_eq!(uninstall(&path, false).unwrap().change, Change::Unchanged);
}

#[test]
fn a_hooks_file_that_is_not_json_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    std::fs::write(&path, "{ nope").unwrap();
    assert!(matches!(
        install(&path, COMMAND, 660, false),
        Err(InstallError::NotJson { .. })
    ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ nope");
}
