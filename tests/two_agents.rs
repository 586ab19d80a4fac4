//! Two agents at once: a Claude Code hook and a Codex hook, each a real `gatehouse hook`
//! process in its own dialect, against one `gatehouse serve`. They share one queue (one
//! console, one audit log), and the audit's `agent` field tells them apart.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(path),
    )
    .unwrap()
}

fn hook(dir: &Path, agent: &str, stdin: Vec<u8>) -> std::process::Child {
    let mut child = Command::new(GATEHOUSE)
        .args(["hook", agent, "--config"])
        .arg(dir.join("config.toml"))
        .arg("--socket")
        .arg(dir.join("run/gatehouse.sock"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&stdin).unwrap();
    child
}

#[test]
fn claude_code_and_codex_share_one_console_and_the_audit_tells_them_apart() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    std::fs::write(
        dir.path().join("config.toml"),
        format!("audit_log = {:?}\n", audit.to_str().unwrap()),
    )
    .unwrap();
    let socket = dir.path().join("run/gatehouse.sock");
    let mut serve = Command::new(GATEHOUSE)
        .args(["serve", "--on-ask", "deny", "--config"])
        .arg(dir.path().join("config.toml"))
        .arg("--socket")
        .arg(&socket)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !socket.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "serve did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Both at once: `rm -rf build` from each agent.
    let claude = hook(
        dir.path(),
        "claude",
        fixture("claude-code/pretooluse-bash.json"),
    );
    let codex = hook(dir.path(), "codex", fixture("codex/pretooluse-bash.json"));
    let claude = claude.wait_with_output().unwrap();
    let codex = codex.wait_with_output().unwrap();
    // SAFETY: kill with a pid we spawned and have not waited for yet.
    unsafe { libc::kill(serve.id() as libc::pid_t, libc::SIGTERM) };
    let _ = serve.wait();

    for out in [&claude, &codex] {
        assert!(out.status.success());
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "deny",
            "{answer}"
        );
    }
    let records: Vec<Value> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let agents: Vec<&str> = records.iter().filter_map(|r| r["agent"].as_str()).collect();
    assert!(agents.contains(&"claude-code"), "{records:?}");
    assert!(agents.contains(&"codex"), "{records:?}");
}
