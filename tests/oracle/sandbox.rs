//! Running one line in a throw-away sandbox, and the sandbox's first process.
//!
//! The host side starts `bwrap`: the whole file system read-only, a fresh `/dev` and `/proc`,
//! the line's own copy of the tripwire as `/tmp`, an empty read-only `/run` with the trace
//! directory at `/run/oracle`, new user, mount, pid, network, UTS, IPC and cgroup namespaces,
//! every capability dropped, a new session, the environment cleared. Inside, this test binary
//! runs again as the sandbox's first process ([`init`]): it binds listeners on loopback ports,
//! runs the line as `strace -ff -yy bash -c LINE` with stdin from `/dev/null`, stops it after
//! the per-line timeout, and writes down every connection its listeners accepted.

use std::fs;
use std::io::{ErrorKind, Read};
use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::trace;
use super::tripwire;

/// How long a line may run inside the sandbox.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the host waits for the whole sandbox before killing it.
const SANDBOX_TIMEOUT: Duration = Duration::from_secs(15);
/// Where the trace directory appears inside the sandbox.
const TRACE_DIR: &str = "/run/oracle";

/// The namespaces every sandbox gets, and the probe that checks they can be had.
const NAMESPACES: [&str; 4] = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
];

/// Where the sandbox sees this test binary, its first process. The binary is bound there
/// because its own path may be hidden inside the sandbox (a checkout under `/tmp`, which the
/// sandbox replaces with the tripwire).
const INIT_EXE: &str = "/run/oracle-init";
/// The environment variable that makes the ignored init test act as the sandbox's init.
pub const INIT_VAR: &str = "GATEHOUSE_ORACLE_INIT";
/// The name of the ignored test that is the sandbox's init.
pub const INIT_TEST: &str = "sandbox_init_runs_the_line_under_strace";

/// Loopback ports the listeners bind: the ones tools reach for.
const TCP_PORTS: &[u16] = &[
    21, 22, 23, 25, 53, 80, 443, 873, 1080, 3128, 3306, 5432, 6379, 8000, 8080, 8443, 9418,
];
const UDP_PORTS: &[u16] = &[53, 123, 514];

/// What running one line showed.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Everything caught, one sentence each; empty when the line behaved.
    pub catches: Vec<String>,
    /// File names of programs executed.
    pub executed: Vec<String>,
    /// True when the line was stopped at the timeout.
    pub timed_out: bool,
    /// The start of what the line wrote to stderr, for diagnosis.
    pub stderr: String,
}

/// Checks that bwrap and strace exist and that a sandbox can start here.
pub fn available() -> Result<(), String> {
    for tool in ["bwrap", "strace", "cp"] {
        let found = std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
            .unwrap_or(false);
        if !found {
            return Err(format!("{tool} is not installed"));
        }
    }
    let probe = Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .args(NAMESPACES)
        .args([
            "--cap-drop",
            "ALL",
            "--",
            "strace",
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "true",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("bwrap could not start: {e}"))?;
    if probe.status.success() {
        Ok(())
    } else {
        Err(format!(
            "bwrap and strace cannot run here (namespaces or ptrace missing): {}",
            String::from_utf8_lossy(&probe.stderr).trim()
        ))
    }
}

/// The sandbox's `/etc/hosts`: like an installed machine's, it names the sandbox's own host, so
/// a library that looks up the local host name at start (libcurl's does) finds it without DNS.
/// Lines that resolve other names still reach for the network and are caught.
const HOSTS: &str = "127.0.0.1 localhost\n127.0.1.1 oracle\n::1 localhost ip6-localhost\n";

/// Runs `line` in a fresh sandbox whose host directories live under `dir` (which must not
/// exist yet), and reports what it caught.
pub fn run_line(template: &Path, dir: &Path, line: &str) -> Outcome {
    let mut outcome = Outcome::default();
    let tmp = dir.join("tmp");
    let run = dir.join("run");
    let traces = dir.join("trace");
    let setup = fs::create_dir_all(run.join("oracle"))
        .and_then(|()| fs::create_dir_all(&traces))
        .map_err(|e| e.to_string())
        .and_then(|()| tripwire::copy_template(template, &tmp))
        .and_then(|()| fs::write(traces.join("line"), line).map_err(|e| e.to_string()))
        .and_then(|()| fs::write(dir.join("hosts"), HOSTS).map_err(|e| e.to_string()))
        .and_then(|()| fs::write(run.join("oracle-init"), "").map_err(|e| e.to_string()));
    if let Err(e) = setup {
        outcome.catches.push(format!("sandbox setup failed: {e}"));
        return outcome;
    }
    let before = tripwire::snapshot(&tmp);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
    let mut command = Command::new("bwrap");
    command
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
        .arg("--ro-bind")
        .arg(&run)
        .arg("/run")
        .arg("--ro-bind")
        .arg(dir.join("hosts"))
        .arg("/etc/hosts")
        .arg("--bind")
        .arg(&traces)
        .arg(TRACE_DIR)
        .arg("--bind")
        .arg(&tmp)
        .arg(tripwire::SANDBOX_TMP)
        .args(NAMESPACES)
        .args([
            "--unshare-ipc",
            "--unshare-cgroup-try",
            "--hostname",
            "oracle",
        ])
        .args([
            "--cap-drop",
            "ALL",
            "--new-session",
            "--die-with-parent",
            "--clearenv",
        ])
        .args([
            "--setenv",
            "PATH",
            "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        ])
        .args(["--setenv", "HOME", tripwire::HOME])
        .args(["--setenv", "LANG", "C.UTF-8", "--setenv", "TERM", "dumb"])
        .args(["--setenv", "USER", "root", "--setenv", INIT_VAR, "1"])
        // git's opportunistic index refresh (`git status` rewriting `.git/index` in a dirty
        // tree) is git's own bookkeeping, not what a line asks for; IDEs turn it off the same way.
        .args(["--setenv", "GIT_OPTIONAL_LOCKS", "0"])
        .arg("--ro-bind")
        .arg(&exe)
        .arg(INIT_EXE)
        .args(["--chdir", tripwire::REPO, "--"])
        .arg(INIT_EXE)
        .args(["--exact", INIT_TEST, "--nocapture", "--test-threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            outcome.catches.push(format!("bwrap did not start: {e}"));
            return outcome;
        }
    };
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    // Drain stdout (a line may print without end) and keep the start of stderr.
    let drain = thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while matches!(stdout.read(&mut buf), Ok(n) if n > 0) {}
    });
    let keep = thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 65536];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            if kept.len() < 2048 {
                kept.extend_from_slice(&buf[..n.min(2048 - kept.len())]);
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    });
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel();
    let waiter = thread::spawn(move || {
        let status = child.wait();
        let _ = done_tx.send(());
        status
    });
    if done_rx.recv_timeout(SANDBOX_TIMEOUT).is_err() {
        // SAFETY: kill(2) on the bwrap process this function started; its namespace ends with it.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
        outcome
            .catches
            .push("the sandbox did not end and was killed".to_string());
    }
    let _ = waiter.join();
    let _ = drain.join();
    outcome.stderr = keep.join().unwrap_or_default();
    let traced = trace::read(&traces, "t");
    outcome.catches.extend(traced.catches);
    outcome.executed = traced.executed.into_iter().collect();
    match fs::read_to_string(traces.join("report")) {
        Ok(report) => {
            for line in report.lines() {
                if line == "timed out" {
                    outcome.timed_out = true;
                } else if !line.is_empty() {
                    outcome.catches.push(line.to_string());
                }
            }
        }
        Err(_) => outcome.catches.push(format!(
            "the sandbox wrote no report: {}",
            outcome.stderr.trim()
        )),
    }
    let after = tripwire::snapshot(&tmp);
    let mut changes = tripwire::differences(&before, &after);
    // `sort` leaves a temporary file in `/tmp` when it is stopped or its input is a pipe it
    // cannot reread, and any tmux client makes its socket directory: these two fixed names
    // are the only things outside the tripwire let through.
    changes.retain(|change| !is_sort_temporary(change) && change != TMUX_SOCKET_DIR);
    outcome.catches.extend(changes);
    outcome
}

