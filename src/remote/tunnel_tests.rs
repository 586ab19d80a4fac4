use super::*;
use crate::remote::ssh::Target;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

/// A stand-in for `ssh` that logs each run and then behaves as `mode` in its folder says:
/// `up` prints the tunnel's line and holds, `fail` says why on stderr and exits 255.
fn fake_ssh(dir: &Path) -> PathBuf {
    let path = dir.join("ssh");
    let script = format!(
        "#!/bin/sh\nlast=\"\"; for a in \"$@\"; do last=\"$a\"; done\n\
         echo \"$*\" >> {dir}/log\n\
         case \"$last\" in rm\\ -f*) exit 0;; esac\n\
         if [ \"$(cat {dir}/mode)\" = up ]; then echo {up}; exec cat >/dev/null; fi\n\
         echo 'ssh: connect to host box port 22: Connection refused' >&2; exit 255\n",
        dir = dir.display(),
        up = TUNNEL_UP
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn host() -> RemoteHost {
    RemoteHost {
        name: "build-box".into(),
        target: Target {
            host: "box".into(),
            user: Some("dev".into()),
            port: None,
            ssh_config: None,
        },
        exe: "/home/dev/.local/bin/gatehouse".into(),
        socket: "/home/dev/r.sock".into(),
        agents: vec![],
    }
}

/// Waits (on the board's changes, not a clock) until `name`'s state passes `test`.
async fn until(board: &Board, test: impl Fn(&Link) -> bool) -> Link {
    until_state(board, |l| l.filter(|l| test(l)).cloned()).await
}

/// Waits (on the board's changes) until `build-box`'s state, or its absence, gives `Some`.
async fn until_state<T>(board: &Board, test: impl Fn(Option<&Link>) -> Option<T>) -> T {
    let mut changes = board.watch();
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Some(seen) = test(board.get("build-box").as_ref()) {
                return seen;
            }
            changes.changed().await.unwrap();
        }
    })
    .await
    .expect("the tunnel state did not come")
}

/// Whether the process `pid` is gone (or a zombie waiting for its reaper).
fn gone(pid: u32) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0;
    let zombie =
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "));
    !alive || zombie
}

#[tokio::test]
async fn a_tunnel_comes_up_is_started_again_when_its_ssh_dies_and_stops_with_the_console() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mode"), "up").unwrap();
    let program = fake_ssh(dir.path());
    let tunnels = Tunnels::start_with(program, vec![host()], Path::new("/run/g.sock"), None);
    let board = tunnels.board.clone();
    let Link::Up { ssh_pid } = until(&board, |l| matches!(l, Link::Up { .. })).await else {
        unreachable!()
    };
    let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
    let runs: Vec<&str> = log.lines().collect();
    assert!(runs[0].ends_with("box rm -f '/home/dev/r.sock'"), "{log}");
    assert!(
        runs[1].contains("-R /home/dev/r.sock:/run/g.sock box"),
        "{log}"
    );

    // SAFETY: a pid of a child this test's supervisor spawned and still holds.
    unsafe { libc::kill(ssh_pid as libc::pid_t, libc::SIGKILL) };
    let down = until(&board, |l| matches!(l, Link::Down { .. })).await;
    // Down because it was killed, not because its remote `cat` lost the console's pipe.
    let Link::Down { why, retry_secs } = down else {
        unreachable!()
    };
    assert!(why.contains("signal: 9"), "{why}");
    assert_eq!(retry_secs, 1);
    let again = until(&board, |l| matches!(l, Link::Up { .. })).await;
    assert_ne!(again, Link::Up { ssh_pid });

    tunnels.stop().await;
    assert_eq!(board.get("build-box"), Some(Link::Stopped));
    let Link::Up { ssh_pid } = again else {
        unreachable!()
    };
    assert!(gone(ssh_pid), "the tunnel's ssh outlived the console");
}

#[tokio::test]
async fn a_remote_added_or_removed_while_the_console_runs_gains_or_loses_its_tunnel() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mode"), "up").unwrap();
    let program = fake_ssh(dir.path());
    let config = dir.path().join("config");
    std::fs::create_dir(&config).unwrap();
    let states = dir.path().join("states");
    let remotes = |hosts| crate::remote::list::Remotes {
        path: config.join(crate::remote::list::FILE),
        hosts,
    };
    let local = Path::new("/run/g.sock");
    let tunnels = Tunnels::follow_with(program, &config, local, Some(states.clone())).unwrap();
    let board = tunnels.board.clone();
    assert!(board.all().is_empty());

    remotes(vec![host()]).save().unwrap();
    let Link::Up { ssh_pid } = until(&board, |l| matches!(l, Link::Up { .. })).await else {
        unreachable!()
    };
    assert!(crate::remote::state::read(&states, "build-box").is_some());

    remotes(vec![]).save().unwrap();
    until_state(&board, |l| l.is_none().then_some(())).await;
    assert!(gone(ssh_pid), "the removed remote's ssh is still running");
    assert!(crate::remote::state::read(&states, "build-box").is_none());

    // Added again, it is started again.
    remotes(vec![host()]).save().unwrap();
    until(&board, |l| matches!(l, Link::Up { .. })).await;
    tunnels.stop().await;
    assert_eq!(board.get("build-box"), Some(Link::Stopped));
}

#[tokio::test]
async fn a_tunnel_that_cannot_connect_says_why_and_waits_longer_each_time() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mode"), "fail").unwrap();
    let program = fake_ssh(dir.path());
    let tunnels = Tunnels::start_with(program, vec![host()], Path::new("/run/g.sock"), None);
    let board = tunnels.board.clone();
    let first = until(&board, |l| matches!(l, Link::Down { .. })).await;
    let Link::Down { why, retry_secs } = first else {
        unreachable!()
    };
    assert_eq!(retry_secs, 1);
    assert!(why.contains("Connection refused"), "{why}");
    until(&board, |l| matches!(l, Link::Down { retry_secs: 2, .. })).await;
    tunnels.stop().await;
    assert_eq!(board.get("build-box"), Some(Link::Stopped));
}
