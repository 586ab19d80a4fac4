//! Helpers shared by the integration tests: calls, a scripted classifier, audit readers,
//! recorded fixtures.
#![allow(dead_code)]

pub mod acp;
pub mod e2e;
pub mod place;
pub mod rig;
pub mod socket_console;
pub mod tmux;
pub mod web_rig;

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use gatehouse::core::advice::{Advice, Assessment, Category, Opinion, Risk};
use gatehouse::core::call::{Agent, Call};
use gatehouse::core::classifier::{BoxFuture, Classifier, ClassifierError, Question};
use gatehouse::core::decision::Verdict;
use serde_json::{Value, json};

/// A TCP port free on loopback when asked.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Runs `command` with `stdin` written to it (then closed) and every stream piped; returns
/// what it printed and how it ended.
pub fn output_with(command: &mut Command, stdin: &[u8]) -> std::process::Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// Starts `gatehouse --socket SOCKET hook claude` with `payload` on its stdin (then closed) and
/// every stream piped, as Claude Code runs it.
pub fn claude_hook(socket: &Path, payload: &Value) -> Child {
    hook(socket, "claude", payload.to_string().as_bytes())
}

/// `gatehouse --socket SOCKET hook AGENT` with `stdin` written to it, its output piped.
pub fn hook(socket: &Path, agent: &str, stdin: &[u8]) -> Child {
    let mut child = Command::new(e2e::GATEHOUSE)
        .arg("--socket")
        .arg(socket)
        .args(["hook", agent])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child
}

pub fn call(tool: &str, input: Value) -> Call {
    call_in("s1", tool, input)
}

pub fn call_in(session: &str, tool: &str, input: Value) -> Call {
    Call {
        agent: Agent::new("claude-code"),
        session: session.into(),
        cwd: "/tmp".into(),
        tool: tool.into(),
        kind: Some(gatehouse::agents::claude::kind_of(tool)),
        subagent: None,
        input,
        tool_use_id: None,
        stage: Default::default(),
        caps: Default::default(),
        transcript_path: None,
        path_key: None,
        remote: None,
        hook_timeout_secs: None,
    }
}

pub fn bash(line: &str) -> Call {
    call("Bash", json!({ "command": line }))
}

/// A classifier that answers every call the same way after a delay, and counts its calls.
pub struct Scripted {
    pub answer: Result<Verdict, ClassifierError>,
    pub delay: Duration,
    pub calls: AtomicUsize,
}

impl Scripted {
    pub fn new(answer: Result<Verdict, ClassifierError>, delay: Duration) -> Arc<Scripted> {
        Arc::new(Scripted {
            answer,
            delay,
            calls: AtomicUsize::new(0),
        })
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl Classifier for Scripted {
    fn classify(&self, _question: Arc<Question>) -> BoxFuture<Result<Advice, ClassifierError>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let answer = self.answer.clone();
        let delay = self.delay;
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            answer.map(advice)
        })
    }
}

/// The advice of one scripted classifier saying `verdict`: a read-only at low risk with full
/// confidence, so that it clears; anything else at medium risk.
pub fn advice(verdict: Verdict) -> Advice {
    let assessment = Assessment {
        verdict,
        risk: if verdict == Verdict::ReadOnly {
            Risk::Low
        } else {
            Risk::Medium
        },
        categories: vec![Category::None],
        rationale: "scripted".into(),
        confidence: 1.0,
    };
    Advice {
        opinions: vec![Opinion::judged("scripted", assessment, 0.8)],
    }
}

/// Every record of the audit log at `path`, parsed.
pub fn audit_records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each audit line is JSON"))
        .collect()
}

/// The recorded fixture at `path` under `tests/fixtures` (`claude-code/pretooluse-read.json`).
pub fn fixture(path: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path);
    std::fs::read(path).unwrap()
}

/// A Claude Code PreToolUse input for the Bash line `line`, made in `cwd`: the recorded
/// fixture with its command and folder replaced.
#[allow(dead_code)]
pub fn bash_payload_in(cwd: &Path, line: &str) -> Vec<u8> {
    let mut value: Value =
        serde_json::from_slice(&fixture("claude-code/pretooluse-bash.json")).unwrap();
    value["cwd"] = json!(cwd);
    value["tool_input"] = json!({ "command": line });
    serde_json::to_vec(&value).unwrap()
}

/// The decision and its reason in a Claude Code hook's answer (empty where absent).
#[allow(dead_code)]
pub fn decision_of(out: &Value) -> (String, String) {
    let specific = &out["hookSpecificOutput"];
    let text = |key: &str| specific[key].as_str().unwrap_or("").to_string();
    (text("permissionDecision"), text("permissionDecisionReason"))
}

/// Lets the process `command` starts open at most `n` descriptors.
#[allow(dead_code)]
pub fn limit_descriptors(command: &mut Command, n: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: n,
                rlim_max: n,
            };
            match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
}

/// The policy files of a config folder, as `config::policy_paths` finds them beside a config
/// file, without the machine's floor or a home: a test reads only its own folder.
#[allow(dead_code)]
pub fn policy_paths_in(config: &Path) -> gatehouse::core::policy::load::PolicyPaths {
    gatehouse::core::policy::load::PolicyPaths {
        floor: None,
        floor_required: false,
        saved: Some(config.join("rules.toml")),
        trust: Some(config.join("trusted.toml")),
        home: None,
    }
}

/// Pairs a device named `name` with the web console at `base` with the one-time `code` (the
/// part of a pairing link after `#pair=`) and returns the device's token.
pub async fn pair_device(http: &reqwest::Client, base: &str, code: &str, name: &str) -> String {
    let paired: serde_json::Value = http
        .post(format!("{base}/api/pair"))
        .json(&serde_json::json!({ "code": code, "name": name }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    paired["token"]
        .as_str()
        .unwrap_or_else(|| panic!("not paired: {paired}"))
        .to_string()
}
