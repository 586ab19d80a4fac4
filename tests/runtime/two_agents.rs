//! Two agents at once: a Claude Code hook and a Codex hook, each a real `gatehouse hook`
//! process in its own dialect, against one `gatehouse serve`. They share one queue (one
//! console, one audit log), and the audit's `agent` field tells them apart.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use common::e2e::{gatehouse, serve};
use common::fixture;
use serde_json::Value;

fn hook(dir: &Path, agent: &str, stdin: Vec<u8>) -> std::process::Child {
    let mut child = gatehouse(dir, &["hook", agent])
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
    let serve = serve(dir.path(), &["--on-ask", "deny"]);
    // Both at once: `rm -rf build` from each agent.
    let claude = hook(
        dir.path(),
        "claude",
        fixture("claude-code/pretooluse-bash.json"),
    );
    let codex = hook(dir.path(), "codex", fixture("codex/pretooluse-bash.json"));
    let claude = claude.wait_with_output().unwrap();
    let codex = codex.wait_with_output().unwrap();
    // SIGTERM, and wait for it to exit.
    drop(serve);

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
