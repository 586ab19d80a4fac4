//! `gatehouse demo`: the console on a private socket, with a scripted agent that sends
//! realistic calls through the real hook path (`gatehouse hook claude`, one process per call,
//! as Claude Code runs it). Two sessions at once: reads that pass, a compound command that
//! needs you, an edit shown as a diff, an MCP call, a denied command and a doomed edit.

use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::config::Config;
use crate::core::rules::Pattern;

/// One scripted call: the pause before it, its session, tool and input.
struct Step {
    pause_ms: u64,
    session: &'static str,
    tool: &'static str,
    input: Value,
}

const SESSION_A: &str = "demo-a1b2c3d4-feature-work";
const SESSION_B: &str = "demo-e5f6a7b8-refactor";

fn script(project: &Path) -> Vec<Step> {
    let lib = project.join("src/lib.rs").display().to_string();
    let step = |pause_ms, session, tool, input| Step {
        pause_ms,
        session,
        tool,
        input,
    };
    vec![
        step(900, SESSION_A, "Read", json!({"file_path": lib})),
        step(
            500,
            SESSION_A,
            "Bash",
            json!({"command": "git status && git diff --stat", "description": "See what changed"}),
        ),
        step(
            500,
            SESSION_B,
            "Grep",
            json!({"pattern": "fn add", "path": "src"}),
        ),
        step(
            700,
            SESSION_A,
            "Bash",
            json!({
                "command": "cargo build --release 2>&1 | tail -5 && ./target/release/app --selftest",
                "description": "Build and run the self test"
            }),
        ),
        step(
            600,
            SESSION_B,
            "Edit",
            json!({
                "file_path": lib,
                "old_string": "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}",
                "new_string": "/// Adds two numbers, saturating at the bounds.\npub fn add(a: i32, b: i32) -> i32 {\n    a.saturating_add(b)\n}"
            }),
        ),
        step(
            600,
            SESSION_B,
            "mcp__github__create_issue",
            json!({
                "owner": "acme", "repo": "calculator",
                "title": "add() overflows on large inputs",
                "labels": ["bug"]
            }),
        ),
        step(
            600,
            SESSION_A,
            "Bash",
            json!({"command": "git push origin main", "description": "Publish the branch"}),
        ),
        step(
            600,
            SESSION_B,
            "Edit",
            json!({
                "file_path": lib,
                "old_string": "pub fn substract(",
                "new_string": "pub fn subtract("
            }),
        ),
        step(
            700,
            SESSION_A,
            "Bash",
            json!({"command": "rm -rf build && ls -la", "description": "Clean the build folder"}),
        ),
    ]
}

const LIB_RS: &str = "//! A tiny calculator.\n\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n";

/// Runs the demo until the human quits the console.
pub async fn run(mut config: Config) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("gatehouse-demo-{}", std::process::id()));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("creating the demo folder {}", dir.display()))?;
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("src"))?;
    std::fs::write(project.join("src/lib.rs"), LIB_RS)?;
    config
        .settings
        .rules
        .denied_commands
        .push(Pattern::new("git push"));
    config.audit_log = dir.join("audit.jsonl");
    // The tour's calls are scripted: no phone is paired to them, and nobody is notified.
    config.web = None;
    config.notify_command = None;
    let socket = dir.join("gatehouse.sock");

    let exe = std::env::current_exe().context("finding the gatehouse binary")?;
    let agent_socket = socket.clone();
    std::thread::spawn(move || play(&exe, &agent_socket, &project));
    let result = crate::console::run(config, socket, None, std::future::pending()).await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The scripted agent: each call is a `gatehouse hook claude` process, left to wait for its
/// answer while the next one starts.
fn play(exe: &PathBuf, socket: &Path, project: &Path) {
    for step in script(project) {
        std::thread::sleep(Duration::from_millis(step.pause_ms));
        let payload = json!({
            "session_id": step.session,
            "transcript_path": "/dev/null",
            "cwd": project,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": step.tool,
            "tool_input": step.input,
            "tool_use_id": format!("toolu_demo_{}", step.tool),
        });
        let child = Command::new(exe)
            .arg("--socket")
            .arg(socket)
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else { return };
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(payload.to_string().as_bytes());
        }
        std::thread::spawn(move || child.wait());
    }
}
