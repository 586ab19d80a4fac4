//! The saved rules and the trust list on disk: many `gatehouse rules add` at once lose none,
//! and a link planted where a save writes its temporary or backup file is never followed.

use crate::common;

use std::process::Stdio;

use common::place::Place;

#[test]
fn twenty_concurrent_rules_add_keep_every_rule_deny_and_allow_alike() {
    let place = Place::new("");
    let children: Vec<_> = (0..20)
        .map(|n| {
            let ruling = if n % 2 == 0 { "deny" } else { "allow" };
            let pattern = format!("tool{n} run");
            place
                .command(&["rules", "add", ruling, &pattern])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("saved rule"), "{text}");
    }
    let file = std::fs::read_to_string(place.path().join("rules.toml")).unwrap();
    for n in 0..20 {
        let ruling = if n % 2 == 0 { "deny" } else { "allow" };
        assert!(
            file.contains(&format!("id = \"{ruling}-tool{n}-run\"")),
            "rule {n} was lost:\n{file}"
        );
    }
}

/// A private config folder holding `rules.toml` and `trusted.toml`, and a victim file beside
/// it that links named like the save's temporary and backup files point to.
fn planted() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    let config = dir.path().join("config");
    std::fs::create_dir(&config).unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(config.join("rules.toml"), "").unwrap();
    std::fs::write(config.join("trusted.toml"), "").unwrap();
    let pid = std::process::id();
    for name in ["rules.toml", "trusted.toml"] {
        symlink(&victim, config.join(format!(".{name}.{pid}.tmp"))).unwrap();
        symlink(&victim, config.join(format!("{name}.bak"))).unwrap();
    }
    (dir, config, victim)
}

#[test]
fn a_save_never_writes_through_a_link_planted_at_its_temporary_or_backup_name() {
    use gatehouse::core::policy::load::{Policy, trust};
    use gatehouse::core::rule::{Learned, Match, Rule, Ruling};
    use gatehouse::core::rules::Pattern;
    let (_dir, config, victim) = planted();
    let paths = crate::common::policy_paths_in(&config);
    let policy = Policy::load(paths, Vec::new(), None, Vec::new()).unwrap();
    let rule = Rule {
        id: "deny-make-deploy".into(),
        matcher: Match::Prefix(Pattern::new("make deploy")),
        ruling: Ruling::Deny,
        reason: None,
        learned: Learned::default(),
        line: None,
        project: None,
        host: None,
        expires: None,
    };
    let saved = policy.save(rule);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    match saved {
        Ok(id) => {
            let file = std::fs::read_to_string(config.join("rules.toml")).unwrap();
            assert!(file.contains(&id), "{file}");
        }
        Err(err) => assert!(err.to_string().contains("link"), "{err}"),
    }
    let project = config.join("project.toml");
    std::fs::write(&project, "").unwrap();
    let trusted = trust(&config.join("trusted.toml"), &project);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    if let Err(err) = trusted {
        assert!(err.to_string().contains("link"), "{err}");
    }
}

#[test]
fn rules_are_not_saved_in_a_folder_that_other_users_can_write() {
    use gatehouse::core::policy::load::trust;
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let project = dir.path().join("project.toml");
    std::fs::write(&project, "").unwrap();
    let err = trust(&shared.join("trusted.toml"), &project).unwrap_err();
    assert!(err.to_string().contains("other users"), "{err}");
    assert!(!shared.join("trusted.toml").exists());
}
