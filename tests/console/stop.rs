//! Every way the console is told to stop from outside ends in the one orderly shutdown: SIGHUP,
//! SIGTERM, SIGINT, its tmux pane being killed, and its terminal ending with no signal at all
//! (end of file or EIO on its input) each answer the
//! open dialog `defer` (never allow), audit it with decider `shutdown`, remove the socket,
//! leave the terminal as it was, and let a new console start on the same socket.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::e2e::GATEHOUSE;
use common::tmux::{Tmux, quoted};
use serde_json::{Value, json};
use tempfile::TempDir;

struct Place {
    dir: TempDir,
}

impl Place {
    fn new() -> Place {
        let place = Place {
            dir: tempfile::tempdir().unwrap(),
        };
        let config = format!(
            "ask_timeout_secs = 60\naudit_log = {:?}\n",
            place.audit().display().to_string()
        );
        std::fs::write(place.dir.path().join("config.toml"), config).unwrap();
        place
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gatehouse.sock")
    }

    fn audit(&self) -> PathBuf {
        self.dir.path().join("audit.jsonl")
    }

    /// A console in a fresh tmux pane of 100×30, drawn and waiting.
    fn console(&self) -> Option<Tmux> {
        self.console_after("")
    }

    /// As [`Place::console`], with `prefix` before the console's command.
    fn console_after(&self, prefix: &str) -> Option<Tmux> {
        let line = format!(
            "{prefix}{exe} --config {config} --socket {socket}; echo EXITED $?; stty -a; sleep 60",
            exe = quoted(Path::new(GATEHOUSE)),
            config = quoted(&self.dir.path().join("config.toml")),
            socket = quoted(&self.socket()),
        );
        let tmux = Tmux::start(&line, 100, 30)?;
        tmux.wait_for("Waiting for agents", 20);
        Some(tmux)
    }

    fn hook(&self, command: &str) -> Child {
        let payload = json!({
            "session_id": "stop-session",
            "cwd": self.dir.path(),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        });
        common::claude_hook(&self.socket(), &payload)
    }
}

/// The console's process: the `gatehouse` below the pane's shell.
fn console_pid(tmux: &Tmux) -> u32 {
    let mut todo = vec![tmux.format("#{pane_pid}")];
    while let Some(pid) = todo.pop() {
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if comm.trim() == "gatehouse" {
            return pid.parse().unwrap();
        }
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        todo.extend(children.split_whitespace().map(str::to_string));
    }
    panic!("no console process below the pane");
}

/// Waits for process `pid` to be gone; returns how long it took.
fn wait_gone(pid: u32, since: Instant) -> Duration {
    while Path::new(&format!("/proc/{pid}")).exists() {
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        });
        if zombie {
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(10),
            "the console is still running"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    since.elapsed()
}

fn printed(child: Child) -> Value {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap()
    }
}

/// Sends `how` to a console with a dialog open and checks the orderly shutdown happened.
fn stops_in_order(how: &str) {
    stops_in_order_after("", how);
}

fn stops_in_order_after(prefix: &str, how: &str) {
    // One at a time: each test times the shutdown it causes, and five consoles stopping at
    // once would crowd a small machine. (The private tmux server no longer ends with its
    // last pane: `common::tmux` keeps a session of its own there.)
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    let place = Place::new();
    let Some(tui) = place.console_after(prefix) else {
        return;
    };
    let hook = place.hook("touch marker");
    tui.wait_for("$ touch marker", 10);
    let pid = console_pid(&tui);
    let since = Instant::now();
    if how == "kill-pane" {
        let out = Command::new("tmux")
            .args(["-L", "gatehouse-tests", "kill-pane", "-t", &tui.name])
            .output()
            .unwrap();
        assert!(out.status.success());
    } else {
        let sent = Command::new("kill").args([how, &pid.to_string()]).status();
        assert!(sent.unwrap().success());
    }
    let took = wait_gone(pid, since);
    let _ = writeln!(std::io::stderr(), "shutdown on {how}: {took:?}");
    assert_eq!(printed(hook), Value::Null, "a defer prints nothing");
    let audit = std::fs::read_to_string(place.audit()).unwrap();
    let record: Value = audit
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["subject"] == "touch marker")
        .unwrap_or_else(|| panic!("no record of the open call:\n{audit}"));
    assert_eq!(
        (&record["decision"], &record["decider"]),
        (&json!("defer"), &json!("shutdown"))
    );
    assert!(!place.socket().exists(), "the socket is removed");
    if how != "kill-pane" {
        // `stty -a` runs after the console exits: cooked mode again.
        let screen = tui.wait_for(" icanon", 5);
        assert!(screen.contains("EXITED 0"), "{screen}");
        assert_eq!(tui.format("#{alternate_on}"), "0", "{screen}");
    }
    // Started before the old pane's session ends, so the private tmux server stays up.
    let again = place.console().expect("tmux");
    drop(tui);
    again.keys(&["q"]);
    again.wait_for("EXITED 0", 10);
}

#[test]
fn sighup_is_an_orderly_quit() {
    stops_in_order("-HUP");
}

#[test]
fn sigterm_is_an_orderly_quit() {
    stops_in_order("-TERM");
}

#[test]
fn sigint_is_an_orderly_quit() {
    stops_in_order("-INT");
}

#[test]
fn killing_the_pane_is_an_orderly_quit() {
    stops_in_order("kill-pane");
}

#[test]
fn a_terminal_gone_without_any_signal_is_an_orderly_quit() {
    // In a session of its own the console is not the terminal's controlling process, so the
    // pane's end reaches it only as end of file or EIO on its input, never as SIGHUP.
    stops_in_order_after("setsid ", "kill-pane");
}
