use super::*;
use crate::core::call::{ToolKind, test_call};
use crate::core::classify::assess;
use crate::core::route::{Class, Row};
use crate::core::rule::{Learned, Match, Ruling};
use crate::core::rules::{Pattern, Rules};
use serde_json::json;

fn git_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
    dir
}

fn policy_in(config: &Path) -> Policy {
    let paths = PolicyPaths {
        floor: None,
        floor_required: false,
        saved: Some(config.join("rules.toml")),
        trust: Some(config.join("trusted.toml")),
        home: None,
    };
    Policy::load(paths, Vec::new(), None, Vec::new()).unwrap()
}

fn rules(policy: Policy) -> Rules {
    Rules {
        policy: Arc::new(policy),
        ..Rules::default()
    }
}

fn bash_in(cwd: &Path, line: &str) -> crate::core::call::Call {
    crate::core::call::Call {
        cwd: cwd.display().to_string(),
        ..test_call("Bash", json!({ "command": line }))
    }
}

#[test]
fn the_project_file_is_found_from_the_cwd_upward_and_not_past_the_git_root() {
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join(PROJECT_FILE), "").unwrap();
    let repo = outer.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("a/b")).unwrap();
    assert_eq!(
        find_project(&repo.join("a/b"), None),
        None,
        "stops at the git root"
    );
    std::fs::write(repo.join(PROJECT_FILE), "").unwrap();
    assert_eq!(
        find_project(&repo.join("a/b"), None),
        Some(repo.join(PROJECT_FILE))
    );
    let home = outer.path().join("home/u");
    std::fs::create_dir_all(home.join("x")).unwrap();
    assert_eq!(
        find_project(&home.join("x"), Some(&home)),
        None,
        "stops at home"
    );
}

#[test]
fn one_walk_finds_the_project_file_and_the_root_the_two_walks_found() {
    let outer = tempfile::tempdir().unwrap();
    let repo = outer.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("a/b")).unwrap();
    let deep = repo.join("a/b");
    let both = |cwd: &Path| (find_project(cwd, None), git_root(cwd, None));
    assert_eq!(project_and_root(&deep, None), (None, Some(repo.clone())));
    assert_eq!(
        project_and_root(&deep, None),
        (both(&deep).0, both(&deep).1)
    );
    // A project file below the git root makes its own folder the root.
    std::fs::write(repo.join("a").join(PROJECT_FILE), "").unwrap();
    assert_eq!(
        project_and_root(&deep, None),
        (
            Some(repo.join("a").join(PROJECT_FILE)),
            Some(repo.join("a"))
        )
    );
    let home = outer.path().join("home/u");
    std::fs::create_dir_all(home.join("x")).unwrap();
    assert_eq!(project_and_root(&home.join("x"), Some(&home)), (None, None));
}

#[test]
fn a_project_allow_counts_only_once_trusted_and_is_asked_again_when_the_file_changes() {
    let repo = git_repo();
    let config = tempfile::tempdir().unwrap();
    let file = repo.path().join(PROJECT_FILE);
    std::fs::write(
        &file,
        "safe_commands = [\"make lint\"]\ndenied_commands = [\"git push\"]\n",
    )
    .unwrap();
    let rules = rules(policy_in(config.path()));
    let cwd = repo.path().join("src/deep");
    assert_ne!(
        assess(&bash_in(&cwd, "make lint"), &rules, &[]).row,
        Row::Listed
    );
    assert_eq!(
        assess(&bash_in(&cwd, "git push"), &rules, &[]).class,
        Class::Denied
    );
    trust(&config.path().join("trusted.toml"), &file).unwrap();
    assert_eq!(
        assess(&bash_in(&cwd, "make lint"), &rules, &[]).row,
        Row::Listed
    );
    std::fs::write(&file, "safe_commands = [\"make lint\", \"make all\"]\n").unwrap();
    assert_ne!(
        assess(&bash_in(&cwd, "make lint"), &rules, &[]).row,
        Row::Listed,
        "a changed file is no longer trusted"
    );
}

