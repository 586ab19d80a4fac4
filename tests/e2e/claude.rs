//! End to end with the real Claude Code CLI, driven by a scripted model on loopback
//! (`../shared/realclients/claude_e2e.py`). The hook is put in place by `gatehouse install
//! claude --scope local`, exactly as a user would.
//!
//! Beside `gatehouse serve`, some scenarios use a console in the test process whose human is
//! scripted through the same `Prompter` handle the screen uses, to prove what a human's note
//! and reason do in Claude Code.
//!
//! These run only with `GATEHOUSE_E2E=1` (`.ci/e2e` installs the client, `.ci/run` sets it):
//! a plain `cargo test` never downloads anything. Without node and npm they skip, saying so.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use gatehouse::core::audit::Audit;
use gatehouse::core::barrier::{Barrier, Settings};
use gatehouse::core::event::Event;
use gatehouse::core::prompter::HumanAnswer;
use gatehouse::server;
use serde_json::{Value, json};

use common::e2e::{self, AgentHome, GATEHOUSE, Serve, client};

pub(crate) fn claude() -> Option<String> {
    client("Claude Code", "install_claude.sh")
}

/// A project folder with a `build/` folder, a file outside it, a private config, and our hook
/// installed in the project's local Claude settings.
pub(crate) struct Project {
    pub(crate) at: AgentHome,
    pub(crate) claude: String,
}

impl Project {
    pub(crate) fn new(claude: String, config: &str) -> Project {
        Project::hooked(claude, config, "pre-tool-use")
    }

    /// As `new`, with the hook installed for `event` (`--event`).
    pub(crate) fn hooked(claude: String, config: &str, event: &str) -> Project {
        let at = AgentHome::new(config);
        // Outside the project: Claude Code's own flow would ask before reading it (and so
        // refuse, in -p); only gatehouse's allow lets it through.
        std::fs::write(at.path().join("outside.txt"), "hello from e2e\n").unwrap();
        std::fs::write(at.path().join("empty-settings.json"), "{}").unwrap();
        let p = Project { at, claude };
        e2e::succeed(
            p.at.gatehouse(&["install", "claude", "--scope", "local", "--event", event])
                .current_dir(p.path()),
        );
        p
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.at.project()
    }

    fn socket(&self) -> PathBuf {
        e2e::socket(self.at.path())
    }

    fn serve(&self, args: &[&str]) -> Serve {
        self.at.serve(args)
    }

    /// Runs Claude Code once, with the scripted model making `tool` call; returns the summary.
    /// The hook comes from the project's local settings; the file given is empty.
    fn run(&self, tool: Value) -> Value {
        let settings = self.at.path().join("empty-settings.json");
        let flags = [
            ("--claude", self.claude.as_ref()),
            ("--settings", settings.as_os_str()),
        ];
        self.at.drive("claude_e2e.py", &flags, &tool, &[])
    }
}

fn rm_build() -> Value {
    json!({"name": "Bash", "input": {"command": "rm -rf build", "description": "clean"}})
}

fn read_outside(project: &Project) -> Value {
    json!({"name": "Read", "input": {"file_path": project.at.path().join("outside.txt")}})
}

fn write_file(project: &Path) -> Value {
    json!({"name": "Write", "input": {"file_path": project.join("new.txt"), "content": "x"}})
}

