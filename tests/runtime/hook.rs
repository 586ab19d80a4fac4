//! The real `gatehouse` binary: `hook claude` against a real `gatehouse serve` on a temporary
//! socket, with no console at all, and against a console that dies mid-call.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::fixture;
use common::place::Place;
use serde_json::{Value, json};

/// A hook input for `tool` with `input`, on the PreToolUse event.
fn pre_tool_use(tool: &str, input: Value) -> Vec<u8> {
    let mut value: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-read.json")).unwrap();
    value["tool_name"] = json!(tool);
    value["tool_input"] = input;
    serde_json::to_vec(&value).unwrap()
}

fn decision_of(out: &Value) -> (&str, &str) {
    let specific = &out["hookSpecificOutput"];
    (
        specific["permissionDecision"].as_str().unwrap_or(""),
        specific["permissionDecisionReason"].as_str().unwrap_or(""),
    )
}

#[test]
fn a_running_console_allows_a_read_and_audits_it() {
    let place = Place::new("");
    let serve = place.serve(&[]);
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert_eq!(decision_of(&out).0, "allow");
    let (code, log) = serve.stop();
    assert_eq!(code, Some(0));
    assert!(
        log.contains("Read `/home/dev/project/notes.txt` -> allow (rule"),
        "{log}"
    );
    assert_eq!(place.audit().len(), 1);
    assert!(
        !place.socket().exists(),
        "serve removes its socket on SIGTERM"
    );
}

#[test]
fn serve_on_ask_deny_refuses_a_write_with_a_reason_that_no_one_is_watching() {
    let place = Place::new("");
    let _serve = place.serve(&["--on-ask", "deny"]);
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-write.json"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny");
    assert!(reason.contains("no one is watching"), "{reason}");
    let (out, _) = place.hook(&pre_tool_use("mcp__x__y", json!({})));
    assert_eq!(decision_of(&out).0, "deny");
}

#[test]
fn serve_on_ask_defer_prints_nothing_for_a_write() {
    let place = Place::new("");
    let _serve = place.serve(&["--on-ask", "defer"]);
    let (out, stderr) = place.hook(&fixture("claude-code/pretooluse-write.json"));
    assert_eq!(out, Value::Null);
    assert_eq!(stderr, "");
    assert_eq!(place.audit()[0]["decision"], "defer");
}

#[test]
fn serve_in_allow_all_allows_a_write_but_refuses_a_denied_tool() {
    let place = Place::new(r#"denied_commands = ["mcp__prod__drop_table"]"#);
    let _serve = place.serve(&["--mode", "allow-all"]);
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-write.json"));
    assert_eq!(decision_of(&out).0, "allow");
    let (out, _) = place.hook(&pre_tool_use("mcp__prod__drop_table", json!({})));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny");
    assert!(reason.contains("mcp__prod__drop_table"), "{reason}");
}

#[test]
fn a_permission_request_is_answered_in_its_own_shape() {
    let place = Place::new("");
    let _serve = place.serve(&["--mode", "allow-all"]);
    let mut input: Value =
        serde_json::from_slice(&fixture("claude-code/permissionrequest-bash.json")).unwrap();
    input["tool_name"] = json!("Write");
    input["tool_input"] = json!({"file_path": "/tmp/x", "content": ""});
    let (out, _) = place.hook(&serde_json::to_vec(&input).unwrap());
    assert_eq!(
        out,
        json!({"hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"}
        }})
    );
}

#[test]
fn with_no_console_a_read_passes_statically_and_a_write_is_left_to_claude() {
    let place = Place::new("");
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "allow");
    assert!(reason.contains("console is not running"), "{reason}");
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-write.json"));
    assert_eq!(out, Value::Null, "defer prints nothing");
    let (out, _) = place.hook(&pre_tool_use("mcp__x__y", json!({})));
    assert_eq!(out, Value::Null);
}

#[test]
fn with_no_console_a_denied_tool_is_still_denied() {
    let place = Place::new(r#"denied_commands = ["WebFetch"]"#);
    let (out, _) = place.hook(&pre_tool_use("WebFetch", json!({"url": "http://x"})));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny");
    assert!(reason.contains("WebFetch"), "{reason}");
}

#[test]
fn bad_stdin_defers_with_one_line_on_stderr() {
    let place = Place::new("");
    for stdin in [
        &b"not json"[..],
        b"",
        br#"{"hook_event_name":"Stop"}"#,
        br#"{"hook_event_name":"PreToolUse"}"#,
    ] {
        let (out, stderr) = place.hook(stdin);
        assert_eq!(out, Value::Null);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("gatehouse hook claude:"), "{stderr}");
    }
}

