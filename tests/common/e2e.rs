//! What the end-to-end tests against real agent CLIs share: finding `../shared/realclients`,
//! installing a client (only with `GATEHOUSE_E2E=1`), a private gatehouse place, a `serve`
//! that is stopped when dropped, running a driver script and reading its summary.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

pub const GATEHOUSE: &str = env!("CARGO_BIN_EXE_gatehouse");

pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realclients")
}

/// Says why a test is skipped, on the real stderr (not captured by the test harness).
pub fn skip(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// Installs `agent`'s client with `install_script` and returns the path it prints, or `None`
/// (saying why) when these tests must skip: without `GATEHOUSE_E2E=1` nothing is downloaded.
pub fn client(agent: &str, install_script: &str) -> Option<String> {
    if std::env::var("GATEHOUSE_E2E").as_deref() != Ok("1") {
        skip(&format!(
            "set GATEHOUSE_E2E=1 to run the {agent} end-to-end tests"
        ));
        return None;
    }
    for tool in ["node", "npm", "python3"] {
        let found = Command::new(tool).arg("--version").output();
        if !found.is_ok_and(|o| o.status.success()) {
            skip(&format!(
                "{tool} is not installed; the {agent} e2e tests need it"
            ));
            return None;
        }
    }
    let out = Command::new("bash")
        .arg(shared().join(install_script))
        .output()
        .unwrap_or_else(|e| panic!("run {install_script}: {e}"));
    assert!(
        out.status.success(),
        "{install_script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).unwrap().trim().to_string())
}

/// A throw-away place: `project/` holding a `build/out.o` for tests to keep or remove, and a
/// private gatehouse config (`config.toml`, with its audit log beside it) adding `config`.
pub fn place(config: &str) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("build")).unwrap();
    std::fs::write(project.join("build/out.o"), "object").unwrap();
    let audit = dir.path().join("audit.jsonl");
    let text = format!("audit_log = {:?}\n{config}\n", audit.to_str().unwrap());
    std::fs::write(dir.path().join("config.toml"), text).unwrap();
    dir
}

