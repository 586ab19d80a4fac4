//! `gatehouse acp` end to end: the scripted ACP editor (`common::acp`, the crate's client
//! side) runs `gatehouse acp -- node <entry> --acp` for the real Gemini CLI 0.61.0 and Qwen
//! Code 0.24.4, each against its scripted model on loopback (`acp_model.py`, the fake APIs of
//! `../shared/realclients`), with a scripted human at a real console: a proven read runs with
//! no dialog, a writer opens a dialog, the human's allow runs it and a deny does not, and a
//! console that dies mid-request never becomes an allow.
//!
//! Only with `GATEHOUSE_E2E=1` (`.ci/e2e`); without node, npm or python3 they skip.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use common::acp::{self, EditorAnswer, Turn};
use common::e2e::{AgentHome, GATEHOUSE, ScriptedConsole, client, shared};
use gatehouse::core::barrier::HumanAnswer;

#[derive(Clone, Copy)]
enum Flavour {
    Gemini,
    Qwen,
}

struct Rig {
    flavour: Flavour,
    entry: String,
    at: AgentHome,
}

impl Rig {
    fn new(flavour: Flavour) -> Option<Rig> {
        let entry = match flavour {
            Flavour::Gemini => client("Gemini CLI", "install_gemini.sh")?,
            Flavour::Qwen => client("Qwen Code", "install_qwen.sh")?,
        };
        let at = AgentHome::new("");
        std::fs::write(at.project().join("notes.txt"), "hello from e2e\n").unwrap();
        let (dir, settings) = match flavour {
            Flavour::Gemini => (
                ".gemini",
                json!({"security": {"auth": {"selectedType": "gemini-api-key"}},
                    "privacy": {"usageStatisticsEnabled": false},
                    "telemetry": {"enabled": false},
                    "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
                    "ide": {"enabled": false}}),
            ),
            Flavour::Qwen => (
                ".qwen",
                json!({"security": {"auth": {"selectedType": "openai"}},
                    "model": {"name": "scripted"},
                    "privacy": {"usageStatisticsEnabled": false},
                    "telemetry": {"enabled": false},
                    "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                    "ide": {"enabled": false},
                    "memory": {"enableManagedAutoMemory": false}}),
            ),
        };
        std::fs::create_dir_all(at.home().join(dir)).unwrap();
        std::fs::create_dir_all(at.home().join("tmp")).unwrap();
        std::fs::write(
            at.home().join(dir).join("settings.json"),
            settings.to_string(),
        )
        .unwrap();
        Some(Rig { flavour, entry, at })
    }

    /// The environment that points the agent at the scripted model on `port` and keeps it in
    /// the throw-away home.
    fn env(&self, port: &str) -> Vec<(String, String)> {
        let home = self.at.home();
        let at = |p: &str| home.join(p).to_str().unwrap().to_string();
        let mut env = vec![
            ("HOME".to_string(), at("")),
            ("TMPDIR".into(), at("tmp")),
            ("NO_COLOR".into(), "1".into()),
        ];
        let url = format!("http://127.0.0.1:{port}");
        let more: Vec<(&str, String)> = match self.flavour {
            Flavour::Gemini => vec![
                ("GEMINI_CLI_HOME", at("")),
                (
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                    at("no-system-settings.json"),
                ),
                (
                    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
                    at("no-system-defaults.json"),
                ),
                (
                    "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
                    at(".gemini/trustedFolders.json"),
                ),
                ("GOOGLE_GEMINI_BASE_URL", url),
                ("GEMINI_API_KEY", "e2e-not-a-key".into()),
                ("GEMINI_TELEMETRY_ENABLED", "false".into()),
                ("GEMINI_CLI_TRUST_WORKSPACE", "true".into()),
            ],
            Flavour::Qwen => vec![
                ("XDG_CONFIG_HOME", at(".config")),
                ("XDG_CACHE_HOME", at(".cache")),
                ("XDG_DATA_HOME", at(".local/share")),
                ("XDG_STATE_HOME", at(".local/state")),
                (
                    "QWEN_CODE_SYSTEM_SETTINGS_PATH",
                    at("no-system-settings.json"),
                ),
                (
                    "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
                    at("no-system-defaults.json"),
                ),
                (
                    "QWEN_CODE_TRUSTED_FOLDERS_PATH",
                    at(".qwen/trustedFolders.json"),
                ),
                ("OPENAI_BASE_URL", format!("{url}/v1")),
                ("OPENAI_API_KEY", "sk-e2e-not-a-key".into()),
                ("OPENAI_MODEL", "scripted".into()),
            ],
        };
        env.extend(more.into_iter().map(|(k, v)| (k.to_string(), v)));
        env
    }

