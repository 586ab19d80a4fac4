//! End to end with the real OpenCode 1.18.33 (`opencode serve`), driven by a scripted model on
//! loopback (`../shared/realclients/opencode_e2e.py --reply none --url-file`): the script
//! answers nothing, and `gatehouse attach opencode URL` attaches a running `gatehouse serve`
//! to the server, which then answers every permission request. The server has a password, so
//! every call gatehouse makes must sign in.
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client): a plain `cargo test`
//! never downloads anything. Without node, npm or python3 they skip, saying so.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::e2e::{self, client, shared};

const PASSWORD: &str = "e2e-s3cret";

fn opencode() -> Option<String> {
    client("OpenCode", "install_opencode.sh")
}

/// Runs `tool` in OpenCode with `gatehouse serve ARGS` (config `config`) attached, and returns
/// the script's summary.
fn run(opencode: &str, config: &str, serve: &[&str], tool: Value) -> Value {
    let dir = e2e::place(config);
    let _serve = e2e::serve(dir.path(), serve);
    let url_file = dir.path().join("url.json");
    let script = Command::new("python3")
        .arg(shared().join("opencode_e2e.py"))
        .args(["--opencode", opencode, "--reply", "none", "--timeout", "90"])
        .args(["--start-delay", "2", "--password", PASSWORD])
        .arg("--url-file")
        .arg(&url_file)
        .arg("--tool")
        .arg(tool.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let url = wait_for_url(&url_file);
    let attached = e2e::succeed(
        e2e::gatehouse(dir.path(), &["attach", "opencode", &url])
            .env("OPENCODE_SERVER_PASSWORD", PASSWORD)
            .env_remove("OPENCODE_SERVER_USERNAME"),
    );
    assert!(attached.contains("attaching to opencode"), "{attached}");
    let out = script.wait_with_output().unwrap();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "opencode_e2e.py printed no summary ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    eprintln!("{tool} -> {summary}");
    assert_eq!(summary["status"], "idle", "{summary}");
    assert_eq!(summary["replies_sent"], json!([]), "{summary}");
    summary
}

/// The server's address, once the script has written it (it does so as soon as the server
/// listens, before the prompt is sent).
fn wait_for_url(file: &Path) -> String {
    let started = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(value) = serde_json::from_str::<Value>(&text)
        {
            return value["url"].as_str().unwrap().to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "opencode serve never listened"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn replies(summary: &Value) -> Vec<&str> {
    summary["permission_replied"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["reply"].as_str())
        .collect()
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_denied_command_is_rejected_with_its_reason_which_reaches_the_model_and_the_run_goes_on() {
    let Some(opencode) = opencode() else { return };
    let summary = run(
        &opencode,
        "denied_commands = [\"touch\"]",
        &["--mode", "allow-all"],
        json!({"name": "bash", "input": {"command": "touch ran.txt"}}),
    );
    assert_eq!(replies(&summary), ["reject"], "{summary}");
    assert_eq!(summary["tool_ran"], false, "{summary}");
    assert_eq!(summary["files_changed"]["created"], json!([]), "{summary}");
    let result = summary["tool_result"].as_str().unwrap_or_default();
    assert!(
        result.contains("with the following feedback: gatehouse:"),
        "{summary}"
    );
    assert!(result.contains("touch"), "{summary}");
    // The model was asked again with the reason: the run went on.
    assert_eq!(summary["model_requests"], 2, "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn an_allowed_call_is_answered_once_and_runs() {
    let Some(opencode) = opencode() else { return };
    let summary = run(
        &opencode,
        "",
        &["--mode", "allow-all"],
        json!({"name": "bash", "input": {"command": "touch ran.txt"}}),
    );
    assert_eq!(replies(&summary), ["once"], "{summary}");
    assert_eq!(summary["tool_ran"], true, "{summary}");
    let created = summary["files_changed"]["created"].to_string();
    assert!(created.contains("ran.txt"), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_call_that_needs_a_human_nobody_watches_is_rejected_saying_so() {
    let Some(opencode) = opencode() else { return };
    let summary = run(
        &opencode,
        "",
        &["--mode", "allow-read", "--on-ask", "deny"],
        json!({"name": "bash", "input": {"command": "touch ran.txt"}}),
    );
    assert_eq!(replies(&summary), ["reject"], "{summary}");
    assert_eq!(summary["tool_ran"], false, "{summary}");
    let result = summary["tool_result"].as_str().unwrap_or_default();
    assert!(result.contains("no one is watching"), "{summary}");
}
