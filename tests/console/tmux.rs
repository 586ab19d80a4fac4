//! The real console in a real terminal (tmux): a call sent with `gatehouse hook claude` opens
//! a dialog, a typed deny reason reaches the hook, Shift+Tab to allow-all settles an open
//! dialog once confirmed while passing through allow-all settles nothing, allow always
//! remembers exactly the command seen, quitting answers what is open (never allow) and removes
//! the socket, and a panic leaves the terminal as it found it.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use common::e2e::GATEHOUSE;
use common::tmux::{Tmux, quoted};
use serde_json::{Value, json};
use tempfile::TempDir;

pub(crate) struct Console {
    pub(crate) tmux: Tmux,
    pub(crate) dir: TempDir,
}

impl Console {
    pub(crate) fn start() -> Option<Console> {
        Console::start_with("")
    }

    /// The console with `env` (`NAME=value …`) added to its environment.
    fn start_with(env: &str) -> Option<Console> {
        let dir = tempfile::tempdir().unwrap();
        // A short ask timeout, so a test that goes wrong fails in seconds, not minutes.
        let config = dir.path().join("config.toml");
        std::fs::write(&config, "ask_timeout_secs = 30\n").unwrap();
        let line = format!(
            "env {env} XDG_STATE_HOME={state} {exe} --config {config} --socket {socket}; echo EXITED $?; stty -a; sleep 60",
            state = quoted(&dir.path().join("state")),
            config = quoted(&config),
            exe = quoted(Path::new(GATEHOUSE)),
            socket = quoted(&dir.path().join("run/gatehouse.sock")),
        );
        let tmux = Tmux::start(&line, 100, 30)?;
        tmux.wait_for("Waiting for agents", 20);
        Some(Console { tmux, dir })
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gatehouse.sock")
    }

    /// Starts `gatehouse hook claude` with a PreToolUse call for `command`.
    pub(crate) fn hook(&self, command: &str) -> Child {
        let payload = json!({
            "session_id": "tmux-session",
            "cwd": self.dir.path(),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "test call"},
            "tool_use_id": "toolu_tmux",
        });
        common::claude_hook(&self.socket(), &payload)
    }
}

/// What the hook printed: its JSON, or `Null` for nothing (a defer).
pub(crate) fn printed(child: Child) -> Value {
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the hook always exits 0");
    let text = String::from_utf8(out.stdout).unwrap();
    if text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap()
    }
}

/// Lets a newly shown dialog arm (it ignores decision keys for about 250 ms).
fn past_arming() {
    std::thread::sleep(Duration::from_millis(400));
}

#[test]
fn a_typed_deny_reason_reaches_the_hook_and_allow_all_settles_an_open_dialog() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;

    let hook = console.hook("rm -rf build");
    tui.wait_for("$ rm -rf build", 10);
    tui.wait_for("rm: removes files", 5);
    past_arming();
    tui.keys(&["n"]);
    tui.wait_for("deny: reason for the model", 5);
    tui.type_text("use cargo clean instead");
    tui.keys(&["Enter"]);
    let out = printed(hook);
    let answer = &out["hookSpecificOutput"];
    assert_eq!(answer["permissionDecision"], "deny", "{out}");
    assert_eq!(
        answer["permissionDecisionReason"],
        "use cargo clean instead"
    );
    tui.wait_for("use cargo clean instead", 5);

    let hook = console.hook("rm -rf dist");
    tui.wait_for("$ rm -rf dist", 10);
    // allow-read → auto → auto+mcp → allow-all, which asks first with a dialog open.
    tui.keys(&["BTab", "BTab", "BTab"]);
    tui.wait_for("allow all?", 5);
    tui.keys(&["y"]);
    let out = printed(hook);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "allow",
        "{out}"
    );
    // The hook can have its answer a moment before the console draws the change.
    let screen = tui.wait_for("mode: allow-all: 1 open dialog allowed", 5);
    assert!(screen.contains(" allow-all "), "{screen}");
    assert!(screen.contains("queue (0)"), "{screen}");
    // With nothing open, the empty screen says the session is live, not "waiting for agents".
    assert!(screen.contains("1 agent session is live"), "{screen}");

    tui.keys(&["q"]);
    tui.wait_for("EXITED 0", 10);
    // `stty -a` runs after the console exits and may draw a moment after the exit line.
    let screen = tui.wait_for(" icanon", 5);
    assert!(!console.socket().exists(), "quitting removes the socket");
    assert_eq!(
        tui.format("#{alternate_on}"),
        "0",
        "back on the main screen"
    );
    assert!(
        screen.contains(" icanon") && screen.contains(" echo "),
        "cooked mode again:\n{screen}"
    );
}

