//! A private gatehouse place for the tests that run the real binary on loopback: a temporary
//! folder with a config, an audit log and a socket; `gatehouse serve` in it, stopped and read
//! back; and `gatehouse hook claude` fed a payload.

use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;
use tempfile::TempDir;

use super::audit_records;
use super::e2e::{gatehouse, socket, wait_for_socket};

/// A private folder with a config (`audit_log` in the folder, then the caller's text) and a
/// socket path inside.
pub struct Place {
    pub dir: TempDir,
    hide_api_keys: bool,
}

impl Place {
    /// A place whose `config.toml` is `audit_log = "<dir>/audit.jsonl"`, a newline, `extra`
    /// and a newline.
    pub fn new(extra: &str) -> Place {
        let dir = tempfile::tempdir().unwrap();
        let audit = dir.path().join("audit.jsonl");
        let config = format!("audit_log = {:?}\n{extra}\n", audit.to_str().unwrap());
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Place {
            dir,
            hide_api_keys: false,
        }
    }

    /// Runs every command of this place without the API keys of the environment, so that
    /// nothing but the config can point its classifier anywhere.
    pub fn without_api_keys(mut self) -> Place {
        self.hide_api_keys = true;
        self
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn config(&self) -> PathBuf {
        self.path().join("config.toml")
    }

    pub fn socket(&self) -> PathBuf {
        socket(self.path())
    }

    pub fn audit(&self) -> Vec<Value> {
        audit_records(&self.path().join("audit.jsonl"))
    }

    /// A listener in the socket's place (private folder, as a console would make it) that
    /// the test drives by hand.
    pub fn fake_console(&self) -> UnixListener {
        use std::os::unix::fs::DirBuilderExt;
        let dir = self.path().join("run");
        std::fs::DirBuilder::new().mode(0o700).create(dir).unwrap();
        UnixListener::bind(self.socket()).unwrap()
    }

    /// `gatehouse ARGS` with this place's config and socket, and no `GATEHOUSE_SOCKET` from
    /// the environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = gatehouse(self.path(), args);
        command.env_remove("GATEHOUSE_SOCKET");
        if self.hide_api_keys {
            command
                .env_remove("ANTHROPIC_API_KEY")
                .env_remove("OPENAI_API_KEY");
        }
        command
    }

    /// Starts `gatehouse serve` with `args` and waits for its socket.
    pub fn serve(&self, args: &[&str]) -> Serve {
        self.serve_with(args, |_| {})
    }

    /// Starts `gatehouse serve` with `args`, its command first changed by `adjust` (an
    /// environment variable, a resource limit), and waits for its socket.
    pub fn serve_with(&self, args: &[&str], adjust: impl FnOnce(&mut Command)) -> Serve {
        let mut full = vec!["serve"];
        full.extend_from_slice(args);
        let mut command = self.command(&full);
        adjust(&mut command);
        let child = command
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for_socket(self.path());
        Serve { child: Some(child) }
    }

    /// Runs `gatehouse hook claude` with `stdin` and returns what it printed. Asserts it
    /// exits 0.
    pub fn hook_output(&self, stdin: &[u8]) -> Output {
        let out = super::output_with(&mut self.command(&["hook", "claude"]), stdin);
        assert_eq!(out.status.code(), Some(0), "the hook always exits 0");
        out
    }

    /// Runs `gatehouse hook claude` with `stdin`; returns stdout parsed (or Null when empty)
    /// and stderr. Asserts it exits 0.
    pub fn hook(&self, stdin: &[u8]) -> (Value, String) {
        let out = self.hook_output(stdin);
        let stdout = String::from_utf8(out.stdout).unwrap();
        let value = if stdout.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&stdout).unwrap()
        };
        (value, String::from_utf8(out.stderr).unwrap())
    }
}

/// A `gatehouse serve` of a [`Place`], killed when dropped without being stopped.
pub struct Serve {
    child: Option<Child>,
}

impl Serve {
    /// SIGTERM, then the exit code and everything it logged.
    pub fn stop(mut self) -> (Option<i32>, String) {
        let child = self.child.take().unwrap();
        // SAFETY: kill with a pid we spawned and still own (not yet waited for).
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    }

    /// SIGKILL, as a console that dies would go: its socket is left behind.
    pub fn kill(&mut self) {
        let child = self.child.as_mut().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