    /// One prompt through `gatehouse acp` whose model makes the shell call `command`.
    fn turn(&self, command: &str, answer: EditorAnswer) -> Turn {
        let tool = json!({"name": "run_shell_command",
            "args": {"command": command, "description": "the task"}});
        let flavour = match self.flavour {
            Flavour::Gemini => "gemini",
            Flavour::Qwen => "qwen",
        };
        let mut model = Command::new("python3")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/acp_model.py"))
            .args([shared().to_str().unwrap(), flavour, &tool.to_string()])
            .arg(self.at.project())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut port = String::new();
        BufReader::new(model.stdout.take().unwrap())
            .read_line(&mut port)
            .unwrap();
        let config = self.at.path().join("config.toml");
        let socket = common::e2e::socket(self.at.path());
        // In the project: Gemini CLI runs its shell in its own folder, not the session's.
        let mut args: Vec<String> = vec![
            "-c".into(),
            "cd \"$0\" && exec \"$@\"".into(),
            self.at.project().to_str().unwrap().into(),
            GATEHOUSE.into(),
            "acp".into(),
            "--config".into(),
            config.to_str().unwrap().into(),
            "--socket".into(),
            socket.to_str().unwrap().into(),
            "--".into(),
            "node".into(),
            self.entry.clone(),
            "--acp".into(),
        ];
        if let Flavour::Gemini = self.flavour {
            args.extend(["-m".into(), "gemini-2.5-flash".into()]);
        }
        let env = self.env(port.trim());
        let prompt = ["do the task".to_string()];
        let turns = acp::run("sh", &args, &env, &self.at.project(), &prompt, answer, None);
        drop(model.stdin.take());
        let _ = model.wait();
        eprintln!("{command} -> {:?}", turns[0]);
        turns.into_iter().next().unwrap()
    }
}

/// A read runs with no dialog; a writer opens one and the human's allow runs it.
fn a_read_passes_and_an_allowed_writer_runs(flavour: Flavour) {
    let Some(rig) = Rig::new(flavour) else { return };
    let console = ScriptedConsole::start(rig.at.path(), HumanAnswer::Allow { note: None });
    // A read each agent asks about: Qwen Code asks before a checksum; Gemini CLI 0.61.0 asks
    // for nothing it knows reads, and asks its other shell calls with no command gatehouse
    // could prove, so its read is one it runs unasked.
    let line = match flavour {
        Flavour::Qwen => "sha256sum notes.txt",
        Flavour::Gemini => "cat notes.txt",
    };
    let read = rig.turn(line, EditorAnswer::Cancel);
    assert_eq!(console.dialogs(), 0, "{read:?}");
    assert!(read.asked.is_empty(), "{read:?}");
    assert!(read.completed_a_tool(), "the read ran: {read:?}");
    let audit = std::fs::read_to_string(rig.at.path().join("audit.jsonl")).unwrap_or_default();
    let proven = audit
        .lines()
        .any(|l| l.contains(line) && l.contains("\"decision\":\"allow\""));
    match flavour {
        // Qwen Code asks for it, and gatehouse proves it read-only.
        Flavour::Qwen => assert!(proven, "{audit}"),
        // Gemini CLI runs a read it knows without asking anyone.
        Flavour::Gemini => assert!(!audit.contains(line), "{audit}"),
    }
    let write = rig.turn("touch made.txt", EditorAnswer::Cancel);
    assert_eq!(console.dialogs(), 1, "{write:?}");
    assert!(write.asked.is_empty(), "{write:?}");
    assert!(rig.at.project().join("made.txt").exists(), "{write:?}");
}

/// The human's deny: the writer does not run, and the editor is not asked.
fn a_denied_writer_does_not_run(flavour: Flavour) {
    let Some(rig) = Rig::new(flavour) else { return };
    let deny = HumanAnswer::Deny {
        reason: String::new(),
    };
    let console = ScriptedConsole::start(rig.at.path(), deny);
    let turn = rig.turn("rm -rf build", EditorAnswer::Choose("proceed_once".into()));
    assert_eq!(console.dialogs(), 1, "{turn:?}");
    assert!(turn.asked.is_empty(), "{turn:?}");
    assert!(rig.at.built(), "rm -rf build ran: {turn:?}");
}

/// A console that takes the call and dies: the request goes to the editor, whose cancel
/// holds; nothing runs.
fn a_console_dying_mid_request_is_no_allow(flavour: Flavour) {
    use std::os::unix::fs::DirBuilderExt;
    let Some(rig) = Rig::new(flavour) else { return };
    let run = rig.at.path().join("run");
    std::fs::DirBuilder::new().mode(0o700).create(&run).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(run.join("gatehouse.sock")).unwrap();
    let console = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(&stream).read_line(&mut line).unwrap();
        line
    });
    let turn = rig.turn("rm -rf build", EditorAnswer::Cancel);
    let asked: Value = serde_json::from_str(&console.join().unwrap()).unwrap();
    assert!(
        asked["call"]["input"].to_string().contains("rm -rf build"),
        "{asked}"
    );
    assert_eq!(turn.asked.len(), 1, "the editor was asked: {turn:?}");
    assert!(rig.at.built(), "rm -rf build ran: {turn:?}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn gemini_a_read_passes_and_an_allowed_writer_runs() {
    a_read_passes_and_an_allowed_writer_runs(Flavour::Gemini);
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn gemini_a_denied_writer_does_not_run() {
    a_denied_writer_does_not_run(Flavour::Gemini);
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn gemini_a_console_dying_mid_request_is_no_allow() {
    a_console_dying_mid_request_is_no_allow(Flavour::Gemini);
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn qwen_a_read_passes_and_an_allowed_writer_runs() {
    a_read_passes_and_an_allowed_writer_runs(Flavour::Qwen);
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn qwen_a_denied_writer_does_not_run() {
    a_denied_writer_does_not_run(Flavour::Qwen);
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn qwen_a_console_dying_mid_request_is_no_allow() {
    a_console_dying_mid_request_is_no_allow(Flavour::Qwen);
}
