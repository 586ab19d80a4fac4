//! The console writes nothing to stderr while its screen is up: stderr is the terminal the TUI
//! draws on, and a stray line would paint over it. The real console runs in tmux with its
//! stderr sent to a file and every diagnostic asked for (`GATEHOUSE_LOG=trace`); a dialog is
//! denied with a reason, another is withdrawn by its agent, a client sends a line that is not
//! a request, and the console quits. The file must still be empty.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use common::e2e::GATEHOUSE;
use common::tmux::{Tmux, quoted};
use serde_json::json;

#[test]
fn the_console_writes_nothing_to_stderr_while_its_screen_is_up() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "ask_timeout_secs = 30\n").unwrap();
    let socket = dir.path().join("run/gatehouse.sock");
    let stderr = dir.path().join("stderr.txt");
    let state = dir.path().join("state");
    let line = format!(
        "env GATEHOUSE_LOG=trace XDG_STATE_HOME={state} {exe} --config {config} --socket {socket} 2>{stderr}; echo EXITED $?; sleep 60",
        state = quoted(&state),
        exe = quoted(Path::new(GATEHOUSE)),
        config = quoted(&config),
        socket = quoted(&socket),
        stderr = quoted(&stderr),
    );
    let Some(tui) = Tmux::start(&line, 100, 30) else {
        return;
    };
    tui.wait_for("Waiting for agents", 20);
    assert!(
        stderr.exists(),
        "the shell sent the console's stderr to the file"
    );

    let payload = |command: &str| {
        json!({
            "session_id": "stderr-session",
            "cwd": dir.path(),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_stderr",
        })
    };
    let hook = common::claude_hook(&socket, &payload("rm -rf build"));
    tui.wait_for("$ rm -rf build", 10);
    // A new dialog ignores decision keys while it arms (about 250 ms).
    std::thread::sleep(Duration::from_millis(400));
    tui.keys(&["n"]);
    tui.wait_for("deny: reason for the model", 5);
    tui.type_text("not today");
    tui.keys(&["Enter"]);
    let out = hook.wait_with_output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("not today"),
        "the hook has the denial"
    );

    let mut gone = common::claude_hook(&socket, &payload("rm -rf dist"));
    tui.wait_for("$ rm -rf dist", 10);
    gone.kill().unwrap();
    gone.wait().unwrap();
    tui.wait_for("withdrawn", 10);

    let mut client = UnixStream::connect(&socket).unwrap();
    client.write_all(b"this is not a request\n").unwrap();
    let mut reply = String::new();
    BufReader::new(&client).read_line(&mut reply).unwrap();
    assert!(!reply.is_empty(), "the console answers a bad line");
    drop(client);

    tui.keys(&["q"]);
    tui.wait_for("EXITED 0", 10);
    let written = std::fs::read_to_string(&stderr).unwrap();
    assert!(
        written.is_empty(),
        "the console wrote to stderr under its screen:\n{written}"
    );
}
