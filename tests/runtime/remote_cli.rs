//! `gatehouse remote` and `install --container` as a user meets them, short of a real remote
//! (that is `tests/e2e/remote.rs`, with a real sshd): the container install's commands run
//! through a stand-in runtime first on PATH, the real Docker CLI with no daemon said plainly,
//! and a remote that cannot be reached refused with the step that failed, nothing recorded.

use crate::common::place::Place;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A `docker` that logs its arguments, says it has no gatehouse, and succeeds otherwise.
fn stand_in_docker(dir: &Path) {
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> {log}\ncase \"$*\" in *--version) exit 1;; esac\n\
         case \"$*\" in *' install '*) echo 'gatehouse: installed';; esac\nexit 0\n",
        log = dir.join("docker.log").display()
    );
    let path = dir.join("docker");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_container_install_copies_gatehouse_in_and_installs_the_hook_with_the_mounted_socket() {
    let place = Place::new("ask_timeout_secs = 300");
    let bin = place.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    stand_in_docker(&bin);
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = place
        .command(&["install", "claude", "--container", "devbox"])
        .env("PATH", path)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("installed"), "{stdout}");
    let log = std::fs::read_to_string(bin.join("docker.log")).unwrap();
    let runs: Vec<&str> = log.lines().collect();
    assert_eq!(runs[0], "exec devbox gatehouse --version");
    assert_eq!(runs[1], "exec devbox /usr/local/bin/gatehouse --version");
    assert!(
        runs[2].starts_with("cp ") && runs[2].ends_with(" devbox:/usr/local/bin/gatehouse"),
        "{log}"
    );
    assert_eq!(
        runs[3],
        "exec devbox /usr/local/bin/gatehouse install claude --socket \
         /run/gatehouse/gatehouse.sock --host devbox --ask-timeout 300"
    );
}

#[test]
fn a_container_runtime_without_its_daemon_is_said_plainly() {
    let Some(docker) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("docker"))
        .find(|p| p.is_file())
    else {
        crate::common::e2e::skip("no docker CLI on PATH");
        return;
    };
    let info = std::process::Command::new(&docker)
        .arg("info")
        .output()
        .unwrap();
    if info.status.success() {
        crate::common::e2e::skip("a Docker daemon runs here; this test is for one that does not");
        return;
    }
    let place = Place::new("");
    let out = place
        .command(&["install", "claude", "--container", "devbox"])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(
        stderr.contains("Cannot connect to the Docker daemon"),
        "{stderr}"
    );
    assert!(
        stderr.contains("has no daemon to talk to: start it"),
        "{stderr}"
    );
}

#[test]
fn a_remote_that_cannot_be_reached_is_refused_and_not_recorded() {
    let place = Place::new("");
    let port = crate::common::free_port();
    // Nothing listens on the port once the listener above is gone.
    let out = place
        .command(&[
            "remote",
            "add",
            "dev@127.0.0.1",
            "--port",
            &port.to_string(),
        ])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert!(!out.status.success());
    assert!(stderr.contains("cannot reach dev@127.0.0.1"), "{stderr}");
    assert!(!place.path().join("remotes.toml").exists());
    let out = place.command(&["remote", "list"]).output().unwrap();
    assert!(text(&out).0.contains("no remotes"));
    let out = place.command(&["remote", "rm", "box"]).output().unwrap();
    assert!(!out.status.success());
    assert!(text(&out).1.contains("no remote named \"box\""));
    let out = place
        .command(&["remote", "add", "box", "--name", "a b"])
        .output()
        .unwrap();
    assert!(text(&out).1.contains("not a usable remote name"));
}