#[test]
fn shift_tab_hurried_through_allow_all_to_block_all_never_allows_an_open_rm() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let target = console.dir.path().join("precious");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("work.txt"), "a day of work").unwrap();
    let line = format!("rm -rf {}", quoted(&target));
    let hook = console.hook(&line);
    tui.wait_for("$ rm -rf", 10);
    // allow-read → auto → auto+mcp → allow-all → block-all, as fast as tmux types.
    tui.keys(&["BTab", "BTab", "BTab", "BTab"]);
    tui.wait_for("mode: block-all: no open dialog resolved", 5);
    let screen = tui.wait_for(" block-all ", 5);
    assert!(screen.contains("queue (1)"), "still asking:\n{screen}");
    // Nothing is left to fire later: the only change that waits is a pending mode, and the
    // status bar shows one while it waits.
    assert!(!screen.contains("pending"), "{screen}");
    assert!(!screen.contains("allow all?"), "{screen}");
    tui.keys(&["n", "Enter"]);
    let out = printed(hook);
    let decision = &out["hookSpecificOutput"]["permissionDecision"];
    if decision == "allow" {
        // What the agent would do with an allow.
        Command::new("sh").arg("-c").arg(&line).status().unwrap();
    }
    assert_eq!(decision, "deny", "{out}");
    assert!(target.join("work.txt").exists(), "the folder survived");
}

#[test]
fn allow_always_remembers_exactly_the_command_seen_and_the_panel_counts_its_hits() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let hook = console.hook("rm -rf build/cache");
    tui.wait_for("$ rm -rf build/cache", 10);
    past_arming();
    tui.keys(&["a"]);
    tui.wait_for("exactly the command `rm -rf build/cache`", 5);
    tui.keys(&["Enter"]);
    let out = printed(hook);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "allow",
        "{out}"
    );

    // A sibling with other operands still asks.
    let hook = console.hook("rm -rf build/other");
    tui.wait_for("$ rm -rf build/other", 10);
    past_arming();
    tui.keys(&["n", "Enter"]);
    let out = printed(hook);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );

    // The same command again passes by the rule, and the panel counts it.
    let out = printed(console.hook("rm -rf build/cache"));
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "allow",
        "{out}"
    );
    tui.keys(&["s"]);
    let screen = tui.wait_for("rules in force", 5);
    assert!(screen.contains("1 hit"), "{screen}");
    tui.keys(&["x"]);
    tui.wait_for("No session rules", 5);
}

#[test]
fn quitting_with_a_dialog_open_asks_first_and_never_allows_it() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let hook = console.hook("touch marker");
    tui.wait_for("$ touch marker", 10);
    tui.keys(&["q"]);
    tui.wait_for("Quitting answers it `defer`", 5);
    tui.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(200));
    assert!(!tui.screen().contains("quit?"), "Esc stays in the console");
    tui.keys(&["C-c"]);
    tui.wait_for("quit?", 5);
    tui.keys(&["y"]);
    tui.wait_for("EXITED 0", 10);
    assert_eq!(
        printed(hook),
        Value::Null,
        "a defer prints nothing: Claude's own prompt decides"
    );
    assert!(!console.socket().exists());
}

#[test]
fn an_escape_sequence_in_a_command_cannot_repaint_the_console() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let hook = console.hook("echo ok\u{1b}[2J\u{1b}[H\u{1b}[32mAllowed by gatehouse; rm -rf x");
    let screen = tui.wait_for("\\e[2J\\e[H\\e[32mAllowed", 10);
    assert!(
        screen.contains("queue (1)"),
        "the console was not wiped:\n{screen}"
    );
    past_arming();
    tui.keys(&["n", "Enter"]);
    let out = printed(hook);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"],
        "denied by user"
    );
}

