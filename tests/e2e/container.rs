//! End to end with a real container: a Podman container of a throw-away image (a static
//! busybox, a `root` user, nothing else) started with the console's socket folder mounted at
//! `/run/gatehouse`. `gatehouse install claude --container NAME` copies this gatehouse in (the
//! image has none) and installs Claude Code's hook there; the installed hook command, run in
//! the container, is answered by `gatehouse serve` here with the container's name as the host
//! (in the answer and the audit). With serve stopped the same hook decides statically: a read
//! passes, a writer goes back to the agent, never an allow a console would not give.
//!
//! Runs with `GATEHOUSE_E2E=1`, as root, with Podman, runc and busybox-static installed (Docker
//! is left out of PATH: gatehouse picks Docker first); otherwise, or where this machine cannot
//! run a container at all, it skips, saying why. The run options (runc, fixed limits, no
//! network) are the ones a nested, cgroup-hybrid machine such as CI's accepts.

use crate::common;

use std::os::unix::fs::DirBuilderExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::e2e;
use serde_json::Value;

const BUSYBOX: &str = "/bin/busybox";
/// PATH for gatehouse: Podman's folder, not `/usr/local/bin` where a daemonless Docker may be.
const PATH: &str = "/usr/bin:/bin:/usr/sbin:/sbin";

fn podman(args: &[&str]) -> Output {
    Command::new("podman")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("podman runs")
}

fn skip_reason() -> Option<String> {
    if std::env::var("GATEHOUSE_E2E").as_deref() != Ok("1") {
        return Some("set GATEHOUSE_E2E=1 to run the container end-to-end test".into());
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("the container test runs rootful Podman, which needs root".into());
    }
    for (tool, package) in [("/usr/bin/podman", "podman"), ("/usr/sbin/runc", "runc")] {
        if !Path::new(tool).exists() {
            return Some(format!("{tool} is missing: install {package}"));
        }
    }
    if !Path::new(BUSYBOX).exists() {
        return Some(format!("{BUSYBOX} is missing: install busybox-static"));
    }
    None
}

/// The container, removed with its image when dropped.
struct Container {
    name: String,
    image: String,
}

impl Container {
    /// Builds the image in `dir` and starts it with `socket_dir` mounted; `Err` says why this
    /// machine cannot run it.
    fn start(dir: &Path, socket_dir: &Path) -> Result<Container, String> {
        let root = dir.join("rootfs");
        for sub in [
            "bin",
            "etc",
            "root",
            "tmp",
            "usr/local/bin",
            "run/gatehouse",
        ] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        std::fs::copy(BUSYBOX, root.join("bin/busybox")).unwrap();
        for tool in ["sh", "cat", "sleep", "ls"] {
            std::os::unix::fs::symlink("busybox", root.join("bin").join(tool)).unwrap();
        }
        std::fs::write(root.join("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n").unwrap();
        let tar = dir.join("rootfs.tar");
        let packed = Command::new("tar")
            .args([
                "-C",
                root.to_str().unwrap(),
                "-cf",
                tar.to_str().unwrap(),
                ".",
            ])
            .status()
            .unwrap();
        assert!(packed.success());
        let id = std::process::id();
        let container = Container {
            name: format!("gatehouse-e2e-{id}"),
            image: format!("localhost/gatehouse-e2e:{id}"),
        };
        let imported = podman(&["import", tar.to_str().unwrap(), &container.image]);
        if !imported.status.success() {
            return Err(format!(
                "podman import failed: {}",
                String::from_utf8_lossy(&imported.stderr)
            ));
        }
        let mount = format!("{}:/run/gatehouse", socket_dir.display());
        let run = podman(&[
            "--runtime",
            "runc",
            "run",
            "-d",
            "--name",
            &container.name,
            "--network",
            "none",
            "--ulimit",
            "nofile=1024:1024",
            "--ulimit",
            "nproc=1024:1024",
            "-v",
            &mount,
            &container.image,
            "sleep",
            "600",
        ]);
        if !run.status.success() {
            return Err(format!(
                "this machine cannot run a container: {}",
                String::from_utf8_lossy(&run.stderr).trim()
            ));
        }
        Ok(container)
    }

    /// Runs `script` in the container with `stdin`.
    fn shell(&self, script: &str, stdin: &[u8]) -> Output {
        let mut command = Command::new("podman");
        command.args(["exec", "-i", &self.name, "sh", "-c", script]);
        common::output_with(&mut command, stdin)
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        podman(&["rm", "-f", "-t", "0", &self.name]);
        podman(&["rmi", "-f", &self.image]);
    }
}

#[test]
#[ignore = "runs a Podman container: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_hook_installed_in_a_container_is_answered_here_and_decides_alone_without_a_console() {
    if let Some(why) = skip_reason() {
        e2e::skip(&why);
        return;
    }
    let place = e2e::place("");
    let dir = place.path();
    let socket = e2e::socket(dir);
    // The console's own socket folder, private as serve makes it.
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(socket.parent().unwrap())
        .unwrap();
    let container = match Container::start(dir, socket.parent().unwrap()) {
        Ok(container) => container,
        Err(why) => {
            e2e::skip(&why);
            return;
        }
    };
    let name = container.name.clone();

    let installed = e2e::succeed(
        e2e::gatehouse(dir, &["install", "claude", "--container", &name]).env("PATH", PATH),
    );
    assert!(
        installed.contains("/root/.claude/settings.json"),
        "{installed}"
    );
    let settings = container.shell("cat /root/.claude/settings.json", b"");
    let settings: Value = serde_json::from_slice(&settings.stdout).unwrap();
    let hook = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no hook in {settings}"))
        .to_string();
    let expected = format!(
        "/usr/local/bin/gatehouse hook claude --socket /run/gatehouse/gatehouse.sock \
         --host {name} --timeout "
    );
    assert!(
        hook.starts_with(&expected) && hook[expected.len()..].chars().all(|c| c.is_ascii_digit()),
        "gatehouse copied in, the mounted socket, the container's label and the hook timeout: \
         {hook}"
    );
    let call = |line: &str| common::bash_payload_in(Path::new("/root"), line);
    let in_container = |line: &str| e2e::decided(&container.shell(&hook, &call(line)));

    // A console here: it answers, and knows where the call came from.
    let serve = e2e::serve(dir, &["--on-ask", "deny"]);
    let (decision, reason) = in_container("ls -la");
    assert_eq!(decision, "allow", "{reason}");
    let (decision, reason) = in_container("rm -rf build");
    assert_eq!(decision, "deny", "nobody is watching serve: {reason}");
    let audit = common::audit_records(&dir.join("audit.jsonl"));
    let calls: Vec<&Value> = audit.iter().filter(|r| r["agent"].is_string()).collect();
    assert_eq!(calls.len(), 2, "{audit:?}");
    assert!(
        calls.iter().all(|r| r["host"] == name.as_str()),
        "{audit:?}"
    );

    // No console: the hook decides statically, never allowing what needs a human.
    drop(serve);
    assert_eq!(in_container("ls -la").0, "allow");
    assert_eq!(
        in_container("rm -rf build").0,
        "defer",
        "a writer goes back to Claude Code"
    );
    assert_eq!(
        common::audit_records(&dir.join("audit.jsonl"))
            .iter()
            .filter(|r| r["agent"].is_string())
            .count(),
        2,
        "the console saw none of them"
    );
}
