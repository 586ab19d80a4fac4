//! `--socket` is an option of the commands that use the console's socket (the console, `serve`,
//! `hook`, `install`) and of no other, through the real binary: the others neither list nor
//! take it, given before them it is refused rather than ignored, and where it is taken, before
//! or after the command name, it is the socket used.

use std::path::Path;
use std::process::{Command, Output};

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

/// `gatehouse ARGS` in a folder of its own, with no config or socket from the environment.
fn gatehouse(dir: &Path, args: &[&str]) -> Output {
    Command::new(GATEHOUSE)
        .args(args)
        .current_dir(dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("XDG_STATE_HOME", dir)
        .env("CLAUDE_CONFIG_DIR", dir.join("claude"))
        .env_remove("GATEHOUSE_SOCKET")
        .output()
        .unwrap()
}

fn help(dir: &Path, command: &[&str]) -> String {
    let out = gatehouse(dir, &[command, &["--help"]].concat());
    assert!(out.status.success(), "{command:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

const TAKE_IT: [&[&str]; 5] = [
    &["serve"],
    &["hook", "claude"],
    &["hook", "codex"],
    &["install", "claude"],
    &["install", "gemini"],
];

const USE_NONE: [&[&str]; 6] = [
    &["explain"],
    &["demo"],
    &["uninstall", "claude"],
    &["classifier", "test"],
    &["classifier", "eval"],
    &["config", "example"],
];

#[test]
fn only_the_commands_that_use_a_socket_list_socket_in_their_help() {
    let dir = tempfile::tempdir().unwrap();
    for command in TAKE_IT {
        assert!(
            help(dir.path(), command).contains("--socket"),
            "{command:?}"
        );
    }
    for command in USE_NONE {
        assert!(
            !help(dir.path(), command).contains("--socket"),
            "{command:?}"
        );
    }
    assert!(help(dir.path(), &[]).contains("--socket"), "the console");
}

#[test]
fn a_command_that_uses_no_socket_does_not_take_one_after_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = gatehouse(dir.path(), &["explain", "--socket", "/s", "ls"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unexpected argument '--socket'"),
        "{stderr}"
    );
}

#[test]
fn a_socket_given_before_a_command_that_uses_none_is_refused_not_ignored() {
    let dir = tempfile::tempdir().unwrap();
    for command in [&["explain", "ls"][..], &["config", "example"]] {
        let out = gatehouse(dir.path(), &[&["--socket", "/s"][..], command].concat());
        assert!(!out.status.success(), "{command:?}");
        assert!(out.stdout.is_empty(), "{command:?} did nothing");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("`gatehouse {}` uses none", command[0])),
            "{stderr}"
        );
    }
}

#[test]
fn install_writes_the_socket_given_before_or_after_its_name_into_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[
            "install",
            "claude",
            "--dry-run",
            "--socket",
            "/run/after.sock",
        ][..],
        &[
            "--socket",
            "/run/after.sock",
            "install",
            "claude",
            "--dry-run",
        ],
        &[
            "install",
            "--socket",
            "/run/after.sock",
            "claude",
            "--dry-run",
        ],
    ] {
        let out = gatehouse(dir.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let said = format!("{}{stderr}", String::from_utf8_lossy(&out.stdout));
        assert!(
            said.contains("hook claude --socket /run/after.sock"),
            "{args:?}: {said}"
        );
    }
}
