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
    let mut changes = board.watch();
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            if let Some(link) = board.get("build-box").filter(|l| test(l)) {
                return link;
            }
            changes.changed().await.unwrap();
        }
    })
    .await
    .expect("the tunnel state did not come")
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
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = unsafe { libc::kill(ssh_pid as libc::pid_t, 0) } == 0;
    let zombie =
        std::fs::read_to_string(format!("/proc/{ssh_pid}/stat")).is_ok_and(|s| s.contains(") Z "));
    assert!(!alive || zombie, "the tunnel's ssh outlived the console");
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