/// Not a check by itself: run in a terminal by the test below (with `GATEHOUSE_PANIC_CHILD`),
/// it takes the terminal as the console does, draws, and panics.
#[test]
fn panicking_console_child() {
    if std::env::var_os("GATEHOUSE_PANIC_CHILD").is_none() {
        return;
    }
    use gatehouse::tui::terminal::TerminalGuard;
    use ratatui::widgets::Paragraph;
    let mut guard = TerminalGuard::enter().expect("a terminal");
    guard
        .terminal
        .draw(|f| f.render_widget(Paragraph::new("about to panic"), f.area()))
        .expect("draw");
    std::thread::sleep(Duration::from_millis(300));
    panic!("a deliberate panic inside the console");
}

#[test]
fn a_panic_restores_the_terminal_before_reporting() {
    let me = std::env::current_exe().unwrap();
    let line = format!(
        "env RUST_BACKTRACE=0 GATEHOUSE_PANIC_CHILD=1 {} --exact tmux::panicking_console_child --nocapture; echo EXITED $?; stty -a; sleep 60",
        quoted(&me)
    );
    let Some(tui) = Tmux::start(&line, 100, 40) else {
        return;
    };
    let screen = tui.wait_for("EXITED 101", 20);
    assert!(
        screen.contains("a deliberate panic inside the console"),
        "{screen}"
    );
    assert!(
        !screen.contains("about to panic"),
        "the console's screen is gone:\n{screen}"
    );
    assert_eq!(tui.format("#{alternate_on}"), "0");
    let screen = tui.wait_for(" icanon", 5);
    assert!(screen.contains(" echo "), "{screen}");
}

#[test]
fn c_puts_the_whole_command_on_the_clipboard_through_the_terminal() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let clipboard = tui.take_clipboard();
    let command = "rm -rf build/cache && echo 'done: ü'";
    let hook = console.hook(command);
    tui.wait_for("$ rm -rf build/cache", 10);
    tui.keys(&["C"]);
    tui.wait_for("copied #1's", 5);
    let started = std::time::Instant::now();
    while clipboard() != command {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the buffer holds {:?}",
            clipboard()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    tui.keys(&["q", "y"]);
    let _ = printed(hook);
}

#[test]
fn o_shows_the_whole_subject_in_the_pager_and_the_console_comes_back() {
    let pager_dir = tempfile::tempdir().unwrap();
    let shown = pager_dir.path().join("shown.txt");
    let pager = pager_dir.path().join("pager.sh");
    std::fs::write(&pager, format!("#!/bin/sh\ncp \"$1\" {}\n", quoted(&shown))).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&pager, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(console) = Console::start_with(&format!("PAGER={}", quoted(&pager))) else {
        return;
    };
    let tui = &console.tmux;
    let hook = console.hook("rm -rf build/paged");
    tui.wait_for("$ rm -rf build/paged", 10);
    tui.keys(&["o"]);
    let started = std::time::Instant::now();
    while !shown.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the pager never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&shown).unwrap();
    assert!(text.starts_with("$ rm -rf build/paged\n"), "{text}");
    assert!(text.contains("why rm: removes files"), "{text}");
    // The console draws itself again and still takes keys.
    tui.wait_for("$ rm -rf build/paged", 10);
    past_arming();
    tui.keys(&["y"]);
    let out = printed(hook);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "allow",
        "{out}"
    );
}

#[test]
fn a_config_edited_while_the_console_runs_is_read_again_and_a_broken_one_is_refused() {
    let Some(console) = Console::start() else {
        return;
    };
    let tui = &console.tmux;
    let config = console.dir.path().join("config.toml");
    std::fs::write(
        &config,
        "ask_timeout_secs = 30\ndenied_commands = [\"terraform apply\"]\n",
    )
    .unwrap();
    tui.wait_for("config read again", 10);
    let out = printed(console.hook("terraform apply -auto-approve"));
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
    std::fs::write(&config, "ask_timeout_secs = [\n").unwrap();
    tui.wait_for("config not read again", 10);
    let out = printed(console.hook("terraform apply -auto-approve"));
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "the rules in force stay: {out}"
    );
    tui.keys(&["q"]);
}
