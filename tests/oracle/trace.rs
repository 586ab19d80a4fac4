//! Reading the `strace -ff -yy` output of one line: programs executed, network attempts, and
//! writes the read-only root refused or that landed outside the tripwire.
//!
//! Writes inside the sandbox's `/tmp` are left to the snapshot, which sees their net effect
//! (git's `index.lock` comes and goes without changing anything). Everything else that tries
//! to change a file fails with `EROFS` on the read-only root, so an `EROFS` result anywhere is
//! a catch, and so is a successful change outside `/tmp` that is not a terminal or null device.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The syscalls traced, for `strace -e trace=`.
pub const SYSCALLS: &str = "execve,execveat,open,openat,openat2,creat,mkdir,mkdirat,rename,\
renameat,renameat2,unlink,unlinkat,rmdir,link,linkat,symlink,symlinkat,chmod,fchmod,fchmodat,\
chown,fchown,lchown,fchownat,truncate,ftruncate,utimensat,utimes,utime,mknod,mknodat,setxattr,\
lsetxattr,fsetxattr,removexattr,lremovexattr,fremovexattr,connect,sendto,sendmsg,sendmmsg,mount";

/// Syscalls that change a path (besides `open` with write flags).
const MUTATORS: &[&str] = &[
    "creat",
    "mkdir",
    "mkdirat",
    "rename",
    "renameat",
    "renameat2",
    "unlink",
    "unlinkat",
    "rmdir",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "ftruncate",
    "utimensat",
    "utimes",
    "utime",
    "mknod",
    "mknodat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "mount",
];

/// Paths outside the tripwire a read-only line may open for writing.
const HARMLESS_WRITE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/urandom",
    "/dev/random",
];

/// What one line's trace shows.
#[derive(Debug, Default)]
pub struct Trace {
    /// File names of programs executed successfully, in no particular order.
    pub executed: BTreeSet<String>,
    /// Network attempts and refused or stray writes, one sentence each.
    pub catches: Vec<String>,
}

/// Reads every `prefix.PID` file in `dir`.
pub fn read(dir: &Path, prefix: &str) -> Trace {
    let mut trace = Trace::default();
    let Ok(entries) = fs::read_dir(dir) else {
        trace
            .catches
            .push("the trace could not be read".to_string());
        return trace;
    };
    let mut found = false;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(&format!("{prefix}.")) {
            continue;
        }
        found = true;
        let text = fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines() {
            judge_line(line, &mut trace);
        }
    }
    if !found {
        trace.catches.push("no trace was written".to_string());
    }
    trace
}

fn judge_line(line: &str, trace: &mut Trace) {
    let Some(open_paren) = line.find('(') else {
        return;
    };
    let call = &line[..open_paren];
    let Some(result_at) = line.rfind(") = ") else {
        return;
    };
    let result = &line[result_at + 4..];
    let ok = result.starts_with(|c: char| c.is_ascii_digit());
    let args = &line[open_paren + 1..result_at];
    let short = if line.len() > 300 { &line[..300] } else { line };
    match call {
        "execve" | "execveat" => {
            if ok && let Some(path) = first_string(args) {
                let name = path.rsplit('/').next().unwrap_or(&path).to_string();
                trace.executed.insert(name);
            }
        }
        "connect" if is_network_connect(args) => trace.catches.push(format!("network: {short}")),
        "sendto" | "sendmsg" | "sendmmsg" if is_inet_send(args) => {
            trace.catches.push(format!("network: {short}"));
        }
        "open" | "openat" | "openat2" => {
            let writes = ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]
                .iter()
                .any(|flag| args.contains(flag));
            if writes {
                judge_write(result, ok, short, trace);
            }
        }
        name if MUTATORS.contains(&name) => judge_write(result, ok, short, trace),
        _ => {}
    }
}

