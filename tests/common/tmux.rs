//! Drives a real terminal: a program runs in a tmux session on a private tmux server, keys go
//! in with `send-keys`, and the screen comes back with `capture-pane`.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The private tmux server all tests share, so a user's own tmux is never touched.
const SERVER: &str = "gatehouse-tests";

pub struct Tmux {
    pub name: String,
}

fn tmux(args: &[&str]) -> Output {
    Command::new("tmux")
        .arg("-L")
        .arg(SERVER)
        .args(args)
        .output()
        .expect("run tmux")
}

impl Tmux {
    /// Runs `command` (a shell line) in a new session of `width`×`height`, or returns `None`
    /// when tmux is not installed, after a `SKIP` line naming the test (written to stderr
    /// itself, which the test harness does not capture). Under CI, where tmux is installed,
    /// a missing tmux fails the test instead.
    pub fn start(command: &str, width: u16, height: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            let test = std::thread::current()
                .name()
                .unwrap_or("a tmux test")
                .to_string();
            assert!(
                std::env::var_os("CI").is_none(),
                "{test}: tmux is not installed, and CI must run the console tests"
            );
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIP {test}: tmux is not installed (apt-get install tmux to run it)"
            );
            return None;
        }
        keep_server_up();
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "t{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let (w, h) = (width.to_string(), height.to_string());
        let out = tmux(&[
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            &w,
            "-y",
            &h,
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(Tmux { name })
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", &self.name]).stdout).into()
    }

    /// A tmux format value of the pane, such as `#{alternate_on}`.
    pub fn format(&self, format: &str) -> String {
        let out = tmux(&["display-message", "-p", "-t", &self.name, format]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits until the screen shows `text`; panics with the screen after `secs`.
    pub fn wait_for(&self, text: &str, secs: u64) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(secs),
                "the screen never showed {text:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends tmux key names (`Enter`, `BTab`, `n`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.name];
        args.extend_from_slice(keys);
        tmux(&args);
    }

    /// Lets programs set tmux's paste buffer through OSC 52 (a server-wide option), and
    /// returns a way to read the newest buffer.
    pub fn take_clipboard(&self) -> impl Fn() -> String + use<> {
        tmux(&["set-option", "-s", "set-clipboard", "on"]);
        || String::from_utf8_lossy(&tmux(&["show-buffer"]).stdout).into_owned()
    }

    /// Types `text` literally.
    pub fn type_text(&self, text: &str) {
        tmux(&["send-keys", "-t", &self.name, "-l", text]);
    }
}

/// Keeps the private server up for as long as this test process lives. Without it the session
/// that ends last takes the server with it, and a test starting its session in that instant
/// fails; the tests of one binary run at the same time, so that instant comes. The keeper's
/// pane watches this process and ends within a second of it.
fn keep_server_up() {
    static KEEPER: std::sync::Once = std::sync::Once::new();
    KEEPER.call_once(|| {
        let me = std::process::id();
        let watch = format!("while kill -0 {me} 2>/dev/null; do sleep 1; done");
        let out = tmux(&["new-session", "-d", "-s", &format!("keep-{me}"), &watch]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

impl Drop for Tmux {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.name]);
    }
}

/// Quotes `path` for a shell line.
pub fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}
