//! `gatehouse serve`, the real binary: SIGHUP, SIGTERM and SIGINT each stop it in order (it says
//! so, removes its socket and exits 0), so a new one can start on the same socket.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

fn serve(dir: &Path) -> Child {
    let config = dir.join("config.toml");
    let audit = dir.join("audit.jsonl");
    std::fs::write(
        &config,
        format!("audit_log = {:?}\n", audit.display().to_string()),
    )
    .unwrap();
    let child = Command::new(GATEHOUSE)
        .arg("--config")
        .arg(&config)
        .arg("--socket")
        .arg(dir.join("run/gatehouse.sock"))
        .arg("serve")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !dir.join("run/gatehouse.sock").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "serve never listened"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

fn stops_in_order(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = serve(dir.path());
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status();
    assert!(sent.unwrap().success());
    let status = child.wait().unwrap();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(status.success(), "{status}: {log}");
    assert!(log.contains("gatehouse serve: stopped"), "{log}");
    assert!(
        !dir.path().join("run/gatehouse.sock").exists(),
        "the socket is removed"
    );
    let mut again = serve(dir.path());
    again.kill().unwrap();
    let _ = again.wait();
}

#[test]
fn sighup_stops_serve_in_order() {
    stops_in_order("-HUP");
}

#[test]
fn sigterm_stops_serve_in_order() {
    stops_in_order("-TERM");
}

#[test]
fn sigint_stops_serve_in_order() {
    stops_in_order("-INT");
}
