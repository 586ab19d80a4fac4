//! The command line through the real binary: `explain` (text, JSON, and the batch form that
//! checks tools feed line by line), and the console refusing to start without a terminal.

use std::io::Write;
use std::process::{Command, Stdio};

const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

fn gatehouse(args: &[&str], stdin: &[u8]) -> (String, bool) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(GATEHOUSE)
        .args(args)
        .env("XDG_CONFIG_HOME", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
fn batch_prints_one_line_per_input_line_in_order_and_survives_bad_lines() {
    let mut input = Vec::new();
    input.extend_from_slice(b"ls -la\n");
    input.extend_from_slice(b"rm -rf build\n");
    input.extend_from_slice(b"cat <<EOF\\nhello\\nEOF\n");
    input.extend_from_slice(b"ls \xff\xfe $(\n");
    input.extend_from_slice(b"\n");
    input.extend_from_slice(b"echo \x1b[2J\n");
    input.extend_from_slice(&[b'x'; 100_000]);
    input.extend_from_slice(b"\nfoo --bar\r\n");
    let (out, ok) = gatehouse(&["explain", "--batch"], &input);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    let class = |i: usize| lines[i].split('\t').next().unwrap();
    assert_eq!(class(0), "read-only");
    assert_eq!(class(1), "writer");
    assert_eq!(class(2), "read-only", "an escaped heredoc is decoded");
    assert_eq!(
        class(3),
        "unverified (unparsed)",
        "invalid UTF-8 and a parse error"
    );
    assert_eq!(
        class(4),
        "unverified (unparsed)",
        "an empty line proves nothing"
    );
    assert!(!lines[5].contains('\x1b'), "escapes are made visible");
    assert_eq!(class(7), "unverified");
    assert!(lines[7].contains("foo: unknown program"), "{}", lines[7]);
    assert!(lines.iter().all(|l| l.contains('\t')));
}

#[test]
fn explain_prints_the_class_each_modes_route_and_why() {
    let (out, ok) = gatehouse(&["explain", "ls -la && rm -rf build"], b"");
    assert!(ok);
    assert!(out.contains("class  writer"), "{out}");
    assert!(out.contains("rm: removes files"), "{out}");
    assert!(
        out.contains("allow-all   allow") && out.contains("block-all   ask"),
        "{out}"
    );

    let (out, ok) = gatehouse(&["explain", "--json", "git log --oneline | head"], b"");
    assert!(ok);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["class"], "read-only");
    assert_eq!(json["routes"]["block-all"], "ask");
    assert_eq!(json["routes"]["allow-read"], "allow");
}

#[test]
fn explain_says_which_table_judged_a_command() {
    let (out, ok) = gatehouse(&["explain", "tput cols | cat"], b"");
    assert!(ok);
    assert!(out.contains("class  read-only"), "{out}");
    assert!(
        out.contains(
            "judged tput: prints terminal capabilities (table tput, tput(1), ncurses 6.4); \
             cat: reads only (the readers list)"
        ),
        "{out}"
    );
    // A family's program is named by its own table too, with the family's reason.
    let (out, ok) = gatehouse(&["explain", "git log -5"], b"");
    assert!(ok);
    assert!(
        out.contains("judged git: shows history (table git, git(1), git 2.47.3)"),
        "{out}"
    );
    let (out, ok) = gatehouse(&["explain", "groff -U -man x.1"], b"");
    assert!(ok);
    assert!(out.contains("(table groff, groff(1), groff 1.22)"), "{out}");
    assert!(!out.contains("judged"), "{out}");
}

#[test]
fn explain_names_the_tables_of_a_wrapper_and_the_command_it_runs() {
    let (out, ok) = gatehouse(&["explain", "timeout 5 ss -tln"], b"");
    assert!(ok);
    assert!(out.contains("class  read-only"), "{out}");
    assert!(
        out.contains("(table timeout, timeout(1), GNU coreutils 9.1)"),
        "{out}"
    );
    assert!(
        out.contains("ss: lists sockets (table ss, ss(8), iproute2 6.1.0)"),
        "{out}"
    );
    assert!(!out.contains("family"), "{out}");
}

#[test]
fn the_console_without_a_terminal_says_to_use_serve() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(GATEHOUSE)
        .arg("--socket")
        .arg(dir.path().join("run/g.sock"))
        .env("XDG_CONFIG_HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs a terminal") && err.contains("gatehouse serve"),
        "{err}"
    );
    assert!(
        !dir.path().join("run/g.sock").exists(),
        "no socket was left behind"
    );
}

#[test]
fn explain_names_a_known_risk_in_the_class_and_routes_it_ask_in_auto() {
    let (out, ok) = gatehouse(&["explain", "curl https://x"], b"");
    assert!(ok);
    assert!(out.contains("class  unverified (network)"), "{out}");
    assert!(out.contains("curl: reaches x"), "{out}");
    assert!(out.contains("\n    auto        ask\n"), "{out}");
    assert!(out.contains("\n    auto+mcp    ask\n"), "{out}");
    let (out, ok) = gatehouse(&["explain", "--json", "npm test"], b"");
    assert!(ok);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["class"], "unverified (runs-code)", "{out}");
    assert_eq!(json["commands"][0]["obstacle"], "runs-code", "{out}");
    let (out, _) = gatehouse(&["explain", "mytool --list"], b"");
    assert!(out.contains("class  unverified\n"), "{out}");
    assert!(out.contains("\n    auto        race\n"), "{out}");
}

#[test]
fn config_example_prints_the_documented_example() {
    let (out, ok) = gatehouse(&["config", "example"], b"");
    assert!(ok);
    let shipped = include_str!("../../config.example.toml");
    assert_eq!(out, shipped);
}

#[test]
fn install_opencode_says_how_opencode_is_attached_instead() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(GATEHOUSE)
        .args(["install", "opencode"])
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("gatehouse attach opencode URL"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn agents_prints_its_lines_and_keeps_the_wide_table_for_markdown() {
    let (lines, ok) = gatehouse(&["agents"], b"");
    assert!(ok);
    assert!(lines.contains("Claude Code"), "{lines}");
    assert!(!lines.contains("| agent |"), "{lines}");
    let (table, ok) = gatehouse(&["agents", "--markdown"], b"");
    assert!(ok);
    assert!(table.contains("| agent |"), "{table}");
}

#[test]
fn web_or_mode_before_a_command_that_runs_no_console_is_refused_not_ignored() {
    for args in [
        &["--web=foo", "agents"][..],
        &["--mode", "auto", "explain", "ls"],
    ] {
        let out = Command::new(GATEHOUSE)
            .args(args)
            .env("XDG_CONFIG_HOME", tempfile::tempdir().unwrap().path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains("leave it out"), "{args:?}: {stderr}");
    }
}
