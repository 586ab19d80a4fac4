//! What every agent's hooks file does, checked for each agent in the registry: the layouts
//! and the rules that say which events an agent needs are data, so one test covers them all.

use super::*;
use crate::agents::registry::REGISTRY;

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A file of the user's own in `table`'s layout: a setting and a hook of theirs.
fn theirs(table: &Table) -> Value {
    match table.hooks.layout {
        Layout::Groups => json!({"model": "opus", "hooks": {"Stop": [{"matcher": "*",
            "hooks": [{"type": "command", "command": "./notify"}]}]}}),
        Layout::Flat { .. } => json!({"version": 1, "options": {"debug": true},
            "hooks": {"stop": [{"command": "./audit.sh"}]}}),
    }
}

/// Every dialect's table, with a folder to install in.
fn each_agent(mut check: impl FnMut(&'static Table, &Path)) {
    for dialect in REGISTRY.all() {
        let dir = tempfile::tempdir().unwrap();
        check(dialect.table(), dir.path());
    }
}

#[test]
fn every_agents_hook_is_added_once_beside_the_users_own_and_removed_leaving_theirs_as_it_was() {
    each_agent(|table, dir| {
        let cli = table.names.cli;
        let (path, events) = (dir.join("hooks.json"), event_names(table));
        let original = theirs(table);
        std::fs::write(&path, original.to_string()).unwrap();
        let add = |exe: &str| {
            let command = format!("{exe} hook {cli}");
            add(table, &path, &events, &command, 600, false).unwrap()
        };
        let report = add("/bin/gatehouse");
        assert_eq!(report.change, Change::Added, "{cli}");
        let backup = report.backup.unwrap();
        assert_eq!(read(&backup), original, "{cli}: the old file is kept");
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(add("/bin/gatehouse").change, Change::Unchanged, "{cli}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{cli}");
        assert_eq!(add("/opt/gatehouse").change, Change::Updated, "{cli}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("/bin/gatehouse"),
            "{cli}: the old hook stays: {text}"
        );

        let removed = Change::Removed(events.len());
        let dry = remove(table, &path, true).unwrap();
        assert_eq!((dry.change, dry.dry_run), (removed.clone(), true), "{cli}");
        assert!(read(&path) != original, "{cli}: a dry run writes nothing");
        assert_eq!(
            remove(table, &path, false).unwrap().change,
            removed,
            "{cli}"
        );
        assert_eq!(read(&path), original, "{cli}");
        let again = remove(table, &path, false).unwrap();
        assert_eq!(again.change, Change::Unchanged, "{cli}");
    });
}

#[test]
fn a_dry_run_install_writes_nothing() {
    each_agent(|table, dir| {
        let path = dir.join("hooks.json");
        let events = event_names(table);
        let command = format!("gatehouse hook {}", table.names.cli);
        let dry = add(table, &path, &events, &command, 90, true).unwrap();
        assert_eq!(dry.change, Change::Added, "{}", table.names.cli);
        assert!(dry.text.contains(&command) && !path.exists());
    });
}

#[test]
fn a_hooks_file_that_is_not_json_or_not_shaped_as_expected_is_left_untouched() {
    each_agent(|table, dir| {
        let path = dir.join("hooks.json");
        let events = event_names(table);
        for (text, shape) in [("{ nope", false), (r#"{"hooks": []}"#, true)] {
            std::fs::write(&path, text).unwrap();
            let err = add(table, &path, &events, "gatehouse hook x", 90, false).unwrap_err();
            match err {
                InstallError::NotJson { .. } => assert!(!shape, "{err}"),
                InstallError::Shape { .. } => assert!(shape, "{err}"),
                other => panic!("{}: {other}", table.names.cli),
            }
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    });
}

#[test]
fn the_doctor_sees_the_hook_active_only_with_the_events_its_agent_needs() {
    each_agent(|table, dir| {
        let (cli, events) = (table.names.cli, event_names(table));
        let project = |dir: &Path| {
            let mut places = places(table, dir).into_iter();
            places.find(|p| p.scope == Scope::Project).unwrap()
        };
        let place = project(dir);
        assert_eq!(place.state, HookState::Absent, "{cli}");
        let command = format!("gatehouse hook {cli}");
        add(table, &place.path, &events, &command, 600, false).unwrap();
        assert_eq!(project(dir).state, HookState::Active, "{cli}");
        for (i, missing) in events.iter().enumerate() {
            let mut file = read(&place.path);
            file["hooks"].as_object_mut().unwrap().remove(*missing);
            std::fs::write(&place.path, file.to_string()).unwrap();
            let needed = match table.hooks.needs {
                Needs::Any => false,
                Needs::First => i == 0,
                Needs::All => true,
            };
            match project(dir).state {
                HookState::Absent => assert_eq!(events.len(), 1, "{cli}"),
                HookState::Active => assert!(!needed, "{cli} without {missing}"),
                HookState::Inactive(why) => {
                    assert!(needed, "{cli}: {why}");
                    assert!(why.contains(missing) && why.contains(&format!("install {cli}")));
                }
            }
            add(table, &place.path, &events, &command, 600, false).unwrap();
        }
    });
}

#[test]
fn an_agent_without_a_scope_says_which_it_has() {
    let codex = REGISTRY.find("codex").unwrap().table();
    let err = path(codex, Scope::Local, Path::new("/p")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Codex has no local scope; use --scope user or project"
    );
}