/// Runs `command`, which must succeed; returns what it printed on stdout.
pub fn succeed(command: &mut Command) -> String {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The socket of the gatehouse place in `dir`.
pub fn socket(dir: &Path) -> PathBuf {
    dir.join("run/gatehouse.sock")
}

/// `gatehouse ARGS` with the config and socket of the place in `dir`.
pub fn gatehouse(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(GATEHOUSE);
    command
        .args(args)
        .arg("--config")
        .arg(dir.join("config.toml"));
    // `--socket` is an option of the commands that talk to the console only.
    const USE_NO_SOCKET: [&str; 9] = [
        "explain",
        "demo",
        "uninstall",
        "agents",
        "rules",
        "devices",
        "classifier",
        "config",
        "remote",
    ];
    if !args
        .first()
        .is_some_and(|first| USE_NO_SOCKET.contains(first))
    {
        command.arg("--socket").arg(socket(dir));
    }
    command
}

/// A `gatehouse serve` process, stopped with SIGTERM when dropped.
pub struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        // SAFETY: kill with a pid we spawned and have not waited for yet.
        unsafe { libc::kill(self.0.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// Starts `gatehouse serve ARGS` in the place in `dir` and waits for its socket.
pub fn serve(dir: &Path, args: &[&str]) -> Serve {
    let mut full = vec!["serve"];
    full.extend_from_slice(args);
    let child = gatehouse(dir, &full).stderr(Stdio::null()).spawn().unwrap();
    wait_for_socket(dir);
    Serve(child)
}

/// Waits up to ten seconds for the socket of the place in `dir` to appear: a `serve` just
/// spawned there has started.
pub fn wait_for_socket(dir: &Path) {
    let started = Instant::now();
    while !socket(dir).exists() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "serve did not start"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A [`place`] with a throw-away home for the agent beside it, as the agents' suites use it:
/// `home/`, `project/` (holding `build/out.o`), the gatehouse config and its socket.
pub struct AgentHome {
    pub dir: TempDir,
}

impl AgentHome {
    pub fn new(config: &str) -> AgentHome {
        AgentHome { dir: place(config) }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The agent's `HOME`, where `gatehouse install` writes its hooks.
    pub fn home(&self) -> PathBuf {
        self.path().join("home")
    }

    pub fn project(&self) -> PathBuf {
        self.path().join("project")
    }

    /// Whether `project/build/out.o` is still there (an `rm -rf build` did not run).
    pub fn built(&self) -> bool {
        self.project().join("build/out.o").exists()
    }

    pub fn gatehouse(&self, args: &[&str]) -> Command {
        gatehouse(self.path(), args)
    }

    pub fn serve(&self, args: &[&str]) -> Serve {
        serve(self.path(), args)
    }

    /// Runs the driver `script` with its `flags` (the client and the files it reads) on the
    /// call `tool` in the project, then `extra`; returns the summary.
    pub fn drive(
        &self,
        script: &str,
        flags: &[(&str, &OsStr)],
        tool: &Value,
        extra: &[&str],
    ) -> Value {
        let mut command = Command::new("python3");
        command.arg(shared().join(script));
        for (flag, value) in flags {
            command.arg(flag).arg(value);
        }
        let out = command
            .arg("--tool")
            .arg(tool.to_string())
            .arg("--cwd")
            .arg(self.project())
            .arg("--timeout")
            .arg("120")
            .args(extra)
            .output()
            .unwrap();
        summary(script, tool, out)
    }
}

/// The JSON summary a driver script (`claude_e2e.py`, …) printed for `tool`; the run must
/// have ended normally.
pub fn summary(script: &str, tool: &Value, out: Output) -> Value {
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{script} printed no summary ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    eprintln!("{tool} -> {summary}");
    assert_eq!(summary["exit"], 0, "{summary}");
    summary
}

/// A console in the test process on the socket of the place in `dir`: the real server, with a
/// scripted human who gives every dialog the same answer and counts the dialogs. Dropping it
/// stops both.
pub struct ScriptedConsole {
    runtime: tokio::runtime::Runtime,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<()>>,
    opened: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    ended: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl ScriptedConsole {
    pub fn start(dir: &Path, answer: gatehouse::core::prompter::HumanAnswer) -> ScriptedConsole {
        ScriptedConsole::answering(dir, move |_| answer.clone())
    }

    /// As [`ScriptedConsole::start`], the human giving each dialog's call what `answer` says.
    pub fn answering(
        dir: &Path,
        answer: impl Fn(&gatehouse::core::call::Call) -> gatehouse::core::prompter::HumanAnswer
        + Send
        + 'static,
    ) -> ScriptedConsole {
        use gatehouse::core::audit::Audit;
        use gatehouse::core::barrier::{Barrier, Settings};
        use gatehouse::core::event::Event;
        use std::sync::atomic::Ordering;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let audit = Audit::open(&dir.join("audit.jsonl")).unwrap();
        let (barrier, mut prompter) = Barrier::new(Settings::default(), audit, None);
        let socket = socket(dir);
        let bound = runtime.block_on(async { gatehouse::server::bind(&socket).unwrap() });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = runtime.spawn(async move {
            gatehouse::server::run(bound.listener, barrier, async {
                let _ = stopped.await;
            })
            .await;
            drop(bound.file);
        });
        let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = opened.clone();
        let ended = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let told = ended.clone();
        runtime.spawn(async move {
            while let Some(event) = prompter.next_event().await {
                match event {
                    Event::Opened(dialog) => {
                        counted.fetch_add(1, Ordering::SeqCst);
                        prompter.answer(dialog.id, answer(&dialog.call));
                    }
                    Event::SessionEnded { agent, session } => {
                        told.lock().unwrap().push(format!("{agent}:{session}"));
                    }
                    _ => {}
                }
            }
        });
        ScriptedConsole {
            runtime,
            stop: Some(stop),
            served: Some(served),
            opened,
            ended,
        }
    }

    /// The sessions (`agent:session`) whose agent said they ended, in order.
    pub fn ended(&self) -> Vec<String> {
        self.ended.lock().unwrap().clone()
    }

    /// How many dialogs the human has been shown so far.
    pub fn dialogs(&self) -> usize {
        self.opened.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for ScriptedConsole {
    fn drop(&mut self) {
        let _ = self.stop.take().map(|stop| stop.send(()));
        if let Some(served) = self.served.take() {
            let _ = self.runtime.block_on(served);
        }
    }
}

/// The decision a Claude Code hook printed: `allow`, `deny`, or `defer` for nothing printed
/// (then its stderr as the reason).
#[allow(dead_code)]
pub fn decided(out: &std::process::Output) -> (String, String) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.trim().is_empty() {
        return ("defer".into(), String::from_utf8_lossy(&out.stderr).into());
    }
    let value: Value = serde_json::from_str(stdout.trim()).unwrap();
    super::decision_of(&value)
}