fn result_text(summary: &Value) -> &str {
    summary["tool_result"].as_str().unwrap_or("")
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn serve_on_ask_deny_refuses_a_writer_with_our_reason_and_lets_a_read_pass() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let _serve = project.serve(&["--on-ask", "deny"]);

    let summary = project.run(read_outside(&project));
    assert!(
        result_text(&summary).contains("hello from e2e"),
        "{summary}"
    );

    let summary = project.run(write_file(&project.path()));
    assert!(
        result_text(&summary).contains("no one is watching"),
        "{summary}"
    );
    assert_eq!(summary["tool_result_is_error"], true);
    assert!(!project.path().join("new.txt").exists());

    let summary = project.run(rm_build());
    assert!(
        result_text(&summary).contains("no one is watching"),
        "{summary}"
    );
    assert!(project.path().join("build/out.o").exists());
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn serve_in_allow_all_lets_a_writer_run() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let _serve = project.serve(&["--mode", "allow-all"]);

    let summary = project.run(write_file(&project.path()));
    assert_ne!(summary["tool_result_is_error"], true, "{summary}");
    assert!(project.path().join("new.txt").exists());

    project.run(rm_build());
    assert!(!project.path().join("build").exists(), "rm -rf build ran");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn with_no_console_a_read_passes_statically_and_rm_is_left_to_claude() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");

    let summary = project.run(read_outside(&project));
    assert!(
        result_text(&summary).contains("hello from e2e"),
        "{summary}"
    );

    // Deferred to Claude Code's own flow, which does not run it in -p.
    let summary = project.run(rm_build());
    assert!(project.path().join("build/out.o").exists(), "{summary}");
    let denials = summary["permission_denials"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        denials.iter().any(|d| d["tool_name"] == "Bash"),
        "{summary}"
    );
    assert!(!result_text(&summary).contains("gatehouse"), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_configured_denied_command_is_refused_even_in_allow_all() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, r#"denied_commands = ["Write", "rm -rf"]"#);
    let _serve = project.serve(&["--mode", "allow-all"]);

    let summary = project.run(write_file(&project.path()));
    assert!(
        result_text(&summary).contains("denied command"),
        "{summary}"
    );
    assert!(!project.path().join("new.txt").exists());

    let summary = project.run(rm_build());
    assert!(
        result_text(&summary).contains("denied command"),
        "{summary}"
    );
    assert!(project.path().join("build/out.o").exists());
}

/// A console in this process on the project's socket: the real server, with a scripted human
/// who gives every dialog `answer`. Dropping it stops both.
pub(crate) struct ScriptedConsole {
    runtime: tokio::runtime::Runtime,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<()>>,
}

impl ScriptedConsole {
    pub(crate) fn start(project: &Project, answer: HumanAnswer) -> ScriptedConsole {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let audit = Audit::open(&project.at.path().join("audit.jsonl")).unwrap();
        let (barrier, mut prompter) = Barrier::new(Settings::default(), audit, None);
        let socket = project.socket();
        let bound = runtime.block_on(async { server::bind(&socket).unwrap() });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = runtime.spawn(async move {
            server::run(bound.listener, barrier, async {
                let _ = stopped.await;
            })
            .await;
            drop(bound.file);
        });
        runtime.spawn(async move {
            while let Some(event) = prompter.next_event().await {
                if let Event::Opened(dialog) = event {
                    prompter.answer(dialog.id, answer.clone());
                }
            }
        });
        ScriptedConsole {
            runtime,
            stop: Some(stop),
            served: Some(served),
        }
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

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_humans_note_on_an_allow_reaches_the_model_after_the_result() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let note = "the file is scratch; do not commit it";
    let _console = ScriptedConsole::start(
        &project,
        HumanAnswer::Allow {
            note: Some(note.into()),
        },
    );
    let summary = project.run(write_file(&project.path()));
    assert!(project.path().join("new.txt").exists(), "{summary}");
    let notes = summary["hook_notes"].to_string();
    assert!(notes.contains(note), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_humans_deny_reason_reaches_the_model_as_the_result() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let reason = "write under scratch/ instead";
    let _console = ScriptedConsole::start(
        &project,
        HumanAnswer::Deny {
            reason: reason.into(),
        },
    );
    let summary = project.run(write_file(&project.path()));
    assert!(!project.path().join("new.txt").exists(), "{summary}");
    assert!(result_text(&summary).contains(reason), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn on_permission_request_a_humans_deny_message_reaches_the_model() {
    let Some(claude) = claude() else { return };
    let project = Project::hooked(claude, "", "permission-request");
    let reason = "not in this folder";
    let _console = ScriptedConsole::start(
        &project,
        HumanAnswer::Deny {
            reason: reason.into(),
        },
    );
    let summary = project.run(write_file(&project.path()));
    assert!(!project.path().join("new.txt").exists(), "{summary}");
    assert!(result_text(&summary).contains(reason), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn on_permission_request_a_humans_allow_lets_the_call_run() {
    let Some(claude) = claude() else { return };
    let project = Project::hooked(claude, "", "permission-request");
    let _console = ScriptedConsole::start(&project, HumanAnswer::Allow { note: None });
    let summary = project.run(write_file(&project.path()));
    assert!(project.path().join("new.txt").exists(), "{summary}");
}

#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_command_the_human_edited_runs_in_place_of_the_original() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let line = "echo edited-ran | tee edited.txt";
    let _console = ScriptedConsole::start(&project, HumanAnswer::AllowEdited { line: line.into() });
    let summary = project.run(rm_build());
    // The edited line ran, and its output is the tool result the model read; the original
    // did not: build/ is still there.
    assert!(project.path().join("edited.txt").exists(), "{summary}");
    assert!(result_text(&summary).contains("edited-ran"), "{summary}");
    assert!(project.path().join("build").is_dir(), "{summary}");
    let audit = common::audit_records(&project.at.path().join("audit.jsonl"));
    let record = audit.last().unwrap();
    assert_eq!(record["edited"], line, "{record}");
    assert_eq!(record["subject"], "rm -rf build", "{record}");
}

/// The whole path a user takes: the real console in a real terminal, the real Claude Code
/// asking through the installed hook, and a human typing a deny reason that the model reads.
#[test]
#[ignore = "drives a real agent CLI: GATEHOUSE_E2E=1 cargo test --test e2e -- --include-ignored"]
fn a_deny_reason_typed_in_the_console_reaches_claudes_model() {
    use common::tmux::{Tmux, quoted};
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let line = format!(
        "env XDG_STATE_HOME={state} {exe} --config {config} --socket {socket}; echo EXITED $?; sleep 60",
        state = quoted(&project.at.path().join("state")),
        exe = quoted(Path::new(GATEHOUSE)),
        config = quoted(&project.at.path().join("config.toml")),
        socket = quoted(&project.socket()),
    );
    let Some(tui) = Tmux::start(&line, 120, 36) else {
        return;
    };
    tui.wait_for("Waiting for agents", 20);
    let reason = "gatehouse-tui: keep build, run make clean instead";
    let summary = std::thread::scope(|scope| {
        let claude_run = scope.spawn(|| project.run(rm_build()));
        tui.wait_for("$ rm -rf build", 90);
        std::thread::sleep(Duration::from_millis(400));
        tui.keys(&["n"]);
        tui.wait_for("deny: reason for the model", 5);
        tui.type_text(reason);
        tui.keys(&["Enter"]);
        claude_run.join().unwrap()
    });
    assert!(result_text(&summary).contains(reason), "{summary}");
    assert_eq!(summary["tool_result_is_error"], true);
    assert!(
        project.path().join("build/out.o").exists(),
        "rm did not run"
    );
    tui.keys(&["q"]);
    tui.wait_for("EXITED 0", 10);
}

/// Issue 22, section 3: in allow-all, Claude Code writing its own hook settings (the file
/// `gatehouse install` wrote) or a `.gatehouse.toml` is asked, and with nobody watching it is
/// refused with our reason and nothing changes.
#[test]
fn in_allow_all_writing_claudes_hook_settings_or_a_gatehouse_toml_is_asked() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let _serve = project.serve(&["--mode", "allow-all", "--on-ask", "deny"]);
    let settings = project.path().join(".claude/settings.local.json");
    let before = std::fs::read_to_string(&settings).unwrap();
    let write = json!({"name": "Write", "input": {"file_path": settings, "content": "{}"}});
    let summary = project.run(write);
    assert!(
        result_text(&summary).contains("no one is watching"),
        "{summary}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
    let line = "echo 'mode_ceiling = \"allow-all\"' > .gatehouse.toml";
    let bash = json!({"name": "Bash", "input": {"command": line, "description": "policy"}});
    let summary = project.run(bash);
    assert!(
        result_text(&summary).contains("no one is watching"),
        "{summary}"
    );
    assert!(!project.path().join(".gatehouse.toml").exists());
}

fn read_env(project: &Project) -> Value {
    let env = project.path().join(".env");
    std::fs::write(&env, "API_TOKEN=e2e-secret-value\n").unwrap();
    json!({"name": "Read", "input": {"file_path": env}})
}

/// Issue 22, section 2: Claude Code's Read of a `.env` is a credential read, asked in
/// allow-read; with nobody watching its content never reaches the model.
#[test]
fn in_allow_read_claudes_read_of_an_env_file_is_asked_and_its_secret_kept() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let _serve = project.serve(&["--on-ask", "deny"]);
    let summary = project.run(read_env(&project));
    assert!(
        result_text(&summary).contains("no one is watching"),
        "{summary}"
    );
    assert!(
        !summary.to_string().contains("e2e-secret-value"),
        "{summary}"
    );
}

/// The same read with a human at the console: the dialog opens, the human allows it, and the
/// content reaches the model.
#[test]
fn a_humans_allow_of_a_credential_read_lets_its_content_reach_the_model() {
    let Some(claude) = claude() else { return };
    let project = Project::new(claude, "");
    let _console = ScriptedConsole::start(&project, HumanAnswer::Allow { note: None });
    let summary = project.run(read_env(&project));
    assert!(
        result_text(&summary).contains("e2e-secret-value"),
        "{summary}"
    );
    let audit = common::audit_records(&project.at.path().join("audit.jsonl"));
    let read = audit
        .iter()
        .find(|r| r["tool"] == "Read")
        .expect("a Read record");
    assert_eq!(read["class"], "unverified (credential)", "{read}");
    assert_eq!(read["decider"], "human", "{read}");
}
