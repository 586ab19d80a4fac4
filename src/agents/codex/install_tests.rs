use super::*;

fn hook(dir: &Path) -> CodexHook {
    CodexHook {
        hooks_path: dir.join("codex/hooks.json"),
        config_path: dir.join("codex/config.toml"),
        command: "/bin/gatehouse hook codex".into(),
        timeout_secs: 600,
        keep_reviewer: false,
    }
}

#[test]
fn the_trust_hash_matches_the_one_codex_reported_for_the_readme_hook() {
    assert_eq!(
        trust_hash("PreToolUse", None, "gatehouse hook codex", 600),
        "sha256:596f9e700ae63094ee4babf565c23414585b78ee1706379195f8813a53be2614"
    );
}

#[test]
fn install_writes_both_events_and_trusts_each_by_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let hook = hook(dir.path());
    std::fs::create_dir_all(dir.path().join("codex")).unwrap();
    std::fs::write(&hook.config_path, "model = \"gpt-5.5\" # mine\n").unwrap();
    std::fs::write(
        &hook.hooks_path,
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"other"}]}]}}"#,
    )
    .unwrap();
    install(&hook, false).unwrap();
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(&hook.hooks_path).unwrap()).unwrap();
    assert_eq!(
        hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "other"
    );
    assert_eq!(
        hooks["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
        hook.command
    );
    assert_eq!(hooks["hooks"]["PermissionRequest"][0]["matcher"], "*");
    let config = std::fs::read_to_string(&hook.config_path).unwrap();
    assert!(
        config.starts_with("model = \"gpt-5.5\" # mine\n"),
        "{config}"
    );
    let table: toml::Table = config.parse().unwrap();
    let state = table["hooks"]["state"].as_table().unwrap();
    let path = hook.hooks_path.display();
    let pre = &state[&format!("{path}:pre_tool_use:1:0")]["trusted_hash"];
    assert_eq!(
        pre.as_str().unwrap(),
        trust_hash("PreToolUse", Some("*"), &hook.command, 600)
    );
    assert!(state.contains_key(&format!("{path}:permission_request:0:0")));
    assert!(
        dir.path()
            .join("codex/config.toml.gatehouse-backup")
            .exists()
    );
}

#[test]
fn installing_twice_changes_nothing_and_uninstall_restores_the_users_text() {
    let dir = tempfile::tempdir().unwrap();
    let hook = hook(dir.path());
    install(&hook, false).unwrap();
    let hooks = std::fs::read_to_string(&hook.hooks_path).unwrap();
    let config = std::fs::read_to_string(&hook.config_path).unwrap();
    let again = install(&hook, false).unwrap();
    assert!(
        again.iter().all(|r| r.change == Change::Unchanged),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&hook.hooks_path).unwrap(), hooks);
    assert_eq!(std::fs::read_to_string(&hook.config_path).unwrap(), config);

    let dry = uninstall(&hook.hooks_path, &hook.config_path, true).unwrap();
    assert_eq!(dry[0].change, Change::Removed(2));
    assert_eq!(std::fs::read_to_string(&hook.config_path).unwrap(), config);
    uninstall(&hook.hooks_path, &hook.config_path, false).unwrap();
    assert_eq!(std::fs::read_to_string(&hook.config_path).unwrap(), "");
    let left: Value =
        serde_json::from_str(&std::fs::read_to_string(&hook.hooks_path).unwrap()).unwrap();
    assert_eq!(left, json!({}));
}

#[test]
fn a_dry_run_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let hook = hook(dir.path());
    let reports = install(&hook, true).unwrap();
    assert!(reports[1].text.contains("trusted_hash"));
    assert!(!hook.hooks_path.exists() && !hook.config_path.exists());
}

#[test]
fn the_doctor_sees_a_trusted_hook_as_active_and_an_edited_one_as_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let hook = hook(dir.path());
    assert_eq!(
        trust_state(&hook.hooks_path, &hook.config_path),
        HookState::Absent
    );
    install(&hook, false).unwrap();
    assert_eq!(
        trust_state(&hook.hooks_path, &hook.config_path),
        HookState::Active
    );
    let text = std::fs::read_to_string(&hook.hooks_path).unwrap();
    std::fs::write(
        &hook.hooks_path,
        text.replace("timeout\": 600", "timeout\": 601"),
    )
    .unwrap();
    assert!(matches!(
        trust_state(&hook.hooks_path, &hook.config_path),
        HookState::Inactive(why) if why.contains("not trusted")
    ));
}

#[test]
fn keeping_the_reviewer_hooks_pre_tool_use_alone_and_drops_an_earlier_permission_hook() {
    let dir = tempfile::tempdir().unwrap();
    let mut hook = hook(dir.path());
    install(&hook, false).unwrap();
    hook.keep_reviewer = true;
    install(&hook, false).unwrap();
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(&hook.hooks_path).unwrap()).unwrap();
    assert!(hooks["hooks"]["PreToolUse"].is_array());
    assert!(hooks["hooks"].get("PermissionRequest").is_none(), "{hooks}");
    let config = std::fs::read_to_string(&hook.config_path).unwrap();
    assert!(config.contains("pre_tool_use") && !config.contains("permission_request"));
    assert_eq!(
        trust_state(&hook.hooks_path, &hook.config_path),
        HookState::Active
    );
}
