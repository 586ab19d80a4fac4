//! A repository's policy file cannot stall the console: one over the size bound refuses the
//! calls made under it at once, naming the file and the bound, and a call elsewhere is judged
//! as ever. (A 1.3 MB file once took 96 s to parse, and every hook waiting on it deferred.)

use crate::common;

use common::place::Place;
use common::{bash_payload_in, decision_of, fixture};
use serde_json::{Value, json};

#[test]
fn a_policy_file_over_the_size_bound_is_refused_at_once_and_a_denied_command_elsewhere_stays_denied()
 {
    // A short ask timeout: a hook whose answer is late gives up after it (and 5 s more).
    let place = Place::new("ask_timeout_secs = 1\ndenied_commands = [\"git push\"]");
    let project = place.path().join("repo");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let mut text = String::from("denied_commands = [\n");
    let mut n = 0;
    while text.len() < 3 * 1024 * 1024 {
        text.push_str(&format!("  \"tool-{n} --flag\",\n"));
        n += 1;
    }
    text.push_str("]\n");
    std::fs::write(project.join(".gatehouse.toml"), text).unwrap();
    let elsewhere = place.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let _serve = place.serve(&[]);

    let (out, err) = place.hook(&bash_payload_in(&project, "ls"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains(".gatehouse.toml"), "{reason}");
    assert!(reason.contains("1 MiB"), "{reason}");

    let (out, err) = place.hook(&bash_payload_in(&elsewhere, "git push origin main"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains("denied command"), "{reason}");
}

#[test]
fn a_floor_that_gatehouse_policy_names_but_is_missing_stops_serve_and_the_hook_says_so() {
    use std::io::Write;
    use std::process::Stdio;
    let place = Place::new("");
    let floor = place.path().join("missing-floor.toml");
    let child = place
        .command(&["serve"])
        .env("GATEHOUSE_POLICY", &floor)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (done, exited) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output().unwrap()));
    let Ok(out) = exited.recv_timeout(std::time::Duration::from_secs(30)) else {
        // SAFETY: kill with a pid we spawned; its waiter thread has not reaped it.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        panic!("serve ran without the floor it was told to keep");
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains(floor.to_str().unwrap()), "{err}");
    assert!(err.contains("GATEHOUSE_POLICY"), "{err}");

    // The hook, with no console, cannot know what the floor denies: it defers and says why.
    let mut hook = place
        .command(&["hook", "claude"])
        .env("GATEHOUSE_POLICY", &floor)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    hook.stdin
        .take()
        .unwrap()
        .write_all(&fixture("claude-code/pretooluse-read.json"))
        .unwrap();
    let out = hook.wait_with_output().unwrap();
    assert!(out.stdout.iter().all(u8::is_ascii_whitespace), "deferred");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("GATEHOUSE_POLICY"), "{err}");
}

