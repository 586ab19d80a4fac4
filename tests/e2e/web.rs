//! End to end with the real Claude Code CLI and the web console: Claude Code (driven by the
//! scripted model of `../shared/realclients/claude_e2e.py`) makes a call through gatehouse's
//! installed hook, `gatehouse serve --web` holds it for the web, a device paired with the link
//! `gatehouse pair` printed denies it over the page's own API with a reason, and that reason
//! is what the model reads as the tool's result.
//!
//! Runs only with `GATEHOUSE_E2E=1` (`.ci/e2e` sets it); without it, or without node and npm,
//! it skips, saying so. The browser side of the page is tested in `console/web_chromium.rs`.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::e2e::{self, client, shared};
use serde_json::{Value, json};

/// A `gatehouse serve`, stopped with SIGTERM when dropped.
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        // SAFETY: kill with a pid we spawned and have not waited for yet.
        unsafe { libc::kill(self.0.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
async fn a_deny_reason_given_on_the_web_reaches_claude_codes_model() {
    let Some(claude) = client("Claude Code", "install_claude.sh") else {
        return;
    };
    let port = common::free_port();
    let dir = e2e::place(&format!("[web]\nlisten = \"127.0.0.1:{port}\""));
    std::fs::write(dir.path().join("empty-settings.json"), "{}").unwrap();
    let project = dir.path().join("project");
    let state = dir.path().join("state");
    e2e::succeed(
        e2e::gatehouse(dir.path(), &["install", "claude", "--scope", "local"])
            .current_dir(&project),
    );
    let serve = e2e::gatehouse(dir.path(), &["serve"])
        .env("XDG_STATE_HOME", &state)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _serve = Stopped(serve);
    e2e::wait_for_socket(dir.path());

    let pair = e2e::succeed(e2e::gatehouse(dir.path(), &["pair"]).env("XDG_STATE_HOME", &state));
    let link = pair.lines().last().unwrap().to_string();
    let code = link.split("#pair=").nth(1).unwrap().to_string();
    let base = format!("http://127.0.0.1:{port}");
    let http = gatehouse::plumbing::http::client();
    let token = common::pair_device(&http, &base, &code, "e2e phone").await;

    // Claude Code runs until its one tool call is answered.
    let tool =
        json!({"name": "Bash", "input": {"command": "rm -rf build", "description": "clean"}});
    let driver = Command::new("python3")
        .arg(shared().join("claude_e2e.py"))
        .arg("--claude")
        .arg(&claude)
        .arg("--settings")
        .arg(dir.path().join("empty-settings.json"))
        .arg("--tool")
        .arg(tool.to_string())
        .arg("--cwd")
        .arg(&project)
        .arg("--timeout")
        .arg("120")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // The call appears on the web; deny it there.
    let started = Instant::now();
    let id = loop {
        let state: Value = http
            .get(format!("{base}/api/state"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        // Answered once past the arming moment in which the server refuses answers.
        if let Some(dialog) = state["dialogs"].as_array().and_then(|d| d.first())
            && dialog["age_ms"].as_u64().unwrap() >= 300
        {
            assert_eq!(dialog["preview"]["line"], "rm -rf build", "{dialog}");
            break dialog["id"].as_u64().unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "the call never reached the web"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let reason = "answered on the phone: keep the build folder";
    let answered = http
        .post(format!("{base}/api/answer"))
        .bearer_auth(&token)
        .json(&json!({ "id": id, "answer": "deny", "text": reason }))
        .send()
        .await
        .unwrap();
    assert!(
        answered.status().is_success(),
        "{:?}",
        answered.text().await
    );

    let out = tokio::task::spawn_blocking(move || driver.wait_with_output().unwrap())
        .await
        .unwrap();
    let summary = e2e::summary("claude_e2e.py", &tool, out);
    let result = summary["tool_result"].as_str().unwrap_or("");
    assert!(result.contains(reason), "{summary}");
    assert!(project.join("build/out.o").exists(), "the build was kept");
}