/// The socket directory every tmux client creates, even one that only lists sessions.
const TMUX_SOCKET_DIR: &str = "created /tmp/tmux-0";

/// `created /tmp/sortXXXXXX`, the name GNU sort gives its temporary files.
fn is_sort_temporary(change: &str) -> bool {
    change
        .strip_prefix("created /tmp/sort")
        .is_some_and(|rest| rest.len() == 6 && rest.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The sandbox's first process: listeners, the traced line, the timeout, the report.
pub fn init() {
    let trace_dir = Path::new(TRACE_DIR);
    let line = fs::read_to_string(trace_dir.join("line")).unwrap_or_default();
    let mut report = Vec::new();
    let mut tcp = Vec::new();
    let mut udp = Vec::new();
    for host in ["127.0.0.1", "[::1]"] {
        for port in TCP_PORTS {
            if let Ok(listener) = TcpListener::bind(format!("{host}:{port}")) {
                let _ = listener.set_nonblocking(true);
                tcp.push(listener);
            }
        }
        for port in UDP_PORTS {
            if let Ok(socket) = UdpSocket::bind(format!("{host}:{port}")) {
                let _ = socket.set_nonblocking(true);
                udp.push(socket);
            }
        }
    }
    if tcp.is_empty() {
        report.push("the listeners could not bind".to_string());
    }
    let spawned = Command::new("strace")
        .args(["-ff", "-qq", "-yy", "-s", "256", "--seccomp-bpf", "-e"])
        .arg(format!("trace={}", trace::SYSCALLS))
        .arg("-o")
        .arg(trace_dir.join("t"))
        .args(["bash", "-c", &line])
        .stdin(Stdio::null())
        .spawn();
    match spawned {
        Ok(mut child) => {
            let pid = child.id();
            let (done_tx, done_rx) = mpsc::channel();
            let waiter = thread::spawn(move || {
                let _ = child.wait();
                let _ = done_tx.send(());
            });
            if done_rx.recv_timeout(LINE_TIMEOUT).is_err() {
                report.push("timed out".to_string());
                // SAFETY: kill(2) on strace, which this init started; it takes its tracees.
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                }
                let _ = done_rx.recv_timeout(Duration::from_secs(2));
            }
            drop(waiter);
        }
        Err(e) => report.push(format!("strace did not start: {e}")),
    }
    for listener in &tcp {
        loop {
            match listener.accept() {
                Ok((_, peer)) => report.push(format!(
                    "listener on {} accepted a connection from {peer}",
                    listener
                        .local_addr()
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                )),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(_) => break,
            }
        }
    }
    for socket in &udp {
        let mut buf = [0u8; 512];
        while let Ok((_, peer)) = socket.recv_from(&mut buf) {
            report.push(format!(
                "listener on {} received a datagram from {peer}",
                socket
                    .local_addr()
                    .map(|a| a.to_string())
                    .unwrap_or_default()
            ));
        }
    }
    let _ = fs::write(trace_dir.join("report"), report.join("\n") + "\n");
}