#[test]
fn a_console_lost_mid_wait_makes_the_hook_defer() {
    let place = Place::new("");
    let listener = place.fake_console();
    let console = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(&stream).read_line(&mut line).unwrap();
        drop(stream);
        line
    });
    let (out, stderr) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert!(console.join().unwrap().contains("\"tool\":\"Read\""));
    assert_eq!(
        out,
        Value::Null,
        "a read is not allowed statically once a console took it"
    );
    assert!(stderr.contains("lost the gatehouse console"), "{stderr}");
}

#[test]
fn contract_11_a_console_that_takes_a_call_and_never_answers_still_gets_a_denied_command_denied() {
    // A console too busy to answer (its descriptors taken, say): it accepts and says nothing.
    let place = Place::new("ask_timeout_secs = 1\ndenied_commands = [\"git push\"]");
    let listener = place.fake_console();
    let console = std::thread::spawn(move || {
        let held: Vec<_> = (0..2).map(|_| listener.accept().unwrap()).collect();
        held
    });
    let (out, stderr) = place.hook(&pre_tool_use(
        "Bash",
        json!({"command": "cd x && git push --force"}),
    ));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out} {stderr}");
    assert!(reason.contains("denied command"), "{reason}");
    assert!(
        stderr.contains("no answer before the ask timeout"),
        "{stderr}"
    );
    // Not a proven read, though: the console may have been asking the human about it.
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert_eq!(out, Value::Null);
    drop(console.join());
}

#[test]
fn the_hook_gives_up_after_the_ask_timeout_and_a_small_margin() {
    let place = Place::new("ask_timeout_secs = 1");
    let listener = place.fake_console();
    let console = std::thread::spawn(move || listener.accept().unwrap());
    let started = Instant::now();
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    let took = started.elapsed();
    assert_eq!(out, Value::Null);
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    drop(console.join());
}

#[test]
fn a_second_serve_on_the_same_socket_refuses_to_start() {
    let place = Place::new("");
    let _serve = place.serve(&[]);
    let out = place.command(&["serve"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("already listening"), "{stderr}");
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert_eq!(
        decision_of(&out).0,
        "allow",
        "the first console still answers"
    );
}

#[test]
fn the_hook_does_not_trust_a_socket_in_a_folder_open_to_others_and_says_so() {
    use std::os::unix::fs::PermissionsExt;
    let place = Place::new("");
    let listener = place.fake_console();
    let run = place.dir.path().join("run");
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o777)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let (out, stderr) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "allow", "a proven read still passes statically");
    assert!(reason.contains("not safe to trust"), "{reason}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("gatehouse hook claude: not asking the gatehouse console"),
        "{stderr}"
    );
    assert!(stderr.contains("open to other users"), "{stderr}");
    let accepted = listener.accept();
    assert!(accepted.is_err(), "the hook never connected");
}