fn judge_write(result: &str, ok: bool, short: &str, trace: &mut Trace) {
    if result.contains("EROFS") {
        trace
            .catches
            .push(format!("write refused by the read-only root: {short}"));
        return;
    }
    if !ok {
        return;
    }
    // With `-yy` a returned descriptor shows its path, and a device its numbers after it:
    // `= 3</tmp/x>`, `= 3</dev/null<char 1:3>>`.
    let path = result
        .split_once('<')
        .and_then(|(_, rest)| rest.split(['<', '>']).next())
        .map(str::to_string)
        .or_else(|| first_string(short));
    let Some(path) = path else {
        return;
    };
    if !path.starts_with('/') || path.starts_with("/tmp/") || path == "/tmp" {
        return;
    }
    if HARMLESS_WRITE_PATHS.contains(&path.as_str())
        || path.starts_with("/dev/pts/")
        || path.starts_with("pipe:")
        || path.starts_with("socket:")
    {
        return;
    }
    trace
        .catches
        .push(format!("write outside the tripwire: {short}"));
}

/// A `connect` that reaches out: any TCP (or unknown) inet connect, and a UDP connect to an
/// address that is not loopback. A UDP connect only sets the default peer and sends nothing, so
/// one to loopback (`fuser 22/tcp` probes its own addresses that way) is not counted; a send
/// on it would be. A resolver's UDP connect to its name server counts even when the sandbox's
/// missing route makes it fail before the query is sent.
fn is_network_connect(args: &str) -> bool {
    if !args.contains("sa_family=AF_INET") {
        return false;
    }
    let udp = args
        .split_once('<')
        .is_some_and(|(_, rest)| rest.starts_with("UDP"));
    let loopback = args.contains("inet_addr(\"127.") || args.contains("\"::1\"");
    !(udp && loopback)
}

/// A send on an inet socket (`-yy` shows `3<UDP:[...]>` or `3<TCP:[...]>`), or to an inet
/// address.
fn is_inet_send(args: &str) -> bool {
    let on_inet = args
        .split_once('<')
        .is_some_and(|(_, rest)| rest.starts_with("UDP") || rest.starts_with("TCP"));
    on_inet || args.contains("sa_family=AF_INET")
}

/// The first double-quoted string among the arguments, with strace's escapes left as they are.
fn first_string(args: &str) -> Option<String> {
    let start = args.find('"')? + 1;
    let mut end = start;
    let bytes = args.as_bytes();
    while end < bytes.len() {
        match bytes[end] {
            b'\\' => end += 2,
            b'"' => return Some(args[start..end].to_string()),
            _ => end += 1,
        }
    }
    None
}

#[test]
fn a_trace_shows_network_refused_writes_and_stray_writes_but_not_terminal_output() {
    let mut trace = Trace::default();
    for line in [
        r#"execve("/usr/bin/ls", ["ls"], 0x1 /* 3 vars */) = 0"#,
        r#"execve("/usr/local/sbin/ls", ["ls"], 0x1 /* 3 vars */) = -1 ENOENT (No such file)"#,
        r#"openat(AT_FDCWD</tmp/tripwire/repo>, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null<char 1:3>>"#,
        r#"openat(AT_FDCWD</tmp/tripwire/repo>, "x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/tripwire/repo/x>"#,
        r#"connect(3<UDPv6:[1]>, {sa_family=AF_INET6, sin6_port=htons(22), inet_pton(AF_INET6, "::1", &sin6_addr)}, 28) = 0"#,
    ] {
        judge_line(line, &mut trace);
    }
    assert!(trace.catches.is_empty(), "{:?}", trace.catches);
    assert_eq!(trace.executed.iter().collect::<Vec<_>>(), ["ls"]);
    for line in [
        r#"openat(AT_FDCWD</>, "/etc/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)"#,
        r#"openat(AT_FDCWD</>, "/dev/shm/x", O_WRONLY|O_CREAT, 0666) = 3</dev/shm/x>"#,
        r#"connect(3<TCP:[1]>, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)"#,
        r#"connect(3<UDP:[1]>, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.53")}, 16) = -1 ENETUNREACH (Network is unreachable)"#,
        r#"sendto(3<UDP:[127.0.0.1:5->127.0.0.1:53]>, "q", 1, MSG_NOSIGNAL, NULL, 0) = 1"#,
        r#"mkdir("/run/x", 0777) = -1 EROFS (Read-only file system)"#,
    ] {
        let before = trace.catches.len();
        judge_line(line, &mut trace);
        assert_eq!(trace.catches.len(), before + 1, "not caught: {line}");
    }
}