#[test]
fn an_outer_projects_deny_holds_in_a_nested_repository_and_a_call_with_no_usable_folder_is_not_allowed()
 {
    let place = Place::new("");
    let outer = place.path().join("outer");
    let nested = outer.join("vendor/lib");
    std::fs::create_dir_all(outer.join(".git")).unwrap();
    std::fs::create_dir_all(nested.join(".git")).unwrap();
    std::fs::write(
        outer.join(".gatehouse.toml"),
        "denied_commands = [\"git push\"]\n",
    )
    .unwrap();
    let _serve = place.serve(&[]);

    let (out, err) = place.hook(&bash_payload_in(&nested, "git push origin main"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    // The model is told which rule, once, and no local path; the audit names the file.
    assert!(reason.contains("the project rule denied-1"), "{reason}");
    assert!(!reason.contains('/') && !reason.contains("(("), "{reason}");
    let pushed = place
        .audit()
        .into_iter()
        .find(|r| r["subject"] == "git push origin main");
    let pushed = pushed.expect("the denied push is audited");
    assert!(
        pushed["rule"]
            .as_str()
            .unwrap()
            .contains("outer/.gatehouse.toml"),
        "{pushed}"
    );

    // Read-only, but made nowhere gatehouse can place: not allowed, and said why.
    for cwd in ["", "outer/vendor/lib"] {
        let mut input: Value = serde_json::from_slice(&bash_payload_in(&nested, "ls")).unwrap();
        input["cwd"] = json!(cwd);
        let (out, err) = place.hook(&serde_json::to_vec(&input).unwrap());
        let (decision, _) = decision_of(&out);
        assert_ne!(decision, "allow", "{out} {err}");
    }
    let audit = place.audit();
    let unplaced: Vec<&Value> = audit.iter().filter(|r| r["subject"] == "ls").collect();
    assert_eq!(unplaced.len(), 2, "{audit:?}");
    for record in unplaced {
        assert_eq!(record["route"], "ask", "{record}");
    }
}

#[test]
fn a_floor_edited_while_serve_runs_holds_from_the_next_call_and_a_broken_one_refuses_with_its_name()
{
    let place = Place::new("");
    let floor = place.path().join("floor.toml");
    std::fs::write(&floor, "").unwrap();
    let serve = place.serve_with(&["--on-ask", "defer"], |command| {
        command.env("GATEHOUSE_POLICY", &floor);
    });
    let cwd = place.path();

    let (out, err) = place.hook(&bash_payload_in(cwd, "git push origin main"));
    assert_ne!(decision_of(&out).0, "deny", "{out} {err}");

    std::fs::write(&floor, "denied_commands = [\"git push\"]\n").unwrap();
    let (out, err) = place.hook(&bash_payload_in(cwd, "git push origin main"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains("the floor rule denied-1"), "{reason}");

    // Broken while running: even a proven read is refused, naming the file, never judged as
    // if there were no floor.
    std::fs::write(&floor, "denied_commands = [\"git push\"\n").unwrap();
    let (out, err) = place.hook(&bash_payload_in(cwd, "ls"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {err}");
    assert!(reason.contains(floor.to_str().unwrap()), "{reason}");
    let audit = place.audit();
    let last = audit.last().unwrap();
    assert_eq!(last["subject"], "ls", "{last}");
    assert!(
        last["reason"].as_str().unwrap().contains("floor.toml"),
        "{last}"
    );
    let (_, log) = serve.stop();
    assert!(log.contains("floor.toml"), "{log}");
}

/// A project file just under the 1 MiB bound, of denied commands and `[[rule]]` tables: about
/// a second's parse in a debug build.
fn big_policy() -> String {
    let bound = gatehouse::core::policy::read::MAX_POLICY_BYTES;
    let mut text = String::from("denied_commands = [\n");
    let mut n = 0;
    while text.len() < bound / 2 {
        text.push_str(&format!("  \"tool-{n} --flag\",\n"));
        n += 1;
    }
    text.push_str("]\n");
    loop {
        let rule =
            format!("[[rule]]\nid = \"r-{n}\"\nprefix = \"other-{n}\"\nverdict = \"deny\"\n");
        if text.len() + rule.len() > bound {
            break text;
        }
        text.push_str(&rule);
        n += 1;
    }
}

/// One async worker, so that a parse on it would hold up every other call.
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_denied_call_elsewhere_is_answered_while_a_large_project_file_is_parsed() {
    use gatehouse::core::barrier::Settings;
    use gatehouse::core::decision::Decision;
    use gatehouse::core::policy::load::{Policy, PolicyPaths};
    use gatehouse::core::rules::{Pattern, Rules};
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big");
    let other = dir.path().join("other");
    for repo in [&big, &other] {
        std::fs::create_dir_all(repo.join(".git")).unwrap();
    }
    std::fs::write(big.join(".gatehouse.toml"), big_policy()).unwrap();
    let policy = Policy::load(PolicyPaths::default(), Vec::new(), None, Vec::new()).unwrap();
    let rules = Rules {
        denied_commands: vec![Pattern::new("git push")],
        policy: Arc::new(policy),
        ..Rules::default()
    };
    let rig = common::rig::Rig::with(
        Settings {
            rules,
            ..Settings::default()
        },
        None,
    );
    let bash_in = |cwd: &std::path::Path, line: &str| gatehouse::core::call::Call {
        cwd: cwd.display().to_string(),
        ..common::call("Bash", json!({ "command": line }))
    };
    let slow = tokio::spawn({
        let barrier = rig.barrier.clone();
        let call = bash_in(&big, "ls");
        async move { barrier.submit(call).await }
    });
    let quick = tokio::spawn({
        let barrier = rig.barrier.clone();
        let call = bash_in(&other, "git push origin main");
        async move { barrier.submit(call).await }
    });
    let answer = quick.await.unwrap();
    assert!(
        matches!(answer.decision, Decision::Deny { .. }),
        "{answer:?}"
    );
    let audit = rig.audit();
    let subjects: Vec<&str> = audit.iter().filter_map(|r| r["subject"].as_str()).collect();
    assert_eq!(
        subjects,
        ["git push origin main"],
        "answered while the large file was still being parsed"
    );
    let answer = slow.await.unwrap();
    assert_eq!(answer.decision, Decision::allow());
}