#[test]
fn a_bad_project_file_refuses_every_call_beneath_it_naming_the_file_and_line() {
    let repo = git_repo();
    let config = tempfile::tempdir().unwrap();
    std::fs::write(
        repo.path().join(PROJECT_FILE),
        "denied_commands = [\"rm\"]\nmode_celing = 1\n",
    )
    .unwrap();
    let rules = rules(policy_in(config.path()));
    let a = assess(&bash_in(repo.path(), "ls"), &rules, &[]);
    assert_eq!(a.class, Class::Denied);
    let at = format!("{}:2", repo.path().join(PROJECT_FILE).display());
    assert!(a.explanation.contains(&at), "{}", a.explanation);
    assert!(a.explanation.contains("fix: "), "{}", a.explanation);
}

#[test]
fn saved_rules_are_written_atomically_with_a_backup_and_read_back_when_changed() {
    let config = tempfile::tempdir().unwrap();
    let policy = policy_in(config.path());
    let rule = |id: &str, prefix: &str| Rule {
        id: id.into(),
        matcher: Match::Prefix(Pattern::new(prefix)),
        ruling: Ruling::Deny,
        reason: Some("not here".into()),
        learned: Learned::default(),
        line: None,
        project: None,
        host: None,
        expires: None,
    };
    assert_eq!(policy.save(rule("no-curl", "curl")).unwrap(), "no-curl");
    assert_eq!(policy.save(rule("no-curl", "wget")).unwrap(), "no-curl-2");
    let saved = config.path().join("rules.toml");
    assert!(config.path().join("rules.toml.bak").exists());
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&saved).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let rules = rules(policy);
    let a = assess(&bash_in(Path::new("/"), "wget x"), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    assert!(rules.policy.unsave("no-curl-2").unwrap());
    assert!(!rules.policy.unsave("no-curl-2").unwrap());
    let a = assess(&bash_in(Path::new("/"), "wget x"), &rules, &[]);
    assert_ne!(a.class, Class::Denied, "{}", a.explanation);
    let back = rules.policy.saved_rules().unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].reason.as_deref(), Some("not here"));
    let _ = ToolKind::Edit;
}

/// A project file of `entries` denied commands and as many `[[rule]]` tables: the kind of file
/// a repository can ship to stall a console that parses it slowly.
fn big_policy(entries: usize) -> String {
    let mut text = String::from("denied_commands = [\n");
    for n in 0..entries {
        text.push_str(&format!("  \"tool-{n} --flag\",\n"));
    }
    text.push_str("]\n");
    for n in 0..entries {
        text.push_str(&format!(
            "[[rule]]\nid = \"r-{n}\"\nprefix = \"other-{n}\"\nverdict = \"deny\"\n"
        ));
    }
    text
}

#[test]
fn a_project_file_over_the_size_bound_refuses_every_call_under_it_and_names_the_bound() {
    let repo = git_repo();
    let text = big_policy(16_000);
    assert!(text.len() > crate::core::policy::read::MAX_POLICY_BYTES);
    std::fs::write(repo.path().join(PROJECT_FILE), &text).unwrap();
    let config = tempfile::tempdir().unwrap();
    let rules = rules(policy_in(config.path()));
    let a = assess(&bash_in(repo.path(), "ls"), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    assert!(a.explanation.contains(PROJECT_FILE), "{}", a.explanation);
    assert!(a.explanation.contains("1 MiB"), "{}", a.explanation);
}

#[test]
fn a_project_file_touched_or_rewritten_with_the_same_bytes_is_not_parsed_again() {
    let repo = git_repo();
    let path = repo.path().join(PROJECT_FILE);
    std::fs::write(&path, "denied_commands = [\"make deploy\"]\n").unwrap();
    let config = tempfile::tempdir().unwrap();
    let policy = policy_in(config.path());
    let cwd = repo.path().display().to_string();
    let first = policy.in_force(&cwd).files.pop().unwrap();
    // A new inode with the same bytes: the stamp changed, the content did not.
    let moved = repo.path().join("moved");
    std::fs::write(&moved, std::fs::read(&path).unwrap()).unwrap();
    std::fs::rename(&moved, &path).unwrap();
    let again = policy.in_force(&cwd).files.pop().unwrap();
    assert!(Arc::ptr_eq(&first, &again), "parsed again");
    std::fs::write(&path, "denied_commands = [\"make release\"]\n").unwrap();
    let changed = policy.in_force(&cwd).files.pop().unwrap();
    assert!(!Arc::ptr_eq(&first, &changed));
    assert_eq!(changed.rules.len(), 1);
}

#[test]
fn a_project_file_that_is_a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("policy.toml");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let err = crate::core::policy::read::read_bounded(&fifo).unwrap_err();
    assert!(err.message.contains("not a regular file"), "{err}");
}

