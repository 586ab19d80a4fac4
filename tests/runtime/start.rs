//! How the real binary starts: linked so that it needs no dynamic loader and still loads at a
//! random address (`.cargo/config.toml`), and started by `cli::start` rather than std, so what
//! std would have done before `main` must still hold; and what the hook and serve do when no
//! one reads their output any more.

use crate::common;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

use common::fixture;
use common::place::Place;

/// ELF's header fields this test reads (64-bit, little-endian).
const ET_DYN: u16 = 3;
const PT_INTERP: u32 = 3;

/// The binary's type and the types of its program headers.
fn elf_layout(bytes: &[u8]) -> (u16, Vec<u32>) {
    assert_eq!(&bytes[..4], b"\x7fELF", "not an ELF file");
    assert_eq!(bytes[4], 2, "not a 64-bit ELF file");
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (phoff, phentsize, phnum) = (u64_at(0x20) as usize, u16_at(0x36), u16_at(0x38));
    let types = (0..phnum as usize)
        .map(|i| u32_at(phoff + i * phentsize as usize))
        .collect();
    (u16_at(0x10), types)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_needs_no_dynamic_loader_and_keeps_a_random_load_address() {
    let bytes = std::fs::read(common::e2e::GATEHOUSE).unwrap();
    let (kind, segments) = elf_layout(&bytes);
    assert!(
        !segments.contains(&PT_INTERP),
        "the binary names a dynamic loader: every hook run would pay for loading libraries \
         (is .cargo/config.toml's crt-static in force?)"
    );
    assert_eq!(
        kind, ET_DYN,
        "a fixed-address executable: position independence (and so ASLR) is lost"
    );
}

#[test]
fn a_hook_whose_agent_stopped_reading_exits_cleanly_rather_than_by_sigpipe() {
    let place = Place::new("");
    let (reader, writer) = std::io::pipe().unwrap();
    // No one will ever read the answer.
    drop(reader);
    let mut child = place
        .command(&["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(&fixture("claude-code/pretooluse-read.json"))
        .unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), None, "killed by a signal: {status:?}");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_hook_whose_stderr_is_gone_still_exits_0_with_its_deny() {
    // The socket's folder is open to others, so the hook refuses to use it, decides alone and
    // says why on stderr, which no one reads. Claude Code reads a hook's answer only from a
    // clean exit, so a status other than 0 here would turn the deny into Claude's own prompt.
    let place = Place::new("denied_commands = [\"rm -rf\"]\n");
    let folder = place.socket().parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&folder).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = place
        .command(&["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(writer)
        .spawn()
        .unwrap();
    let mut payload: serde_json::Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    payload["tool_input"] = serde_json::json!({"command": "rm -rf build"});
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
}

#[test]
fn a_command_line_error_still_exits_with_status_two_and_says_why() {
    let place = Place::new("");
    let out = place.command(&["no-such-command"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_failing_command_exits_with_status_one() {
    let place = Place::new("");
    let out = place
        .command(&["rules", "rm", "no-such-rule"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
}

#[test]
fn serve_whose_stderr_is_gone_still_listens_and_answers_every_call() {
    let place = Place::new("");
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut serve = place
        .command(&["serve"])
        .stdin(Stdio::null())
        .stderr(writer)
        .spawn()
        .unwrap();
    common::e2e::wait_for_socket(place.path());
    for _ in 0..3 {
        let (out, _) = place.hook(&fixture("claude-code/pretooluse-read.json"));
        let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default();
        assert!(!reason.contains("without the console"), "{out}");
    }
    assert_eq!(place.audit().len(), 3, "each call decided by serve");
    serve.kill().unwrap();
    serve.wait().unwrap();
}