#[test]
fn a_socket_left_by_a_console_that_died_is_replaced_by_the_next_one() {
    let place = Place::new("");
    let mut serve = place.serve(&[]);
    serve.kill();
    assert!(place.socket().exists(), "SIGKILL leaves the socket behind");
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    let (_, reason) = decision_of(&out);
    assert!(
        reason.contains("not running"),
        "a dead socket is no console: {reason}"
    );
    let mut next = place
        .command(&["serve"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let answered = loop {
        let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
        if decision_of(&out).1.contains("(rule)") {
            break true;
        }
        if started.elapsed() > Duration::from_secs(10) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = next.kill();
    let _ = next.wait();
    assert!(answered, "the new console took over the socket");
}

#[test]
fn with_no_console_a_proven_read_only_shell_line_passes_and_rm_is_left_to_claude() {
    let place = Place::new("");
    let (out, stderr) = place.hook(&fixture("claude-code/pretooluse-bash.json"));
    assert_eq!(out, Value::Null, "rm -rf build is never allowed statically");
    assert_eq!(stderr, "", "a static defer is quiet");
    let (out, _) = place.hook(&pre_tool_use("Bash", json!({"command": "ls"})));
    assert_eq!(decision_of(&out).0, "allow");
}

/// A fake console that answers every request with a protocol error, as the real one does for a
/// line too long or malformed; returns what it was sent.
fn refusing_console(place: &Place, calls: usize) -> std::thread::JoinHandle<Vec<String>> {
    use std::io::Write;
    let listener = place.fake_console();
    std::thread::spawn(move || {
        (0..calls)
            .map(|_| {
                let (mut stream, _) = listener.accept().unwrap();
                let mut line = String::new();
                BufReader::new(&stream).read_line(&mut line).unwrap();
                let refusal = "{\"v\":1,\"error\":\"request line is longer than 1048576 bytes\"}\n";
                stream.write_all(refusal.as_bytes()).unwrap();
                line
            })
            .collect()
    })
}

#[test]
fn a_console_that_refuses_the_request_leaves_a_denied_command_denied() {
    let place = Place::new(r#"denied_commands = ["git push"]"#);
    let console = refusing_console(&place, 3);
    let padded = format!("git push --force # {}", "x".repeat(4000));
    let (out, stderr) = place.hook(&pre_tool_use("Bash", json!({ "command": padded })));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{out}");
    assert!(reason.contains("git push"), "{reason}");
    assert!(reason.contains("refused the request"), "{reason}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("gatehouse hook claude: the console refused the request"),
        "{stderr}"
    );

    let (out, _) = place.hook(&pre_tool_use("Bash", json!({"command": "ls"})));
    assert_eq!(decision_of(&out).0, "allow", "a proven read still passes");
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-write.json"));
    assert_eq!(out, Value::Null, "a write is left to Claude Code");
    assert_eq!(console.join().unwrap().len(), 3, "every call was sent");
}

#[test]
fn a_write_of_200_kb_of_control_bytes_and_a_padded_denied_command_reach_the_console() {
    let place = Place::new(r#"denied_commands = ["git push"]"#);
    let _serve = place.serve(&["--on-ask", "deny"]);
    // JSON escapes each control byte as six bytes: 1.2 MB on the wire for 200 KB sent.
    let control: String = (0..200_000)
        .map(|i| char::from((i % 31 + 1) as u8))
        .collect();
    let write = pre_tool_use("Write", json!({"file_path": "/tmp/x", "content": control}));
    let (out, stderr) = place.hook(&write);
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{stderr}");
    assert!(
        reason.contains("no one is watching"),
        "the console decided: {reason}"
    );

    // 300 KB of control bytes in a comment: 1.8 MB on the wire, still a line gatehouse parses.
    let padded = format!("git push # {}", "\u{1}".repeat(300_000));
    let (out, stderr) = place.hook(&pre_tool_use("Bash", json!({ "command": padded })));
    let (decision, reason) = decision_of(&out);
    assert_eq!(decision, "deny", "{stderr}");
    assert!(reason.contains("denied command"), "{reason}");
    let audit = place.audit();
    assert_eq!(audit.len(), 2, "both were decided by the console");
    assert_eq!(audit[1]["class"], "denied");
}

#[test]
fn a_bad_config_is_said_in_one_stderr_line_and_the_call_is_still_decided_safely() {
    let place = Place::new("mode = \"nonsense\"");
    let (out, stderr) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert_eq!(
        out,
        Value::Null,
        "without rules to trust, even a read is left to Claude"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("gatehouse hook claude: the config cannot be used"),
        "{stderr}"
    );
    assert!(
        stderr.contains("config.toml:2"),
        "names the file and line: {stderr}"
    );
}

#[test]
fn a_hook_input_past_64_mib_defers_with_one_line_on_stderr() {
    use std::io::Write;
    let place = Place::new("");
    let mut child = place
        .command(&["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b' '; 1024 * 1024];
        // The hook stops reading past its bound, so a later write may fail: that is the point.
        for _ in 0..65 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(&fixture("claude-code/pretooluse-read.json"));
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "defer prints nothing");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("longer than 64 MiB"), "{stderr}");
}

#[test]
fn the_hooks_stderr_names_the_agent_it_runs_for() {
    let place = Place::new(r#"denied_commands = ["rm"]"#);
    let console = refusing_console(&place, 1);
    let mut child = place
        .command(&["hook", "codex"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let stdin = fixture("codex/pretooluse-bash.json");
    child.stdin.take().unwrap().write_all(&stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("gatehouse hook codex: the console refused the request"),
        "{stderr}"
    );
    let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(decision_of(&stdout).0, "deny", "rm is denied statically");
    console.join().unwrap();
}

#[test]
fn when_the_audit_log_is_swapped_for_a_link_serve_refuses_to_follow_it_denies_and_says_so() {
    let place = Place::new("");
    let serve = place.serve(&[]);
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    assert_eq!(decision_of(&out).0, "allow");
    let audit = place.path().join("audit.jsonl");
    let target = place.path().join("elsewhere");
    std::fs::write(&target, "").unwrap();
    std::fs::remove_file(&audit).unwrap();
    std::os::unix::fs::symlink(&target, &audit).unwrap();
    let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
    let (decision, reason) = decision_of(&out);
    assert_eq!(
        decision, "deny",
        "an allow that cannot be audited is refused"
    );
    assert!(reason.contains("audit log"), "{reason}");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "",
        "nothing lands in the target"
    );
    let (_, log) = serve.stop();
    assert!(log.contains("AUDIT FAILING"), "{log}");
    assert!(log.contains("symbolic link"), "{log}");
}