#[test]
fn a_missing_floor_is_no_floor_at_its_usual_place_and_an_error_where_it_was_named() {
    let dir = tempfile::tempdir().unwrap();
    let floor = dir.path().join("policy.toml");
    let paths = |floor_required| PolicyPaths {
        floor: Some(floor.clone()),
        floor_required,
        ..PolicyPaths::default()
    };
    assert!(Policy::load(paths(false), Vec::new(), None, Vec::new()).is_ok());
    let err = Policy::load(paths(true), Vec::new(), None, Vec::new()).unwrap_err();
    assert_eq!(err.path, floor);
    assert!(err.message.contains("does not exist"), "{err}");
    std::fs::write(&floor, "").unwrap();
    assert!(Policy::load(paths(true), Vec::new(), None, Vec::new()).is_ok());
}

/// An outer project that denies `git push`, with a nested repository below it.
fn outer_with_nested() -> (tempfile::TempDir, PathBuf) {
    let outer = git_repo();
    std::fs::write(
        outer.path().join(PROJECT_FILE),
        "denied_commands = [\"git push\"]\n\
         [[rule]]\nid = \"no-env\"\nedit = \".env\"\nverdict = \"deny\"\n",
    )
    .unwrap();
    let nested = outer.path().join("vendor/lib");
    std::fs::create_dir_all(nested.join(".git")).unwrap();
    (outer, nested)
}

#[test]
fn the_outer_projects_denies_hold_inside_a_nested_repository_and_beside_its_own_file() {
    let (outer, nested) = outer_with_nested();
    let config = tempfile::tempdir().unwrap();
    let rules = rules(policy_in(config.path()));
    let a = assess(&bash_in(&nested, "git push"), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    // A file of the nested repository's own does not hide the outer one either.
    std::fs::write(
        nested.join(PROJECT_FILE),
        "safe_commands = [\"git push\"]\n",
    )
    .unwrap();
    let a = assess(&bash_in(&nested.join("src"), "git push"), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    let standing = standing(&nested, None);
    assert_eq!(
        standing.files,
        vec![nested.join(PROJECT_FILE), outer.path().join(PROJECT_FILE)]
    );
    assert_eq!(standing.root.as_deref(), Some(nested.as_path()));
    // The outer file's relative edit glob starts at its own folder, not the nested root.
    let edit = |path: &Path| crate::core::call::Call {
        cwd: nested.display().to_string(),
        ..test_call("Write", json!({ "file_path": path, "content": "x" }))
    };
    let a = assess(&edit(&outer.path().join(".env")), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    let a = assess(&edit(&nested.join(".env")), &rules, &[]);
    assert_ne!(a.class, Class::Denied, "{}", a.explanation);
}

#[test]
fn a_call_in_a_folder_that_does_not_exist_is_judged_by_the_project_files_above_it() {
    let (outer, _) = outer_with_nested();
    let config = tempfile::tempdir().unwrap();
    let rules = rules(policy_in(config.path()));
    let gone = outer.path().join("gone/deeper");
    let a = assess(&bash_in(&gone, "git push"), &rules, &[]);
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
}

#[test]
fn a_call_with_no_usable_folder_is_asked_in_every_mode_and_its_denies_still_deny() {
    use crate::core::mode::Mode;
    use crate::core::route::Route;
    let config = tempfile::tempdir().unwrap();
    std::fs::write(
        config.path().join("rules.toml"),
        "[[rule]]\nid = \"no-push\"\nprefix = \"git push\"\nverdict = \"deny\"\n\
         [[rule]]\nid = \"make\"\nprefix = \"make\"\nverdict = \"allow\"\n",
    )
    .unwrap();
    let rules = rules(policy_in(config.path()));
    for cwd in ["", "repo/sub", "."] {
        let call = |line: &str| crate::core::call::Call {
            cwd: cwd.into(),
            ..test_call("Bash", json!({ "command": line }))
        };
        for line in ["ls", "make"] {
            let a = assess(&call(line), &rules, &[]);
            for mode in Mode::ALL {
                let route = a.route(mode);
                assert!(
                    matches!(route, Route::Ask | Route::Reject),
                    "{line:?} in {cwd:?} under {mode}: {route}"
                );
            }
            assert!(
                a.explanation.contains("cannot be found"),
                "{}",
                a.explanation
            );
        }
        let a = assess(&call("git push"), &rules, &[]);
        assert_eq!(a.class, Class::Denied, "{}", a.explanation);
        assert!(Mode::ALL.iter().all(|&m| a.route(m) == Route::Reject));
    }
    // The same calls in a real folder are routed as ever.
    let a = assess(&bash_in(Path::new("/"), "ls"), &rules, &[]);
    assert_eq!(a.route(Mode::AllowRead), Route::Allow);
}

#[test]
fn above_the_git_root_only_project_files_of_this_user_or_root_count() {
    use std::os::unix::fs::chown;
    let shared = tempfile::tempdir().unwrap();
    let planted = shared.path().join(PROJECT_FILE);
    std::fs::write(&planted, "mode_ceiling = \"block-all\"\n").unwrap();
    let repo = shared.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    assert_eq!(standing(&repo, None).files, vec![planted.clone()]);
    if crate::core::uid() == 0 {
        chown(&planted, Some(12345), None).unwrap();
        assert!(standing(&repo, None).files.is_empty());
        // Below the git root the file counts whoever owns it, as before.
        std::fs::rename(&planted, repo.join(PROJECT_FILE)).unwrap();
        assert_eq!(standing(&repo, None).files, vec![repo.join(PROJECT_FILE)]);
    }
}

#[test]
fn a_floor_edited_while_running_holds_from_the_next_call_and_a_broken_one_refuses_every_call() {
    let dir = tempfile::tempdir().unwrap();
    let floor = dir.path().join("policy.toml");
    std::fs::write(&floor, "").unwrap();
    let paths = PolicyPaths {
        floor: Some(floor.clone()),
        floor_required: true,
        ..PolicyPaths::default()
    };
    let rules = rules(Policy::load(paths, Vec::new(), None, Vec::new()).unwrap());
    let class = |line: &str| assess(&bash_in(Path::new("/"), line), &rules, &[]);
    assert_ne!(class("git push").class, Class::Denied);
    std::fs::write(&floor, "denied_commands = [\"git push\"]\n").unwrap();
    assert_eq!(class("git push").class, Class::Denied, "edited floor");
    assert_ne!(class("ls").class, Class::Denied);
    let at = floor.display().to_string();
    for broken in ["denied_commands = [\"git push\"\n", "mode_celing = 1\n"] {
        std::fs::write(&floor, broken).unwrap();
        let a = class("ls");
        assert_eq!(a.class, Class::Denied, "{broken:?}: {}", a.explanation);
        assert!(a.explanation.contains(&at), "{}", a.explanation);
    }
    // Replaced by something that is not a file, then removed: still refused, and said why.
    std::fs::remove_file(&floor).unwrap();
    std::fs::create_dir(&floor).unwrap();
    let a = class("ls");
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    std::fs::remove_dir(&floor).unwrap();
    let a = class("ls");
    assert_eq!(a.class, Class::Denied, "{}", a.explanation);
    assert!(
        a.explanation.contains("GATEHOUSE_POLICY"),
        "{}",
        a.explanation
    );
    std::fs::write(&floor, "denied_commands = [\"rm\"]\n").unwrap();
    assert_eq!(class("rm x").class, Class::Denied);
    assert_ne!(
        class("ls").class,
        Class::Denied,
        "a mended floor serves again"
    );
}

#[test]
fn calls_under_one_project_wait_for_one_read_of_its_file_instead_of_each_parsing_it() {
    let repo = git_repo();
    std::fs::write(repo.path().join(PROJECT_FILE), big_policy(3_000)).unwrap();
    let config = tempfile::tempdir().unwrap();
    let policy = Arc::new(policy_in(config.path()));
    let cwd = repo.path().display().to_string();
    assert!(!policy.ready_for(&cwd), "not read yet");
    let barrier = Arc::new(std::sync::Barrier::new(4));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (policy, cwd, barrier) = (policy.clone(), cwd.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                policy.in_force(&cwd).files.pop().unwrap()
            })
        })
        .collect();
    let files: Vec<Arc<RuleFile>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(
        files.iter().all(|f| Arc::ptr_eq(f, &files[0])),
        "parsed more than once"
    );
    assert!(policy.ready_for(&cwd));
}
